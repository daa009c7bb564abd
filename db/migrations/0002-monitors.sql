-- 0002: what the kernel counted during each iteration (monitors), more
-- facts about the machine of a run, and the cgroup its workloads ran in.
--
-- Monitors: an iteration that ran with them has a row in
-- iteration_monitor with its /proc/vmstat changes, /proc/stat CPU time
-- changes and /proc/meminfo at start and end, each a JSON object of
-- name -> integer (one row per iteration keeps the cost per iteration
-- low). Periodic samples, when the config asks for them, go to
-- monitor_sample. Deleting an iteration deletes its monitor rows.

ALTER TABLE run ADD COLUMN thp_enabled TEXT;
ALTER TABLE run ADD COLUMN thp_defrag TEXT;
ALTER TABLE run ADD COLUMN cpufreq_governor TEXT;
ALTER TABLE run ADD COLUMN numa_nodes INTEGER;
ALTER TABLE run ADD COLUMN smt TEXT;
ALTER TABLE run ADD COLUMN cgroup_mode TEXT
	CONSTRAINT run_cgroup_mode CHECK (cgroup_mode IN ('v1', 'v2', 'hybrid'));
ALTER TABLE run ADD COLUMN kernel_config_sha256 TEXT;
ALTER TABLE run ADD COLUMN cgroup TEXT;

CREATE TABLE iteration_monitor (
	iteration_id INTEGER PRIMARY KEY
		REFERENCES iteration (id) ON DELETE CASCADE,
	interval_s REAL NOT NULL,
	vmstat TEXT NOT NULL,
	cpu TEXT NOT NULL,
	meminfo_start TEXT NOT NULL,
	meminfo_end TEXT NOT NULL
) STRICT;

CREATE TABLE monitor_sample (
	iteration_id INTEGER NOT NULL
		REFERENCES iteration_monitor (iteration_id) ON DELETE CASCADE,
	seq INTEGER NOT NULL,
	t_s REAL NOT NULL,
	vmstat TEXT NOT NULL,
	cpu TEXT NOT NULL,
	meminfo TEXT NOT NULL,
	PRIMARY KEY (iteration_id, seq)
) STRICT;
