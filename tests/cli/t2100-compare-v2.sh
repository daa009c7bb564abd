#!/bin/sh
# mmcmp compare, version 2 of its statistics: units of replication,
# one BH family before filters, the change block and verdicts, the power
# footer and mmcmp power, the JSON members, --alpha under mmtests, and
# --unit boot on an import of runs whose iterations carry their boot.
set -e
. ./lib.sh

# 4 iterations x 5 samples per label; iterations differ by a few percent,
# samples inside one iteration by little. "fault" is 5% worse in new,
# "trunc" the same; a second benchmark "other" only widens the family.
awk 'BEGIN {
	split("0 3 -2 1", eff, " ");
	print "label,benchmark,operation,value,unit,better,decimals,iteration";
	for (l = 0; l < 2; l++) {
		label = l ? "new" : "base";
		for (i = 1; i <= 4; i++)
			for (j = 0; j < 5; j++) {
				x = 1000 * (1 + eff[i] / 100) + j;
				printf "%s,pf,fault,%.2f,ops/s,higher,2,%d\n", label, l ? x * 0.95 : x, i;
				printf "%s,pf,trunc,%.4f,s,lower,4,%d\n", label, 2 * (1 + eff[5 - i] / 100) + j / 1000, i;
				printf "%s,other,op,%.2f,,lower,2,%d\n", label, 50 + eff[i] + j / 10, i;
			}
	}
}' >"$TMP/v2.csv"
db="$TMP/v2.db"
M() { "$MMCMP" --db "$db" "$@"; }
expect_status 0 "import samples with iterations" M import "$TMP/v2.csv"

expect_status 0 "compare tests iterations by default" M compare base new
grep_file "$TMP/out" "^fault  new  *-5.00% \[.*\]  p=[0-9.<]*  n=4/4  worse$" \
	"the change block gives the change, interval, p, n and verdict"
grep_file "$TMP/out" "^n = 4 iterations (20 samples) per side$" \
	"the footer gives units and samples per side"
grep_file "$TMP/out" "^BH over 3 rows, [0-9]* marked; p unadjusted, as the 95% intervals$" \
	"the footer states the family of the whole comparison"
grep_file "$TMP/out" "^n = 4 iterations per side: changes under [0-9.]*% (median row) are found less than 80% of the time$" \
	"the footer summarises the power"
expect_status 0 "--unit sample" M compare --unit sample base new
grep_file "$TMP/out" "^fault  new  .*  n=20/20  worse$" "--unit sample tests every sample"
grep_file "$TMP/out" "^n = 20 samples per side$" "the footer counts samples"

expect_status 0 "--benchmark pf" M compare --benchmark pf base new
grep_file "$TMP/out" "^BH over 3 rows" "--benchmark leaves the family at 3 rows"
check "--benchmark shows only its table" sh -c "! grep -q '^other\$' '$TMP/out'"

expect_status 0 "--margin 5" M compare --margin 5 base new
grep_file "$TMP/out" "^trunc  new  .*  same$" "an unchanged row within the margin is the same"
grep_file "$TMP/out" "; margin 5%$" "the footer names the margin"
expect_status 2 "--margin -1 is refused" M compare --margin=-0.5 base new

expect_status 2 "--alpha with --test=mmtests is refused" M compare --test=mmtests --alpha 0.01 base new
grep_file "$TMP/err" "alpha has no meaning with --test=mmtests" "the refusal says why"
expect_status 0 "--test=mmtests" M compare --test=mmtests base new
grep_file "$TMP/err" "warning: the mmtests rule is a heuristic" \
	"mmtests mode warns on stderr below 5 units"
check "mmtests mode prints no change block" sh -c "! grep -q '  n=4/4  ' '$TMP/out'"

expect_status 0 "--format json" M compare --format json base new
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "$TMP/out"; }
check "json: version 2 with unit, margin and family size" \
	test "$(py '(d["version"], d["unit"], d["margin"], d["fdr_family_size"])')" = "(2, 'iteration', 0, 3)"
check "json: the compared mean cell has the change members" \
	test "$(py '[(c["verdict"], c["n_base_units"], c["n_other_units"], c["n_base"], round(c["change_pct"], 6), c["ci_level"]) for c in d["benchmarks"][0]["operations"][0]["cells"] if c["stat"] == "Hmean" and c["label"] == "new"]')" = \
	"[('worse', 4, 4, 20, -5.0, 0.95)]"
check "json: the interval holds the change, p_adjusted >= p" \
	test "$(py 'all(c["ci_low_pct"] <= c["change_pct"] <= c["ci_high_pct"] and c["p_adjusted"] >= c["p_value"] for b in d["benchmarks"] for o in b["operations"] for c in o["cells"] if "change_pct" in c and c["ci_low_pct"] is not None)')" = True

expect_status 0 "export --compare --benchmark" M export json --compare base --benchmark pf base new
check "export: --benchmark leaves the comparison's family whole" \
	test "$(py '(d["comparison"]["fdr_family_size"], [b["name"] for b in d["comparison"]["benchmarks"]])')" = "(3, ['pf'])"

# One run per label: one run, in the singular.
expect_status 0 "--unit run of one run per label" M compare --unit run base new
grep_file "$TMP/out" "^n = 1 run (20 samples) per side$" "one run is a run"

# One outlying iteration is named in the singular.
printf 'label,benchmark,operation,value,iteration\n' >"$TMP/out5.csv"
for l in b5 n5; do
	i=0
	for v in 10 10.1 9.9 10 50; do
		i=$((i + 1))
		printf '%s,o,op,%s,%s\n' "$l" "$v" "$i" >>"$TMP/out5.csv"
	done
done
expect_status 0 "import an outlier in iteration 5" M import "$TMP/out5.csv"
expect_status 0 "compare with one outlier" M compare b5 n5
grep_file "$TMP/out" "^warning: outlier: op n5, iteration 5 of 5 (|u - median| > 3.5 MAD)$" \
	"the warning names iteration 5 in the singular"

# Six iterations in rising order: the exact p of Spearman's rho 1 is 2 / 6!.
printf 'label,benchmark,operation,value,iteration\n' >"$TMP/drift.csv"
for l in bd nd; do
	for i in 1 2 3 4 5 6; do
		printf '%s,d,op,%s,%s\n' "$l" "$((10 + i))" "$i" >>"$TMP/drift.csv"
	done
done
expect_status 0 "import a drift over six iterations" M import "$TMP/drift.csv"
expect_status 0 "compare with a drift" M compare bd nd
grep_file "$TMP/out" "^warning: drift: op bd: values drift over the run (Spearman rho 1\.00 with time, p=0\.0028)$" \
	"the drift warning gives the exact p"

# Two runs per label: --unit run has one value per run.
expect_status 0 "a second run of each label" M import --append "$TMP/v2.csv"
expect_status 0 "--unit run" M compare --unit run base new
grep_file "$TMP/out" "^n = 2 runs (40 samples) per side$" "--unit run counts runs"

# Boots: the same runs as if they had run in guests, two boots per run
# with two iterations each, the second boot's values 20% higher; an
# export of version 3 carries each iteration's boot through import.
expect_status 0 "export for the boots" M export json base new
python3 - "$TMP/out" "$TMP/boots.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
for n, r in enumerate(d["runs"]):
    r["uuid"] = "00000000-0000-4000-8000-%012d" % n
    r["label"] = "vm-" + r["label"]
    seen = {}
    for it in r["iterations"]:
        k = seen[it["benchmark"]] = seen.get(it["benchmark"], 0) + 1
        it["boot"] = 1 if k <= 2 else 2
        for g in it["samples"]:
            if it["boot"] == 2:
                g["values"] = [v * 1.2 for v in g["values"]]
json.dump(d, open(sys.argv[2], "w"))
EOF2
expect_status 0 "import an export with boots" M import "$TMP/boots.json"
expect_status 0 "export it again" M export json vm-base
check "each iteration keeps its boot" \
	test "$(py '(len(d["runs"]), sorted(set((i["index"], i["boot"]) for r in d["runs"] for i in r["iterations"])))')" = \
	"(2, [(1, 1), (2, 1), (3, 2), (4, 2)])"
expect_status 0 "--unit iteration of labels with boots" M compare vm-base vm-new
grep_file "$TMP/out" "boots: fault vm-base: its boots differ more than their iterations (ANOVA p=0\.00[0-9]*); consider --unit boot: more boots, not more iterations, buy precision$" \
	"the boot note says when boots differ more than iterations"
check "and takes the place of the runs note" sh -c "! grep -q 'runs: fault vm-base' '$TMP/out'"
expect_status 0 "--unit boot" M compare --unit boot vm-base vm-new
grep_file "$TMP/out" "^n = 4 boots (40 samples) per side$" "--unit boot counts the boots of both runs"
grep_file "$TMP/out" "^fault  vm-new  .*  n=4/4  " "the change block tests one value per boot"
expect_status 0 "--unit boot --format json" M compare --unit boot --format json vm-base vm-new
check "json: unit boot" test "$(py 'd["unit"]')" = boot
expect_status 2 "--unit boot with a label of host runs" M compare --unit boot base vm-new
grep_file "$TMP/err" "label 'base' has no boots" "the error names the label"
expect_status 0 "mmcmp power --unit boot" M power --unit boot vm-base vm-new
grep_file "$TMP/out" "^boots per side to find a 5% change" "power counts boots"

expect_status 0 "mmcmp power with two labels" M power base new
grep_file "$TMP/out" "^iterations per side to find a 5% change with power 0.8 at alpha 0.05$" \
	"power states the effect, power and alpha"
grep_file "$TMP/out" "^fault  *[0-9.]*%  *8  *[0-9]*$" "power gives the spread, current n and units needed"
expect_status 0 "mmcmp power with one label and --effect" M power --effect 1 --power 0.9 base
grep_file "$TMP/out" "to find a 1% change with power 0.9" "power takes --effect and --power"
expect_status 2 "mmcmp power without a label" M power
expect_status 2 "mmcmp power of an unknown label" M power nosuch

done_testing
