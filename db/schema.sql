-- The schema of the mmcmp store as db/migrations/ leave it (PRAGMA
-- user_version = 16, PRAGMA application_id = 1835885424, 0x6d6d6370,
-- "mmcp"), for reading; the store test checks that the two agree. Change
-- the schema by adding a migration, then update this file.
--
-- A run is one `mmcmp run` (or one imported run); an operation is a row
-- label of one benchmark in a run; an iteration is one execution of a
-- workload command; a sample is one value of one operation measured by
-- one iteration. Deleting a run deletes everything that belongs to it.
-- Times are UTC text, "YYYY-MM-DDTHH:MM:SSZ"; durations are seconds.

CREATE TABLE run (
	id INTEGER PRIMARY KEY,
	uuid TEXT NOT NULL UNIQUE,
	label TEXT NOT NULL,
	status TEXT NOT NULL CONSTRAINT run_status CHECK (status IN
		('running', 'complete', 'interrupted', 'failed', 'aborted')),
	config_name TEXT,
	config_text TEXT,
	config_hash TEXT,		-- lowercase hex SHA-256 of config_text
	started_at TEXT NOT NULL,
	ended_at TEXT,			-- NULL while running
	mmcmp_version TEXT,
	hostname TEXT,
	kernel_release TEXT,
	kernel_version TEXT,
	cmdline TEXT,
	cpu_model TEXT,
	nr_cpus INTEGER NOT NULL DEFAULT 0,
	mem_bytes INTEGER NOT NULL DEFAULT 0,
	pid INTEGER NOT NULL DEFAULT 0,	-- of mmcmp; 0: unknown
	pid_start INTEGER NOT NULL DEFAULT 0, -- start, ticks after boot
	-- Machine facts from 0002; NULL where the machine does not say.
	thp_enabled TEXT,		-- transparent_hugepage/enabled: 'madvise'
	thp_defrag TEXT,		-- transparent_hugepage/defrag
	cpufreq_governor TEXT,		-- of cpu0
	numa_nodes INTEGER,		-- /sys/devices/system/node/node*
	smt TEXT,			-- cpu/smt/control: 'on', 'off', ...
	cgroup_mode TEXT CONSTRAINT run_cgroup_mode
		CHECK (cgroup_mode IN ('v1', 'v2', 'hybrid')),
	kernel_config_sha256 TEXT,	-- of /proc/config.gz or /boot/config-*
	cgroup TEXT,			-- the cgroup the workloads ran in
	-- 0004: the effective setup, JSON: {"iterations": 5, "warmup": 1,
	-- "until": null, "params": [{"workload", "name", "values"}, ...]};
	-- NULL where not recorded.
	setup TEXT CONSTRAINT run_setup CHECK (setup IS NULL OR json_valid(setup)),
	-- 0008: 1 for a run of `mmcmp run --replace`.
	replacing INTEGER NOT NULL DEFAULT 0
		CONSTRAINT run_replacing CHECK (replacing IN (0, 1))
) STRICT;

-- store_find_runs(), store_all_runs() and store_list_runs(): oldest first.
CREATE INDEX run_label ON run (label, started_at, id);
CREATE INDEX run_started ON run (started_at, id);
-- store_open() looks for runs left running by a dead process.
CREATE INDEX run_running ON run (id) WHERE status = 'running';

CREATE TABLE operation (
	id INTEGER PRIMARY KEY,
	run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
	benchmark TEXT NOT NULL,
	name TEXT NOT NULL,
	unit TEXT NOT NULL,
	better TEXT NOT NULL CONSTRAINT operation_better
		CHECK (better IN ('higher', 'lower')),
	decimals INTEGER NOT NULL,	-- shown in tables
	seq INTEGER NOT NULL,		-- creation order, from 0
	UNIQUE (run_id, benchmark, name),
	UNIQUE (run_id, seq)
) STRICT;

CREATE TABLE iteration (
	id INTEGER PRIMARY KEY,
	run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
	benchmark TEXT NOT NULL,
	job TEXT NOT NULL,		-- parameters: 'mode=threads tasks=2'
	build TEXT,
	idx INTEGER NOT NULL,		-- 0-based within the job
	warmup INTEGER NOT NULL
		CONSTRAINT iteration_warmup CHECK (warmup IN (0, 1)),
	status TEXT NOT NULL CONSTRAINT iteration_status CHECK (status IN
		('ok', 'exit', 'signal', 'timeout', 'interrupted', 'exec',
		 'extract')),
	exit_code INTEGER NOT NULL,
	term_signal INTEGER NOT NULL,
	elapsed_s REAL NOT NULL,
	user_s REAL NOT NULL,
	sys_s REAL NOT NULL,
	maxrss_kb INTEGER NOT NULL,
	stderr_tail TEXT,
	started_at TEXT NOT NULL,
	boot INTEGER			-- boot.number, when run in a guest
) STRICT;

-- Iterations of a run in id (insertion) order.
CREATE INDEX iteration_run ON iteration (run_id, warmup);

-- Clustered by iteration, so the samples of a run are read in insertion
-- order without a sort and a new iteration only appends. operation_id is
-- not a foreign key: deleting operations would then need an index on it,
-- which doubles the cost of inserting samples. The store checks instead
-- that it names an operation of the iteration's run; a run's samples are
-- deleted with its iterations.
CREATE TABLE sample (
	iteration_id INTEGER NOT NULL
		REFERENCES iteration (id) ON DELETE CASCADE,
	operation_id INTEGER NOT NULL,
	seq INTEGER NOT NULL,		-- within the iteration, from 0
	value REAL NOT NULL,
	PRIMARY KEY (iteration_id, seq)
) STRICT, WITHOUT ROWID;

-- Monitors (0002): what the kernel counted while an iteration ran, one
-- row per iteration that ran with monitors, in monitor_record (0016;
-- iteration_monitor before), read whole through the view
-- iteration_monitor below. Each TEXT column is a JSON object of name ->
-- integer, for SQLite's JSON functions (json_extract(vmstat, '$.pgfault'),
-- json_each(vmstat)):
--   vmstat         the change (end - start) of every /proc/vmstat counter
--                  that changed; gauges may fall, so values may be < 0
--   cpu            the change of each /proc/stat cpu time, USER_HZ ticks
--   meminfo_start, meminfo_end   /proc/meminfo as printed (KiB, except
--                  the few counts such as HugePages_Total)
-- interval_s is that of the periodic samples, 0 when none were taken.
-- From 0006, NULL in older rows: other_cpu, the share (0..1) of the
-- machine that other processes used during the iteration; the 1-minute
-- load averages at start and end; and when the iteration ran in a
-- cgroup, the changes of its counters (cgroup) and its gauges at start
-- and end (cgroup_start, cgroup_end), JSON objects as above named as in
-- src/cgroup-stat.h: "memory.stat.pgfault", "memory.kmem.tcp.failcnt".
-- From 0013, NULL in older rows: vmstat_end, the level at the end of every
-- vmstat gauge not at 0 (nr_mlock, nr_anon_pages: src/monitor.h says which
-- items are gauges; one left out stood at 0), whose vmstat value is only
-- how far it moved.
-- From 0016, base is 1 where the levels are stored as what changed:
-- meminfo_start and vmstat_end hold the members that differ from the
-- run's monitor_base row, meminfo_end those that differ from the whole
-- meminfo_start, a name that is not there as null (json_patch() of the
-- one on the other gives the whole object); NULL in older rows, which
-- hold them whole. (SQLite keeps a renamed table's name quoted.) From
-- 0016 too, a record's perf counters are in its row (perf_record, below,
-- keeps older ones): perf, perf_absent_id and perf_scope as the view
-- iteration_perf describes; perf NULL when it has none.
CREATE TABLE "monitor_record" (
	iteration_id INTEGER PRIMARY KEY
		REFERENCES iteration (id) ON DELETE CASCADE,
	interval_s REAL NOT NULL,
	vmstat TEXT NOT NULL,
	cpu TEXT NOT NULL,
	meminfo_start TEXT NOT NULL,
	meminfo_end TEXT NOT NULL,
	other_cpu REAL,
	loadavg_start REAL,
	loadavg_end REAL,
	cgroup TEXT,
	cgroup_start TEXT,
	cgroup_end TEXT,
	vmstat_end TEXT,
	base INTEGER,
	perf TEXT,
	perf_absent_id INTEGER REFERENCES perf_absent (id),
	perf_scope TEXT
) STRICT;

-- The levels of the first monitored iteration stored of a run (0016), that
-- its others' are stored against: meminfo, /proc/meminfo's object, and
-- vmstat_end, that of the vmstat gauges (NULL when it was not recorded).
CREATE TABLE monitor_base (
	run_id INTEGER PRIMARY KEY REFERENCES run (id) ON DELETE CASCADE,
	meminfo TEXT NOT NULL,
	vmstat_end TEXT
) STRICT;

-- Every monitor record whole, with the columns the table had before 0016.
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

-- Periodic samples, seq from 1 in time order, t_s seconds after the
-- iteration started: vmstat and cpu changed since the previous sample
-- (since the start, for the first; vmstat only where non-zero), meminfo
-- as it was; JSON objects as above.
CREATE TABLE monitor_sample (
	iteration_id INTEGER NOT NULL
		REFERENCES "monitor_record" (iteration_id) ON DELETE CASCADE,
	seq INTEGER NOT NULL,
	t_s REAL NOT NULL,
	vmstat TEXT NOT NULL,
	cpu TEXT NOT NULL,
	meminfo TEXT NOT NULL,
	PRIMARY KEY (iteration_id, seq)
) STRICT;

-- Settings (0005): the /proc/sys and /sys files a run wrote, the value
-- each held before and the value written, in writing order; all were put
-- back after the run.
CREATE TABLE run_setting (
	id INTEGER PRIMARY KEY,
	run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
	path TEXT NOT NULL,
	old_value TEXT NOT NULL,
	new_value TEXT NOT NULL
) STRICT;

-- store_run_settings(): a run's settings in writing order.
CREATE INDEX run_setting_run ON run_setting (run_id, id);

-- The boots of a run with kernels, number from 1 in boot order across
-- the kernels (so A B B A gives each kernel's runs their own numbers):
-- the image booted (path, SHA-256, release from its setup header), the
-- command line mmcmp appended, the qemu that ran it (version, command
-- line, accel, vCPUs, memory in MiB), the seconds from qemu's start to
-- the agent's hello (NULL: it never came), how the vCPU threads were
-- pinned to host CPUs ("vCPU0=CPU1", or "none: why"), the guest's uname -r,
-- /proc/cmdline and machine facts ("name=value" lines), and why the
-- boot failed (NULL: it did not), with the console's tail.
CREATE TABLE boot (
	run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
	number INTEGER NOT NULL,
	kernel TEXT NOT NULL,
	image TEXT NOT NULL,
	image_sha256 TEXT NOT NULL,
	image_release TEXT,
	append TEXT NOT NULL,
	accel TEXT NOT NULL,
	cpus INTEGER NOT NULL,
	memory_mb INTEGER NOT NULL,
	qemu_version TEXT NOT NULL,
	qemu_cmdline TEXT NOT NULL,
	boot_s REAL,
	pinning TEXT,
	guest_release TEXT,
	guest_cmdline TEXT,
	guest_facts TEXT,
	failed TEXT,
	PRIMARY KEY (run_id, number)
) STRICT;

-- Campaigns (mmcmp campaign, 0009): kernels booted on the machine itself
-- by kexec or the boot loader, each boot resumed by `mmcmp campaign
-- resume`. The config's text, the home kernel (release and command line
-- every boot's starts from), the resume unit installed (NULL: none), the
-- state and times in Unix seconds.
CREATE TABLE campaign (
	id INTEGER PRIMARY KEY,
	label TEXT NOT NULL,
	config_path TEXT NOT NULL,
	config_text TEXT NOT NULL,
	method TEXT NOT NULL
		CONSTRAINT campaign_method CHECK (method IN ('kexec', 'reboot')),
	settle_s REAL NOT NULL,
	boot_timeout_s REAL NOT NULL,
	home_release TEXT NOT NULL,
	home_cmdline TEXT NOT NULL,
	unit_path TEXT,
	state TEXT NOT NULL
		CONSTRAINT campaign_state
		CHECK (state IN ('running', 'done', 'aborted')),
	started_at REAL NOT NULL,
	ended_at REAL
) STRICT;

-- The boots of a campaign's schedule, numbered from 1: what is booted
-- (image, initrd, boot loader entry, the image's SHA-256 and release,
-- the command line with its mmcmp.boot=N token), the state, the times
-- (Unix seconds), the boot_id of the kernel that booted it and of the
-- one it ran in, the pid of the resume that ran it, and why it failed or
-- was interrupted.
CREATE TABLE campaign_boot (
	campaign_id INTEGER NOT NULL
		REFERENCES campaign (id) ON DELETE CASCADE,
	number INTEGER NOT NULL,
	kernel TEXT NOT NULL,
	image TEXT NOT NULL,
	initrd TEXT,
	entry TEXT,
	image_sha256 TEXT NOT NULL,
	image_release TEXT,
	cmdline TEXT NOT NULL,
	state TEXT NOT NULL
		CONSTRAINT campaign_boot_state
		CHECK (state IN ('pending', 'booting', 'running', 'done',
				 'failed', 'interrupted')),
	booted_at REAL,
	resumed_at REAL,
	ended_at REAL,
	from_boot_id TEXT,
	boot_id TEXT,
	pid INTEGER,
	why TEXT,
	PRIMARY KEY (campaign_id, number)
) STRICT;

-- The perf counters of monitored iterations (0010, src/monitor-perf.h):
-- counters a JSON object of event name -> count over the iteration
-- ("task-clock" in nanoseconds), zeros included, '{}' when none could be
-- opened; absent which events were not counted and why (NULL: none);
-- scope (0015) what they counted: 'cgroup', the tasks of the iterations'
-- own cgroup, or 'process', the command's process tree from its exec
-- (NULL in older rows: process). This is a view since 0016: the counters
-- of a record stored from then on are in its monitor_record row (perf,
-- perf_scope, and perf_absent_id, a row of perf_absent, which holds each
-- reason once), those of older records in perf_record, the table
-- iteration_perf was.
CREATE TABLE "perf_record" (
	iteration_id INTEGER PRIMARY KEY
		REFERENCES "monitor_record" (iteration_id) ON DELETE CASCADE,
	counters TEXT NOT NULL,
	absent TEXT,
	scope TEXT
) STRICT;

CREATE TABLE perf_absent (
	id INTEGER PRIMARY KEY,
	reason TEXT NOT NULL UNIQUE
) STRICT;

CREATE VIEW iteration_perf AS
SELECT m.iteration_id AS iteration_id, m.perf AS counters,
	a.reason AS absent, m.perf_scope AS scope
FROM monitor_record m LEFT JOIN perf_absent a ON a.id = m.perf_absent_id
WHERE m.perf IS NOT NULL
UNION ALL
SELECT iteration_id, counters, absent, scope FROM perf_record;

-- The bisection log (0011, src/bisect.h, docs/bisect.md): a bisection
-- is one search of repo between good and bad (full hashes) on the rows
-- operation (a glob) of a config (its text's SHA-256), outcome NULL
-- while it goes on; a step is one line of its log from 0: the ends,
-- a step or half of the verification, with the verdict, the unit values
-- measured, the one-sided p, the position between the ends (0 good, 1
-- bad), the share of alpha spent, the image's SHA-256 (NULL: it does
-- not build) and the commit of the identical image whose verdict it
-- took (same_as); from 0014, note: what happened to the boots that gave
-- it no unit value (NULL: nothing). Its runs are ordinary runs labelled
-- bisect-COMMIT.
CREATE TABLE bisect (
	id INTEGER PRIMARY KEY,
	started_at TEXT NOT NULL,
	repo TEXT NOT NULL,
	good TEXT NOT NULL,
	bad TEXT NOT NULL,
	operation TEXT NOT NULL,
	config_hash TEXT NOT NULL,
	alpha REAL NOT NULL,
	outcome TEXT CONSTRAINT bisect_outcome CHECK (outcome IS NULL OR
		outcome IN ('found', 'unverified', 'ambiguous',
			    'no-regression', 'same-ends')),
	culprit TEXT
) STRICT;

CREATE TABLE bisect_step (
	bisect_id INTEGER NOT NULL REFERENCES bisect (id) ON DELETE CASCADE,
	step INTEGER NOT NULL,
	kind TEXT NOT NULL CONSTRAINT bisect_step_kind CHECK (kind IN
		('ends', 'step', 'verify-parent', 'verify-culprit')),
	commit_hash TEXT NOT NULL,
	verdict TEXT NOT NULL CONSTRAINT bisect_step_verdict CHECK (verdict IN
		('good', 'bad', 'unsure', 'skip')),
	units INTEGER NOT NULL,
	p REAL,
	pos REAL,
	alpha REAL NOT NULL,
	image_sha256 TEXT,
	same_as TEXT,
	note TEXT,
	PRIMARY KEY (bisect_id, step)
) STRICT;

-- A bisection on the machine itself (0014): its campaign, whose boots are
-- its batches', and what each resume needs to take the search up again:
-- the build command, the image and initrd (NULL: none) it makes, the
-- kernels' command line additions, the builds' directory, the margin,
-- rounds per batch and batches per decision.
CREATE TABLE bisect_machine (
	bisect_id INTEGER PRIMARY KEY REFERENCES bisect (id) ON DELETE CASCADE,
	campaign_id INTEGER NOT NULL UNIQUE
		REFERENCES campaign (id) ON DELETE CASCADE,
	build TEXT NOT NULL,
	image TEXT NOT NULL,
	initrd TEXT,
	append TEXT,
	workdir TEXT NOT NULL,
	margin_pct REAL NOT NULL,
	rounds INTEGER NOT NULL,
	max_batches INTEGER NOT NULL
) STRICT;

-- Profiles (0012, src/profile.h): the call-graph samples of the extra,
-- unmeasured iterations of `mmcmp run --profile`, one row each, seq from
-- 1 among the job's; stacks folded, one "root;...;leaf COUNT" line per
-- distinct stack, sorted; samples their total, lost what the kernel
-- dropped, missing what could not be symbolised (NULL: all was).
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
