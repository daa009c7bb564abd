#!/bin/sh
# mmcmp compare --fail-on: the gate's exit codes on made-up comparisons
# (worse, better, the same within --margin, inconclusive, untested), and
# the junit and github formats.
. ./lib.sh

# gen FILE OP:FACTOR:NOISE:ITERS ...: samples of base and new, 4 per
# iteration; new is FACTOR times base (lower is better), NOISE the
# relative spread of the iterations; ITERS of new 0 leaves the operation
# out of new.
gen() {
	out=$1
	shift
	echo "label,benchmark,operation,value,unit,better,decimals,iteration" >"$out"
	for spec in "$@"; do
		echo "$spec" | awk -F: '{
			split("0 1 -1 0.5 -0.5 0.8", eff, " ");
			for (l = 0; l < 2; l++) {
				label = l ? "new" : "base";
				iters = l ? $4 : ($4 ? $4 : 5);
				for (i = 1; i <= iters; i++)
					for (j = 0; j < 4; j++) {
						e = (l ? -1 : 1) * eff[i] * $3;
						x = 10 * (1 + e) + j / 100;
						printf "%s,gate,%s,%.4f,s,lower,4,%d\n", label, $1, l ? x * $2 : x, i;
					}
			}
		}' >>"$out"
	done
}

# db NAME SPEC...: a database NAME.db of the samples.
db() {
	name=$1
	shift
	gen "$TMP/$name.csv" "$@"
	"$MMCMP" --db "$TMP/$name.db" import "$TMP/$name.csv" >/dev/null
}
C() {
	d=$1
	shift
	"$MMCMP" --db "$TMP/$d.db" compare "$@"
}

db regress "slow:1.2:0.005:5"
db improve "fast:0.8:0.005:5"
db tiny "flat:1.002:0.005:5"
db noise "wild:1.05:0.3:2"
db gone "flat:1.0:0.005:5" "gone:1:0.005:0"
db few "one:1.2:0.005:1"
db mixed "slow:1.2:0.005:5" "fast:0.8:0.005:5" "wild:1.05:0.3:2" \
	"gone:1:0.005:0" "a<b&c%d:1.0:0.005:5"

expect_status 0 "a regression without --fail-on exits 0" C regress base new
expect_status 3 "a regression fails --fail-on regression" C regress --fail-on regression base new
grep_file "$TMP/out" "^slow  new  *+*-20.00% .*worse$" "the row is worse"
grep_file "$TMP/err" "fail-on regression: 1 of 1 rows worse" "stderr says which rows"
expect_status 3 "a regression fails --fail-on change" C regress --fail-on change base new

expect_status 0 "an improvement passes --fail-on regression" C improve --fail-on regression base new
grep_file "$TMP/out" "^fast  new  *+20.00% .*better$" "the row is better"
expect_status 3 "an improvement fails --fail-on change" C improve --fail-on change base new
expect_status 0 "an improvement passes --fail-on inconclusive" C improve --fail-on inconclusive base new

expect_status 0 "a tiny change within --margin 5 passes" C tiny --margin 5 --fail-on change base new
grep_file "$TMP/out" "^flat  new  .*same$" "the row is the same"
expect_status 0 "the same row passes --fail-on inconclusive" C tiny --margin 5 --fail-on inconclusive base new

expect_status 0 "noise passes --fail-on regression" C noise --fail-on regression base new
grep_file "$TMP/out" "^wild  new  .*n=2/2  inconclusive$" "noise with 2 iterations is inconclusive"
expect_status 4 "noise fails --fail-on inconclusive with 4" C noise --fail-on inconclusive base new
grep_file "$TMP/err" "1 of 1 rows inconclusive or untested" "stderr counts the unsure rows"

expect_status 3 "a missing operation fails --fail-on regression" C gone --margin 5 --fail-on regression base new
grep_file "$TMP/out" "^gone  new  .*untested$" "the operation new lacks is untested"
grep_file "$TMP/err" "fail-on regression: 1 of 2 rows missing: operations of the base with no samples in the other label" \
	"stderr says the row is missing"
expect_status 3 "a missing operation fails --fail-on inconclusive with 3" C gone --margin 5 --fail-on inconclusive base new

expect_status 4 "nothing tested is never a silent 0" C few --fail-on regression base new
grep_file "$TMP/err" "none of the 1 rows could be tested" "stderr says the comparison was not made"
expect_status 0 "without --fail-on the untested comparison exits 0" C few base new

expect_status 3 "worse wins over inconclusive" C mixed --fail-on inconclusive base new
expect_status 2 "an unknown --fail-on is refused" C mixed --fail-on sometimes base new
expect_status 2 "bad usage keeps 2 with --fail-on" C mixed --fail-on regression base
expect_status 0 "compare --help" "$MMCMP" compare --help
grep_file "$TMP/out" "fail-on" "--help names --fail-on"
grep_file "$TMP/out" "junit" "--help lists the junit format"
grep_file "$TMP/out" "3 wins over 4" "--help says which exit code wins"

# junit: parsed, counted, escaped.
junit() {
	python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
cases = root.findall("testsuite/testcase")
fails = [c for c in cases if c.find("failure") is not None]
skips = [c for c in cases if c.find("skipped") is not None]
s = root.find("testsuite")
assert int(root.get("tests")) == len(cases) == int(s.get("tests"))
assert int(root.get("failures")) == len(fails) == int(s.get("failures"))
assert int(root.get("skipped")) == len(skips)
assert all(c.get("classname") == "gate" for c in cases)
print(len(cases), len(fails), len(skips),
      sorted(c.get("name") for c in fails),
      sorted(c.find("failure").get("type") for c in fails))
' "$TMP/out"
}
expect_status 0 "--format junit exits 0 without --fail-on" C mixed --format junit base new
check "junit: 5 testcases, the worse and the missing one fail" \
	test "$(junit)" = "5 2 0 ['gone (new)', 'slow (new)'] ['untested', 'worse']"
grep_file "$TMP/out" '<failure message="worse: -20.00% \[' "the failure carries the change and its interval"
grep_file "$TMP/out" 'p&lt;0.0001 q&lt;0.0001, n=5/5' "the failure carries p and q, escaped"
check "junit: the name with markup is escaped" \
	python3 -c 'import sys, xml.etree.ElementTree as ET; sys.exit(0 if "a<b&c%d (new)" in [c.get("name") for c in ET.parse(sys.argv[1]).iter("testcase")] else 1)' "$TMP/out"
expect_status 3 "--format junit --fail-on inconclusive" C mixed --margin 5 --format junit --fail-on inconclusive base new
check "junit: worse, inconclusive and untested rows fail" \
	test "$(junit)" = "5 3 0 ['gone (new)', 'slow (new)', 'wild (new)'] ['inconclusive', 'untested', 'worse']"
expect_status 3 "--format junit --fail-on change" C mixed --format junit --fail-on change base new
check "junit: --fail-on change fails the better row too" \
	test "$(junit)" = "5 3 0 ['fast (new)', 'gone (new)', 'slow (new)'] ['better', 'untested', 'worse']"

# junit: valid under the common schema (tests/data/junit.xsd), with
# failures, without, and with labels that need escaping.
xsd="$MMCMP_SRCDIR/tests/data/junit.xsd"
valid() {
	if command -v xmllint >/dev/null 2>&1; then
		check "$1: valid JUnit XML" xmllint --noout --schema "$xsd" "$TMP/out"
	else
		ok "$1: xmllint is not installed (Debian libxml2-utils) # SKIP"
	fi
}
expect_status 3 "junit with failures" C mixed --margin 5 --format junit --fail-on inconclusive base new
valid "junit with failures"
expect_status 0 "junit with failures and skipped rows, no --fail-on" C mixed --format junit base new
valid "junit with a failure and a skipped row"
expect_status 0 "junit without failures" C improve --format junit base new
check "no failure, no skipped row" sh -c "! grep -q '<failure\\|<skipped' '$TMP/out'"
valid "junit without failures"
hostile="n<e>w&\"q\"'"
gen "$TMP/hostile.csv" "slow:1.2:0.005:5" "a<b&c%d:1.0:0.005:5"
sed "s/^new,/\"n<e>w\\&\"\"q\"\"'\",/" "$TMP/hostile.csv" >"$TMP/hostile2.csv"
"$MMCMP" --db "$TMP/hostile.db" import "$TMP/hostile2.csv" >/dev/null
expect_status 0 "junit of a label with markup" C hostile --format junit base "$hostile"
valid "junit with escaped labels"
grep_file "$TMP/out" 'name="slow (n&lt;e&gt;w&amp;&quot;q&quot;&#39;)"' "the label is escaped"
if command -v xmllint >/dev/null 2>&1; then
	sed 's/ time="0"/ time="-1"/' "$TMP/out" >"$TMP/bad.xml"
	check "the schema refuses a negative time" \
		sh -c "! xmllint --noout --schema '$xsd' '$TMP/bad.xml' 2>/dev/null"
fi

# github: workflow commands, then the summary.
expect_status 0 "--format github" C mixed --format github base new
check "github: two ::error lines (worse, missing), no warnings" \
	test "$(grep -c '^::' "$TMP/out") $(grep -c '^::error ' "$TMP/out")" = "2 2"
grep_file "$TMP/out" '^::error title=mmcmp compare%3A gate::gate: slow (new) worse: -20.00%25 \[' \
	"github: the error names the row, with % escaped"
grep_file "$TMP/out" '^| gate | slow | new | -20.00% | ' "github: the summary's table has the row"
expect_status 3 "--format github --fail-on inconclusive" C mixed --margin 5 --format github --fail-on inconclusive base new
check "github: one ::warning line, two ::error" \
	test "$(grep -c '^::warning ' "$TMP/out") $(grep -c '^::error ' "$TMP/out")" = "1 2"
grep_file "$TMP/out" '^::error title=[^:]*::gate: gone (new) untested: operation missing, n=5/0$' "github: the missing row fails with its reason"
grep_file "$TMP/out" '^### mmcmp compare: --fail-on inconclusive$' "github: the summary heading"
check "github: no raw newline or percent in a command" \
	sh -c "! grep '^::' '$TMP/out' | sed 's/%25//g; s/%3A//g; s/%2C//g; s/%0A//g; s/%0D//g' | grep -q '%'"
expect_status 4 "--format github on nothing tested" C few --format github --fail-on regression base new
grep_file "$TMP/out" "None of the 1 rows could be tested" "github: the summary says so"
expect_status 4 "--format github --fail-on inconclusive on nothing tested" C few --format github --fail-on inconclusive base new
grep_file "$TMP/out" '^::warning title=[^:]*::gate: one (new) untested: fewer than 2 iterations on a side, n=1/1$' \
	"github: the untested row says why"

# Without --fail-on, github does not claim one and the status stays 0.
expect_status 0 "--format github without --fail-on" C mixed --format github base new
check "github: no --fail-on heading without --fail-on" \
	sh -c "! grep -q '^### mmcmp compare: --fail-on' '$TMP/out'"
grep_file "$TMP/out" '^### mmcmp compare: the rows --fail-on regression would fail$' \
	"github: the heading names the rule it applied"
grep_file "$TMP/out" '^No --fail-on was given: the exit status is 0' "github: and the exit status"
expect_status 3 "--format github --fail-on regression" C mixed --format github --fail-on regression base new
grep_file "$TMP/out" '^### mmcmp compare: --fail-on regression$' "github: the given --fail-on heads the summary"

# junit: the reasons of untested rows.
expect_status 0 "junit of a missing operation" C gone --format junit base new
grep_file "$TMP/out" '<failure message="untested: operation missing, n=5/0" type="untested">' \
	"junit: the missing row fails and says the operation is missing"
expect_status 4 "junit of too few iterations" C few --format junit --fail-on inconclusive base new
grep_file "$TMP/out" 'message="untested: fewer than 2 iterations on a side, n=1/1"' \
	"junit: the failed untested row says why"

# json and csv: the reason too, and the footer's line.
expect_status 0 "json of a missing operation" C gone --format json base new
check "json: the untested cell has its reason, the table the footer's line" \
	test "$(python3 -c 'import json,sys; b=json.load(sys.stdin)["benchmarks"][0]; print([c["untested_reason"] for o in b["operations"] for c in o["cells"] if "untested_reason" in c], b["untested"])' <"$TMP/out")" = \
	"[None, 'operation missing'] ['1 mean row not tested, operation missing: gone (new)']"
expect_status 0 "csv of a missing operation" C gone --format csv base new
grep_file "$TMP/out" '^gate,untested,,,,,,,,,,,,,,,,,"1 mean row not tested, operation missing: gone (new)"$' \
	"csv: an untested record"

# mmtests' marks are no verdicts: the gate and its formats are refused.
for f in "--fail-on regression" "--fail-on inconclusive" "--format junit" "--format github"; do
	# shellcheck disable=SC2086 # $f is two words
	expect_status 2 "--test=mmtests refuses $f" C regress --test=mmtests $f base new
	grep_file "$TMP/err" "needs verdicts, which --test=mmtests does not give" \
		"--test=mmtests $f: stderr says why"
done
expect_status 0 "--test=mmtests without the gate still compares" C regress --test=mmtests base new
grep_file "$TMP/out" "slow" "the mmtests table is printed"
expect_status 0 "compare --help" "$MMCMP" compare --help
grep_file "$TMP/out" "refuses --fail-on and the junit and github" "--help says --test=mmtests refuses the gate"

# N13: a benchmark and an operation of the base that the new label lacks
# (it crashed, or stopped printing its numbers) fail every --fail-on,
# while a benchmark only the new label has does not count.
{
	echo label,benchmark,operation,value,iteration
	csv_rows base b a 1 1.01 0.99
	csv_rows base b gone 5 5 5
	csv_rows base lost x 7 7
	csv_rows new b a 1 1.01 0.99
	csv_rows new other y 3 3
} | csv_db vanish
for f in regression change inconclusive; do
	expect_status 3 "vanished rows fail --fail-on $f" C vanish --fail-on "$f" base new
	grep_file "$TMP/err" "fail-on $f: 2 of 3 rows missing: operations of the base with no samples in the other label" \
		"--fail-on $f: stderr counts the missing rows"
done
expect_status 3 "github: vanished rows fail" C vanish --format github --fail-on regression base new
check "github: one ::error per vanished row" test "$(grep -c '^::error ' "$TMP/out")" = 2
expect_status 0 "vanished rows without --fail-on exit 0" C vanish base new

done_testing
