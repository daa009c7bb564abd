#!/bin/sh
# Monitors: mmcmp run stores each iteration's vmstat, cpu and meminfo
# figures, compare prints mmtests' Ops table and, with --monitors, a
# table of the vmstat counters (mean rows, or all with --monitors=all);
# monitors: false stores none and compare says so; CSV imports print no
# Ops table; periodic samples survive export and import; show prints the
# machine's set-up facts.
. ./lib.sh

if ! [ -r /proc/vmstat ] || ! [ -r /proc/stat ] || ! [ -r /proc/meminfo ]; then
	skip_all "/proc/vmstat, /proc/stat or /proc/meminfo cannot be read"
fi

# dd faults its 1 MiB buffer in: every iteration changes pgfault.
cat >"$TMP/mon.yaml" <<EOF2
name: mon
iterations: 3
workloads:
  - name: faults
    command: [dd, if=/dev/zero, of=/dev/null, bs=1M, count=4]
    metrics:
      - name: elapsed
        extract:
          measure: elapsed
builds:
  small: {}
  big: {}
EOF2
expect_status 0 "a run with monitors (the default)" \
	"$MMCMP" run -q "$TMP/mon.yaml" --label m
check "every iteration has a monitor row" \
	test "$(sqlite3 "$MMCMP_DB" 'SELECT count(*) FROM iteration_monitor')" -eq 6
check "its vmstat changes include page faults" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration_monitor
		WHERE json_extract(vmstat, '\$.pgfault') > 0")" -eq 6
check "cpu times and meminfo at start and end are stored" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration_monitor
		WHERE json_extract(cpu, '\$.idle') IS NOT NULL
		AND json_extract(meminfo_start, '\$.MemTotal') > 0
		AND json_extract(meminfo_end, '\$.MemFree') > 0")" -eq 6
check "the gauges' levels at the end (those not at 0), and only gauges" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration_monitor
		WHERE json_extract(vmstat_end, '\$.nr_free_pages') > 0
		AND json_extract(vmstat_end, '\$.pgfault') IS NULL
		AND json_extract(vmstat_end, '\$.nr_dirtied') IS NULL")" -eq 6
check "no periodic samples without monitor_interval" \
	test "$(sqlite3 "$MMCMP_DB" 'SELECT count(*) FROM monitor_sample')" -eq 0
check "the share others used and the load averages are stored" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration_monitor
		WHERE other_cpu BETWEEN 0 AND 1
		AND loadavg_start >= 0 AND loadavg_end >= 0")" -eq 6
check "outside a cgroup, no cgroup counters" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration_monitor
		WHERE cgroup IS NULL AND cgroup_start IS NULL
		AND cgroup_end IS NULL")" -eq 6

expect_status 0 "compare" "$MMCMP" compare m-small m-big
grep_file "$TMP/out" "^Duration Elapsed" "the Duration table comes first"
grep_file "$TMP/out" "^Ops Minor Faults  *[0-9]*\.[0-9][0-9]  *[0-9]*\.[0-9][0-9]$" \
	"then the Ops table with minor faults"
grep_file "$TMP/out" "^Ops AutoNUMA cost " "down to the AutoNUMA cost"
check "the Ops table has mmtests' 62 rows" \
	test "$(grep -c '^Ops ' "$TMP/out")" -eq 62
check "without --monitors, no counter table" \
	sh -c "! grep -q '^faults vmstat$' '$TMP/out'"
check "nor a cgroup table, as none ran in a cgroup" \
	sh -c "! grep -q '^faults cgroup$' '$TMP/out'"
expect_status 0 "compare --monitors" "$MMCMP" compare --monitors m-small m-big
grep_file "$TMP/out" "^faults vmstat$" "a table of vmstat counters follows"
grep_file "$TMP/out" "^Amean pgfault " "with the mean page faults per iteration"
# A gauge's row (the first, untested) is where it ended in each
# iteration, not how far it moved.
gauge=$(sed -n 's/^Amean \(nr_[a-z_]*\)  *[0-9.-]* (      -) .*/\1/p' "$TMP/out" | head -1)
levels=$(sqlite3 "$MMCMP_DB" "SELECT printf('%.2f %.2f',
	avg(coalesce(json_extract(m.vmstat_end, '\$.$gauge'), 0))
		FILTER (WHERE r.label = 'm-small'),
	avg(coalesce(json_extract(m.vmstat_end, '\$.$gauge'), 0))
		FILTER (WHERE r.label = 'm-big'))
	FROM iteration_monitor m JOIN iteration i ON i.id = m.iteration_id
	JOIN run r ON r.id = i.run_id WHERE i.warmup = 0 AND i.status = 'ok'")
grep_file "$TMP/out" "^Amean $gauge  *${levels% *} (      -)  *${levels#* } (      -) *$" \
	"a gauge's row shows its mean level at the end (${gauge:-none}: $levels)"
check "only the mean rows of the counters" \
	sh -c "! grep -q -e '^Min  *pgfault ' -e '^Stddev  *pgfault ' '$TMP/out'"
check "each of the two tables has the footer of its test" \
	test "$(grep -c '^[0-9]* of [0-9]* mean rows\{0,1\} significant (welch' "$TMP/out")" -eq 2
expect_status 0 "compare --monitors=all" "$MMCMP" compare --monitors=all m-small m-big
grep_file "$TMP/out" "^Min       pgfault " "every statistic of the counters"
grep_file "$TMP/out" "^BAmean.95 pgfault " "down to BAmean.95"
expect_status 0 "compare --monitors=off" "$MMCMP" compare --monitors=off m-small m-big
check "no counter table" sh -c "! grep -q '^faults vmstat$' '$TMP/out'"
expect_status 0 "compare --monitors --sub-heading pgf" \
	"$MMCMP" compare --monitors --sub-heading pgf m-small m-big
check "the sub-heading keeps the counters it matches" \
	test "$(grep -c '^Amean pgf' "$TMP/out")" -eq "$(grep -c '^Amean ' "$TMP/out")"
grep_file "$TMP/out" "^Amean pgfault " "pgfault among them"
check "and drops the workload rows it does not match" \
	sh -c "! grep -q '^Amean  *elapsed' '$TMP/out'"
expect_status 2 "compare --monitors=some" "$MMCMP" compare --monitors=some m-small m-big
grep_file "$TMP/err" "option '--monitors' needs one of off, mean or all, not 'some'" \
	"names the choices"
expect_status 0 "compare --monitors --format=markdown" \
	"$MMCMP" compare --monitors --format=markdown m-small m-big
expect_status 0 "show lists the monitors" "$MMCMP" show m-small
grep_file "$TMP/out" "^  monitors:  faults 3 iterations, [0-9]* vmstat counters changed$" \
	"show counts the monitored iterations"
grep_file "$TMP/out" "^  thp:       " "show prints the transparent hugepage modes"
grep_file "$TMP/out" "^  cgroups:   " "and the cgroup layout"
if [ -r /sys/kernel/mm/transparent_hugepage/enabled ]; then
	thp=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled)
	check "the THP mode is the bracketed one" \
		test "$(sqlite3 "$MMCMP_DB" 'SELECT DISTINCT thp_enabled FROM run')" = "$thp"
fi
check "the NUMA node count matches sysfs" \
	test "$(sqlite3 "$MMCMP_DB" 'SELECT DISTINCT coalesce(numa_nodes, 0) FROM run')" \
		-eq "$(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' 2>/dev/null | wc -l)"

# Periodic samples: a 0.45 s iteration sampled every 0.1 s.
cat >"$TMP/tick.yaml" <<EOF2
name: tick
iterations: 1
monitor_interval: 0.1
workloads:
  - name: nap
    command: [sleep, "0.45"]
    metrics:
      - name: elapsed
        extract:
          measure: elapsed
EOF2
expect_status 0 "a run with monitor_interval: 0.1" \
	"$MMCMP" run -q "$TMP/tick.yaml" --label tick
q="SELECT count(*) FROM monitor_sample s JOIN iteration i
	ON i.id = s.iteration_id JOIN run r ON r.id = i.run_id
	WHERE r.label = 'tick'"
n=$(sqlite3 "$MMCMP_DB" "$q")
# At most one sample per 0.1 s that the iteration took (0.45 s on a quiet
# machine, longer under load), and at least one.
max=$(sqlite3 "$MMCMP_DB" "SELECT CAST(i.elapsed_s * 10 AS INTEGER) + 1
	FROM iteration i JOIN run r ON r.id = i.run_id WHERE r.label = 'tick'")
check "stores periodic samples (1 to $max of them: $n)" \
	test "$n" -ge 1 -a "$n" -le "$max"
check "numbered from 1, in time order, with meminfo and cpu times" \
	test "$(sqlite3 "$MMCMP_DB" "$q AND s.seq BETWEEN 1 AND $n
		AND s.t_s >= 0.1 * s.seq - 0.001
		AND json_extract(s.meminfo, '\$.MemTotal') > 0
		AND json_extract(s.cpu, '\$.idle') IS NOT NULL")" -eq "$n"
check "the iteration records the interval" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration_monitor
		WHERE interval_s = 0.1")" -eq 1
expect_status 0 "export the run with periodic samples" "$MMCMP" export json tick
cp "$TMP/out" "$TMP/tick.json"
expect_status 0 "import it into an empty database" \
	"$MMCMP" --db "$TMP/tick.db" import "$TMP/tick.json"
check "its periodic samples are imported" \
	test "$(sqlite3 "$TMP/tick.db" 'SELECT count(*) FROM monitor_sample')" -eq "$n"
expect_status 0 "export the import" "$MMCMP" --db "$TMP/tick.db" export json
check "the same document again" cmp -s "$TMP/out" "$TMP/tick.json"

# monitors: false
sed 's/^iterations: 3$/iterations: 2\nmonitors: false/' "$TMP/mon.yaml" >"$TMP/off.yaml"
expect_status 0 "a run with monitors: false" \
	"$MMCMP" run -q "$TMP/off.yaml" --label off
check "stores no monitor rows" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM iteration_monitor m
		JOIN iteration i ON i.id = m.iteration_id
		JOIN run r ON r.id = i.run_id WHERE r.label LIKE 'off-%'")" -eq 0
expect_status 0 "compare runs without monitors" "$MMCMP" compare off-small off-big
check "prints no Ops table" sh -c "! grep -q '^Ops ' '$TMP/out'"
expect_status 0 "compare a monitored run with one without" \
	"$MMCMP" compare m-small off-big
grep_file "$TMP/out" "^Ops Minor Faults  *[0-9.]*  *-$" \
	"the run without monitors has - in its column"
grep_file "$TMP/out" "^no monitor records for 'off-big': its Ops column reads -$" \
	"and a footer line says why"
expect_status 0 "compare runs of a config with monitors: false" \
	"$MMCMP" compare off-small off-big
grep_file "$TMP/out" "^no monitor records for 'off-small', 'off-big': no Ops table$" \
	"says there is no Ops table instead of dropping it silently"

# Imported samples carry no monitors.
printf 'label,benchmark,operation,value\nc1,b,op,1\nc1,b,op,2\nc2,b,op,3\nc2,b,op,4\n' \
	>"$TMP/s.csv"
expect_status 0 "import a CSV" "$MMCMP" import "$TMP/s.csv"
expect_status 0 "compare --monitors imported labels" \
	"$MMCMP" compare --monitors c1 c2
check "no Ops table and no vmstat table" \
	sh -c "! grep -q -e '^Ops ' -e 'vmstat' '$TMP/out'"
grep_file "$TMP/out" "^no monitor records for 'c1', 'c2': no Ops table and no counter table$" \
	"--monitors says why"
expect_status 0 "compare imported labels" "$MMCMP" compare c1 c2
check "without --monitors CSV imports, which never have monitors, get no note" \
	sh -c "! grep -q 'no monitor records' '$TMP/out'"

done_testing
