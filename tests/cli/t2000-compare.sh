#!/bin/sh
# mmcmp import (CSV) and compare: the mmtests examples byte for byte,
# formats, filters, label pooling, --run, machine warnings, bad input.
. ./lib.sh
data=../data/mmtests

# same_as FILE TEXT: $TMP/got is FILE byte for byte; TEXT names the check.
same_as() {
	if cmp -s "$TMP/got" "$1"; then
		ok "$2"
	else
		not_ok "$2"
		diff "$1" "$TMP/got" | sed 's/^/# /' | head -20
	fi
}

for c in wis-improve trunc-regress wis-nochange; do
	db="$TMP/$c.db"
	expect_status 0 "import $c.csv" "$MMCMP" --db "$db" import "$data/$c.csv"
	base=$(sed -n 2p "$data/$c.csv" | cut -d, -f1)
	other=$(grep -v "^$base," "$data/$c.csv" | sed -n 2p | cut -d, -f1)
	for v in "txt:" "sig.txt:--print-significance" "ratio.txt:--print-ratio"; do
		ext=${v%%:*}
		opt=${v#*:}
		# shellcheck disable=SC2086
		"$MMCMP" --db "$db" compare --test=mmtests --no-titles $opt \
			"$base" "$other" >"$TMP/got" 2>"$TMP/err" || true
		same_as "$data/$c.$ext" "$c.$ext is byte-identical to mmtests"
	done
done

# --print-ratio where mmtests has no number: the expected tables are
# derived from mmtests' compare code (tests/data/mmtests/README.md).
for c in ratio-gaps ratio-single; do
	db="$TMP/$c.db"
	expect_status 0 "import $c.csv" "$MMCMP" --db "$db" import "$data/$c.csv"
	"$MMCMP" --db "$db" compare --test=mmtests --no-titles --print-ratio \
		v1-base v1-patch >"$TMP/got" 2>"$TMP/err" || true
	same_as "$data/$c.ratio.txt" "$c.ratio.txt is what mmtests prints"
done

db="$TMP/wis-improve.db"
M() { "$MMCMP" --db "$db" "$@"; }
expect_status 0 "default compare (welch)" M compare 6.9-vanilla 6.9-patched
grep_file "$TMP/out" "^wis-pf$" "a title line names the benchmark"
grep_file "$TMP/out" "^Hmean .*\*  10.36%\*$" "the Hmean improvement is marked"
grep_file "$TMP/out" "^4 of 4 mean rows significant (welch, alpha 0.05, BH FDR)$" \
	"the footer counts the marked rows"
check "imported samples print no Duration table" \
	sh -c "! grep -q '^Duration' '$TMP/out'"
expect_status 0 "compare --test=utest --no-fdr" M compare --test=utest --no-fdr 6.9-vanilla 6.9-patched
grep_file "$TMP/out" "(utest, alpha 0.05)$" "the footer names the U test"
expect_status 0 "--sub-heading" M compare --sub-heading 'ops-page_fault1_threads-1' 6.9-vanilla 6.9-patched
check "--sub-heading keeps the matching operations only" \
	test "$(grep -c '^Hmean' "$TMP/out")" -eq 1
expect_status 2 "--benchmark with an unknown benchmark" M compare --benchmark nosuch 6.9-vanilla 6.9-patched
expect_status 2 "an unknown label" M compare 6.9-vanilla nosuch
grep_file "$TMP/err" "no runs with label 'nosuch'" "the unknown label is named"
expect_status 2 "one label only" M compare 6.9-vanilla
expect_status 2 "--test=nosuch" M compare --test=nosuch a b
expect_status 2 "--alpha=2" M compare --alpha=2 a b
for f in markdown csv html; do
	expect_status 0 "--format=$f" M compare --format=$f 6.9-vanilla 6.9-patched
done
expect_status 0 "-o FILE" M compare -o "$TMP/table.txt" 6.9-vanilla 6.9-patched
check "-o writes the table to FILE" grep -q "^Hmean" "$TMP/table.txt"

# Pooling and --run: a second run of the same label.
expect_status 2 "importing a label again is refused" M import "$data/wis-improve.csv"
grep_file "$TMP/err" "already has results" "the clash is explained"
expect_status 0 "--append imports a second run" M import --append "$data/wis-improve.csv"
expect_status 0 "compare pools the runs of a label" M compare 6.9-vanilla 6.9-patched
expect_status 0 "--run picks one run of a label" M compare --run 1 6.9-vanilla 6.9-patched
expect_status 2 "--run of a run that does not exist" M compare --run 99 6.9-vanilla 6.9-patched
expect_status 0 "--label-prefix" M import --label-prefix x- "$data/wis-improve.csv"
check "import succeeds quietly" test ! -s "$TMP/out"
expect_status 2 "--run of a label not compared" M compare --run 5 6.9-vanilla 6.9-patched
grep_file "$TMP/err" "run 5 has label 'x-6.9-vanilla'" "the foreign run is named"
expect_status 0 "prefixed labels compare" M compare x-6.9-vanilla x-6.9-patched

# Machines that differ are announced.
sqlite3 "$db" "UPDATE run SET hostname = 'hosta', cpu_model = 'cpu A' WHERE id = 1;
	UPDATE run SET hostname = 'hostb', cpu_model = 'cpu B' WHERE id = 2;"
expect_status 0 "compare runs of two machines" M compare --run 1 --run 2 6.9-vanilla 6.9-patched
grep_file "$TMP/out" "hostname" "a warning names the differing host"

# Bad CSV rows: FILE:LINE, exit 2, nothing imported.
printf 'label,benchmark,operation,value\na,b,c,1\na,b,c,notanumber\n' >"$TMP/bad.csv"
before=$(M list | wc -l)
expect_status 2 "a bad CSV row" M import --label-prefix y- "$data/trunc-regress.csv" "$TMP/bad.csv"
grep_file "$TMP/err" "bad.csv:3:" "the message names file and line"
check "nothing of either file is imported" test "$(M list | wc -l)" -eq "$before"
expect_status 2 "a missing file" M import "$TMP/nosuch.csv"
printf 'label,benchmark,value\na,b,1\n' >"$TMP/nocol.csv"
expect_status 2 "a missing column" M import "$TMP/nocol.csv"
grep_file "$TMP/err" "nocol.csv:1:" "the missing column is reported at line 1"

done_testing
