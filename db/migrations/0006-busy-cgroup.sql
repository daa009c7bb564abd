-- 0006: how busy the machine was during each monitored iteration, and
-- the counters of the cgroup it ran in.
--
-- other_cpu is the share of the machine (0..1 of nr_cpus x elapsed) that
-- processes other than the workload used, from the /proc/stat change and
-- the workload's rusage; loadavg_start and loadavg_end the 1-minute load
-- average. cgroup holds the changes of the cgroup's counters, and
-- cgroup_start and cgroup_end its gauges (src/cgroup-stat.h says which is
-- which), JSON objects of name -> integer as the other columns; NULL when
-- the iteration ran in no cgroup, or for rows older than this migration.

ALTER TABLE iteration_monitor ADD COLUMN other_cpu REAL;
ALTER TABLE iteration_monitor ADD COLUMN loadavg_start REAL;
ALTER TABLE iteration_monitor ADD COLUMN loadavg_end REAL;
ALTER TABLE iteration_monitor ADD COLUMN cgroup TEXT;
ALTER TABLE iteration_monitor ADD COLUMN cgroup_start TEXT;
ALTER TABLE iteration_monitor ADD COLUMN cgroup_end TEXT;
