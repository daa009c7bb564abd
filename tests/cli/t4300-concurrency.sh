#!/bin/sh
# Several mmcmp processes on one database: four `mmcmp run` and a long
# `mmcmp import` writing while `mmcmp compare`, `mmcmp list` and `mmcmp
# export json` read in loops. Every command succeeds, none reports a
# locked or busy database, and every run holds exactly its samples.
. ./lib.sh

need sqlite3 "Debian package sqlite3"

cat >"$TMP/cc.yaml" <<EOF2
name: cc
iterations: 150
workloads:
  - name: c
    command: ["$FAKE_BENCH", "--values", "1,2,3"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2

# The samples of label $1 and its status, "complete 450".
stored() {
	sqlite3 -separator ' ' "$MMCMP_DB" "SELECT r.status, (SELECT count(*) FROM sample s
		JOIN iteration i ON i.id = s.iteration_id WHERE i.run_id = r.id)
		FROM run r WHERE r.label = '$1'"
}

# writers PREFIX ITERATIONS [&]: start four runs at once (or, without
# "&", one after another), wait for all; true when all exit 0. Their
# output goes to $TMP/PREFIXN.{out,err}.
writers() {
	pids=""
	wst=0
	for n in 1 2 3 4; do
		"$MMCMP" run -q "$TMP/cc.yaml" --label "$1$n" --iterations "$2" \
			>"$TMP/$1$n.out" 2>"$TMP/$1$n.err" &
		if [ "${3:-}" = "&" ]; then
			pids="$pids $!"
		else
			wait $! || wst=1
		fi
	done
	for p in $pids; do
		wait "$p" || wst=1
	done
	return $wst
}

# A new, empty database file on which another process holds the write
# lock (as one mmcmp does while it sets up a new database): mmcmp must
# wait for the lock, as it does for any other (10 s), not fail at once.
# Four runs starting together on a new database hit this now and then.
: >"$TMP/empty.db"
mkfifo "$TMP/fifo"
sqlite3 "$TMP/empty.db" <"$TMP/fifo" >/dev/null 2>&1 &
holder=$!
exec 3>"$TMP/fifo"
echo "BEGIN IMMEDIATE;" >&3
# The lock is held once another writer cannot take it (bounded: 30 s).
held() {
	! sqlite3 "$TMP/empty.db" "BEGIN IMMEDIATE; ROLLBACK;" 2>/dev/null
}
wait_for 30 held || true
"$MMCMP" --db "$TMP/empty.db" run -q "$TMP/cc.yaml" --label e --iterations 1 \
	>"$TMP/out" 2>"$TMP/err" &
waiter=$!
# Release the lock once mmcmp waits for it: it has opened the file and
# sleeps between tries (nanosleep in /proc/PID/wchan; where that cannot
# be read, after 5 s), or once it has given up (bounded: 30 s).
has_open() {
	for fd in "/proc/$1/fd"/*; do
		[ "$(readlink "$fd" 2>/dev/null)" != "$2" ] || return 0
	done
	return 1
}
opened_or_gone() {
	pid_gone "$waiter" || has_open "$waiter" "$(readlink -f "$TMP/empty.db")"
}
sleeping_or_gone() {
	pid_gone "$waiter" || grep -q nanosleep "/proc/$waiter/wchan" 2>/dev/null
}
wait_for 30 opened_or_gone || true
wait_for 5 sleeping_or_gone || true
echo "COMMIT;" >&3
exec 3>&-
wait "$holder" || true
if wait "$waiter"; then
	ok "a run waits for the lock on a new database"
else
	not_ok "a run waits for the lock on a new database"
	sed 's/^/# err: /' "$TMP/err"
fi

# Two labels to compare, stored before the writes start.
check "four runs in a row" writers new 20
for n in 1 2 3 4; do
	check "new$n: complete with exactly 60 samples" test "$(stored "new$n")" = "complete 60"
done
# The machine running the tests may be busy of its own: run may say so.
check "no writer printed anything on stderr but a busy-machine warning" \
	sh -c "! cat '$TMP'/new?.err | grep -v '^mmcmp: warning: new[1-4]: c: other processes used up to ' | grep -q ."

# Readers in loops while four runs write. A reader stops once the writers
# are done and it has gone round at least 3 times (at most 5000).
if "$MMCMP" --help | grep -q '^  export '; then
	have_export=true
else
	have_export=false
fi
have_python=false
command -v python3 >/dev/null && have_python=true

# An export is one snapshot: each operation's summary counts exactly the
# samples of the measured iterations exported with it.
cat >"$TMP/consistent.py" <<'EOF2'
import json, sys
bad = 0
for path in sys.argv[1:]:
    doc = json.load(open(path))
    for run in doc["runs"]:
        n = [0] * len(run["operations"])
        for it in run["iterations"]:
            if not it["warmup"]:
                for s in it["samples"]:
                    n[s["operation"]] += len(s["values"])
        for op, count in zip(run["operations"], n):
            if op["summary"]["n"] != count:
                print("%s: run %s: %s: summary n=%d, %d samples exported"
                      % (path, run["label"], op["name"], op["summary"]["n"], count))
                bad += 1
print("%d exports checked" % len(sys.argv[1:]))
sys.exit(bad > 0)
EOF2

reader() {
	name=$1
	shift
	n=0
	failed=0
	: >"$TMP/r-$name.err"
	while :; do
		n=$((n + 1))
		# The first 100 outputs are kept, for the export check.
		out="$TMP/r-$name.out"
		[ $n -gt 100 ] || out="$TMP/r-$name.$n.out"
		if ! "$@" >"$out" 2>>"$TMP/r-$name.err"; then
			failed=$((failed + 1))
			echo "(round $n failed)" >>"$TMP/r-$name.err"
		fi
		if [ -e "$TMP/writers-done" ] && [ $n -ge 3 ]; then
			break
		fi
		[ $n -lt 5000 ] || break
	done
	echo "$n $failed" >"$TMP/r-$name.count"
}

reader compare "$MMCMP" compare new1 new2 &
r1=$!
reader list "$MMCMP" list &
r2=$!
readers="$r1 $r2"
names="compare list"
if $have_export; then
	reader export "$MMCMP" export json &
	readers="$readers $!"
	names="$names export"
fi
# A long import as well: two large CSV files one after the other, each
# one write transaction of some seconds, while the runs store their
# iterations and the readers read.
if $have_python; then
	for n in 1 2; do
		python3 -c "
print('label,benchmark,operation,value,iteration')
for i in range(250000):
    print('imp$n,b,op%d,%d,%d' % (i % 50, i % 97 + 1, i // 1000))
" >"$TMP/imp$n.csv"
	done
	(
		ist=0
		for n in 1 2; do
			"$MMCMP" import "$TMP/imp$n.csv" >"$TMP/imp$n.out" 2>"$TMP/imp$n.err" || ist=1
		done
		exit $ist
	) &
	importer=$!
fi
if writers w 150 "&"; then wst=0; else wst=1; fi
if $have_python; then
	if wait "$importer"; then ist=0; else ist=1; fi
fi
touch "$TMP/writers-done"
for p in $readers; do
	wait "$p" || true
done

check "four runs writing while others read all succeed" test "$wst" -eq 0
for n in 1 2 3 4; do
	check "w$n: complete with exactly 450 samples" test "$(stored "w$n")" = "complete 450"
done
if $have_python; then
	check "two long imports during the runs succeed" test "$ist" -eq 0
	for n in 1 2; do
		check "imp$n: complete with exactly 250000 samples" \
			test "$(stored "imp$n")" = "complete 250000"
	done
else
	ok "# SKIP no python3 to write the import files"
	ok "# SKIP no python3 to write the import files"
	ok "# SKIP no python3 to write the import files"
fi
for name in $names; do
	read -r rounds failed <"$TMP/r-$name.count" || rounds="?" failed="?"
	check "$name: $rounds rounds during the writes, $failed failed" test "$failed" = 0
	echo "# $name: $rounds rounds"
	if [ "$failed" != 0 ]; then
		sed 's/^/# err: /' "$TMP/r-$name.err" | head -10
	fi
done
if ! $have_export; then
	ok "# SKIP no export command"
elif ! $have_python; then
	ok "# SKIP no python3 to read the exports"
else
	expect_status 0 "each export is one snapshot: summaries count the samples exported" \
		python3 "$TMP/consistent.py" "$TMP"/r-export.*.out
	tail -n 1 "$TMP/out" | sed 's/^/# /'
fi
# A run may wait for a long import with its finished iterations held in
# memory (and says so); every sample is stored all the same (above).
held='database locked by another process; [0-9]* iterations\{0,1\} held in memory'
check "no command reports a locked or busy database" \
	sh -c "! cat '$TMP'/*.err | grep -v '$held' | grep -qi 'locked\|busy'"
cat "$TMP"/*.err | grep -i 'locked\|busy' | head -5 | sed 's/^/# /'
check "the database is intact" test "$(sqlite3 "$MMCMP_DB" 'PRAGMA integrity_check')" = ok

done_testing
