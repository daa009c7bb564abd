-- 0010: the perf counters of monitored iterations (src/monitor-perf.h).
--
-- counters is a JSON object of event name -> count over the iteration
-- ("task-clock" in nanoseconds, the others counts), every event counted,
-- zeros included; '{}' when none could be opened. absent says which
-- events were not counted and why (NULL: every one asked for was).
CREATE TABLE iteration_perf (
	iteration_id INTEGER PRIMARY KEY
		REFERENCES iteration_monitor (iteration_id) ON DELETE CASCADE,
	counters TEXT NOT NULL,
	absent TEXT
) STRICT;
