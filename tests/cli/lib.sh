# Shared helpers for the CLI tests: TAP output and a scratch directory.
# Sourced by tests/cli/tNNNN-*.sh; meson sets MMCMP, MMCMP_SRCDIR, ...
set -u

: "${MMCMP:?run through meson test}"
tap_n=0
tap_failed=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mmcmp-test.XXXXXX")
export MMCMP_DB="$TMP/test.db"
trap 'rm -rf "$TMP"' EXIT

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
}

# check DESCRIPTION COMMAND...: pass when COMMAND succeeds.
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# expect_status WANT DESCRIPTION COMMAND...: run COMMAND, keep its output
# in $TMP/out and $TMP/err, pass when it exits with WANT.
expect_status() {
	want=$1
	desc=$2
	shift 2
	set +e
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	set -e
	if [ "$got" -eq "$want" ]; then
		ok "$desc"
	else
		not_ok "$desc (exit $got, want $want)"
		sed 's/^/# out: /' "$TMP/out" | head -20
		sed 's/^/# err: /' "$TMP/err" | head -20
	fi
}

# grep_out FILE PATTERN DESCRIPTION: pass when FILE has a line matching.
grep_file() {
	if grep -q -- "$2" "$1"; then
		ok "$3"
	else
		not_ok "$3"
		echo "# no line matching '$2' in:"
		sed 's/^/#   /' "$1" | head -20
	fi
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# Known bugs, as TAP TODO: "not ok N - DESCRIPTION # TODO REASON" does not
# fail the test; once the bug is fixed the line reads "ok ... # TODO" and
# meson reports an unexpected pass, the cue to drop the TODO.
ok_todo() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # TODO $2"
}

not_ok_todo() {
	tap_n=$((tap_n + 1))
	echo "not ok $tap_n - $1 # TODO $2"
}

# check_todo REASON DESCRIPTION COMMAND...: check for a known bug.
check_todo() {
	reason=$1
	desc=$2
	shift 2
	if "$@"; then ok_todo "$desc" "$reason"; else not_ok_todo "$desc" "$reason"; fi
}
