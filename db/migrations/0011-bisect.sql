-- 0011: the bisection log of `mmcmp bisect` and `mmcmp bisect-step`
-- (src/bisect.h, docs/bisect.md). Its runs are ordinary runs labelled
-- bisect-COMMIT; these tables say what the search decided with them.
--
-- A bisection is one search of repo between the commits good and bad
-- (full hashes) on the rows operation (a glob) of a config (its text's
-- SHA-256); outcome is NULL while it goes on, culprit the first
-- bad-like commit it found. A step is one line of its log, numbered
-- from 0: the check of the ends, a step of the search or a half of the
-- culprit's verification, with the candidate's verdict, the unit values
-- measured for it, the one-sided p of the verdict's direction, where
-- its mean lies between the ends (0 good, 1 bad), the share of the
-- error budget it spent, the SHA-256 of its built image (NULL when it
-- does not build) and the commit whose identical image gave its
-- verdict without measuring (same_as).
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
	PRIMARY KEY (bisect_id, step)
) STRICT;
