-- Runs: every job belongs to a named batch (farm submit --run NAME; by default the UTC date of
-- its submission), and a run's report and its "finished" mark count only its own jobs.
ALTER TABLE jobs ADD COLUMN run_name TEXT NOT NULL DEFAULT '';
CREATE INDEX jobs_run ON jobs (run_name, status);
