-- The owner of a job's current claim: every fenced write (checkpoint, result, failure) must
-- carry exactly the current claim's token and its owner, so a token that was never issued to
-- this job's claim, or one presented by another worker, writes nothing.
ALTER TABLE jobs ADD COLUMN claim_owner TEXT;
-- The job's own failures (a crash of the job, a bad input), apart from its claims: a claim that
-- ends without an outcome (its worker was killed, paused or stopped) is abandoned, counted as
-- attempts - failures and bounded on its own, larger, so pauses and kills never dead-letter a
-- job that never failed.
ALTER TABLE jobs ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
