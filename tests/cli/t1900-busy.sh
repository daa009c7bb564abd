#!/bin/sh
# Busy machine: each iteration records the share of the machine other
# processes used while it ran and the load average; mmcmp run warns,
# once per job, when others used more than 10% of it, and compare notes
# it under the table. A busy loop on every CPU makes the machine busy;
# the quiet run checks only that warning, note and stored figures agree,
# as the machine running the tests may be busy of its own.
. ./lib.sh

if ! [ -r /proc/stat ]; then
	skip_all "/proc/stat cannot be read"
fi

loops=""
stop_loops() {
	for pid in $loops; do
		kill "$pid" 2>/dev/null || true
	done
	loops=""
}
trap 'stop_loops; rm -rf "$TMP"' EXIT

# The workload sleeps: whatever ran meanwhile was someone else.
cat >"$TMP/nap.yaml" <<EOF2
name: nap
iterations: 3
workloads:
  - name: nap
    command: [sleep, "0.4"]
    metrics:
      - name: elapsed
        extract:
          measure: elapsed
EOF2

cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
i=0
while [ "$i" -lt "$cpus" ]; do
	# Bounded, should the trap be missed.
	timeout 60 sh -c 'while :; do :; done' &
	loops="$loops $!"
	i=$((i + 1))
done
# Each loop spins once timeout(1) has started its shell.
spinning() {
	for pid in $loops; do
		pgrep -P "$pid" >/dev/null || return 1
	done
}
wait_for 10 spinning || true
expect_status 0 "a run beside $cpus busy loops" \
	"$MMCMP" run -q "$TMP/nap.yaml" --label busy
stop_loops
cp "$TMP/err" "$TMP/busy.err"

max_other() {
	sqlite3 "$MMCMP_DB" "SELECT max(m.other_cpu) FROM iteration_monitor m
		JOIN iteration i ON i.id = m.iteration_id
		JOIN run r ON r.id = i.run_id WHERE r.label = '$1'"
}
above() {
	awk -v v="$1" -v t="$2" 'BEGIN { exit !(v > t) }'
}
busy=$(max_other busy)
check "others used more than 10% of the machine ($busy)" above "$busy" 0.10
check "the load averages are stored" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration_monitor
		WHERE loadavg_start > 0 AND loadavg_end > 0")" -eq 3
grep_file "$TMP/busy.err" \
	"^mmcmp: warning: busy: nap: other processes used up to [0-9]*% of the machine during [1-3] of 3 iterations (load average up to [0-9.]*); the results may not be comparable$" \
	"run warns with the worst figure"
check "once for the job, not per iteration" \
	test "$(grep -c 'other processes used' "$TMP/busy.err")" -eq 1
pct=$(awk -v v="$busy" 'BEGIN { printf "%.0f", v * 100 }')
grep_file "$TMP/busy.err" "up to $pct% of the machine" \
	"the figure is the worst stored one"

expect_status 0 "a run without the loops" \
	"$MMCMP" run -q "$TMP/nap.yaml" --label quiet
cp "$TMP/err" "$TMP/quiet.err"
quiet=$(max_other quiet)
if above "$quiet" 0.10; then
	check "quiet: the machine was busy of its own ($quiet), and run says so" \
		grep -q "^mmcmp: warning: quiet: nap: other processes used" "$TMP/quiet.err"
else
	check "quiet: others used at most 10% ($quiet), and run does not warn" \
		sh -c "! grep -q 'other processes used' '$TMP/quiet.err'"
fi

expect_status 0 "compare" "$MMCMP" compare busy quiet
grep_file "$TMP/out" \
	"^label busy: other processes used up to $pct% of the machine during [1-3] of 3 iterations$" \
	"compare notes the busy label under the table"
if above "$quiet" 0.10; then
	check "and the quiet one, which was busy too" \
		grep -q "^label quiet: other processes used" "$TMP/out"
else
	check "not the quiet one" \
		sh -c "! grep -q '^label quiet:' '$TMP/out'"
fi
expect_status 0 "compare --test=mmtests" "$MMCMP" compare --test=mmtests busy quiet
check "mmtests mode prints mmtests' table only" \
	sh -c "! grep -q 'other processes used' '$TMP/out'"

done_testing
