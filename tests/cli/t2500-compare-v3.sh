#!/bin/sh
# mmcmp compare, version 3: the reproducers of compare v3 in
# tests/data/compare-v3, each giving the corrected output. Where a line
# checks R's t.test figures, the comparison is of plain means
# (--fieller); the default log scale has its own test, t2150.
# shellcheck disable=SC2317 # M is defined anew for each database
. ./lib.sh

D="$MMCMP_SRCDIR/tests/data/compare-v3"

# A/A data in two runs per label (run effect 2%, iteration spread 2%):
# the default unit is the run, which R's t.test on the run means gives
# p = 0.2379; iterations pooled over runs gave p=0.0058 worse.
M() { "$MMCMP" --db "$TMP/aa.db" "$@"; }
expect_status 0 "import runs-aa run 1" M import "$D/runs-aa.run1.csv"
expect_status 0 "import runs-aa run 2" M import --append "$D/runs-aa.run2.csv"
expect_status 0 "compare two runs per label" M compare --fieller A B
grep_file "$TMP/out" "^tput  B  -3\.09% \[.*\]  p=0\.2379 q[=<][0-9.]*  n=2/2  inconclusive$" \
	"runs-aa: the default tests run means, inconclusive"
grep_file "$TMP/out" "^n = 2 runs (10 samples) per side$" "runs-aa: the table names its unit"
grep_file "$TMP/out" "^unit: run, as the design decides (--unit auto: A 2 runs, B 2 runs)$" \
	"runs-aa: and why that unit"
grep_file "$TMP/out" "^between-run share of the variance 44% (one-way random effects, median of 2 sides): twice the iterations per run narrow the intervals by 5%, twice the runs by 29% or more: more runs, not more iterations$" \
	"runs-aa: the share between runs (R: 0.359 and 0.521) and the advice"
expect_status 0 "compare --unit iteration" M compare --fieller --unit iteration A B
grep_file "$TMP/out" "^tput  B  -3\.09% \[-5\.11%, -1\.02%\]  p=0\.0058 q[=<][0-9.]*  n=10/10  worse$" \
	"runs-aa: --unit iteration still pools the iterations"
grep_file "$TMP/out" "^warning: --unit iteration takes the runs of a label as alike (A 2 runs, B 2 runs): the default, --unit auto, tests runs$" \
	"runs-aa: and warns that it takes the runs as alike"
expect_status 0 "compare --format json" M compare --format json A B
check "runs-aa json: unit run, chosen by auto" \
	test "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["unit"], d["unit_auto"])' <"$TMP/out")" = "run True"

# Unequal iteration counts in runs that differ: A has 2 iterations in its
# fast run and 8 in its slow one, B the reverse; at the run level no
# change (-0.31%, p = 0.97).
M() { "$MMCMP" --db "$TMP/mix.db" "$@"; }
expect_status 0 "import mix run 1" M import "$D/mix-run1.csv"
expect_status 0 "import mix run 2" M import --append "$D/mix-run2.csv"
expect_status 0 "compare unbalanced runs" M compare --fieller A B
grep_file "$TMP/out" "^tput  B  -0\.31% \[.*\]  p=0\.97[0-9]* q=0\.97[0-9]*  n=2/2  inconclusive$" \
	"mix-run: the run level finds no change"

# One run against two: under the run unit the single run cannot be
# tested, and the reason names the option that would.
M() { "$MMCMP" --db "$TMP/one.db" "$@"; }
expect_status 0 "import one run of each" M import "$D/runs-aa.run1.csv"
expect_status 0 "relabel B's run as A's second" sh -c "sed 's/^B,/A,/' '$D/runs-aa.run2.csv' >'$TMP/a2.csv'"
expect_status 0 "import a second run of A" M import --append "$TMP/a2.csv"
expect_status 0 "compare two runs against one" M compare A B
grep_file "$TMP/out" "^1 mean row not tested, fewer than 2 runs on a side (--unit auto; --unit iteration tests iterations, taking the runs as alike): tput (B)$" \
	"a side of one run is untested, with the option that would test it"

# Constant sides: 5, 5 against 6, 6 is not certain (the exact
# permutation p is 1/3), has no interval and no power figure of 0%.
M() { "$MMCMP" --db "$TMP/const.db" "$@"; }
expect_status 0 "import constant sides" M import "$D/const.csv"
expect_status 0 "compare constant sides" M compare A B
grep_file "$TMP/out" "^lat-ms  B  -20\.00% \[n/a\]  p=0\.3333 q[=<][0-9.]*  n=2/2  inconclusive$" \
	"const: the exact permutation p, no interval"
check "const: no minimum detectable effect of 0" sh -c "! grep -q 'changes under 0\.0%' '$TMP/out'"

# Equal constant sides and two sides of zeros are the same, so that
# --fail-on inconclusive passes an unchanged benchmark.
printf 'label,benchmark,operation,value,unit,better,decimals,iteration\n' >"$TMP/eq.csv"
for l in A B; do
	for i in 1 2 3; do
		printf '%s,e,bytes,4096,B/op,lower,0,%s\n' "$l" "$i" >>"$TMP/eq.csv"
		printf '%s,e,allocs,0,allocs/op,lower,0,%s\n' "$l" "$i" >>"$TMP/eq.csv"
	done
done
M() { "$MMCMP" --db "$TMP/eq.db" "$@"; }
expect_status 0 "import equal constant sides" M import "$TMP/eq.csv"
expect_status 0 "compare equal constant sides" M compare A B
grep_file "$TMP/out" "^bytes   B  +0\.00% \[+0\.00%, +0\.00%\]  p=1\.0000 q[=<][0-9.]*  n=3/3  same$" \
	"equal constant sides are the same"
grep_file "$TMP/out" "^allocs  B  +0\.00% \[+0\.00%, +0\.00%\]  p=1\.0000 q[=<][0-9.]*  n=3/3  same$" \
	"two sides of zeros are the same"
expect_status 0 "--fail-on inconclusive passes them" M compare --fail-on inconclusive A B

# A base mean of 0 and an unbounded Fieller set: the ratio is undefined,
# so no verdict against a margin and --fail-on regression passes.
M() { "$MMCMP" --db "$TMP/zero.db" "$@"; }
expect_status 0 "import zero-base" M import "$D/zero-base.csv"
expect_status 0 "compare --margin 50" M compare --margin 50 A B
grep_file "$TMP/out" "^delay-zero-base  B        n/a \[n/a\]  p=0\.0002 q[=<][0-9.]*  n=3/3  inconclusive$" \
	"zero-base: a base mean of 0 is no margin verdict"
grep_file "$TMP/out" "^delay-near-zero  B  -7937\.04% \[n/a\]  p<0\.0001 q[=<][0-9.]*  n=4/4  inconclusive$" \
	"zero-base: nor is an unbounded interval"
grep_file "$TMP/out" "^2 marked mean rows with an undefined ratio (a base mean of 0 or an unbounded interval): no verdict against the margin: delay-zero-base (B), delay-near-zero (B)$" \
	"zero-base: the footer says why"
expect_status 0 "--margin 50 --fail-on regression passes" M compare --margin 50 --fail-on regression A B
expect_status 0 "compare at margin 0" M compare A B
grep_file "$TMP/out" "^delay-zero-base  B        n/a \[n/a\]  p=0\.0002 q[=<][0-9.]*  n=3/3  worse$" \
	"zero-base: at margin 0 the verdict gives the direction"

# An A/A table of 20 rows at n = 5: op01's unadjusted interval excludes 0
# (p = 0.0356) while BH over 20 rows leaves it unmarked (R's p.adjust:
# 0.4269): the line gives q beside p and calls the interval unadjusted.
M() { "$MMCMP" --db "$TMP/ci.db" "$@"; }
expect_status 0 "import ci-verdict" M import "$D/ci-verdict.csv"
expect_status 0 "compare the 20-row table" M compare --fieller A1 B1
cp "$TMP/out" "$TMP/ci.out"
grep_file "$TMP/out" "^op01  B1  -3\.25% \[-6\.11%, -0\.29%\] unadjusted  p=0\.0356 q=0\.4269  n=5/5  inconclusive$" \
	"ci-verdict: q beside p, the interval called unadjusted"
grep_file "$TMP/out" "^op02  B1  +1\.02% \[-2\.61%, +4\.71%\]  *p=0\.5165 q=0\.7837  n=5/5  inconclusive$" \
	"ci-verdict: an interval holding 0 needs no word"
expect_status 0 "compare --no-fdr" M compare --fieller --no-fdr A1 B1
grep_file "$TMP/out" "^op01  B1  -3\.25% \[-6\.11%, -0\.29%\]  p=0\.0356  n=5/5  worse$" \
	"ci-verdict: without BH no q, and the mark is p's"

# Units of 12 and 2 samples: the Hmean row weights every sample, the
# change each iteration alike, so they disagree and the footer says why.
M() { "$MMCMP" --db "$TMP/hm.db" "$@"; }
expect_status 0 "import hmean-unbalanced" M import "$D/hmean-unbalanced.csv"
expect_status 0 "compare unbalanced iterations" M compare --fieller A B
grep_file "$TMP/out" "^Hmean     tput  *96\.55 (   0\.00%)  *83\.41 ( -13\.61%)$" \
	"hmean-unbalanced: the Hmean row over every sample"
grep_file "$TMP/out" "^tput  B  +1\.17% " "hmean-unbalanced: the change of the iteration means"
grep_file "$TMP/out" "^the change is of the iteration means, each iteration weighted equally, and the mean rows weight every sample: they can differ, as iterations hold different numbers of samples: tput$" \
	"hmean-unbalanced: the footer says why they differ"
check "a balanced table has no such line" sh -c "! grep -q '^the change is of' '$TMP/ci.out'"

# CoeffVar is the spread in percent of |mean|: positive for a negative mean.
printf 'label,benchmark,operation,value,unit,better,decimals,iteration\n' >"$TMP/neg.csv"
for l in A B; do
	for v in -10 -11 -12; do
		printf '%s,n,offset,%s,us,lower,2,\n' "$l" "$v" >>"$TMP/neg.csv"
	done
done
M() { "$MMCMP" --db "$TMP/neg.db" "$@"; }
expect_status 0 "import a negative mean" M import "$TMP/neg.csv"
expect_status 0 "compare a negative mean" M compare A B
grep_file "$TMP/out" "^CoeffVar  offset  *9\.09 (   0\.00%)  *9\.09 (   0\.00%)$" \
	"CoeffVar of -10, -11, -12 is +9.09%"

done_testing
