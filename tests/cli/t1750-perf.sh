#!/bin/sh
# The perf monitor: `perf: [...]` counts kernel events per iteration with
# perf_event_open, stored in iteration_perf and tested in a "BENCH perf"
# table as the workload rows are; an event the machine lacks is stored
# as absent and said once; an unknown event is refused with its position;
# the mm tracepoints count memcg reclaim in a memory-limited cgroup.
. ./lib.sh

PF=${WORKLOAD_PAGE_FAULT:?run through meson test}
TOUCH=${TOUCH_PAGES:?run through meson test}
need sqlite3 "Debian package sqlite3"

# A config naming an unknown event: refused, with file, line and column.
cat >"$TMP/bad.yaml" <<EOF2
name: bad
perf: [page-faults, page-fualts]
workloads:
  - name: t
    command: [true]
    metrics:
      - name: elapsed
        extract:
          measure: elapsed
EOF2
expect_status 2 "an unknown perf event" "$MMCMP" run "$TMP/bad.yaml"
grep_file "$TMP/err" "bad.yaml:2:21: unknown perf event 'page-fualts' (known: default, task-clock," \
	"names the event, its position and the known ones"
check "and stores nothing" test ! -e "$MMCMP_DB"
sed 's/^perf:.*/monitors: false\nperf: [default]/' "$TMP/bad.yaml" >"$TMP/nomon.yaml"
expect_status 2 "perf without monitors" "$MMCMP" run "$TMP/nomon.yaml"
grep_file "$TMP/err" "nomon.yaml:3:7: 'perf' needs 'monitors: true'" "says what it needs"

# Page faults: the will-it-scale program, two identical builds (A/A),
# alternated so that a load that drifts hits both alike.
cat >"$TMP/pf.yaml" <<EOF2
name: pf
iterations: 5
interleave: true
perf: [default]
workloads:
  - name: wis-pf
    command: ["$PF", --mode, processes, --tasks, "1", --seconds, "1",
              --warmup, "0", --size, 16M]
    operation: ops-page_fault1_processes-1
    metrics:
      - name: ops
        unit: ops/s
        better: higher
        extract:
          parser: will-it-scale
builds:
  a: {}
  b: {}
EOF2
"$MMCMP" run -q "$TMP/pf.yaml" --label pf >"$TMP/out" 2>"$TMP/err" || true
if grep -q "perf: no event could be opened" "$TMP/err"; then
	skip_all "perf_event_open works for no event here: $(cat "$TMP/err")"
fi
check "the run completed" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM run WHERE status = 'complete'")" -eq 2
check "every iteration has its perf counters" \
	test "$(sqlite3 "$MMCMP_DB" 'SELECT count(*) FROM iteration_perf')" -eq 10
check "page faults, task-clock and context switches were counted" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration_perf
		WHERE json_extract(counters, '\$.page-faults') > 1000
		AND json_extract(counters, '\$.task-clock') > 0
		AND json_extract(counters, '\$.context-switches') >= 0")" -eq 10
check "minor faults are the page faults that were not major" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration_perf
		WHERE json_extract(counters, '\$.page-faults') =
		json_extract(counters, '\$.minor-faults') +
		json_extract(counters, '\$.major-faults')")" -eq 10
absent=$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration_perf WHERE absent IS NOT NULL")
if [ "$absent" -gt 0 ]; then
	check "an absent event is said once" \
		test "$(grep -c 'perf events not counted: ' "$TMP/err")" -eq 1
	check "with its reason" grep -q "perf events not counted: .*: [a-z]" "$TMP/err"
	check "and is not stored as zero" \
		test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration_perf
			WHERE absent LIKE '%cycles%'
			AND json_extract(counters, '\$.cycles') IS NOT NULL")" -eq 0
else
	check "no event absent: nothing said" \
		sh -c "! grep -q 'perf events not counted' '$TMP/err'"
fi

# The A/A pair: the perf table's rows, none marked. Each table is a BH
# family, so a calibrated test marks one of its rows in about alpha of
# A/A runs; two tables at 0.01 failed this test in about 1 run in 50
# (once in CI). At 0.001 that is 1 in 500; calibration itself is
# test-stats-sim's, by simulation.
expect_status 0 "compare the A/A pair" "$MMCMP" compare --alpha 0.001 pf-a pf-b
grep_file "$TMP/out" "^wis-pf perf$" "a perf table follows the workload's"
grep_file "$TMP/out" "^Amean  *task-clock  *[0-9.]* (" "with a task-clock row"
grep_file "$TMP/out" "^Amean  *page-faults  *[0-9.]* (" "a page-faults row"
grep_file "$TMP/out" "^Amean  *context-switches  *[0-9.]* (" "a context-switches row"
grep_file "$TMP/out" "^BAmean.95 page-faults " "every statistic, as the workload rows"
grep_file "$TMP/out" "^page-faults  *pf-b  *[-+][0-9.]*% \[" "an interval and verdict line"
check "no row of the A/A pair is marked" \
	test "$(grep -c '^0 of [0-9]* mean rows\{0,1\} significant (welch, alpha 0.001, BH FDR)$' "$TMP/out")" -eq 2
if [ "$absent" -gt 0 ]; then
	grep_file "$TMP/out" "^perf events not counted in 'pf-a': cycles" "compare says which events are absent"
fi
expect_status 0 "compare --format=json" "$MMCMP" compare --format=json pf-a pf-b
grep_file "$TMP/out" '"wis-pf perf"' "the perf table is in the JSON output"
expect_status 0 "compare --test=mmtests" "$MMCMP" compare --test=mmtests pf-a pf-b
check "mmtests' text has no perf table" sh -c "! grep -q '^wis-pf perf' '$TMP/out'"

# Derived rows, from hardware counters written into the stored records
# (this machine may have no PMU): IPC, higher-better, halved on pf-b.
# The counters are monitor_record's perf, which the view iteration_perf
# reads.
q="UPDATE monitor_record SET perf = json_set(perf,
	'\$.instructions', 2000000000 + iteration_id * 1009,
	'\$.cycles', 1000000000 + iteration_id * 7919 +
	(SELECT CASE r.label WHEN 'pf-b' THEN 1000000000 ELSE 0 END
	FROM iteration i JOIN run r ON r.id = i.run_id
	WHERE i.id = monitor_record.iteration_id)) WHERE perf IS NOT NULL"
sqlite3 "$MMCMP_DB" "$q"
expect_status 0 "compare with cycles and instructions" "$MMCMP" compare pf-a pf-b
grep_file "$TMP/out" "^Hmean  *IPC  *2\.00 (" "an IPC row, higher-better, so of harmonic means"
grep_file "$TMP/out" "^IPC  *pf-b  *-50\.[0-9]*% .* worse$" "whose fall is worse"
grep_file "$TMP/out" "^Amean  *cycles " "beside the counters it comes from"
check "no MPKI rows without the misses" sh -c "! grep -q 'MPKI' '$TMP/out'"

# The counters go with an export and come back with an import: from
# another database the same document again, and the same perf table (an
# import's runs differ from the original's in the provenance note and
# the order warning, which are not the perf table's).
expect_status 0 "export json of the counted runs" "$MMCMP" export json pf-a pf-b
cp "$TMP/out" "$TMP/pf.json"
check "has every iteration's counters" \
	test "$(grep -c '"counters":' "$TMP/pf.json")" -eq 10
check "valid per docs/export.schema.json" python3 ../helpers/schema-check.py \
	"$MMCMP_SRCDIR/docs/export.schema.json" "$TMP/pf.json"
C="$TMP/copy.db"
expect_status 0 "import it into an empty database" "$MMCMP" --db "$C" import "$TMP/pf.json"
perf_rows="SELECT group_concat(counters || ' ' || coalesce(absent, '-') || ' ' || scope, '|')
	FROM (SELECT counters, absent, scope FROM iteration_perf p
	JOIN iteration i ON i.id = p.iteration_id JOIN run r ON r.id = i.run_id
	ORDER BY r.uuid, i.idx)"
check "the counters and absent events are stored as they were" \
	test "$(sqlite3 "$C" "$perf_rows")" = "$(sqlite3 "$MMCMP_DB" "$perf_rows")"
expect_status 0 "export it again" "$MMCMP" --db "$C" export json pf-a pf-b
check "the same document" cmp -s "$TMP/out" "$TMP/pf.json"
"$MMCMP" compare pf-a pf-b 2>/dev/null | sed -n '/^wis-pf perf$/,$p' >"$TMP/perf-here"
expect_status 0 "compare the imported runs" "$MMCMP" --db "$C" compare pf-a pf-b
sed -n '/^wis-pf perf$/,$p' "$TMP/out" >"$TMP/perf-there"
check "the same perf table" cmp -s "$TMP/perf-here" "$TMP/perf-there"
check "which is there" grep -q "^Amean  *page-faults " "$TMP/perf-there"
grep_file "$TMP/perf-there" "^Hmean  *IPC " "the IPC row too"

# What the counters counted: the iterations' own cgroup where mmcmp can
# make one (root, cgroup v2), else the command's process tree; labels
# that differ in it are not like for like, which compare says.
v2=
for d in /sys/fs/cgroup /sys/fs/cgroup/unified; do
	[ "$(stat -f -c %T "$d" 2>/dev/null)" = cgroup2fs ] && v2=$d && break
done
scopes=$(sqlite3 "$MMCMP_DB" "SELECT group_concat(DISTINCT scope) FROM iteration_perf")
if [ "$(id -u)" = 0 ] && [ -n "$v2" ]; then
	check "as root with cgroup v2 the counters count the iterations' cgroup" \
		test "$scopes" = cgroup
	check "which is gone after the run" \
		sh -c "! ls -d '$v2'/mmcmp-perf-* 2>/dev/null"
else
	check "the counters count process trees here" test "$scopes" = process
fi
grep_file "$TMP/pf.json" "\"scope\":[[:space:]]*\"$scopes\"" "the export says what they counted"
check "an A/A pair counted alike has no note about it" \
	sh -c "! grep -q 'perf counters not like for like' '$TMP/perf-there'"
other=process
[ "$scopes" = process ] && other=cgroup
sqlite3 "$C" "UPDATE monitor_record SET perf_scope = '$other' WHERE iteration_id IN
	(SELECT i.id FROM iteration i JOIN run r ON r.id = i.run_id WHERE r.label = 'pf-b')"
expect_status 0 "compare labels whose counters counted differently" \
	"$MMCMP" --db "$C" compare pf-a pf-b
grep_file "$TMP/out" "^perf counters not like for like: 'pf-a' counted .*; 'pf-b' counted .* (docs/perf.md, Scope)$" \
	"says that their perf rows are not like for like"

# Hugepages against base pages: the same memory in 512 times fewer faults.
thp=/sys/kernel/mm/transparent_hugepage/enabled
if [ -r "$thp" ] && ! grep -q '\[never\]' "$thp"; then
	cat >"$TMP/thp.yaml" <<EOF2
name: thp
iterations: 5
interleave: true
perf: [page-faults, task-clock, context-switches]
workloads:
  - name: touch
    command: [sh, -c, 'exec "\$0" 64 "\$THP"', "$TOUCH"]
    metrics:
      - name: elapsed
        extract:
          measure: elapsed
builds:
  always:
    env: {THP: hugepage}
  never:
    env: {THP: nohugepage}
EOF2
	expect_status 0 "a run with and without hugepages" \
		"$MMCMP" run -q "$TMP/thp.yaml" --label thp
	expect_status 0 "compare them" "$MMCMP" compare thp-always thp-never
	line=$(grep '^page-faults  *thp-never ' "$TMP/out" || true)
	check "page-faults has a verdict line" test -n "$line"
	check "worse on the never side" sh -c "echo '$line' | grep -q ' worse\$'"
	# Lower is better, so more faults read as a negative change: -900%
	# is ten times the faults.
	check "by more than an order of magnitude" \
		awk -v l="$line" 'BEGIN { split(l, f, " "); sub(/%/, "", f[3]);
			exit !(f[3] + 0 < -900) }'
	grep_file "$TMP/out" "^Amean  *page-faults .*\*" "and the row is marked"
else
	ok "# SKIP transparent hugepages are off or missing"
fi

# Stalls: a writer of 64 MiB of page cache in a memory cgroup of 16 MiB
# reclaims in it; the tracepoints count it, begins and ends alike.
tp=vmscan/mm_vmscan_memcg_reclaim_begin/id
cat >"$TMP/mc.yaml" <<EOF2
name: mc
iterations: 2
perf: [vmscan:mm_vmscan_memcg_reclaim_begin, vmscan:mm_vmscan_memcg_reclaim_end,
       compaction:mm_compaction_begin]
workloads:
  - name: write
    command: [dd, if=/dev/zero, of=$TMP/f, bs=1M, count=64]
    metrics:
      - name: elapsed
        extract:
          measure: elapsed
EOF2
cg=mmcmp-t1750-$$
if ! [ -r "/sys/kernel/tracing/events/$tp" ] &&
	! [ -r "/sys/kernel/debug/tracing/events/$tp" ]; then
	expect_status 0 "tracepoints without tracefs" \
		"$MMCMP" run -q "$TMP/mc.yaml" --label notracefs
	grep_file "$TMP/err" "perf events not counted: .*mm_vmscan_memcg_reclaim_begin.*no such tracepoint" \
		"are absent, saying why"
elif [ -w /sys/fs/cgroup/cgroup.subtree_control ] &&
	grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
	printf 'cgroup:\n  path: %s/leaf\n  controllers: [memory]\n  limits: { memory.max: "16777216" }\n' \
		"$cg" >>"$TMP/mc.yaml"
elif [ -w /sys/fs/cgroup/memory/cgroup.procs ]; then
	printf 'cgroup:\n  path: %s/leaf\n  controllers: [memory]\n  limits: { memory.limit_in_bytes: "16777216" }\n  root: /sys/fs/cgroup/memory\n' \
		"$cg" >>"$TMP/mc.yaml"
fi
if grep -q '^cgroup:' "$TMP/mc.yaml"; then
	expect_status 0 "a writer in a small memory cgroup" \
		"$MMCMP" run -q "$TMP/mc.yaml" --label mc
	check "memcg reclaim was counted in every iteration, begins as ends" \
		test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration_perf p
			JOIN iteration i ON i.id = p.iteration_id
			JOIN run r ON r.id = i.run_id WHERE r.label = 'mc'
			AND json_extract(counters, '\$.vmscan:mm_vmscan_memcg_reclaim_begin') > 0
			AND json_extract(counters, '\$.vmscan:mm_vmscan_memcg_reclaim_begin') =
			json_extract(counters, '\$.vmscan:mm_vmscan_memcg_reclaim_end')
			AND json_extract(counters, '\$.compaction:mm_compaction_begin') >= 0")" -eq 2
	expect_status 0 "show the counts" "$MMCMP" compare mc mc
	grep_file "$TMP/out" "^Amean  *vmscan:mm_vmscan_memcg_reclaim_begin " \
		"as rows of the perf table"
elif [ -r "/sys/kernel/tracing/events/$tp" ] ||
	[ -r "/sys/kernel/debug/tracing/events/$tp" ]; then
	ok "# SKIP no writable memory cgroup for the reclaim test"
fi

done_testing
