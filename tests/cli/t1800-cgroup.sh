#!/bin/sh
# Cgroups: mmcmp run creates a nested cgroup, runs each workload process
# in it, records it, kills what is left in it and removes it; and says
# what is missing when it cannot. Each kind of hierarchy is tried where
# this machine has a writable one (cgroup v2 at /sys/fs/cgroup, the v2
# tree of a hybrid layout, cgroup v1 memory), and skipped, saying why,
# where not.
. ./lib.sh

top="mmcmp-t1800-$$"
marker="1000.$$"

# skip REASON: a TAP line that counts as passed.
skip() {
	ok "# SKIP $1"
}

# writable DIR TYPE: DIR is a cgroup filesystem of TYPE (cgroup2fs,
# cgroupfs) in which we may create cgroups.
writable() {
	[ "$(stat -f -c %T "$1" 2>/dev/null)" = "$2" ] &&
		mkdir "$1/$top-probe" 2>/dev/null && rmdir "$1/$top-probe"
}

# config NAME CGROUP-YAML: a config whose workload counts the lines of
# /proc/self/cgroup that name our cgroup (grep fails on none) and leaves
# a process behind outside its process group.
config() {
	cat >"$TMP/$1.yaml" <<EOF2
name: $1
iterations: 2
workloads:
  - name: inside
    shell: true
    command: "setsid sleep $marker </dev/null >/dev/null 2>&1 & grep -c '/$top/' /proc/self/cgroup"
    metrics:
      - name: lines
        extract:
          regex: "^([0-9]+)\$"
cgroup:
$2
EOF2
}

# try WHAT ROOT CGROUP-YAML: run the config, check the placement, the
# record and the clean-up.
try() {
	what=$1
	root=$2
	config "$what" "$3"
	expect_status 0 "$what: a run in a nested cgroup" \
		"$MMCMP" run -q "$TMP/$what.yaml" --label "$what"
	check "$what: every iteration ran inside it" \
		test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM sample s
			JOIN iteration i ON i.id = s.iteration_id
			JOIN run r ON r.id = i.run_id
			WHERE r.label = '$what' AND s.value >= 1")" -eq 2
	check "$what: the run records the cgroup" \
		test "$(sqlite3 "$MMCMP_DB" "SELECT cgroup FROM run
			WHERE label = '$what'")" = "$root/$top/a/leaf"
	expect_status 0 "$what: show" "$MMCMP" show "$what"
	grep_file "$TMP/out" "^  cgroup:    $root/$top/a/leaf$" \
		"$what: show prints it"
	check "$what: the levels made are removed" test ! -e "$root/$top"
	check "$what: the process left behind was killed" \
		sh -c "! pgrep -f 'slee[p] $marker' >/dev/null"
}

cleanup() {
	pkill -f "slee[p] $marker" 2>/dev/null || true
	for d in /sys/fs/cgroup /sys/fs/cgroup/unified /sys/fs/cgroup/memory; do
		for c in "$d/$top/a/leaf" "$d/$top/a" "$d/$top/tcp" "$d/$top/max" "$d/$top"; do
			[ -d "$c" ] && rmdir "$c" 2>/dev/null
		done
	done
	rm -rf "$TMP"
}
trap cleanup EXIT

if writable /sys/fs/cgroup cgroup2fs; then
	if grep -qw pids /sys/fs/cgroup/cgroup.controllers; then
		try v2 /sys/fs/cgroup "  path: $top/a/leaf
  controllers: [pids]
  limits: { pids.max: \"64\" }"
	else
		try v2 /sys/fs/cgroup "  path: $top/a/leaf"
	fi
else
	skip "/sys/fs/cgroup is not a writable cgroup v2 tree"
fi

if writable /sys/fs/cgroup/unified cgroup2fs; then
	try hybrid-v2 /sys/fs/cgroup/unified "  path: $top/a/leaf"
	# A controller the v2 tree does not offer.
	if ! grep -qw memory /sys/fs/cgroup/unified/cgroup.controllers; then
		config nomem "  path: $top/a/leaf
  controllers: [memory]
  root: /sys/fs/cgroup/unified"
		expect_status 1 "a controller the tree lacks" \
			"$MMCMP" run -q "$TMP/nomem.yaml" --label nomem
		grep_file "$TMP/err" "controller 'memory' is not available in '/sys/fs/cgroup/unified/cgroup.controllers'" \
			"the error names the controller and the file"
		check "nothing is left behind" test ! -e "/sys/fs/cgroup/unified/$top"
	else
		skip "the v2 tree offers every controller"
	fi
else
	skip "/sys/fs/cgroup/unified is not a writable cgroup v2 tree"
fi

if writable /sys/fs/cgroup/memory cgroupfs; then
	try v1-memory /sys/fs/cgroup/memory "  path: $top/a/leaf
  controllers: [memory]
  limits: { memory.limit_in_bytes: \"268435456\" }
  root: /sys/fs/cgroup/memory"
	check "v1-memory: each iteration records the cgroup's counters" \
		test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration_monitor m
			JOIN iteration i ON i.id = m.iteration_id
			JOIN run r ON r.id = i.run_id
			WHERE r.label = 'v1-memory'
			AND json_extract(m.cgroup, '\$.\"memory.stat.pgfault\"') > 0
			AND json_extract(m.cgroup, '\$.\"memory.kmem.tcp.failcnt\"') >= 0
			AND json_extract(m.cgroup_end, '\$.\"memory.kmem.tcp.max_usage_in_bytes\"') >= 0
			AND json_extract(m.cgroup_start, '\$.\"memory.usage_in_bytes\"') >= 0")" -eq 2
	expect_status 0 "v1-memory: compare --monitors" \
		"$MMCMP" compare --monitors v1-memory v1-memory
	grep_file "$TMP/out" "^inside cgroup$" "a table of the cgroup's counters follows"
	grep_file "$TMP/out" "^Amean  *memory.stat.pgfault " \
		"with the page faults charged to the cgroup"

	# tcp_limit: the workload reads its own cgroup's limit; a network
	# workload without one is warned about.
	tcpfile="/sys/fs/cgroup/memory/$top/tcp/memory.kmem.tcp.limit_in_bytes"
	for what in tcp-set tcp-unset; do
		if [ $what = tcp-set ]; then
			name=netwl
			extra="    network: true"
			limit="  tcp_limit: 64M"
		else
			name=netstream-like
			extra=""
			limit=""
		fi
		cat >"$TMP/$what.yaml" <<EOF2
name: $what
iterations: 1
workloads:
  - name: $name
$extra
    command: [cat, "$tcpfile"]
    metrics:
      - name: limit
        extract:
          regex: "^([0-9]+)\$"
cgroup:
  path: $top/tcp
  controllers: [memory]
$limit
EOF2
		expect_status 0 "$what: a run" \
			"$MMCMP" run -q "$TMP/$what.yaml" --label "$what"
		cp "$TMP/err" "$TMP/$what.err"
	done
	check "tcp_limit is written to memory.kmem.tcp.limit_in_bytes" \
		test "$(sqlite3 "$MMCMP_DB" "SELECT s.value FROM sample s
			JOIN iteration i ON i.id = s.iteration_id
			JOIN run r ON r.id = i.run_id WHERE r.label = 'tcp-set'")" = 67108864.0
	check "with tcp_limit, no warning" \
		sh -c "! grep -q 'tcp_limit' '$TMP/tcp-set.err'"
	grep_file "$TMP/tcp-unset.err" \
		"^mmcmp: warning: tcp-unset: cgroup '/sys/fs/cgroup/memory/$top/tcp' is on the cgroup v1 memory controller without tcp_limit, so the socket buffers of network workload 'netstream-like' are not charged to it" \
		"a network workload without tcp_limit is warned about"
	check "the levels are removed" test ! -e "/sys/fs/cgroup/memory/$top"
else
	skip "/sys/fs/cgroup/memory is not a writable cgroup v1 memory hierarchy"
fi

# Errors that need no writable hierarchy.
config notcg "  path: $top/a
  root: $TMP"
expect_status 1 "a root that is no cgroup filesystem" \
	"$MMCMP" run -q "$TMP/notcg.yaml" --label notcg
grep_file "$TMP/err" "^mmcmp: error: '$TMP' is not a cgroup filesystem$" \
	"the error says so"
check "no run is recorded" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM run WHERE label = 'notcg'")" -eq 0

# An existing last level, and no permission (as nobody, when root).
for d in /sys/fs/cgroup /sys/fs/cgroup/unified; do
	writable "$d" cgroup2fs || continue
	mkdir -p "$d/$top/a/leaf"
	config exists "  path: $top/a/leaf
  root: $d"
	expect_status 1 "a last level that exists already" \
		"$MMCMP" run -q "$TMP/exists.yaml" --label exists
	grep_file "$TMP/err" "cgroup '$d/$top/a/leaf' exists already" \
		"the error names it"
	check "the existing levels are kept" test -d "$d/$top/a/leaf"
	rmdir "$d/$top/a/leaf" "$d/$top/a" "$d/$top"
	if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
		mkdir "$TMP/nobody"
		chmod 777 "$TMP/nobody"
		chmod 711 "$TMP"
		config denied "  path: $top/a/leaf
  root: $d"
		chmod 644 "$TMP/denied.yaml"
		expect_status 1 "without permission" \
			setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$MMCMP" --db "$TMP/nobody/x.db" run -q "$TMP/denied.yaml"
		grep_file "$TMP/err" "cannot create cgroup '$d/$top': Permission denied" \
			"the error names the cgroup and the reason"
	else
		skip "not root: cannot test running without permission"
	fi
	break
done


# memory.max, cgroup v2's name, on the v1 memory controller: written as
# memory.limit_in_bytes ("max" as v1's -1), so one config limits memory
# on either layout. The workload reads its own cgroup's limit.
if writable /sys/fs/cgroup/memory cgroupfs; then
	v1file="/sys/fs/cgroup/memory/$top/max/memory.limit_in_bytes"
	for max in 64M max; do
		cat >"$TMP/v1max.yaml" <<EOF2
name: v1max
iterations: 1
workloads:
  - name: limit
    command: [cat, "$v1file"]
    metrics:
      - name: limit
        extract:
          regex: "^([0-9]+)\$"
cgroup:
  path: $top/max
  controllers: [memory]
  limits: { memory.max: $max }
EOF2
		expect_status 0 "v1 memory.max: $max" \
			"$MMCMP" run -q "$TMP/v1max.yaml" --label "v1max-$max"
	done
	check "v1 memory.max: 64M is written as memory.limit_in_bytes" \
		test "$(sqlite3 "$MMCMP_DB" "SELECT s.value FROM sample s
			JOIN iteration i ON i.id = s.iteration_id
			JOIN run r ON r.id = i.run_id WHERE r.label = 'v1max-64M'")" = 67108864.0
	check "v1 memory.max: max is no limit" \
		test "$(sqlite3 "$MMCMP_DB" "SELECT s.value > 1e18 FROM sample s
			JOIN iteration i ON i.id = s.iteration_id
			JOIN run r ON r.id = i.run_id WHERE r.label = 'v1max-max'")" = 1
	check "v1 memory.max: the level is removed" test ! -e "/sys/fs/cgroup/memory/$top/max"
else
	skip "/sys/fs/cgroup/memory is not a writable cgroup v1 memory hierarchy"
fi

done_testing
