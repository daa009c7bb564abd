-- 0004: the effective setup of a run, what it actually ran after the
-- command line's overrides (--iterations, --param): a JSON object of
-- measured and warm-up iterations per job and every workload parameter's
-- values (docs/export-format.md, `setup`). NULL for runs made before it
-- was recorded and for imports of other tools' results.

ALTER TABLE run ADD COLUMN setup TEXT
	CONSTRAINT run_setup CHECK (setup IS NULL OR json_valid(setup));
