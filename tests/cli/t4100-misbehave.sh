#!/bin/sh
# mmcmp run with workloads that misbehave: hang (with a grandchild, both
# ignoring SIGTERM), flood stdout with gigabytes, die of a signal, close
# stdout early, leave children behind, exit non-zero. Each is one
# iteration that mmcmp records with the right status while the run goes
# on; the figures (status, times, peak RSS) are printed as TAP comments.
. ./lib.sh

need sqlite3 "Debian package sqlite3"

q() {
	sqlite3 -separator ' ' "$MMCMP_DB" "$1"
}

# The outcome of the one iteration of label $1: status, exit code,
# signal, elapsed seconds; and its samples.
iteration() {
	q "SELECT i.status, i.exit_code, i.term_signal, printf('%.2f', i.elapsed_s)
		FROM iteration i JOIN run r ON r.id = i.run_id WHERE r.label = '$1'"
}

samples() {
	q "SELECT group_concat(printf('%g', s.value), ',') FROM sample s
		JOIN iteration i ON i.id = s.iteration_id
		JOIN run r ON r.id = i.run_id WHERE r.label = '$1'"
}

now() {
	date +%s.%N
}

since() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'
}

# config NAME TIMEOUT ARGS...: a one-iteration config running fake-bench
# with ARGS (quoted for YAML), its value read by a regex.
config() {
	name=$1
	timeout=$2
	shift 2
	args=""
	for a in "$@"; do
		args="$args, \"$a\""
	done
	cat >"$TMP/$name.yaml" <<EOF2
name: $name
iterations: 1
timeout: $timeout
workloads:
  - name: $name
    command: ["$FAKE_BENCH"$args]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
}

# A hanging workload with a grandchild, both ignoring SIGTERM: the timeout
# sends SIGTERM to the group, then SIGKILL after the 5 s grace.
config hang 1 --values 1 --ignore-term --pidfile "$TMP/hang.pid" --fork-orphan --hang
t0=$(now)
expect_status 1 "hang: the run ends, failed" "$MMCMP" run "$TMP/hang.yaml" --label hang
wall=$(since "$t0")
check "hang: the iteration is stored as a timeout" \
	test "$(iteration hang | cut -d' ' -f1)" = timeout
grep_file "$TMP/err" "iteration 1 failed: timeout" "hang: the timeout is reported"
check "hang: the grandchild is gone once mmcmp returns" wait_gone "$(cat "$TMP/hang.pid")" 10
echo "# hang: $(iteration hang) (status exit signal elapsed_s); mmcmp took $wall s for timeout 1 s + grace 5 s"

# Gigabytes on stdout: kept up to the 64 MiB cap, the rest read and
# dropped. The peak RSS of mmcmp is the capture, the extractor's copy of
# it and the process itself; the bound is 200 MB, 512 MB under
# AddressSanitizer (shadow memory, quarantined buffers).
flood=2000000000
if grep -q __asan_init "$MMCMP"; then
	bound_kb=512000
else
	bound_kb=200000
fi
# peak_rss OUT COMMAND...: run COMMAND, its peak RSS in KiB into file OUT.
peak_rss() {
	out=$1
	shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -o "$out" -f %M "$@"
		return
	fi
	# No GNU time: poll VmHWM, the peak so far, until the process ends.
	"$@" &
	p=$!
	: >"$out"
	while [ -e "/proc/$p/status" ]; do
		hwm=$(sed -n 's/^VmHWM: *\([0-9]*\) kB/\1/p' "/proc/$p/status" 2>/dev/null)
		[ -n "$hwm" ] && echo "$hwm" >"$out"
		sleep 0.05
	done
	wait "$p"
}
for how in regex elapsed; do
	config "flood-$how" 600 --values 5 --flood "$flood"
	if [ $how = elapsed ]; then
		sed -i 's/extract: {.*}/extract: { measure: elapsed }/' "$TMP/flood-$how.yaml"
	fi
	t0=$(now)
	expect_status 0 "flood ($how): the run succeeds" \
		peak_rss "$TMP/rss" "$MMCMP" run "$TMP/flood-$how.yaml" --label "flood-$how"
	wall=$(since "$t0")
	rss=$(tail -n 1 "$TMP/rss")
	check "flood ($how): mmcmp's peak RSS ${rss:-?} KiB < $bound_kb KiB" \
		test "${rss:-999999999}" -lt "$bound_kb"
	echo "# flood ($how): $flood bytes in $wall s, peak RSS ${rss:-?} KiB; iteration: $(iteration "flood-$how")"
done
check "flood: the value before the flood is found" test "$(samples flood-regex)" = 5
# The iteration keeps its values and says that its output was cut.
check "flood: the stored iteration says that its output was truncated" \
	test "$(q "SELECT count(*) FROM iteration i JOIN run r ON r.id = i.run_id
		WHERE r.label = 'flood-regex' AND (i.status <> 'ok'
		OR i.stderr_tail LIKE '%truncat%' OR i.stderr_tail LIKE '%cut%')")" = 1

# Death by a signal.
config signal 600 --values 1 --signal SEGV
expect_status 1 "signal: the run fails" "$MMCMP" run "$TMP/signal.yaml" --label signal
check "signal: stored as signal 11" \
	test "$(iteration signal | cut -d' ' -f1,3)" = "signal 11"
grep_file "$TMP/err" "iteration 1 failed: signal" "signal: reported"
echo "# signal: $(iteration signal)"

# stdout closed early, the process goes on: mmcmp waits for its exit,
# not for the end of its output.
config close 600 --values 7 --close-stdout --sleep 0.5 --stderr after-close
expect_status 0 "close-stdout: the run succeeds" "$MMCMP" run "$TMP/close.yaml" --label close
check "close-stdout: the value printed before the close is stored" \
	test "$(samples close)" = 7
check "close-stdout: the iteration lasted until the exit (>= 0.5 s)" \
	awk -v e="$(iteration close | cut -d' ' -f4)" 'BEGIN { exit !(e >= 0.5) }'
echo "# close-stdout: $(iteration close)"

# A child that outlives the workload and keeps its stdout open: killed
# with the group when the workload exits, so mmcmp need not wait for it.
config orphan 600 --pidfile "$TMP/orphan.pid" --fork-orphan --values 3
t0=$(now)
expect_status 0 "orphan: the run succeeds" "$MMCMP" run "$TMP/orphan.yaml" --label orphan
wall=$(since "$t0")
check "orphan: the value is stored" test "$(samples orphan)" = 3
check "orphan: the child left behind is gone once mmcmp returns" \
	wait_gone "$(cat "$TMP/orphan.pid")" 10
check "orphan: mmcmp did not wait for it (took $wall s; the child sleeps 1000 s)" \
	awk -v w="$wall" 'BEGIN { exit !(w < 500) }'
echo "# orphan: $(iteration orphan); mmcmp took $wall s"

# A non-zero exit.
config exit 600 --values 1 --stderr "bad thing" --exit 3
expect_status 1 "exit 3: the run fails" "$MMCMP" run "$TMP/exit.yaml" --label exit
check "exit 3: stored with its exit code" \
	test "$(iteration exit | cut -d' ' -f1,2)" = "exit 3"
grep_file "$TMP/err" "iteration 1 failed: exit" "exit 3: reported"
check "exit 3: the tail of stderr is stored" \
	test "$(q "SELECT count(*) FROM iteration i JOIN run r ON r.id = i.run_id
		WHERE r.label = 'exit' AND i.stderr_tail LIKE '%bad thing%'")" = 1
echo "# exit: $(iteration exit)"

# All of them in one run: each iteration fails or succeeds on its own.
cat >"$TMP/all.yaml" <<EOF2
name: all
iterations: 2
timeout: 2
workloads:
  - name: mixed
    command: ["$FAKE_BENCH", "--values", "1", "{how}", "{arg}"]
    params:
      how: ["--exit", "--signal", "--sleep", "--flood", "--print"]
      arg: ["4"]
    operation: "op{how}"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
expect_status 1 "all in one run: the run goes on after each failure" \
	"$MMCMP" run -q "$TMP/all.yaml" --label all
check "all in one run: 10 iterations with the right statuses" \
	test "$(q "SELECT group_concat(status || ':' || n, ' ') FROM (SELECT i.status, count(*) n
		FROM iteration i JOIN run r ON r.id = i.run_id WHERE r.label = 'all'
		GROUP BY i.status ORDER BY i.status)")" = "exit:2 ok:4 signal:2 timeout:2"

done_testing
