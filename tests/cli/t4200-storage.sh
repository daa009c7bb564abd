#!/bin/sh
# mmcmp run against storage that refuses writes: a read-only database
# file, a read-only directory, a file-size limit (EFBIG) and a full file
# system (ENOSPC). Each gives a clear error and a non-zero exit; nothing is
# stored half: the database passes PRAGMA integrity_check and every
# stored iteration has all its samples.
. ./lib.sh

need sqlite3 "Debian package sqlite3"

q() {
	sqlite3 "$1" "$2"
}

# Each iteration appends a line to $TMP/ran, so a test can tell whether
# anything ran. 2000 samples per iteration fill a small disk quickly.
cat >"$TMP/small.yaml" <<EOF2
name: small
iterations: 2
workloads:
  - name: s
    shell: true
    command: "echo x >>'$TMP/ran'; '$FAKE_BENCH' --values 1,2,3"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
cat >"$TMP/big.yaml" <<EOF2
name: big
iterations: 1000
workloads:
  - name: b
    command: ["$FAKE_BENCH", "--repeat", "2000", "--print", "total:1.5"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9.]+)" }
EOF2

# The state of database $1 that no refused write may change.
snapshot() {
	{
		q "$1" "SELECT id, label, status FROM run ORDER BY id;
			SELECT count(*) FROM iteration; SELECT count(*) FROM sample"
		cksum <"$1"
	} 2>&1
}

# consistent DB DESC: integrity_check passes and each stored iteration
# that is ok has its 2000 samples (for big.yaml).
consistent() {
	integrity=$(q "$1" "PRAGMA integrity_check" 2>&1)
	partial=$(q "$1" "SELECT count(*) FROM iteration i WHERE i.status = 'ok' AND
		(SELECT count(*) FROM sample s WHERE s.iteration_id = i.id) <> 2000" 2>&1)
	if [ "$integrity" = ok ] && [ "$partial" = 0 ]; then
		ok "$2"
	else
		not_ok "$2"
		echo "# integrity_check: $integrity; iterations without their samples: $partial"
	fi
}

# Read-only: root writes whatever the modes say, so as root mmcmp runs as
# nobody (setpriv, util-linux) in a directory nobody may read.
if [ "$(id -u)" -ne 0 ]; then
	as_user() { "$@"; }
	ro_skip=""
elif command -v setpriv >/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups "$MMCMP" --version >/dev/null 2>&1; then
	as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	ro_skip=""
	chmod 755 "$TMP"
	chmod 644 "$TMP/small.yaml" "$TMP/big.yaml"
else
	ro_skip="root, and cannot run mmcmp as nobody with setpriv"
fi
if [ -n "$ro_skip" ]; then
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
		ok "# SKIP $ro_skip"
	done
else
	mkdir "$TMP/ro"
	chmod 777 "$TMP/ro"
	touch "$TMP/ran"
	chmod 666 "$TMP/ran"
	db="$TMP/ro/r.db"
	as_user "$MMCMP" --db "$db" run -q "$TMP/small.yaml" --label first >/dev/null
	: >"$TMP/ran"

	# A read-only database file in a writable directory.
	chmod 444 "$db"
	before=$(snapshot "$db")
	expect_status 1 "read-only file: run fails" \
		as_user "$MMCMP" --db "$db" run -q "$TMP/small.yaml" --label second
	grep_file "$TMP/err" "^mmcmp: error: database '$db' is read-only (Permission denied)$" \
		"read-only file: the error says the database is read-only"
	check "read-only file: the error names the database" \
		grep -q "'$db'" "$TMP/err"
	check "read-only file: nothing ran" test ! -s "$TMP/ran"
	check "read-only file: the database is unchanged" \
		test "$(snapshot "$db")" = "$before"
	# Looking at results needs no write.
	expect_status 0 "read-only file: mmcmp list" as_user "$MMCMP" --db "$db" list
	grep_file "$TMP/out" " first .* complete$" "read-only file: list shows the run"

	# A writable database file in a read-only directory: SQLite cannot
	# create the -wal and -shm files next to it.
	chmod 666 "$db"
	chmod 555 "$TMP/ro"
	before=$(snapshot "$db")
	expect_status 1 "read-only directory: run fails" \
		as_user "$MMCMP" --db "$db" run -q "$TMP/small.yaml" --label second
	grep_file "$TMP/err" "^mmcmp: error: .*'$db'" \
		"read-only directory: the error names the database"
	check "read-only directory: nothing ran" test ! -s "$TMP/ran"
	check "read-only directory: the database is unchanged" \
		test "$(snapshot "$db")" = "$before"

	# No database yet, and a read-only directory to create it in.
	expect_status 1 "read-only directory, new database: run fails" \
		as_user "$MMCMP" --db "$TMP/ro/new.db" run -q "$TMP/small.yaml" --label new
	grep_file "$TMP/err" "^mmcmp: error: cannot open database '$TMP/ro/new.db'" \
		"read-only directory, new database: the error says so"
	check "read-only directory, new database: nothing ran, no file" \
		sh -c "test ! -s '$TMP/ran' && test ! -e '$TMP/ro/new.db'"
	chmod 755 "$TMP/ro"
fi

# A file-size limit: writes beyond it fail with EFBIG (SIGXFSZ ignored,
# as it is inherited through exec). The limit is in blocks of 512 bytes
# in dash and of 1024 in bash: 1 or 2 MiB.
db="$TMP/fsize.db"
(
	trap '' XFSZ
	ulimit -f 2048
	exec "$MMCMP" --db "$db" run "$TMP/big.yaml" --label full >"$TMP/out" 2>"$TMP/err"
) && st=0 || st=$?
check "file-size limit: run fails with exit status 1 (got $st)" test "$st" -eq 1
grep_file "$TMP/err" "^mmcmp: error: " "file-size limit: an error is printed"
check "file-size limit: the error names the database" grep -q "'$db'" "$TMP/err"
echo "# file-size limit: $(head -n 1 "$TMP/err"); $(cat "$TMP/out")"
consistent "$db" "file-size limit: the database is intact, no partial iteration"
stored=$(q "$db" "SELECT count(*) FROM iteration")
check "file-size limit: the summary counts what is stored ($stored iterations)" \
	grep -q "full: run 1 [a-z]*, $stored iterations (0 failed), $((stored * 2000)) samples" "$TMP/out"
expect_status 0 "file-size limit: list afterwards" "$MMCMP" --db "$db" list
grep_file "$TMP/out" " full .* \(failed\|aborted\)$" \
	"file-size limit: the run is failed or aborted"
expect_status 0 "file-size limit: without the limit the database takes another run" \
	"$MMCMP" --db "$db" run -q "$TMP/small.yaml" --label more

# A limit too small for the first page: nothing can be created.
db="$TMP/tiny.db"
(
	trap '' XFSZ
	ulimit -f 1
	exec "$MMCMP" --db "$db" run -q "$TMP/small.yaml" --label tiny >"$TMP/out" 2>"$TMP/err"
) && st=0 || st=$?
check "tiny file-size limit: run fails with exit status 1 (got $st)" test "$st" -eq 1
grep_file "$TMP/err" "^mmcmp: error: .*'$db'" "tiny file-size limit: the error names the database"
echo "# tiny file-size limit: $(head -n 1 "$TMP/err")"
expect_status 0 "tiny file-size limit: without the limit the same path works" \
	"$MMCMP" --db "$db" run -q "$TMP/small.yaml" --label tiny

# A full file system: a 1 MiB tmpfs (root only).
mnt="$TMP/mnt"
mkdir "$mnt"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=1M tmpfs "$mnt" 2>"$TMP/mount-err"; then
	trap 'umount "$mnt" 2>/dev/null; rm -rf "$TMP"' EXIT
	db="$mnt/full.db"
	expect_status 1 "full disk: run fails" "$MMCMP" --db "$db" run "$TMP/big.yaml" --label full
	grep_file "$TMP/err" "^mmcmp: error: .*full" "full disk: the error says the disk is full"
	check "full disk: the error names the database" grep -q "'$db'" "$TMP/err"
	echo "# full disk: $(head -n 1 "$TMP/err"); $(cat "$TMP/out")"
	consistent "$db" "full disk: the database is intact, no partial iteration"
	stored=$(q "$db" "SELECT count(*) FROM iteration")
	check "full disk: the summary counts what is stored ($stored iterations)" \
		grep -q "full: run 1 [a-z]*, $stored iterations (0 failed), $((stored * 2000)) samples" "$TMP/out"
	expect_status 0 "full disk: list still works" "$MMCMP" --db "$db" list
	grep_file "$TMP/out" " full .* \(failed\|aborted\)$" "full disk: the run is failed or aborted"
	umount "$mnt"
	trap 'rm -rf "$TMP"' EXIT
else
	why="cannot mount a tmpfs: $(head -c 100 "$TMP/mount-err" 2>/dev/null)"
	[ "$(id -u)" -eq 0 ] || why="not root, cannot mount a tmpfs"
	for _ in 1 2 3 4 5 6 7; do
		ok "# SKIP $why"
	done
fi

# Defects N10 and N19: a database closed cleanly (no -wal, no -shm) on a
# file system that is then filled, or made read-only. Readers read it
# (SQLite cannot create the -shm file) and leave nothing behind; writers
# say why they cannot write (root only, for the mounts).
mnt="$TMP/mnt2"
mkdir "$mnt"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=2M tmpfs "$mnt" 2>"$TMP/mount-err"; then
	trap 'umount "$mnt" 2>/dev/null; rm -rf "$TMP"' EXIT
	db="$mnt/l.db"
	expect_status 0 "a run on a small file system" "$MMCMP" --db "$db" run -q "$TMP/small.yaml" --label first
	dd if=/dev/zero of="$mnt/fill" bs=4k 2>/dev/null || true
	expect_status 0 "full disk, no -shm: list works" "$MMCMP" --db "$db" list
	grep_file "$TMP/out" " first .* complete$" "full disk, no -shm: list shows the run"
	expect_status 0 "full disk, no -shm: export to another disk works" \
		"$MMCMP" --db "$db" export json -o "$TMP/l.json"
	check "full disk, no -shm: the export holds the run" grep -q '"label":[[:space:]]*"first"' "$TMP/l.json"
	expect_status 1 "full disk, no -shm: run fails" "$MMCMP" --db "$db" run -q "$TMP/small.yaml" --label second
	grep_file "$TMP/err" "^mmcmp: error: .*'$db'.*(No space left on device)$" \
		"full disk, no -shm: the error says the disk is full"
	check "full disk, no -shm: no -wal or -shm file is left" \
		sh -c "test ! -e '$db-wal' && test ! -e '$db-shm'"
	rm -f "$mnt/fill"
	mount -o remount,ro "$mnt"
	for c in "run -q $TMP/small.yaml --label second" "import $TMP/l.json"; do
		# shellcheck disable=SC2086
		expect_status 1 "read-only file system: ${c%% *} fails" "$MMCMP" --db "$db" $c
		grep_file "$TMP/err" "^mmcmp: error: database '$db' is read-only (Read-only file system)$" \
			"read-only file system: ${c%% *} says so"
	done
	expect_status 1 "read-only file system: a new database fails" \
		"$MMCMP" --db "$mnt/new.db" import "$TMP/l.json"
	grep_file "$TMP/err" "^mmcmp: error: cannot open database '$mnt/new.db': .*(Read-only file system)$" \
		"read-only file system: the error says why"
	umount "$mnt"
	trap 'rm -rf "$TMP"' EXIT
else
	why="cannot mount a tmpfs: $(head -c 100 "$TMP/mount-err" 2>/dev/null)"
	[ "$(id -u)" -eq 0 ] || why="not root, cannot mount a tmpfs"
	for _ in $(seq 15); do
		ok "# SKIP $why"
	done
fi

done_testing
