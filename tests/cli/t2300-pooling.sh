#!/bin/sh
# mmcmp compare's pooling rules: complete runs and the iterations that
# succeeded by default, a note for what is left out, --include-incomplete;
# operations only in a non-base label named in the footer.
. ./lib.sh

M() { "$MMCMP" "$@"; }
# Odd calls print 1000, even ones 10: the odd iterations are marked failed
# below, so only 10 remains when failed iterations are left out.
cat >"$TMP/alt.sh" <<'EOF2'
#!/bin/sh
n=$(cat "$1" 2>/dev/null || echo 0)
echo $((n + 1)) >"$1"
if [ $((n % 2)) -eq 1 ]; then echo "total:1000"; else echo "total:10"; fi
EOF2
chmod +x "$TMP/alt.sh"
conf() {
	cat >"$TMP/$1.yaml" <<EOF2
name: $1
iterations: 4
workloads:
  - name: g
    command: [$2]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
}
conf alt "\"$TMP/alt.sh\", \"$TMP/count\""
conf ten "\"$FAKE_BENCH\", \"--values\", \"10\""
conf bad "\"$FAKE_BENCH\", \"--exit\", \"3\""

expect_status 0 "run base" M run -q "$TMP/ten.yaml" --label base
expect_status 0 "run patched" M run -q "$TMP/alt.yaml" --label patched
sqlite3 "$MMCMP_DB" "UPDATE iteration SET status = 'exit', exit_code = 1
	WHERE id IN (SELECT iteration_id FROM sample WHERE value = 1000)"
check "two iterations of patched are marked failed" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration WHERE status = 'exit'")" = 2

expect_status 0 "compare leaves failed iterations out" M compare base patched
grep_file "$TMP/out" "^Max  *total  *10\.00 (   0\.00%)  *10\.00 (   0\.00%)$" \
	"the failed iterations contribute no sample"
grep_file "$TMP/out" "^2 failed iterations of 'patched' left out$" \
	"the footer says what was left out"
expect_status 0 "--include-incomplete" M compare --include-incomplete base patched
grep_file "$TMP/out" "^Max  *total  *10\.00 (   0\.00%)  *1000\.00 " \
	"--include-incomplete brings the failed iterations back"
grep_file "$TMP/out" "^2 failed iterations of 'patched' included (--include-incomplete)$" \
	"and says so"

# An interrupted run of base is left out, and comes back on request.
expect_status 0 "a second run of base" M run -q "$TMP/alt.yaml" --label base --append
id=$(sqlite3 "$MMCMP_DB" "SELECT max(id) FROM run")
sqlite3 "$MMCMP_DB" "UPDATE run SET status = 'interrupted' WHERE id = $id"
expect_status 0 "compare with an interrupted run" M compare base patched
grep_file "$TMP/out" "^run $id of 'base' left out: interrupted after 4 of 4 iterations$" \
	"the footer names the interrupted run"
grep_file "$TMP/out" "^n = base 4 iterations (4 samples), patched 2 iterations (2 samples)$" \
	"the interrupted run's iterations are not pooled"
expect_status 0 "json with an interrupted run" M compare --format json base patched
check "json: the benchmark's notes name the interrupted run" \
	python3 -c 'import json,sys; n=json.load(sys.stdin)["benchmarks"][0]["notes"]; sys.exit(0 if "run '"$id"' of '"'base'"' left out: interrupted after 4 of 4 iterations" in n else 1)' <"$TMP/out"
expect_status 0 "csv with an interrupted run" M compare --format csv base patched
grep_file "$TMP/out" "^[^,]*,note,,,,,,,,,,,,,,,,,run $id of 'base' left out: interrupted after 4 of 4 iterations$" \
	"csv: a note record names the interrupted run"
expect_status 0 "csv --test=mmtests with an interrupted run" M compare --format csv --test=mmtests base patched
grep_file "$TMP/out" "^[^,]*,note,run $id of 'base' left out: interrupted after 4 of 4 iterations,,,,,,,$" \
	"csv --test=mmtests: the note record has mmtests' columns"
expect_status 0 "--include-incomplete with an interrupted run" \
	M compare --unit iteration --include-incomplete base patched
grep_file "$TMP/out" "^run $id of 'base' included (--include-incomplete): interrupted after 4 of 4 iterations$" \
	"the note marks the run included"
grep_file "$TMP/out" "^n = base 8 iterations (8 samples), patched 4 iterations (4 samples)$" \
	"its iterations are pooled again"

# A label of incomplete runs only is an error that names the way out.
sqlite3 "$MMCMP_DB" "UPDATE run SET status = 'interrupted' WHERE label = 'patched'"
expect_status 1 "a label with only incomplete runs" M compare base patched
grep_file "$TMP/err" "label 'patched' has no complete run (run [0-9]* of 'patched' left out: interrupted after 4 of 4 iterations); --include-incomplete uses it anyway" \
	"the error names the label and --include-incomplete"
expect_status 0 "--include-incomplete compares it" M compare --include-incomplete base patched

# A run whose every measured iteration failed ends failed.
M run -q "$TMP/bad.yaml" --label allbad >/dev/null 2>&1 || :
check "a run whose every iteration failed is failed" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT status FROM run WHERE label = 'allbad'")" = failed
# Its failed iterations stored no sample: no samples, not an undefined mean.
expect_status 0 "--include-incomplete with a label of no samples" \
	M compare --include-incomplete base allbad
grep_file "$TMP/out" "^1 mean row not tested, no samples: total (allbad)$" \
	"the footer says the label has no samples"
grep_file "$TMP/out" "^4 failed iterations of 'allbad' stored no samples: nothing to include$" \
	"the note says its failed iterations bring no samples"
check "and does not call them included" \
	sh -c "! grep -q \"failed iterations\\? of 'allbad' included\" '$TMP/out'"
grep_file "$TMP/out" "^Amean  *total  *[0-9.]* (   0\.00%)  *- (      -) $" \
	"its cells print -"
check "no cell of it reads n/a" sh -c "! grep -q 'n/a (' '$TMP/out'"

# Operations only in the non-base label are named under the table.
cat >"$TMP/ops.csv" <<EOF2
label,benchmark,operation,value,unit,better,decimals,iteration
one,b,common,1,s,lower,2,1
one,b,common,2,s,lower,2,2
two,b,common,1,s,lower,2,1
two,b,common,2,s,lower,2,2
two,b,op-x,3,s,lower,2,1
two,b,op-y,4,s,lower,2,1
two,c,lone,4,s,lower,2,1
EOF2
expect_status 0 "import labels one and two" M import "$TMP/ops.csv"
expect_status 0 "compare one two" M compare one two
grep_file "$TMP/out" "^operations only in 'two': op-x, op-y$" \
	"the footer names the operations only in two"
grep_file "$TMP/out" "^operations of c only in 'two': lone$" \
	"and those of a benchmark only in two"
expect_status 0 "compare --benchmark b" M compare --benchmark b one two
check "--benchmark b leaves c's operations unnamed" \
	sh -c "! grep -q 'lone' '$TMP/out'"

# Headers in the default mode: labels whole, split only at an inner '-',
# columns widened for long labels; --test=mmtests keeps mmtests' split.
long=aaaaaaaaaabbbbbbbbbbccccccccccdddddddddd
for l in base patched 6.8-base $long; do
	printf 'label,benchmark,operation,value\n%s,h,op,1\n%s,h,op,2\n' "$l" "$l" >"$TMP/h.csv"
	M import "$TMP/h.csv" >/dev/null
done
expect_status 0 "compare four labels" M compare --benchmark h base patched 6.8-base $long
grep_file "$TMP/out" "^ \{37\}base \{22\}patched \{25\}base $long$" \
	"base, patched and the long label print whole, 6.8-base's rest under 6.8-"
grep_file "$TMP/out" "^ \{95\}6\.8-  *$" "6.8-base is split after its dash, which it keeps"
check "no label loses a character" sh -c "! grep -q ' bas \| patche ' '$TMP/out'"
# The header line, not a provenance line that ends with the label.
grep "^ *base .*$long\$" "$TMP/out" >"$TMP/hdr"
grep '^Min ' "$TMP/out" >"$TMP/min"
check "the last column ends where the long label ends" \
	test "$(awk '{ print length($0) }' "$TMP/hdr")" = "$(awk '{ print length($0) }' "$TMP/min")"
expect_status 0 "compare --test=mmtests" M compare --test=mmtests --benchmark h base patched
grep_file "$TMP/out" "^ *bas  *patche$" "--test=mmtests keeps mmtests' header"

done_testing
