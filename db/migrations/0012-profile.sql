-- 0012: profiles, call-graph samples of the extra iterations that
-- `mmcmp run --profile` runs after a job's measured ones (src/profile.h).
--
-- One row per profiled iteration; they are not iterations of the run
-- (nothing compares them as such), so they have a table of their own.
-- stacks holds the folded stacks, one "root;...;leaf COUNT" line per
-- distinct stack, sorted; samples is their total, lost what the kernel
-- said it dropped; missing what could not be symbolised (NULL: all was).
CREATE TABLE profile (
	id INTEGER PRIMARY KEY,
	run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
	benchmark TEXT NOT NULL,
	job TEXT NOT NULL,
	build TEXT,
	seq INTEGER NOT NULL,
	started_at TEXT NOT NULL,
	frequency_hz INTEGER NOT NULL,
	status TEXT NOT NULL,
	samples INTEGER NOT NULL,
	lost INTEGER NOT NULL,
	stacks TEXT NOT NULL,
	missing TEXT
) STRICT;

CREATE INDEX profile_run ON profile (run_id, benchmark);
