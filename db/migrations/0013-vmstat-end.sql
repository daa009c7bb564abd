-- 0013: the levels of the /proc/vmstat gauges at the end of an iteration.
--
-- vmstat holds every counter's change over the iteration, which for a
-- gauge (a level such as nr_mlock or nr_anon_pages, src/monitor.h's
-- monitor_vmstat_is_gauge()) is how far it moved, not where it was;
-- compare shows a gauge's level. vmstat_end is a JSON object of every
-- gauge's value at the end, as vmstat's, but for those at 0; NULL in
-- older rows and in imports that had none.
ALTER TABLE iteration_monitor ADD COLUMN vmstat_end TEXT;
