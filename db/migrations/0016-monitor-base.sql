-- 0016: a monitored iteration stores what its levels changed, not all of
-- them, and its perf counters in its own row, why events were absent
-- once; iteration_monitor and iteration_perf become views that give
-- every record whole, as the tables did.
--
-- The rows move to monitor_record and perf_record. monitor_base holds,
-- per run, the levels of the first monitored iteration stored of it
-- (meminfo, the /proc/meminfo object; vmstat_end, the vmstat gauges'
-- object or NULL). Where monitor_record.base is 1, meminfo_start and
-- vmstat_end hold only the members that differ from the run's
-- monitor_base row, meminfo_end only those that differ from the whole
-- meminfo_start, with null for a name that is not there: json_patch() of
-- the one on the other gives the whole object back. Older rows (base
-- NULL) hold each object whole. A /proc/meminfo object was about 1 KB,
-- stored twice per iteration, beside 0.7 KB of gauges, of which little
-- changes: a row took a page of its own.
ALTER TABLE iteration_monitor RENAME TO monitor_record;
ALTER TABLE monitor_record ADD COLUMN base INTEGER;
CREATE TABLE monitor_base (
	run_id INTEGER PRIMARY KEY REFERENCES run (id) ON DELETE CASCADE,
	meminfo TEXT NOT NULL,
	vmstat_end TEXT
) STRICT;

-- The perf counters of a record stored from 0016 on are in its own row:
-- perf (the counters' object), perf_absent_id (why events were absent, a
-- row of perf_absent, each reason once) and perf_scope; perf NULL when
-- the record has none. perf_record keeps the rows of older records.
ALTER TABLE iteration_perf RENAME TO perf_record;
CREATE TABLE perf_absent (
	id INTEGER PRIMARY KEY,
	reason TEXT NOT NULL UNIQUE
) STRICT;
ALTER TABLE monitor_record ADD COLUMN perf TEXT;
ALTER TABLE monitor_record ADD COLUMN perf_absent_id INTEGER
	REFERENCES perf_absent (id);
ALTER TABLE monitor_record ADD COLUMN perf_scope TEXT;

CREATE VIEW iteration_monitor AS
SELECT m.iteration_id AS iteration_id, m.interval_s AS interval_s,
	m.vmstat AS vmstat, m.cpu AS cpu,
	CASE WHEN m.base IS NULL THEN m.meminfo_start
	     ELSE json_patch(b.meminfo, m.meminfo_start) END AS meminfo_start,
	CASE WHEN m.base IS NULL THEN m.meminfo_end
	     ELSE json_patch(json_patch(b.meminfo, m.meminfo_start),
			     m.meminfo_end) END AS meminfo_end,
	m.other_cpu AS other_cpu, m.loadavg_start AS loadavg_start,
	m.loadavg_end AS loadavg_end, m.cgroup AS cgroup,
	m.cgroup_start AS cgroup_start, m.cgroup_end AS cgroup_end,
	CASE WHEN m.base IS NULL OR m.vmstat_end IS NULL THEN m.vmstat_end
	     ELSE json_patch(coalesce(b.vmstat_end, '{}'), m.vmstat_end)
	     END AS vmstat_end
FROM monitor_record m
LEFT JOIN iteration i ON m.base IS NOT NULL AND i.id = m.iteration_id
LEFT JOIN monitor_base b ON b.run_id = i.run_id;

CREATE VIEW iteration_perf AS
SELECT m.iteration_id AS iteration_id, m.perf AS counters,
	a.reason AS absent, m.perf_scope AS scope
FROM monitor_record m LEFT JOIN perf_absent a ON a.id = m.perf_absent_id
WHERE m.perf IS NOT NULL
UNION ALL
SELECT iteration_id, counters, absent, scope FROM perf_record;
