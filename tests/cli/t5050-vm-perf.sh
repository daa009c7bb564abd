#!/bin/sh
# The perf monitor in a QEMU guest under TCG: the agent opens the same
# counters around each iteration (software events and the tracepoints,
# tracefs mounted by the agent) and sends them with the snapshots; the
# host stores them as it does its own.
#
# Needs qemu-system-x86_64 and a kernel, as t5000-vm.sh.
. ./lib.sh
TOUCH=${TOUCH_PAGES:?run through meson test}
need_guest
need sqlite3 "Debian package sqlite3"
export TMPDIR="$TMP"

# 16 MiB written page by page: at least 4096 faults in the guest.
cat >"$TMP/vm.yaml" <<EOF2
name: vmperf
iterations: 2
timeout: 60
perf: [default]
workloads:
  - name: touch
    command: ["$TOUCH", "16", nohugepage]
    metrics:
      - name: elapsed
        extract: { measure: elapsed }
kernels:
  k: { image: $kernel }
vm: { cpus: 1, memory: 512M, accel: tcg, boots: 1, boot_timeout: 120 }
EOF2
expect_status 0 "a run with perf counters in a guest" \
	"$MMCMP" run -q --label g "$TMP/vm.yaml"
check "each iteration has the guest's counters" \
	test "$(q "SELECT count(*) FROM iteration_perf
		WHERE json_extract(counters, '\$.page-faults') >= 4096
		AND json_extract(counters, '\$.task-clock') > 0
		AND json_extract(counters, '\$.context-switches') >= 0")" -eq 2
check "the tracepoints are counted there too" \
	test "$(q "SELECT count(*) FROM iteration_perf
		WHERE json_extract(counters, '\$.vmscan:mm_vmscan_direct_reclaim_begin') >= 0")" -eq 2
check "what TCG lacks is stored as absent, not as zero" \
	test "$(q "SELECT count(*) FROM iteration_perf
		WHERE absent LIKE '%cycles%' AND json_extract(counters, '\$.cycles') IS NULL")" -eq 2
check "and said once" test "$(grep -c 'perf events not counted' "$TMP/err")" -eq 1
expect_status 0 "compare shows them" "$MMCMP" compare g-k g-k
grep_file "$TMP/out" "^touch perf$" "in a perf table"
grep_file "$TMP/out" "^Amean  *page-faults " "with a page-faults row"

done_testing
