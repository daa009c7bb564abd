-- 0005: the kernel settings a run wrote (the `settings:` of its config
-- and its build): each file, the value it held before and the value
-- written, in the order they were written. They were restored after the
-- run.

CREATE TABLE run_setting (
	id INTEGER PRIMARY KEY,
	run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
	path TEXT NOT NULL,
	old_value TEXT NOT NULL,
	new_value TEXT NOT NULL
) STRICT;

CREATE INDEX run_setting_run ON run_setting (run_id, id);
