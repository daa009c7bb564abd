#!/bin/sh
# compare v3's statistics on the reproducers of tests/data/stats-v3/: the
# MDE is Welch's at the level of a lone change (R's figures in
# tests/data/stats-v3-reference.tsv), A/A data warn of no outliers, and a
# throughput's interval stays inside (-100%, inf) on the log scale.
. ./lib.sh

data="$MMCMP_SRCDIR/tests/data/stats-v3"
ref="$MMCMP_SRCDIR/tests/data/stats-v3-reference.tsv"
M() { "$MMCMP" --db "$TMP/v3.db" "$@"; }

# mde-n2.csv: 2 iterations a side. Version 2 printed power.t.test's 11.8%,
# which Welch's test finds 48% of the time.
expect_status 0 "import mde-n2.csv" M import "$data/mde-n2.csv"
expect_status 0 "compare it as JSON" M compare --format json A B
check "each row's MDE is R's Welch MDE at alpha / 2, to 1e-6" \
	python3 - "$TMP/out" "$ref" <<'EOF2'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
want = [float(f[5]) for f in rows
        if f[0] == "mde_pct" and f[1] == "1" and float(f[2]) == 0.025]
got = []
def walk(x):
    if isinstance(x, dict):
        if x.get("mde_pct") is not None:
            got.append(x["mde_pct"])
        for v in x.values():
            walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(doc)
assert len(want) == 2 and len(got) == 2, (want, got)
for g, w in zip(sorted(got), sorted(want)):
    assert abs(g - w) <= 1e-6 * abs(w), (g, w)
EOF2
expect_status 0 "compare it as text" M compare A B
grep_file "$TMP/out" "^n = 2 iterations per side: a change in one row is found 80% of the time from at least 48% (median row); with so few units only changes of about twice that are found reliably$" \
	"the footer gives Welch's MDE as a floor, and says n = 2 is a guess"

# aa-n5.csv: one A/A table of 20 rows at 5 iterations; version 2 named 11
# outliers.
expect_status 0 "import aa-n5.csv" M import "$data/aa-n5.csv"
expect_status 0 "compare the A/A table" M compare A1 B1
check "no outlier warning on A/A data" sh -c "! grep -q 'outlier:' '$TMP/out'"

# Throughputs 10 and 40 against 50 and 200: Fieller's interval is
# unbounded, the log scale's stays inside (-100%, inf).
printf 'label,benchmark,operation,value,unit,better,iteration\n' >"$TMP/wide.csv"
printf 'W1,w,tput,%s,ops/s,higher,%s\n' 10 1 40 2 >>"$TMP/wide.csv"
printf 'W2,w,tput,%s,ops/s,higher,%s\n' 50 1 200 2 >>"$TMP/wide.csv"
expect_status 0 "import wide throughputs" M import "$TMP/wide.csv"
expect_status 0 "compare them" M compare W1 W2
grep_file "$TMP/out" "^tput  W2  +[0-9.]*% \[-[0-9][0-9]\.[0-9][0-9]%, +[0-9.]*%\]  p=" \
	"the interval's low end lies between -100% and 0"
expect_status 0 "compare them --fieller" M compare --fieller W1 W2
grep_file "$TMP/out" "^tput  W2  .*\[n/a\]\|^tput  W2  .*\[-[1-9][0-9][0-9][0-9.]*%" \
	"Fieller's interval on the plain means does not"

# export benchstat writes one line per unit value: aa-n5.csv's 10 samples
# per iteration become one line per iteration and operation, so the
# round trip through import --from gobench keeps every verdict, p and
# change (it used to write a line per sample, which came back as
# iterations, and the samples' pseudo-replication flipped verdicts).
expect_status 0 "import aa-n5.csv for the round trip" \
	"$MMCMP" --db "$TMP/bs.db" import "$data/aa-n5.csv"
expect_status 0 "export benchstat of it" \
	"$MMCMP" --db "$TMP/bs.db" export benchstat -o "$TMP/bs.txt" A1 B1
check "one line per iteration and operation (2 x 5 x 20)" \
	test "$(grep -c '^Benchmarkop[0-9]* 1 ' "$TMP/bs.txt")" = 200
expect_status 0 "import it back" "$MMCMP" --db "$TMP/bs2.db" import \
	--from gobench --label-by label "$TMP/bs.txt"
"$MMCMP" --db "$TMP/bs.db" compare --format json A1 B1 >"$TMP/bs1.json"
"$MMCMP" --db "$TMP/bs2.db" compare --format json A1 B1 >"$TMP/bs2.json"
check "the round trip keeps every row's verdict, p and change" \
	python3 - "$TMP/bs1.json" "$TMP/bs2.json" <<'EOF2'
import json, sys
def rows(path):
    out = []
    def walk(x):
        if isinstance(x, dict):
            if "verdict" in x:
                out.append((x["verdict"], x["p_value"], x["change_pct"]))
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(json.load(open(path)))
    return out
a, b = rows(sys.argv[1]), rows(sys.argv[2])
sys.exit(not (len(a) == 20 and len(a) == len(b) and all(
    x[0] == y[0] and abs(x[1] - y[1]) <= 1e-9 and abs(x[2] - y[2]) <= 1e-9
    for x, y in zip(a, b))))
EOF2

# Each tested row's JSON says the scale of its test: log by default on
# positive values, plain under --fieller; null when untested.
scales() {
	python3 -c '
import json, sys
out = []
def walk(x):
    if isinstance(x, dict):
        if "verdict" in x:
            out.append(str(x["scale"]))
        for v in x.values():
            walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(json.load(open(sys.argv[1])))
print(" ".join(sorted(set(out))))' "$1"
}
expect_status 0 "compare mde-n2.csv as JSON" M compare --format json A B
check "its rows are tested on the log scale" test "$(scales "$TMP/out")" = log
expect_status 0 "and with --fieller" M compare --fieller --format json A B
check "on the plain scale" test "$(scales "$TMP/out")" = plain
printf '%s\n' label,benchmark,operation,value,unit,better,decimals,iteration \
	U1,p,tput,100,ops/s,higher,0,1 U2,p,tput,100,ops/s,higher,0,1 \
	U2,p,tput,101,ops/s,higher,0,2 >"$TMP/one.csv"
expect_status 0 "import a side of one iteration" M import "$TMP/one.csv"
expect_status 0 "compare it as JSON" M compare --format json U1 U2
check "an untested row has a null scale" test "$(scales "$TMP/out")" = None


# aa-n5.csv under --unit sample: the samples of an iteration are alike
# (intraclass correlation 0.80, the median side), which the samples as
# units hide; the table says so once, and the default unit does not.
expect_status 0 "compare the A/A table --unit sample" M compare --unit sample A1 B1
grep_file "$TMP/out" "^warning: samples: in 40 of 40 sides the samples of one iteration are alike (ANOVA p < 0.01; intraclass correlation 0.80, median side)" \
	"--unit sample warns once that the samples are not independent"
expect_status 0 "compare it by iterations" M compare A1 B1
check "the iterations as units do not" sh -c "! grep -q '^warning: samples:' '$TMP/out'"


# --test=mmtests: the rate its rule marks unchanged rows at is worked out
# for the samples it pools (2 against 2: 7.3%, R's integral), not quoted
# for n = 2 whatever the data.
printf '%s\n' label,benchmark,operation,value,unit,better,iteration \
	P1,m,tput,100,ops/s,higher,1 P1,m,tput,103,ops/s,higher,2 \
	P2,m,tput,101,ops/s,higher,1 P2,m,tput,99,ops/s,higher,2 >"$TMP/mm.csv"
expect_status 0 "import two iterations of one sample" M import "$TMP/mm.csv"
expect_status 0 "compare them --test=mmtests" M compare --test=mmtests P1 P2
grep_file "$TMP/err" "its marks are not tests (of independent normal samples, 2 against 2 as pooled here, it marks 7.3% of rows that did not change" \
	"the mmtests warning gives its rule's rate for 2 samples a side"
expect_status 0 "compare the 10 samples an iteration of aa-n5.csv --test=mmtests" \
	M compare --test=mmtests A1 B1
check "5 iterations a side get no warning" sh -c "! grep -q 'heuristic' '$TMP/err'"
printf '%s\n' label,benchmark,operation,value,unit,better,iteration \
	Q1,m,tput,100,ops/s,higher,1 Q1,m,tput,103,ops/s,higher,1 \
	Q1,m,tput,100,ops/s,higher,2 Q1,m,tput,102,ops/s,higher,2 \
	Q1,m,tput,101,ops/s,higher,2 Q2,m,tput,101,ops/s,higher,1 \
	Q2,m,tput,99,ops/s,higher,1 Q2,m,tput,98,ops/s,higher,2 \
	Q2,m,tput,99,ops/s,higher,2 Q2,m,tput,100,ops/s,higher,2 >"$TMP/mm5.csv"
expect_status 0 "import two iterations of 2 and 3 samples" M import "$TMP/mm5.csv"
expect_status 0 "compare them --test=mmtests" M compare --test=mmtests Q1 Q2
grep_file "$TMP/err" "5 against 5 as pooled here, it marks 0.033% of rows" \
	"with 5 samples pooled a side the rate is R's for 5 against 5"

done_testing
