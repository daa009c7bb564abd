#!/bin/sh
# How a run ends when a signal comes: Ctrl-C, SIGTERM and SIGHUP stop the
# measurement, run every teardown and record the run as interrupted; a
# second Ctrl-C cuts the teardowns short; SIGPIPE is ignored. Workloads do
# not outlive mmcmp when its whole process group is killed, nor when they
# leave their own group (setsid). Timeouts below 1 ns and the quoting of
# parameters in shell commands.
. ./lib.sh

need sqlite3 "Debian package sqlite3"

# Odd sleep arguments mark this script's processes for pgrep -f.
slow="4600.1$$"
slower="4601.1$$"

cleanup() {
	pkill -KILL -f "slee[p] $slow" 2>/dev/null || true
	pkill -KILL -f "slee[p] $slower" 2>/dev/null || true
	pkill -KILL -f "slee[p] 4602.1$$" 2>/dev/null || true
	pkill -KILL -f "t4600-hang-$$" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT


# finish PID: wait (at most 20 s) for background mmcmp PID to end; its exit
# status in $st, 255 when it had to be killed.
finish() {
	if ! wait_gone "$1" 20; then
		kill -KILL "$1" 2>/dev/null || true
		wait "$1" || true
		st=255
		return
	fi
	set +e
	wait "$1"
	st=$?
	set -e
}

# gone PATTERN: no process matches PATTERN after at most 5 s.
gone() {
	wait_for 5 no_process "$1"
}

# A workload that hangs in its second iteration, a workload teardown and
# a config teardown that each leave a file.
cat >"$TMP/td.yaml" <<EOF2
name: td
iterations: 5
timeout: 60
teardown:
  - "echo done >'$TMP/teardown'"
workloads:
  - name: w
    shell: true
    command: "if [ -e '$TMP/once' ]; then touch '$TMP/started'; exec sleep $slow; fi; touch '$TMP/once'; echo total:1"
    teardown:
      - "echo done >'$TMP/wl-teardown'"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2

# Each of these signals stops the run once its second iteration hangs.
for sig in INT TERM HUP; do
	rm -f "$TMP/once" "$TMP/started" "$TMP/teardown" "$TMP/wl-teardown"
	"$MMCMP" run -q "$TMP/td.yaml" --label "td-$sig" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	check "SIG$sig: the workload hangs" wait_file "$TMP/started"
	kill -"$sig" "$pid"
	finish "$pid"
	check "SIG$sig: mmcmp exits 130 (got $st)" test "$st" -eq 130
	check "SIG$sig: the workload teardown ran" test -s "$TMP/wl-teardown"
	check "SIG$sig: the config's teardown ran" test -s "$TMP/teardown"
	check "SIG$sig: the run is interrupted" \
		test "$(q "SELECT status FROM run WHERE label = 'td-$sig'")" = interrupted
	check "SIG$sig: the finished iteration is kept" \
		test "$(q "SELECT count(*) FROM iteration i JOIN run r ON r.id = i.run_id
			WHERE r.label = 'td-$sig'")" -eq 1
	grep_file "$TMP/err" "interrupted; the teardowns ran" \
		"SIG$sig: the message says the teardowns ran"
	check "SIG$sig: no workload process is left" gone "slee[p] $slow"
done

# A second Ctrl-C during a slow workload teardown cuts it short, and the
# config's teardown after it is skipped.
cat >"$TMP/slow-td.yaml" <<EOF2
name: slowtd
iterations: 1
timeout: 60
teardown:
  - "echo done >'$TMP/teardown'"
workloads:
  - name: w
    shell: true
    command: "touch '$TMP/started'; exec sleep $slow"
    teardown:
      - "touch '$TMP/td-begun'; sleep $slower; echo done >'$TMP/wl-teardown'"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
rm -f "$TMP/started" "$TMP/teardown" "$TMP/wl-teardown"
"$MMCMP" run -q "$TMP/slow-td.yaml" --label twice >"$TMP/out" 2>"$TMP/err" &
pid=$!
check "twice: the workload hangs" wait_file "$TMP/started"
kill -INT "$pid"
check "twice: the slow teardown begins after the first Ctrl-C" \
	wait_file "$TMP/td-begun"
kill -INT "$pid" 2>/dev/null || true
finish "$pid"
check "twice: mmcmp exits 130 (got $st)" test "$st" -eq 130
check "twice: the slow teardown was cut short" test ! -e "$TMP/wl-teardown"
check "twice: the config's teardown was skipped" test ! -e "$TMP/teardown"
grep_file "$TMP/err" "workload teardown command 'touch '$TMP/td-begun'; sleep $slower; echo done >'$TMP/wl-teardown'' cut short by a second interrupt" \
	"twice: the message says the teardown was cut short"
grep_file "$TMP/err" "teardown command 'echo done >'$TMP/teardown'' skipped after a second interrupt" \
	"twice: the message says the next teardown was skipped"
grep_file "$TMP/err" "interrupted twice: the teardowns were cut short" \
	"twice: the final message says so"
check "twice: the run is interrupted" \
	test "$(q "SELECT status FROM run WHERE label = 'twice'")" = interrupted
check "twice: no teardown process is left" gone "slee[p] $slower"

# SIGPIPE does not end a run.
cat >"$TMP/pipe.yaml" <<EOF2
name: pipe
iterations: 3
timeout: 60
workloads:
  - name: w
    shell: true
    command: "touch '$TMP/pipe-started'; sleep 0.3; echo total:1"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
"$MMCMP" run -q "$TMP/pipe.yaml" --label pipe >"$TMP/out" 2>"$TMP/err" &
pid=$!
check "SIGPIPE: the run started" wait_file "$TMP/pipe-started"
kill -PIPE "$pid" 2>/dev/null || true
finish "$pid"
check "SIGPIPE: mmcmp goes on and exits 0 (got $st)" test "$st" -eq 0
check "SIGPIPE: the run is complete with its 3 iterations" \
	test "$(q "SELECT status || ' ' || (SELECT count(*) FROM iteration i
		WHERE i.run_id = run.id) FROM run WHERE label = 'pipe'")" = "complete 3"
# A stdout closed long before the run's summary: the writes fail with
# EPIPE, which is not an error, and nothing kills mmcmp (no exit 141).
{
	"$MMCMP" run "$TMP/pipe.yaml" --label pipe2 2>"$TMP/err"
	echo $? >"$TMP/st"
} | true
check "closed stdout: run exits 0 (got $(cat "$TMP/st"))" test "$(cat "$TMP/st")" -eq 0
check "closed stdout: no error about the output" sh -c "! grep -q error '$TMP/err'"
check "closed stdout: the run is complete with its 3 iterations" \
	test "$(q "SELECT status || ' ' || (SELECT count(*) FROM iteration i
		WHERE i.run_id = run.id) FROM run WHERE label = 'pipe2'")" = "complete 3"
# list starts once the reader has closed its end of the pipe (exited).
{
	if wait_file "$TMP/reader" 10; then
		wait_gone "$(cat "$TMP/reader")" 10 || true
	fi
	"$MMCMP" list 2>"$TMP/err"
	echo $? >"$TMP/st"
} | sh -c 'echo $$ >"$1.new" && mv "$1.new" "$1"' sh "$TMP/reader"
check "closed stdout: list exits 0 (got $(cat "$TMP/st"))" test "$(cat "$TMP/st")" -eq 0
check "closed stdout: list says nothing" test ! -s "$TMP/err"

# The whole process group of mmcmp killed: the guard survives it and kills
# the workload. setsid gives mmcmp a group of its own.
if command -v setsid >/dev/null; then
	for sig in KILL QUIT; do
		cat >"$TMP/hang.yaml" <<EOF2
name: hang
iterations: 1
workloads:
  - name: h
    command: ["$FAKE_BENCH", "--stderr", "t4600-hang-$$", "--pidfile", "$TMP/hang-$sig.pid", "--fork-orphan", "--hang"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
		setsid "$MMCMP" run -q "$TMP/hang.yaml" --label "group-$sig" \
			>"$TMP/out" 2>"$TMP/err" &
		pid=$!
		check "group SIG$sig: the workload runs" wait_file "$TMP/hang-$sig.pid"
		pgid=$(ps -o pgid= -p "$pid" | tr -d ' ')
		if [ -n "$pgid" ] && [ "$pgid" != "$(ps -o pgid= -p $$ | tr -d ' ')" ]; then
			kill -"$sig" "-$pgid"
		else
			kill -KILL "$pid"
		fi
		finish "$pid"
		check "group SIG$sig: no workload process outlives the group" \
			gone "t4600-han[g]-$$"
	done
else
	ok "# SKIP no setsid command (Debian package util-linux)"
fi

# A workload that leaves its process group is killed after it, and a
# warning says so. The workload waits until its child has left (which
# runs no other process meanwhile: `: >FILE` is built into sh).
cat >"$TMP/escape.yaml" <<EOF2
name: escape
iterations: 1
workloads:
  - name: esc
    shell: true
    command: "setsid sh -c \": >'$TMP/left'; exec sleep $slow\" </dev/null >/dev/null 2>&1 & while [ ! -e '$TMP/left' ]; do sleep 0.01; done; echo total:1"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
if command -v setsid >/dev/null; then
	expect_status 0 "setsid: the run succeeds" \
		"$MMCMP" run -q "$TMP/escape.yaml" --label escape
	check "setsid: the process that left the group is killed" \
		gone "slee[p] $slow"
	grep_file "$TMP/err" "workload 'esc' left 1 process outside its process group (setsid?); killed" \
		"setsid: a warning says so"
else
	ok "# SKIP no setsid command (Debian package util-linux)"
fi

# Cgroups that a killed run left are removed by the next run, where this
# machine lets us create cgroups (see t1800-cgroup.sh).
top="mmcmp-t4600-$$"
cg_cleanup() {
	for d in /sys/fs/cgroup /sys/fs/cgroup/unified /sys/fs/cgroup/memory \
		/sys/fs/cgroup/pids; do
		for c in "$d/$top/a/leaf" "$d/$top/a" "$d/$top/b/leaf" "$d/$top/b" "$d/$top"; do
			[ -d "$c" ] && rmdir "$c" 2>/dev/null
		done
	done
	return 0
}
trap 'cg_cleanup; cleanup' EXIT
writable() {
	[ "$(stat -f -c %T "$1" 2>/dev/null)" = "$2" ] &&
		mkdir "$1/$top-probe" 2>/dev/null && rmdir "$1/$top-probe"
}
cg_root="" cg_extra=""
if writable /sys/fs/cgroup cgroup2fs; then
	cg_root=/sys/fs/cgroup
elif writable /sys/fs/cgroup/unified cgroup2fs; then
	cg_root=/sys/fs/cgroup/unified
elif writable /sys/fs/cgroup/memory cgroupfs; then
	cg_root=/sys/fs/cgroup/memory cg_extra="  controllers: [memory]"
fi
if [ -n "$cg_root" ]; then
	cat >"$TMP/cg.yaml" <<EOF2
name: cg
iterations: 1
workloads:
  - name: w
    shell: true
    command: "if [ -e '$TMP/cg-hang' ]; then touch '$TMP/cg-started'; exec sleep $slow; fi; echo total:1"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
cgroup:
  path: $top/a/leaf
  root: $cg_root
$cg_extra
EOF2
	touch "$TMP/cg-hang"
	"$MMCMP" run -q "$TMP/cg.yaml" --label cg-killed >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	check "cgroup: the workload hangs in its cgroup" wait_file "$TMP/cg-started"
	expect_status 1 "cgroup: a second run cannot use the live run's cgroup" \
		"$MMCMP" run -q "$TMP/cg.yaml" --label cg-second
	grep_file "$TMP/err" "cgroup '$top/a/leaf' is in use by run [0-9]* (pid $pid), which is still running" \
		"cgroup: the message names the live run, not rmdir"
	kill -KILL "$pid"
	finish "$pid"
	check "cgroup: the guard killed the workload" gone "slee[p] $slow"
	check "cgroup: the killed run left its cgroup" test -d "$cg_root/$top/a/leaf"
	rm -f "$TMP/cg-hang"
	expect_status 0 "cgroup: the next run removes it and runs" \
		"$MMCMP" run -q "$TMP/cg.yaml" --label cg-next
	check "cgroup: the killed run is aborted" \
		test "$(q "SELECT status FROM run WHERE label = 'cg-killed'")" = aborted
	check "cgroup: nothing is left of either run's cgroup" \
		test ! -e "$cg_root/$top"
	# The next run has another path: the killed run's levels go too.
	touch "$TMP/cg-hang"
	rm -f "$TMP/cg-started"
	"$MMCMP" run -q "$TMP/cg.yaml" --label cg-killed2 >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	check "cgroup: the workload hangs again" wait_file "$TMP/cg-started"
	kill -KILL "$pid"
	finish "$pid"
	check "cgroup: the guard killed the workload again" gone "slee[p] $slow"
	rm -f "$TMP/cg-hang"
	sed -e "s|path: $top/a/leaf|path: $top/b/leaf|" "$TMP/cg.yaml" >"$TMP/cg-b.yaml"
	expect_status 0 "cgroup: a next run with another path" \
		"$MMCMP" run -q "$TMP/cg-b.yaml" --label cg-b
	check "cgroup: every level the killed run made is removed" \
		test ! -e "$cg_root/$top"
else
	ok "# SKIP no writable cgroup hierarchy"
fi

# A leaf in the way in several hierarchies: the error names each.
if writable /sys/fs/cgroup/memory cgroupfs && writable /sys/fs/cgroup/pids cgroupfs; then
	cat >"$TMP/cg2.yaml" <<EOF2
name: cg2
iterations: 1
workloads:
  - name: w
    command: [true]
    metrics:
      - name: t
        extract: { measure: elapsed }
cgroup:
  path: $top/a/leaf
  controllers: [memory, pids]
EOF2
	mkdir -p "/sys/fs/cgroup/memory/$top/a/leaf" "/sys/fs/cgroup/pids/$top/a/leaf"
	expect_status 1 "cgroups in the way: the run fails" \
		"$MMCMP" run -q "$TMP/cg2.yaml" --label cg2
	grep_file "$TMP/err" "cgroups '/sys/fs/cgroup/memory/$top/a/leaf', '/sys/fs/cgroup/pids/$top/a/leaf' exist already" \
		"cgroups in the way: the error names every one"
	cg_cleanup
else
	ok "# SKIP no writable cgroup v1 memory and pids hierarchies"
fi

# A setup may start a service in its own session for the iterations: it
# is left running, and the teardown stops it.
daemon="4602.1$$"
cat >"$TMP/daemon.yaml" <<EOF2
name: daemon
iterations: 2
setup:
  - "setsid sh -c \": >'$TMP/daemon-up'; exec sleep $daemon\" </dev/null >/dev/null 2>&1 & while [ ! -e '$TMP/daemon-up' ]; do sleep 0.01; done"
teardown:
  - "pkill -f 'slee[p] $daemon'"
workloads:
  - name: d
    shell: true
    command: "pgrep -f 'slee[p] $daemon' >/dev/null && echo total:1"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
if command -v setsid >/dev/null; then
	expect_status 0 "a service a setup started runs during the iterations" \
		"$MMCMP" run -q "$TMP/daemon.yaml" --label daemon
	check "the setup's service is not reported as left behind" \
		sh -c "! grep -q 'outside its process group' '$TMP/err'"
	check "the teardown stopped it" gone "slee[p] $daemon"
else
	ok "# SKIP no setsid command (Debian package util-linux)"
fi

# A timeout that rounds to 0 ns would mean none: refused where it is.
cat >"$TMP/tiny.yaml" <<EOF2
name: tiny
timeout: 1e-10
workloads:
  - name: w
    command: [true]
    metrics:
      - name: t
        extract: { measure: elapsed }
EOF2
expect_status 2 "a timeout below 1 ns is refused" \
	"$MMCMP" run --check "$TMP/tiny.yaml"
grep_file "$TMP/err" "tiny.yaml:2:10: 'timeout' must be 0 (none) or at least 1e-9 seconds, got 1e-10" \
	"the error names the file, line and column"

# Parameter values are one word in a shell command, whatever they hold.
cat >"$TMP/quote.yaml" <<EOF2
name: quote
iterations: 1
workloads:
  - name: q
    shell: true
    command: "printf 'total:%s\\\\n' {v} | tr -d ' ;'"
    params:
      v: ["1; touch '$TMP/pwned'"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)touch" }
EOF2
expect_status 0 "shell mode: a value with metacharacters runs" \
	"$MMCMP" run -q "$TMP/quote.yaml" --label quote
check "shell mode: the value is not run as a command" test ! -e "$TMP/pwned"

done_testing
