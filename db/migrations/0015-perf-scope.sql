-- 0015: what an iteration's perf counters counted (src/monitor-perf.h).
--
-- scope is 'cgroup' where the counters counted the tasks of a cgroup of
-- the iterations' own (from each process's start to its end, its exec
-- and exit included), 'process' where they counted the command's process
-- tree from its exec (inherited counters); NULL in older rows, which
-- counted process trees.
ALTER TABLE iteration_perf ADD COLUMN scope TEXT;
