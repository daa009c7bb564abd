-- 0009: campaigns (mmcmp campaign): kernels booted on the machine itself,
-- one after the other by kexec or by the boot loader, resumed after each
-- boot by `mmcmp campaign resume`.
--
-- A campaign keeps the config it was started with (its text, so a later
-- edit of the file changes nothing), the kernel it was started from (the
-- home kernel: its release and command line, which every boot's command
-- line starts from) and the resume unit it installed (NULL: none). Each
-- boot of its schedule has a row: the kernel, what is booted (image,
-- initrd, SHA-256 and release of the image, the whole command line with
-- its mmcmp.boot=N token), its state and times in Unix seconds, the
-- boot_id of the kernel that booted it and of the one it ran in, the pid
-- of the resume running its iterations, and why it failed or was
-- interrupted. The runs of its iterations are ordinary runs of the
-- campaign's labels, one per boot and label, with their boot table.

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
