#!/bin/sh
# mmcmp import --from perf-script: a captured `perf script` of
# profile-split (perf record -g -e cpu-clock) becomes profiles of a new
# run of a label, folded as run --profile folds its own, which explain
# reads; the same files again are skipped; bad text is refused with its
# file and line, exit 2, and leaves the database as it was.
. ./lib.sh

need sqlite3 "Debian package sqlite3"
FIXTURE=$MMCMP_SRCDIR/tests/data/perf-script-split.txt

# dump: the database's content, to see that a refused import left it.
dump() {
	sqlite3 "$MMCMP_DB" .dump | sha256sum
}

expect_status 0 "import a capture twice, as two profiles" \
	"$MMCMP" import --from perf-script --label ps "$FIXTURE" "$FIXTURE"
check "a run of label ps, complete" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT label, status FROM run")" = "ps|complete"
check "with two profiles of benchmark perf" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT group_concat(seq || benchmark || status)
		FROM profile")" = "1perfok,2perfok"
# The samples and spin_a's leaf samples, counted from the text by awk.
samples=$(grep -c ' cpu-clock: *$' "$FIXTURE")
spin_a=$(awk '/ cpu-clock: *$/ { getline; if ($2 ~ /^spin_a\+/) n++ } END { print n }' "$FIXTURE")
echo "# $samples samples, $spin_a with spin_a as the leaf"
check "each of the capture's samples" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT DISTINCT samples FROM profile")" -eq "$samples"
check "spin_a's stack folded root first with its count" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM profile WHERE
		instr(stacks, '__libc_start_call_main;main;spin_a $spin_a' || char(10))")" -eq 2
check "kernel frames named as run --profile names them" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM profile WHERE
		stacks LIKE '%;do_syscall_64_[k];%'")" -eq 2
expect_status 0 "explain reads them" "$MMCMP" explain --format json ps ps
cp "$TMP/out" "$TMP/ps.json"
check "two profiles on each side" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT json_extract(readfile('$TMP/ps.json'),
		'\$.profiles[0].base_profiles') || json_extract(readfile('$TMP/ps.json'),
		'\$.profiles[0].other_samples')")" = "2$((2 * samples))"

before=$(dump)
expect_status 0 "the same files again" \
	"$MMCMP" import --from perf-script --label ps "$FIXTURE" "$FIXTURE"
grep_file "$TMP/err" "profiles of 'ps' are in the database already: skipped" \
	"are skipped, with a warning"
check "nothing stored" test "$(dump)" = "$before"
expect_status 2 "other files for a label with runs" \
	"$MMCMP" import --from perf-script --label ps "$FIXTURE"
grep_file "$TMP/err" "label 'ps' has runs already: --append adds to them" \
	"are refused"
check "and leave the database as it was" test "$(dump)" = "$before"
expect_status 0 "unless --append" \
	"$MMCMP" import --from perf-script --label ps --append --benchmark split "$FIXTURE"
check "under the benchmark given" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM profile WHERE benchmark = 'split'")" -eq 1

# Bad input: line 10 of a copy is no frame.
sed '10s/.*/\tnot a frame/' "$FIXTURE" >"$TMP/bad.txt"
printf 'profile-split 1 1.0: 1 cpu-clock:\n\n' >"$TMP/nochain.txt"
before=$(dump)
expect_status 2 "a broken frame line" \
	"$MMCMP" import --from perf-script --label bad "$FIXTURE" "$TMP/bad.txt"
grep_file "$TMP/err" "bad.txt:10: expected a frame 'ADDRESS SYMBOL (DSO)'" \
	"is named with its file and line"
expect_status 2 "a sample without a call chain" \
	"$MMCMP" import --from perf-script --label bad "$TMP/nochain.txt"
grep_file "$TMP/err" "nochain.txt:1: a sample without a call chain (record with perf record -g)" \
	"says to record with -g"
expect_status 2 "a Go benchmark file" "$MMCMP" import --from perf-script --label bad \
	"$MMCMP_SRCDIR/tests/data/import/gobench-base.txt"
expect_status 2 "a file that is not there" \
	"$MMCMP" import --from perf-script --label bad "$TMP/nosuch"
expect_status 2 "no --label" "$MMCMP" import --from perf-script "$FIXTURE"
grep_file "$TMP/err" "needs --label L and a FILE" "says what it needs"
expect_status 2 "--label without perf-script" "$MMCMP" import --label x "$FIXTURE"
grep_file "$TMP/err" "are for --from perf-script" "is refused"
check "none of them changed the database" test "$(dump)" = "$before"

done_testing
