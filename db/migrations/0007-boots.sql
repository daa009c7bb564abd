-- 0007: kernels booted in guests (mmcmp run with `kernels:`).
--
-- Each boot of a run has a row in boot: which kernel image (its path,
-- SHA-256 and the release its setup header names), the command line
-- mmcmp appended, how qemu ran it (version, whole command line, accel,
-- vCPUs, memory), how long the guest took to answer and what the guest
-- said about itself (uname -r, /proc/cmdline and its machine facts). A
-- boot that failed keeps why, with the console's tail. Iterations carry
-- the number of the boot they ran in; NULL for a run on the host.

ALTER TABLE iteration ADD COLUMN boot INTEGER;

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
