#!/bin/sh
# mmcmp compare, version 2 of its statistics: units of replication,
# one BH family before filters, the change block and verdicts, the power
# footer and mmcmp power, the JSON members, --alpha under mmtests, and
# --unit boot on an import of runs whose iterations carry their boot.
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
grep_file "$TMP/out" "^fault  new  *-5.00% \[.*\]  p=[0-9.<]* q[=<][0-9.]*  n=4/4  worse$" \
	"the change block gives the change, interval, p, n and verdict"
grep_file "$TMP/out" "^n = 4 iterations (20 samples) per side$" \
	"the footer gives units and samples per side"
grep_file "$TMP/out" "^BH over 3 rows, [0-9]* marked; p unadjusted, as the 95% intervals$" \
	"the footer states the family of the whole comparison"
grep_file "$TMP/out" "^n = 4 iterations per side: a change in one row is found 80% of the time from at least [0-9.]*% (median row)$" \
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
# One of the three rows is marked: its interval is Benjamini and
# Yekutieli's, at 1 - 1 x 0.05 / 3.
check "json: the compared mean cell has the change members" \
	test "$(py '[(c["verdict"], c["n_base_units"], c["n_other_units"], c["n_base"], round(c["change_pct"], 6), round(c["ci_level"], 6)) for c in d["benchmarks"][0]["operations"][0]["cells"] if c["stat"] == "Hmean" and c["label"] == "new"]')" = \
	"[('worse', 4, 4, 20, -5.0, 0.983333)]"
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
grep_file "$TMP/out" "^warning: outlier: op n5, iteration 5 of 5 (generalized ESD, 1% of 20-row tables)$" \
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
grep_file "$TMP/out" "^warning: drift: op bd: values drift over the run (Spearman rho 1\.00 with time, p=0\.0028, q=0\.0028 over the table)$" \
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
expect_status 0 "--unit iteration of labels with boots" M compare --unit iteration vm-base vm-new
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

expect_status 0 "mmcmp power with two labels" M power --unit iteration base new
grep_file "$TMP/out" "^iterations per side to find a 5% change with power 0.8 at alpha 0.05$" \
	"power states the effect, power and alpha"
grep_file "$TMP/out" "^fault  *[0-9.]*%  *8  *[0-9]*$" "power gives the spread, current n and units needed"
expect_status 0 "mmcmp power with one label and --effect" M power --effect 1 --power 0.9 base
grep_file "$TMP/out" "to find a 1% change with power 0.9" "power takes --effect and --power"
expect_status 2 "mmcmp power without a label" M power
expect_status 2 "mmcmp power of an unknown label" M power nosuch

# The power table's columns are as wide as their header or widest cell,
# whatever the length of the operation names.
printf 'label,benchmark,operation,value,unit,better,decimals,iteration\n' >"$TMP/pw.csv"
for i in 1 2 3 4 5; do
	printf 'base,p,ops-a,%s,ops/s,higher,2,%s\n' "10$i" "$i" >>"$TMP/pw.csv"
done
expect_status 0 "import operations with short names" M import "$TMP/pw.csv"
expect_status 0 "mmcmp power of short names" M power --unit iteration base --benchmark p
check "power: the header lines up with the rows" \
	test "$(awk 'NR > 4 { print length($0) }' "$TMP/out" | sort -u)" = \
	"$(awk 'NR == 4 { print length($0) }' "$TMP/out")"
grep_file "$TMP/out" "^operation  *cv  *n  *needed$" "the header names the columns"
grep_file "$TMP/out" "^ops-a      *[0-9.]*%  *5  *[0-9]*$" "a row of a short name"

# The monitor rows' family is fixed before the filters: 50 counters of
# which only nr_written changed (p = 0.02, not marked over 50 rows;
# an nr_ item that counts events, not a gauge).
printf 'label,benchmark,operation,value,unit,better,decimals,iteration\n' >"$TMP/mon.csv"
for l in A B; do
	for i in 1 2 3; do
		printf '%s,w,op,10%s,ops/s,higher,2,%s\n' "$l" "$i" "$i" >>"$TMP/mon.csv"
	done
done
mdb="$TMP/mon.db"
expect_status 0 "import runs to give monitors" "$MMCMP" --db "$mdb" import "$TMP/mon.csv"
expect_status 0 "export them" "$MMCMP" --db "$mdb" export json
python3 - "$TMP/out" "$TMP/mon.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    new = r["label"] == "B"
    for k, it in enumerate(r["iterations"]):
        vm = {"nr_written": (13 if new else 10) + k}
        for c in range(49):
            vm["noise_%02d" % c] = 5 + ((k + 1) % 3 if new else k)
        it["monitor"] = {"interval_s": 0, "vmstat": vm, "vmstat_end": None,
                         "cpu": {},
                         "meminfo_start": {}, "meminfo_end": {},
                         "other_cpu": None, "loadavg_start": None,
                         "loadavg_end": None, "cgroup": None,
                         "cgroup_start": None, "cgroup_end": None,
                         "samples": [], "perf": None}
json.dump(d, open(sys.argv[2], "w"))
EOF2
rm -f "$mdb"
expect_status 0 "import them with made-up vmstat counters" "$MMCMP" --db "$mdb" import "$TMP/mon.json"
expect_status 0 "compare --monitors" "$MMCMP" --db "$mdb" compare --monitors A B
grep_file "$TMP/out" "^BH over 50 rows, 0 marked; " "the monitor family holds every changed counter"
grep_file "$TMP/out" "^nr_written  B  .*  p=0\.0246 q=[0-9.]*  n=3/3  inconclusive$" "p = 0.02 is not marked over 50 rows"
expect_status 0 "compare --monitors --sub-heading" \
	"$MMCMP" --db "$mdb" compare --monitors --sub-heading 'nr_written|tcpstream' A B
grep_file "$TMP/out" "^BH over 50 rows, 0 marked; " "--sub-heading leaves the monitor family at 50 rows"
grep_file "$TMP/out" "^nr_written  B  .*  p=0\.0246 q=[0-9.]*  n=3/3  inconclusive$" "nor changes the counter's verdict"
check "nor its marker" sh -c "! grep -q '^Amean nr_written .*\*' '$TMP/out'"
check "and shows only the counter it matches" test "$(grep -c '^Amean ' "$TMP/out")" -eq 1
expect_status 0 "compare --monitors --benchmark w" "$MMCMP" --db "$mdb" compare --monitors --benchmark w A B
check "--benchmark keeps its monitor table, its family whole" \
	test "$(grep -c '^BH over 50 rows' "$TMP/out")" -eq 1
expect_status 2 "compare --monitors --benchmark nosuch" "$MMCMP" --db "$mdb" compare --monitors --benchmark nosuch A B

# The U test's floor, 2 / choose(2n, n): 0.1 at n = 3 (above alpha: no
# row can be marked), 0.029 at n = 4 (above alpha / 3: a row may not be
# marked alone, but three changed rows are), 0.0079 at n = 5 (none).
utest_csv() {
	awk -v n="$1" 'BEGIN {
		print "label,benchmark,operation,value,unit,better,decimals,iteration";
		for (l = 0; l < 2; l++)
			for (i = 1; i <= n; i++)
				for (o = 1; o <= 3; o++)
					printf "%s,u,op%d,%d,s,lower,2,%d\n", l ? "new" : "base", o, 100 + i + (l ? 20 : 0), i;
	}'
}
for n in 3 4 5; do
	utest_csv "$n" >"$TMP/u$n.csv"
	expect_status 0 "import $n iterations of three changed rows" \
		"$MMCMP" --db "$TMP/u$n.db" import "$TMP/u$n.csv"
	expect_status 0 "compare --test=utest at n = $n" \
		"$MMCMP" --db "$TMP/u$n.db" compare --test=utest base new
	cp "$TMP/out" "$TMP/u$n.out"
done
grep_file "$TMP/u3.out" "^warning: the U test cannot mark rows with fewer than 4 iterations per side (alpha 0.05)$" \
	"n = 3: the U test cannot mark"
grep_file "$TMP/u3.out" "^BH over 3 rows, 0 marked; " "and marks nothing"
grep_file "$TMP/u4.out" "^warning: the U test may not mark rows with fewer than 5 iterations per side: alone in the BH family of 3 rows, a row needs p <= 0.0166667$" \
	"n = 4: the U test may not mark"
grep_file "$TMP/u4.out" "^BH over 3 rows, 3 marked; " "yet marks three changed rows"
check "n = 4: it does not say cannot" sh -c "! grep -q 'cannot mark' '$TMP/u4.out'"
check "n = 5: no floor warning" sh -c "! grep -q '^warning: the U test' '$TMP/u5.out'"
grep_file "$TMP/u5.out" "^BH over 3 rows, 3 marked; " "n = 5: three rows marked"
expect_status 0 "--no-fdr at n = 4" "$MMCMP" --db "$TMP/u4.db" compare --test=utest --no-fdr base new
check "n = 4 without BH: no floor warning" sh -c "! grep -q '^warning: the U test' '$TMP/out'"

# Under the U test p, markers and verdicts are its own while the interval
# is Welch's: an outlier widens the interval over 0 on a marked row, and
# the footer says so; --fail-on follows the printed verdict.
awk 'BEGIN {
	print "label,benchmark,operation,value,unit,better,decimals,iteration";
	for (i = 1; i <= 6; i++) {
		printf "base,o,c,%.1f,s,lower,2,%d\n", 10 + i / 10, i;
		printf "new,o,c,%.1f,s,lower,2,%d\n", i == 6 ? 40 : 10.6 + i / 10, i;
	}
}' >"$TMP/uo.csv"
expect_status 0 "import an outlier" "$MMCMP" --db "$TMP/uo.db" import "$TMP/uo.csv"
expect_status 0 "compare --test=utest with an outlier" "$MMCMP" --db "$TMP/uo.db" compare --test=utest base new
grep_file "$TMP/out" "^c  new  -[0-9.]*% \[-[0-9.]*%, +[0-9.]*%\]  p=0\.0022 q=0\.0022  n=6/6  worse$" \
	"the U test marks the row whose Welch interval holds 0"
grep_file "$TMP/out" "^BH over 1 row, 1 marked; p unadjusted, the U test's, as the marks and verdicts; the 95% intervals are Welch's and may disagree$" \
	"the footer says whose p and whose intervals"
expect_status 3 "--fail-on regression follows the verdict" \
	"$MMCMP" --db "$TMP/uo.db" compare --test=utest --fail-on regression base new
expect_status 0 "compare --test=welch with the outlier" "$MMCMP" --db "$TMP/uo.db" compare base new
grep_file "$TMP/out" "^BH over 1 row, 0 marked; p unadjusted, as the 95% intervals$" \
	"under welch the footer is as before"

done_testing
