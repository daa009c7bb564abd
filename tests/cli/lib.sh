# Shared helpers for the CLI tests: TAP output, a scratch directory and
# bounded waits. Sourced by tests/cli/tNNNN-*.sh as their prologue:
#
#   . ./lib.sh
#   need sqlite3 "Debian package sqlite3"   (when the test needs it)
#
# meson sets MMCMP, MMCMP_SRCDIR, FAKE_BENCH, ...
set -eu

: "${MMCMP:?run through meson test}"
: "${FAKE_BENCH:?run through meson test}"
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

# skip_all REASON: skip the whole test (TAP "1..0 # SKIP") and exit.
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# need PROGRAM WHERE: skip the whole test unless PROGRAM is on PATH; WHERE
# says where to get it.
need() {
	command -v "$1" >/dev/null 2>&1 || skip_all "no $1 command ($2)"
}

# q SQL: run SQL on the test's database, rows on lines.
q() {
	sqlite3 "$MMCMP_DB" "$1"
}

# need_guest: skip the whole test unless a guest can boot here: qemu,
# the static guest agent and a kernel, $MMCMP_TEST_KERNEL or else the
# newest /boot/vmlinuz-*-cloud-amd64 (linux-image-cloud-amd64), which is
# left in $kernel. scripts/setup installs both packages.
need_guest() {
	need_guest_kernel
	need qemu-system-x86_64 "Debian package qemu-system-x86"
	if [ ! -x "$MMCMP_BUILDDIR/guest/mmcmp-agent" ]; then
		skip_all "the guest agent is not built here (no static linking, or a sanitizer build)"
	fi
}

# need_guest_kernel: need_guest's kernel alone, in $kernel.
need_guest_kernel() {
	kernel=${MMCMP_TEST_KERNEL:-}
	if [ -z "$kernel" ]; then
		for f in /boot/vmlinuz-*-cloud-amd64; do
			[ -r "$f" ] && kernel=$f
		done
	fi
	if [ -z "$kernel" ] || [ ! -r "$kernel" ]; then
		skip_all "no kernel image (Debian package linux-image-cloud-amd64, or MMCMP_TEST_KERNEL)"
	fi
}

# cpu_first: for a test that waits on an emulator and is among the
# longest of the suite. As root, its processes (qemu too) get the CPU
# before the shorter tests beside it rather than wait longest for a
# core. meson test starts each test in a session of its own, which the
# kernel schedules as an autogroup, fairly against the other tests'
# whatever their nice values: so the autogroup's nice is set too. Only
# for tests that read no timing: this changes only when they end.
cpu_first() {
	[ "$(id -u)" = 0 ] || return 0
	renice -n -10 -p $$ >/dev/null 2>&1 || :
	if [ -w /proc/$$/autogroup ]; then
		echo -10 >/proc/$$/autogroup 2>/dev/null || :
	fi
}

# memory_limited KB COMMAND...: run COMMAND with KB of address space when
# this build of mmcmp starts under such a limit; a sanitizer build, whose
# shadow memory needs terabytes of it, runs COMMAND unbounded.
memory_limited() {
	# shellcheck disable=SC3045 # dash and bash have ulimit -v
	if (ulimit -v "$1" && "$MMCMP" --version) >/dev/null 2>&1; then
		(
			ulimit -v "$1"
			shift
			exec "$@"
		)
	else
		shift
		"$@"
	fi
}

# wait_for SECONDS COMMAND...: run COMMAND every 0.05 s until it succeeds,
# for at most about SECONDS; fails when it never did. Tests wait for the
# event they need this way, never for a fixed time, so that a loaded
# machine only makes them slower. Under set -e add "|| true" where the
# caller checks the outcome itself.
wait_for() {
	wait_tries=$(($1 * 20))
	shift
	while ! "$@"; do
		[ "$wait_tries" -gt 0 ] || return 1
		wait_tries=$((wait_tries - 1))
		sleep 0.05
	done
}

# wait_file FILE [SECONDS]: wait_for FILE to exist (default 30 s).
wait_file() {
	wait_for "${2:-30}" test -e "$1"
}

# pid_gone PID: PID has ended: no such process, or a zombie (which the
# init of a container may never reap).
pid_gone() {
	[ ! -e "/proc/$1" ] ||
		[ "$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

# wait_gone PID [SECONDS]: wait_for PID to end (default 20 s).
wait_gone() {
	wait_for "${2:-20}" pid_gone "$1"
}

# no_process PATTERN: no process has a command line matching PATTERN
# (pgrep -f).
no_process() {
	! pgrep -f -- "$1" >/dev/null
}

# nr_processes PATTERN N: at least N processes match PATTERN.
nr_processes() {
	[ "$(pgrep -f -- "$1" | wc -l)" -ge "$2" ]
}

# expect_refused DESCRIPTION PATTERN COMMAND...: pass when COMMAND exits 2,
# bad input or arguments, with an error matching PATTERN (grep) in
# $TMP/err: the two checks of every refusal, as two TAP lines.
expect_refused() {
	refused_desc=$1
	refused_pattern=$2
	shift 2
	expect_status 2 "$refused_desc" "$@"
	grep_file "$TMP/err" "$refused_pattern" "$refused_desc: the message"
}

# csv_db NAME: import the CSV on stdin, kept as $TMP/NAME.csv, into a new
# database $TMP/NAME.db, quietly (a test under set -e stops here when it
# does not import).
csv_db() {
	cat >"$TMP/$1.csv"
	"$MMCMP" --db "$TMP/$1.db" import "$TMP/$1.csv" >/dev/null
}

# csv_rows LABEL BENCHMARK OPERATION VALUE...: a CSV row per value, with
# the iterations 1, 2, ... (the columns label,benchmark,operation,value,
# iteration).
csv_rows() {
	rows_label=$1 rows_bench=$2 rows_op=$3
	shift 3
	rows_i=0
	for rows_v; do
		rows_i=$((rows_i + 1))
		echo "$rows_label,$rows_bench,$rows_op,$rows_v,$rows_i"
	done
}
