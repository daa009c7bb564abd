#!/bin/sh
# The life of a database and its runs: readers never create a database,
# never touch another application's file, need no write access and do not
# wait for writers (issues 4, 17, 18); a database deleted under a run
# fails it (5); --replace keeps live runs and good results (1, 2);
# delete and relabel (19); the size limit of a JSON import (14).
. ./lib.sh

need sqlite3 "Debian package sqlite3"


cat >"$TMP/good.yaml" <<EOF2
name: good
iterations: 2
workloads:
  - name: g
    command: ["$FAKE_BENCH", "--values", "1,2,3"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
cat >"$TMP/bad.yaml" <<EOF2
name: bad
iterations: 2
workloads:
  - name: g
    command: ["$FAKE_BENCH", "--exit", "3"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
cat >"$TMP/slow.yaml" <<EOF2
name: slow
iterations: 40
workloads:
  - name: s
    command: ["$FAKE_BENCH", "--sleep", "0.1", "--values", "1"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
printf 'label,benchmark,operation,value\nx,b,op,1\n' >"$TMP/one.csv"

# A process that stays alive until killed, to stand for a live mmcmp.
sleep 1000 &
live=$!
trap 'kill $live 2>/dev/null || true; rm -rf "$TMP"' EXIT

# live_run LABEL: a run of LABEL whose process ($live) is alive.
live_run() {
	q "INSERT INTO run (uuid, label, status, started_at, pid)
		VALUES ('live-$1', '$1', 'running', '2024-01-01T00:00:00Z', $live)"
}

# Issue 18: on a path that does not exist, readers create nothing.
none="$TMP/none.db"
for c in list "show x" "compare x y" "export json" "delete x" "relabel x y" \
	"power x" "report x y"; do
	# shellcheck disable=SC2086
	expect_status 1 "$c on a missing database fails" "$MMCMP" --db "$none" $c
	grep_file "$TMP/err" "^mmcmp: error: no database at '$none'$" "$c: says there is none"
	check "$c: creates no file" test ! -e "$none"
done

# Issue 18: another application's SQLite file is refused by name, by
# readers and writers, and left as it was.
other="$TMP/other.db"
sqlite3 "$other" "CREATE TABLE notes (x); INSERT INTO notes VALUES ('mine')"
before=$(cksum <"$other")
for c in list "show x" "compare x y" "export json" "delete x" "relabel x y" \
	"power x" "report x y" "run -q $TMP/good.yaml --label x" "import $TMP/one.csv"; do
	# shellcheck disable=SC2086
	expect_status 1 "${c%% *} on another application's file fails" "$MMCMP" --db "$other" $c
	grep_file "$TMP/err" "^mmcmp: error: '$other' is not an mmcmp database" \
		"${c%% *}: says it is not an mmcmp database"
done
check "the other file is unchanged" test "$(cksum <"$other")" = "$before"
check "and holds only its own table" test "$(sqlite3 "$other" .tables)" = notes

# Issue 4: a reader does not wait for a writer holding the lock.
expect_status 0 "a first run" "$MMCMP" run -q "$TMP/good.yaml" --label first
mkfifo "$TMP/fifo"
sqlite3 "$MMCMP_DB" <"$TMP/fifo" >/dev/null 2>&1 &
holder=$!
exec 3>"$TMP/fifo"
echo "BEGIN IMMEDIATE;" >&3
held() {
	! sqlite3 "$MMCMP_DB" "BEGIN IMMEDIATE; ROLLBACK;" 2>/dev/null
}
wait_for 30 held || true
start=$(date +%s)
expect_status 0 "list while a writer holds the lock" "$MMCMP" list
grep_file "$TMP/out" " first .* complete$" "list shows the run"
expect_status 0 "show while a writer holds the lock" "$MMCMP" show first
expect_status 0 "export while a writer holds the lock" "$MMCMP" export json first
check "the readers did not wait for the lock ($(($(date +%s) - start)) s)" \
	test $(($(date +%s) - start)) -lt 5
echo "COMMIT;" >&3
exec 3>&-
wait "$holder" || true

# Issue 17: a file, a directory, a file system that cannot be written.
# Root writes whatever the modes say, so as root mmcmp runs as nobody.
dead=$(sh -c 'echo $$')
crash() {
	sqlite3 "$1" "UPDATE run SET status = 'running', ended_at = NULL,
		pid = $dead, pid_start = 1 WHERE label = 'first'"
}
# readable DB DESC AS...: every reader works on DB, shows the crashed
# run as aborted and changes nothing in it.
readable() {
	db=$1
	what=$2
	shift 2
	before=$(cksum <"$db")
	expect_status 0 "$what: list" "$@" "$MMCMP" --db "$db" list
	grep_file "$TMP/out" " first .* aborted$" "$what: list shows the crashed run aborted"
	expect_status 0 "$what: show" "$@" "$MMCMP" --db "$db" show first
	grep_file "$TMP/out" "status: *aborted" "$what: show says aborted"
	expect_status 0 "$what: export" "$@" "$MMCMP" --db "$db" export csv
	expect_status 0 "$what: compare" "$@" "$MMCMP" --db "$db" compare \
		--include-incomplete first first
	expect_status 0 "$what: power" "$@" "$MMCMP" --db "$db" power first
	check "$what: the database is unchanged" test "$(cksum <"$db")" = "$before"
	check "$what: the run is not marked in the file" \
		test "$(sqlite3 "file:$db?immutable=1" "SELECT status FROM run WHERE label = 'first'")" = running
}
if [ "$(id -u)" -ne 0 ]; then
	as_user=""
	ro_skip=""
elif command -v setpriv >/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups "$MMCMP" --version >/dev/null 2>&1; then
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	ro_skip=""
	chmod 755 "$TMP"
else
	ro_skip="root, and cannot run mmcmp as nobody with setpriv"
fi
if [ -n "$ro_skip" ]; then
	for _ in $(seq 30); do
		ok "# SKIP $ro_skip"
	done
else
	mkdir "$TMP/ro"
	cp "$MMCMP_DB" "$TMP/ro/r.db"
	crash "$TMP/ro/r.db"
	chmod 777 "$TMP/ro"
	chmod 444 "$TMP/ro/r.db"
	# shellcheck disable=SC2086
	readable "$TMP/ro/r.db" "read-only file" $as_user
	chmod 555 "$TMP/ro"
	# shellcheck disable=SC2086
	readable "$TMP/ro/r.db" "read-only directory" $as_user
	chmod 755 "$TMP/ro"
	# A read-only copy of a crashed database: its -wal holds the last
	# commit, and there is no -shm that SQLite could use or create.
	mkdir "$TMP/walro"
	cp "$MMCMP_DB" "$TMP/walro/r.db"
	if command -v python3 >/dev/null && python3 - "$TMP/walro/r.db" "$dead" <<'EOF2'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA wal_autocheckpoint = 0")
c.execute("UPDATE run SET status = 'running', ended_at = NULL, pid = ?,"
          " pid_start = 1 WHERE label = 'first'", (int(sys.argv[2]),))
c.commit()
os._exit(0)  # no checkpoint: the commit stays in the -wal file
EOF2
	then
		rm "$TMP/walro/r.db-shm"
		chmod 444 "$TMP/walro/r.db" "$TMP/walro/r.db-wal"
		chmod 555 "$TMP/walro"
		w="$TMP/walro/r.db"
		before=$(cat "$w" "$w-wal" | cksum)
		# shellcheck disable=SC2086
		expect_status 0 "-wal without -shm: list" $as_user "$MMCMP" --db "$w" list
		grep_file "$TMP/out" " first .* aborted$" "-wal without -shm: list reads the commit in the -wal"
		for c in "show first" "export csv" "compare --include-incomplete first first" "power first"; do
			# shellcheck disable=SC2086
			expect_status 0 "-wal without -shm: ${c%% *}" $as_user "$MMCMP" --db "$w" $c
		done
		check "-wal without -shm: the files are unchanged" \
			test "$(cat "$w" "$w-wal" | cksum)" = "$before"
		check "-wal without -shm: no -shm is made" test ! -e "$w-shm"
		chmod 755 "$TMP/walro"
	else
		for _ in $(seq 8); do
			ok "# SKIP no python3 to leave a commit in the -wal file"
		done
	fi
fi
mnt="$TMP/mnt"
mkdir "$mnt"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=4M tmpfs "$mnt" 2>/dev/null; then
	trap 'umount "$mnt" 2>/dev/null || true; kill $live 2>/dev/null || true; rm -rf "$TMP"' EXIT
	cp "$MMCMP_DB" "$mnt/r.db"
	crash "$mnt/r.db"
	mount -o remount,ro "$mnt"
	readable "$mnt/r.db" "read-only file system"
	umount "$mnt"
	trap 'kill $live 2>/dev/null || true; rm -rf "$TMP"' EXIT
else
	for _ in $(seq 11); do
		ok "# SKIP cannot mount a tmpfs (needs root)"
	done
fi

# Issue 5: the database deleted during a run fails the run.
db="$TMP/gone.db"
"$MMCMP" --db "$db" run -q "$TMP/slow.yaml" --label gone >"$TMP/gone.out" 2>"$TMP/gone.err" &
runner=$!
two_stored() {
	[ "$(sqlite3 "$db" "SELECT count(*) FROM iteration" 2>/dev/null || echo 0)" -ge 2 ]
}
wait_for 10 two_stored || true
rm -f "$db" "$db-wal" "$db-shm"
if wait "$runner"; then st=0; else st=$?; fi
check "a run whose database was deleted fails (exit $st)" test "$st" -ne 0
grep_file "$TMP/gone.err" "database '$db' was deleted or replaced while mmcmp was using it" \
	"and says why"

# Issues 1 and 2: --replace replaces only with a good run, and never a
# live one.
expect_status 0 "a good run of keep" "$MMCMP" run -q "$TMP/good.yaml" --label keep
expect_status 1 "--replace with a run whose iterations all fail" \
	"$MMCMP" run -q "$TMP/bad.yaml" --label keep --replace
# Every measured iteration failed: the run ends failed, so it replaces nothing.
grep_file "$TMP/err" "is failed, not complete; the older runs are kept" \
	"it says the older runs are kept"
check "the good run is still there" \
	test "$(q "SELECT count(*) FROM run WHERE label = 'keep' AND status = 'complete'
		AND id IN (SELECT run_id FROM iteration WHERE status = 'ok')")" = 1
live_run keep
expect_status 1 "--replace while another run of the label is alive" \
	"$MMCMP" run -q "$TMP/good.yaml" --label keep --replace
grep_file "$TMP/err" "cannot replace the runs of 'keep': run [0-9]* is still running (pid $live)" \
	"it names the live run"
check "the live run is kept" test "$(q "SELECT status FROM run WHERE uuid = 'live-keep'")" = running
# The refused run stopped before it ran: no run of its own was stored.
check "and so are the others (3 runs)" test "$(q "SELECT count(*) FROM run WHERE label = 'keep'")" = 3
expect_status 0 "with no live run, --replace replaces" \
	sh -c "$MMCMP run -q '$TMP/good.yaml' --label keep2 && $MMCMP run -q '$TMP/good.yaml' --label keep2 --replace"
check "one run of keep2 is left" test "$(q "SELECT count(*) FROM run WHERE label = 'keep2'")" = 1
# While a --replace run of a label is alive, no --append run of it starts:
# the replacement would fail at its end and leave old and new pooled.
expect_status 0 "a good run of rep" "$MMCMP" run -q "$TMP/good.yaml" --label rep
live_run rep
q "UPDATE run SET replacing = 1 WHERE uuid = 'live-rep'"
expect_status 1 "--append while a --replace of the label is alive" \
	"$MMCMP" run -q "$TMP/good.yaml" --label rep --append
grep_file "$TMP/err" "cannot add a run to 'rep': run [0-9]* is replacing its runs (pid $live)" \
	"it names the replacing run"
check "no run was added to rep" test "$(q "SELECT count(*) FROM run WHERE label = 'rep'")" = 2
q "UPDATE run SET replacing = 0 WHERE uuid = 'live-rep'"
expect_status 0 "--append beside a live run that does not replace" \
	"$MMCMP" run -q "$TMP/good.yaml" --label rep --append
expect_status 0 "a --replace run records that it replaces" \
	"$MMCMP" run -q "$TMP/good.yaml" --label rep3 --replace
check "and the others do not" \
	test "$(q "SELECT group_concat(replacing) FROM run WHERE label IN ('rep', 'rep3') ORDER BY id")" = "0,0,0,1"
q "DELETE FROM run WHERE uuid = 'live-rep'"

# Issue 19: delete and relabel.
expect_status 0 "relabel keep2 moved" "$MMCMP" relabel keep2 moved
grep_file "$TMP/out" "^moved 1 run from 'keep2' to 'moved'$" "relabel says what it moved"
check "the run has its new label" test "$(q "SELECT count(*) FROM run WHERE label = 'moved'")" = 1
expect_status 1 "relabel onto a label with results" "$MMCMP" relabel moved first
grep_file "$TMP/err" "label 'first' already has results" "relabel names the taken label"
expect_status 0 "relabel --append onto it" "$MMCMP" relabel --append moved first
check "first has two runs" test "$(q "SELECT count(*) FROM run WHERE label = 'first'")" = 2
id=$(q "SELECT max(id) FROM run WHERE label = 'first'")
expect_status 0 "relabel --run moves one run" "$MMCMP" relabel --run "$id" first single
check "first has one run left" test "$(q "SELECT count(*) FROM run WHERE label = 'first'")" = 1
expect_status 1 "relabel of a live run" "$MMCMP" relabel keep other
grep_file "$TMP/err" "cannot relabel: run [0-9]* is still running" "relabel refuses a live run"
check "nothing was relabelled" test "$(q "SELECT count(*) FROM run WHERE label = 'keep'")" = 3
expect_status 1 "delete of a label with a live run" "$MMCMP" delete keep
grep_file "$TMP/err" "is still running (pid $live)" "delete refuses a live run"
check "nothing was deleted" test "$(q "SELECT count(*) FROM run WHERE label = 'keep'")" = 3
lid=$(q "SELECT id FROM run WHERE uuid = 'live-keep'")
expect_status 1 "delete --run of a live run" "$MMCMP" delete --run "$lid"
kill "$live"
wait "$live" 2>/dev/null || true
expect_status 0 "once its process is gone, the label can be deleted" "$MMCMP" delete keep
grep_file "$TMP/out" "^deleted 3 runs of 'keep'$" "delete says what it deleted"
check "keep has no runs, its samples are gone" \
	test "$(q "SELECT count(*) FROM run WHERE label = 'keep'")$(q "SELECT count(*) FROM sample s
		WHERE NOT EXISTS (SELECT 1 FROM iteration i WHERE i.id = s.iteration_id)")" = 00
expect_status 1 "delete of a label without runs" "$MMCMP" delete keep
grep_file "$TMP/err" "no runs with label 'keep'" "says so"
expect_status 1 "delete --run of another label's run" "$MMCMP" delete --run "$id" first
grep_file "$TMP/err" "label 'first' has no run $id" "says so"
expect_status 0 "delete --run" "$MMCMP" delete --run "$id"
grep_file "$TMP/out" "^deleted run $id of 'single'$" "delete --run says what it deleted"
expect_status 2 "delete without arguments" "$MMCMP" delete
expect_status 2 "relabel without NEW" "$MMCMP" relabel first
expect_status 2 "relabel to a label with a space" "$MMCMP" relabel first "a b"

# Issue 14: JSON import holds up to 50 times the file's size in memory
# (bench/import-memory), so a JSON file is limited to 128 MiB.
printf '{"format": "mmcmp-export", "version": 1, "generator": "", "runs": []}' >"$TMP/big.json"
truncate -s $((128 * 1024 * 1024 + 1)) "$TMP/big.json"
expect_status 2 "a JSON file over 128 MiB is refused" "$MMCMP" import "$TMP/big.json"
grep_file "$TMP/err" "big.json: too large (134217729 bytes, at most 134217728)" \
	"it says how large it may be"
rm -f "$TMP/big.json"
check "the database is intact" test "$(q 'PRAGMA integrity_check')" = ok

# Defect N3: while a --replace run of a label runs, relabel and import do
# not add runs to the label, which its end would delete with the old ones.
expect_status 0 "a run of n3old" "$MMCMP" run -q "$TMP/good.yaml" --label n3old
expect_status 0 "a run of n3" "$MMCMP" run -q "$TMP/good.yaml" --label n3
"$MMCMP" run -q "$TMP/slow.yaml" --label n3 --replace >"$TMP/n3.out" 2>"$TMP/n3.err" &
runner=$!
replacing() {
	[ "$(q "SELECT count(*) FROM iteration i JOIN run r ON r.id = i.run_id
		WHERE r.label = 'n3' AND r.replacing = 1 AND r.status = 'running'" 2>/dev/null ||
		echo 0)" -ge 1 ]
}
wait_for 30 replacing || true
expect_status 1 "relabel --append into a label being replaced is refused" \
	"$MMCMP" relabel n3old n3 --append
grep_file "$TMP/err" "cannot move runs to 'n3': run [0-9]* is replacing its runs (pid $runner)" \
	"relabel names the replacing run"
printf 'label,benchmark,operation,value\nn3,other,o,1\nn3,other,o,2\n' >"$TMP/n3.csv"
expect_status 1 "import into a label being replaced is refused" "$MMCMP" import "$TMP/n3.csv"
grep_file "$TMP/err" "cannot add a run to 'n3': run [0-9]* is replacing its runs (pid $runner)" \
	"import names the replacing run"
if wait "$runner"; then st=0; else st=$?; fi
check "the --replace run completes (exit $st)" test "$st" -eq 0
check "the run of n3old is kept" test "$(q "SELECT count(*) FROM run WHERE label = 'n3old'")" = 1
check "n3 holds the replacing run only" \
	test "$(q "SELECT count(*) || ' ' || min(replacing) FROM run WHERE label = 'n3'")" = "1 1"

# Defect N4: a database moved over the path of a running run keeps its own
# runs: the run's -wal and -shm files do not stay at the path to be
# replayed into it.
db="$TMP/rpl.db"
other="$TMP/other2.db"
expect_status 0 "a run a in another database" "$MMCMP" --db "$other" run -q "$TMP/good.yaml" --label a
expect_status 0 "a run b in it" "$MMCMP" --db "$other" run -q "$TMP/good.yaml" --label b
"$MMCMP" --db "$db" run -q "$TMP/slow.yaml" --label A >"$TMP/rpl.out" 2>"$TMP/rpl.err" &
runner=$!
wait_for 30 two_stored || true
mv "$other" "$db"
if wait "$runner"; then st=0; else st=$?; fi
check "the run whose database was replaced fails (exit $st)" test "$st" -ne 0
grep_file "$TMP/rpl.err" "was deleted or replaced while mmcmp was using it; its -wal file is now '$db-wal.stale.$runner'" \
	"it says where its -wal file went"
check "no -wal or -shm file is left at the path" sh -c "test ! -e '$db-wal' && test ! -e '$db-shm'"
expect_status 0 "the moved-in database can be listed" "$MMCMP" --db "$db" list
check "and has its own two runs, no other" \
	test "$(grep -c ' \(a\|b\) .* complete$' "$TMP/out")/$(grep -c ' A ' "$TMP/out" || true)" = 2/0

# Defect N18: --db file:... is refused by writers and readers alike, as a
# writer took it for a URI and a reader for a file name; ./file:... is a
# file of that name.
for c in "run -q $TMP/good.yaml --label u" "import $TMP/one.csv" list "export json"; do
	# shellcheck disable=SC2086
	expect_status 2 "${c%% *} --db file:... is refused" "$MMCMP" --db "file:$TMP/uri.db" $c
	grep_file "$TMP/err" "^mmcmp: error: --db 'file:$TMP/uri.db' is a URI, not a file path; for a file of that name give './file:$TMP/uri.db'$" \
		"${c%% *}: the refusal says why"
done
check "no database was made for the URI" sh -c "test ! -e '$TMP/uri.db' && test ! -e 'file:$TMP/uri.db'"
expect_status 0 "--db ./file:... is a file of that name" \
	sh -c "cd '$TMP' && '$MMCMP' --db ./file:lit.db run -q '$TMP/good.yaml' --label u && '$MMCMP' --db ./file:lit.db list"
grep_file "$TMP/out" " u .* complete$" "a reader finds it under the same name"
check "it is the file of that name" test -s "$TMP/file:lit.db"

# Defect N19: -o '' is a bad argument, not a failed rename.
for c in "export json" "compare first first"; do
	# shellcheck disable=SC2086
	expect_status 2 "${c%% *} -o '' is refused" "$MMCMP" $c -o ''
	grep_file "$TMP/err" "^mmcmp: error: -o '': the output path is empty$" "${c%% *}: says the path is empty"
done

done_testing
