#!/bin/sh
# mmcmp run killed with SIGKILL at random moments: after each kill the
# database passes PRAGMA integrity_check, holds every iteration whose
# workload finished except at most the one being stored when the kill
# came, holds no iteration without all its samples, and lists the run as
# aborted. Then: whether the workload outlives a killed mmcmp.
#
# MMCMP_KILL_ROUNDS (default 10) sets the number of kills and
# MMCMP_KILL_SEED the seed of their moments (default: the time; printed,
# so a failure can be replayed); bench/kill-test runs this script longer.
. ./lib.sh

need sqlite3 "Debian package sqlite3"
rounds=${MMCMP_KILL_ROUNDS:-10}
seed=${MMCMP_KILL_SEED:-$(date +%s)}
echo "# $rounds kills, seed $seed (MMCMP_KILL_SEED=$seed replays the moments)"

# Lists the pids of the processes whose command line holds the marker.
marker="kill-marker-$$"
workload_pids() {
	pgrep -f -- "$marker" || true
}
no_workload() {
	[ -z "$(workload_pids)" ]
}

# Each iteration takes 50 to 200 ms. The workload appends a line to
# $TMP/done after fake-bench has printed its three values and exited, so
# the lines count the iterations mmcmp could have stored: all of them
# once committed, one fewer when the kill came between that line and the
# commit. A workload that outlives mmcmp dies of SIGPIPE when it writes
# to the dead pipe, before its line.
cat >"$TMP/kill.yaml" <<EOF2
name: kill
iterations: 100000
timeout: 60
workloads:
  - name: k
    shell: true
    command: "n=\$(wc -l <'$TMP/done'); case \$((n % 4)) in 0) s=0.05;; 1) s=0.1;; 2) s=0.15;; *) s=0.2;; esac; '$FAKE_BENCH' --stderr $marker --sleep \$s --values 1,2,3 && echo x >>'$TMP/done'"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2

# Every other kill uses iterations that print 5000 values at once, so
# that the kill often lands while SQLite writes an iteration.
cat >"$TMP/heavy.yaml" <<EOF2
name: heavy
iterations: 100000
timeout: 60
workloads:
  - name: k
    shell: true
    command: "'$FAKE_BENCH' --stderr $marker --repeat 5000 --print total:1 && echo x >>'$TMP/done'"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2

# The moments: a pause from 0.05 to 1.55 s after the start, so that the
# kill also lands while the database is created and the run set up.
awk -v seed="$seed" -v n="$rounds" \
	'BEGIN { srand(seed); for (i = 0; i < n; i++) printf "%.3f\n", 0.05 + 1.5 * rand() }' \
	>"$TMP/delays"


r=0
outlived=0
kills_total=0
stored_total=0
while read -r delay; do
	r=$((r + 1))
	label="k$r"
	if [ $((r % 2)) -eq 1 ]; then
		config=kill samples=3
	else
		config=heavy samples=5000
	fi
	: >"$TMP/done"
	"$MMCMP" run -q "$TMP/$config.yaml" --label "$label" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	sleep "$delay"
	kill -KILL "$pid"
	set +e
	wait "$pid"
	st=$?
	set -e
	kills_total=$((kills_total + 1))
	# The workload running at the kill, if any, is not mmcmp's to stop
	# any more; wait (bounded) until it is gone so that $TMP/done is
	# final, and stop it ourselves if it hangs on.
	if [ -n "$(workload_pids)" ]; then
		outlived=$((outlived + 1))
	fi
	wait_for 10 no_workload || true
	left=$(workload_pids)
	if [ -n "$left" ]; then
		# shellcheck disable=SC2086
		kill -KILL $left 2>/dev/null || true
	fi

	why=""
	[ "$st" -eq 137 ] || why="$why mmcmp exited with $st before the kill;"
	[ -z "$left" ] || why="$why workload still running 10 s after the kill;"
	integrity=$(q 'PRAGMA integrity_check' 2>&1 || true)
	[ "$integrity" = ok ] || why="$why integrity_check: $integrity;"
	fk=$(q 'PRAGMA foreign_key_check' 2>&1 || true)
	[ -z "$fk" ] || why="$why foreign_key_check: $fk;"
	done_nr=$(wc -l <"$TMP/done")
	# A kill while the first run creates the database may come before
	# its migrations commit: then there are no tables yet (the migration
	# is one transaction), and no workload can have finished.
	tables=$(q "SELECT count(*) FROM sqlite_master WHERE name = 'iteration'" 2>&1 || true)
	if [ "$tables" = 0 ]; then
		[ "$done_nr" -eq 0 ] || why="$why $done_nr iterations finished before the database had its tables;"
		stored=0 other=0 partial=0
	else
		stored=$(q "SELECT count(*) FROM iteration i JOIN run r ON r.id = i.run_id
			WHERE r.label = '$label' AND i.status = 'ok'" 2>&1 || true)
		other=$(q "SELECT count(*) FROM iteration i JOIN run r ON r.id = i.run_id
			WHERE r.label = '$label' AND i.status <> 'ok'" 2>&1 || true)
		partial=$(q "SELECT count(*) FROM iteration i JOIN run r ON r.id = i.run_id
			WHERE r.label = '$label' AND
			(SELECT count(*) FROM sample s WHERE s.iteration_id = i.id) <> $samples" 2>&1 || true)
	fi
	case "$stored" in
	"" | *[!0-9]*)
		why="$why cannot count the iterations: $stored;"
		stored=0
		;;
	*)
		if [ "$stored" -gt "$done_nr" ] || [ "$stored" -lt $((done_nr - 1)) ]; then
			why="$why $stored iterations stored for $done_nr finished;"
		fi
		;;
	esac
	[ "$other" = 0 ] || why="$why $other iterations not ok;"
	[ "$partial" = 0 ] || why="$why $partial iterations without their $samples samples;"
	status_before=$(q "SELECT group_concat(status) FROM run WHERE label = '$label'" 2>/dev/null || true)
	# Without tables list says there is no mmcmp database there (exit
	# 1), which is right; else it must list.
	if ! "$MMCMP" list >"$TMP/list" 2>"$TMP/list-err" &&
		! { [ "$tables" = 0 ] && grep -q "no mmcmp database in" "$TMP/list-err"; }; then
		why="$why mmcmp list failed: $(head -c 200 "$TMP/list-err");"
	fi
	# No run table: killed before the migrations committed, and list
	# (a reader) does not make them.
	status_after=$(q "SELECT group_concat(status) FROM run WHERE label = '$label'" 2>/dev/null || true)
	case "$status_after" in
	"") ;; # killed before the run was created
	aborted)
		grep -q " $label .* aborted\$" "$TMP/list" ||
			why="$why list does not show $label aborted;"
		;;
	*) why="$why run status '$status_before' became '$status_after', not aborted;" ;;
	esac
	stored_total=$((stored_total + stored))
	desc="kill $r ($config) after ${delay} s: $stored of $done_nr finished iterations stored (run: ${status_before:-none} -> ${status_after:-none})"
	if [ -z "$why" ]; then
		ok "$desc"
	else
		not_ok "$desc"
		echo "#$why"
		sed 's/^/# err: /' "$TMP/err" | head -10
	fi
done <"$TMP/delays"
echo "# $kills_total kills, $stored_total iterations stored in all;" \
	"a workload was still running right after $outlived of the kills"

expect_status 0 "the database takes a normal run after the kills" \
	"$MMCMP" run -q "$TMP/kill.yaml" --label after --iterations 2
check "the normal run is complete with its 6 samples" \
	test "$(q "SELECT status || ' ' || (SELECT count(*) FROM sample s
		JOIN iteration i ON i.id = s.iteration_id WHERE i.run_id = run.id)
		FROM run WHERE label = 'after'")" = "complete 6"

# The workload outliving mmcmp: a workload (and a child it forked) that
# waits forever, mmcmp killed. mmcmp cannot act after SIGKILL, so only
# the kernel (PR_SET_PDEATHSIG in the child) or a helper process of
# mmcmp's could end them.
cat >"$TMP/hang.yaml" <<EOF2
name: hang
iterations: 1
workloads:
  - name: h
    command: ["$FAKE_BENCH", "--stderr", "$marker", "--pidfile", "$TMP/orphan.pid", "--fork-orphan", "--hang"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
"$MMCMP" run -q "$TMP/hang.yaml" --label hang >"$TMP/out" 2>"$TMP/err" &
pid=$!
check "the hanging workload started" wait_for 30 test -s "$TMP/orphan.pid"
kill -KILL "$pid"
set +e
wait "$pid"
set -e
# Passes when no process whose command line holds MARK is left SECONDS
# after the kill; kills those left.
expect_gone() {
	desc=$1 mark=$2 seconds=$3
	wait_for "$seconds" no_process "$mark" || true
	left=$(pgrep -f -- "$mark" || true)
	if [ -z "$left" ]; then
		ok "$desc"
	else
		not_ok "$desc"
		echo "# still running $seconds s after the kill: $(echo "$left" | tr '\n' ' ')"
		# shellcheck disable=SC2086
		kill -KILL $left 2>/dev/null || true
	fi
}
expect_gone "no workload process outlives mmcmp killed with SIGKILL" "$marker" 5

# Workloads that leave their process group: a child in a session of its
# own (setsid), and a daemon whose parent exits at once (its orphan). The
# guard starts the workloads and is their child subreaper, in a session
# of its own, so none of them outlives mmcmp killed alone, mmcmp's whole
# process group killed, or SIGQUIT to that group (Ctrl-\). Each case
# marks its processes with a marker of its own.
escape_case() {
	how=$1 mark="$marker-$2"
	cat >"$TMP/escape.yaml" <<EOF2
name: escape
iterations: 1
workloads:
  - name: e
    shell: true
    command: "setsid '$FAKE_BENCH' --stderr $mark --hang & (setsid '$FAKE_BENCH' --stderr $mark --hang &); '$FAKE_BENCH' --stderr $mark --hang"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
	# A session of its own, so that mmcmp's group is not this script's;
	# SIGQUIT at its default action, which sh sets to ignored for a
	# command started with &.
	# shellcheck disable=SC3045 # dash and bash have ulimit -c
	(ulimit -c 0; exec env --default-signal=QUIT setsid "$MMCMP" run -q \
		"$TMP/escape.yaml" --label "escape-$2" >"$TMP/out" 2>"$TMP/err") &
	pid=$!
	check "$how: the workload and its escaped processes started" \
		wait_for 10 nr_processes "$mark" 4
	# setsid, not a group leader here, made mmcmp one: its pid is the group.
	pgid=$(awk '{ print $5 }' "/proc/$pid/stat")
	check "$how: mmcmp leads a process group of its own" test "$pgid" = "$pid"
	case $how in
	*QUIT*) kill -QUIT "-$pgid" ;;
	*group*) kill -KILL "-$pgid" ;;
	*) kill -KILL "$pid" ;;
	esac
	check "$how: mmcmp is dead" wait_gone "$pid" 10
	kill -KILL "$pid" 2>/dev/null || true
	set +e
	wait "$pid"
	set -e
	expect_gone "$how: no process of the workload outlives mmcmp" "$mark" 10
}
if command -v setsid >/dev/null && command -v pgrep >/dev/null &&
	env --default-signal=QUIT true 2>/dev/null; then
	escape_case "SIGKILL to mmcmp" kill
	escape_case "SIGKILL to mmcmp's process group" group
	escape_case "SIGQUIT to mmcmp's process group" quit
else
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do ok "# SKIP no setsid, pgrep or env --default-signal"; done
fi

done_testing
