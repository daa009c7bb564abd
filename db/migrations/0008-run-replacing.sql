-- 0008: whether a run was started by `mmcmp run --replace`. While such
-- a run is alive, no other run of its label may start (it would be
-- pooled with the old runs once the replacement deleted them), and a
-- replacing run does not start while another run of its label is alive.
-- 0 for the runs made before it was recorded.

ALTER TABLE run ADD COLUMN replacing INTEGER NOT NULL DEFAULT 0
	CONSTRAINT run_replacing CHECK (replacing IN (0, 1));
