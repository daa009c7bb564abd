-- 0014: bisections on the machine itself (`mmcmp bisect` with machine:
-- in its config, docs/bisect.md). Their batches are the boots of one
-- campaign (0009), appended batch by batch as the search asks for them;
-- the resume after each boot takes the search up again from the
-- database. bisect_machine ties a bisection to its campaign and keeps
-- what those resumes need that the bisect row does not: the build
-- command, the image and the initrd (NULL: none) it makes, relative to
-- a commit's build directory, the kernels' command line additions
-- (NULL: none), the directory of the builds, the margin in percent
-- (0: none), the rounds per batch and the batches per decision at most.
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

-- What happened to the boots of a decision's batches that gave it no
-- unit value (failed, interrupted, no sample), in words; NULL: nothing.
ALTER TABLE bisect_step ADD COLUMN note TEXT;
