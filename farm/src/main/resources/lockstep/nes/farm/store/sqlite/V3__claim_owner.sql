-- The owner of a job's current claim: every fenced write (checkpoint, result, failure) must
-- carry exactly the current claim's token and its owner, so a token that was never issued to
-- this job's claim, or one presented by another worker, writes nothing.
ALTER TABLE jobs ADD COLUMN claim_owner TEXT;
