#!/bin/sh
# usemem under a memory cgroup limit of half its footprint against the
# same cgroup without a limit: reclaim makes the elapsed and system time
# worse, and compare says so; two unlimited builds (A/A) get no mark.
# usemem gives its pages MADV_FREE once written (--free lazy), so reclaim
# needs no swap. The limit is memory.max on either layout (v1 writes it
# as memory.limit_in_bytes), as configs/usemem-memcg.yaml has it. The
# memcg reclaim stalls, counted by the perf monitor's tracepoints, and
# their time (memcg-reclaim-stall, begin to end per task) are worse too:
# the runs go in a mount namespace of their own with tracefs mounted, so
# the machine's mounts stay as they are. Needs a writable
# memory cgroup (v2, or the v1 memory hierarchy); skipped, saying why,
# without one.
. ./lib.sh

top="mmcmp-t1560-$$"

cleanup() {
	for d in /sys/fs/cgroup /sys/fs/cgroup/memory; do
		for c in "$d/$top"/* "$d/$top"; do
			[ -d "$c" ] && rmdir "$c" 2>/dev/null
		done
	done
	rm -rf "$TMP"
}
trap cleanup EXIT

# The limit's file and the hierarchy, by layout.
if grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null &&
	mkdir "/sys/fs/cgroup/$top" 2>/dev/null; then
	rmdir "/sys/fs/cgroup/$top"
	root=
elif [ "$(stat -f -c %T /sys/fs/cgroup/memory 2>/dev/null)" = cgroupfs ] &&
	mkdir "/sys/fs/cgroup/memory/$top" 2>/dev/null; then
	rmdir "/sys/fs/cgroup/memory/$top"
	root="root: /sys/fs/cgroup/memory"
else
	skip_all "no writable memory cgroup (v2 with the memory controller, or v1 /sys/fs/cgroup/memory)"
fi

# The tracepoints: in a mount namespace with tracefs, where unshare can
# make one; else the stall rows are not checked.
reclaim=vmscan:mm_vmscan_memcg_reclaim_begin
tracing=
if command -v unshare >/dev/null &&
	unshare -m sh -c 'mount -t tracefs nodev /sys/kernel/tracing &&
		test -r /sys/kernel/tracing/events/vmscan/mm_vmscan_memcg_reclaim_begin/id' \
		2>/dev/null; then
	tracing=1
else
	ok "# SKIP no tracefs in a mount namespace of its own: no stall rows"
fi
# run ARGS...: mmcmp ARGS, in the namespace with tracefs when there is one.
run() {
	if [ -n "$tracing" ]; then
		# shellcheck disable=SC2016 # expanded by the inner shell
		unshare -m sh -c 'mount -t tracefs nodev /sys/kernel/tracing &&
			exec "$@"' sh "$MMCMP" "$@"
	else
		"$MMCMP" "$@"
	fi
}

# config NAME BUILD-A LIMIT-A BUILD-B LIMIT-B: usemem, 32 MiB written by
# two processes four times over, under two builds taking turns, each in
# a cgroup of its own with LIMIT bytes (none: no limit).
config() {
	cat >"$TMP/$1.yaml" <<EOF2
name: $1
iterations: 6
interleave: true
monitors: true
perf: [$reclaim, vmscan:mm_vmscan_memcg_reclaim_end]
workloads:
  - name: usemem
    command: [usemem, --tasks, "2", --size, 32M, --passes, "4", --free, lazy]
    operation: "{metric}-2"
    metrics:
      - { name: elsp, unit: s, decimals: 4, extract: { parser: kv, field: elsp } }
      - { name: syst, unit: s, decimals: 4, extract: { parser: kv, field: syst } }
builds:
$(for b in "$2:$3" "$4:$5"; do
	echo "  ${b%%:*}:"
	echo "    cgroup:"
	echo "      path: $top/${b%%:*}"
	echo "      controllers: [memory]"
	[ -z "$root" ] || echo "      $root"
	[ "${b#*:}" = none ] || echo "      limits: { memory.max: \"${b#*:}\" }"
done)
EOF2
}

# verdicts FILE OP LABEL: the verdict of OP's mean row of LABEL, the
# compared one, in compare's csv.
verdicts() {
	awk -F, -v op="$2" -v label="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == "verdict") v = i; next }
		$2 ~ /^[AH]mean$/ && $3 == op && $4 == label { print $v }
	' "$1"
}

config limit nolimit none half 16777216
expect_status 0 "usemem runs with and without a limit of half its footprint" \
	run run -q "$TMP/limit.yaml" --label m
expect_status 0 "compare nolimit half" "$MMCMP" compare --format csv \
	m-nolimit m-half
cp "$TMP/out" "$TMP/limit.csv"
check "every iteration under the limit ran to the end" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration i
		JOIN run r ON r.id = i.run_id
		WHERE r.label = 'm-half' AND i.status = 'ok'")" -eq 6
# pgfault: the pages the next pass found gone, as reclaim dropped them.
faults() {
	sqlite3 "$MMCMP_DB" "SELECT min(json_extract(m.cgroup,
			'\$.\"memory.stat.pgfault\"'))
		FROM iteration_monitor m
		JOIN iteration i ON i.id = m.iteration_id
		JOIN run r ON r.id = i.run_id WHERE r.label = '$1'"
}
check "the limit makes reclaim drop pages: more faults under it ($(faults m-nolimit) against $(faults m-half))" \
	test "$(faults m-half)" -gt $(($(faults m-nolimit) * 2))
for op in elsp-2 syst-2 ${tracing:+$reclaim memcg-reclaim-stall}; do
	check "$op is worse under the limit ($(verdicts "$TMP/limit.csv" "$op" m-half))" \
		[ "$(verdicts "$TMP/limit.csv" "$op" m-half)" = worse ]
done
# The counters count the iterations' own cgroup where the memory cgroups
# are v1 and a v2 tree is there (a hybrid layout): its sampled stall
# events are the ones checked above. In a v2 memory cgroup they count
# process trees (docs/perf.md, Scope).
scope=process
if [ -n "$root" ] &&
	[ "$(stat -f -c %T /sys/fs/cgroup/unified 2>/dev/null)" = cgroup2fs ]; then
	scope=cgroup
fi
check "the perf counters counted per $scope" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT group_concat(DISTINCT scope) FROM iteration_perf")" = "$scope"

config aa a none b none
expect_status 0 "usemem runs in two cgroups without a limit" \
	run run -q "$TMP/aa.yaml" --label aa
# At the default level an A/A pair of calibrated tests is marked in about
# one run in twenty (up to four rows, BH), which would fail this test as
# often for nothing; at 0.01 that chance is about 1%, while a systematic
# A/A difference (one build always running right after the other, say)
# is still marked.
expect_status 0 "compare a b" "$MMCMP" compare --alpha 0.01 --format csv aa-a aa-b
cp "$TMP/out" "$TMP/aa.csv"
for op in elsp-2 syst-2 ${tracing:+$reclaim memcg-reclaim-stall}; do
	v=$(verdicts "$TMP/aa.csv" "$op" aa-b)
	check "A/A: $op has no mark ($v)" [ "$v" != worse ] && [ "$v" != better ]
done
check "the cgroups are removed" test ! -e "/sys/fs/cgroup/memory/$top" -a \
	! -e "/sys/fs/cgroup/$top"

done_testing
