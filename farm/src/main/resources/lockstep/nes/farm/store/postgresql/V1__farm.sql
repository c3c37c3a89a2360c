-- Version 1 of the farm schema (PostgreSQL). Times are epoch milliseconds taken from the
-- server's clock, so workers on machines with skewed clocks agree on every expiry.
CREATE TABLE jobs (
    job_id             BIGSERIAL PRIMARY KEY,
    kind               TEXT    NOT NULL,
    spec               TEXT    NOT NULL,
    status             TEXT    NOT NULL DEFAULT 'queued',
    attempts           INTEGER NOT NULL DEFAULT 0,
    not_before_ms      BIGINT  NOT NULL DEFAULT 0,
    lease_until_ms     BIGINT  NOT NULL DEFAULT 0,
    claim_token        BIGINT  NOT NULL DEFAULT 0,
    last_fencing_token BIGINT  NOT NULL DEFAULT 0,
    last_error         TEXT,
    submitted_ms       BIGINT  NOT NULL,
    updated_ms         BIGINT  NOT NULL,
    CHECK (status IN ('queued', 'running', 'done', 'dead'))
);
CREATE INDEX jobs_claimable ON jobs (status, not_before_ms);
CREATE TABLE attempts (
    attempt_id    BIGSERIAL PRIMARY KEY,
    job_id        BIGINT NOT NULL REFERENCES jobs (job_id),
    fencing_token BIGINT NOT NULL,
    owner         TEXT   NOT NULL,
    started_ms    BIGINT NOT NULL,
    finished_ms   BIGINT,
    outcome       TEXT   NOT NULL DEFAULT 'running',
    error         TEXT
);
CREATE INDEX attempts_job ON attempts (job_id, fencing_token);
CREATE TABLE results (
    job_id        BIGINT PRIMARY KEY REFERENCES jobs (job_id),
    status        TEXT   NOT NULL,
    result        TEXT   NOT NULL,
    fencing_token BIGINT NOT NULL,
    owner         TEXT   NOT NULL,
    committed_ms  BIGINT NOT NULL
);
CREATE TABLE dead_letter (
    job_id        BIGINT PRIMARY KEY REFERENCES jobs (job_id),
    attempts      INTEGER NOT NULL,
    last_error    TEXT,
    fencing_token BIGINT  NOT NULL,
    dead_ms       BIGINT  NOT NULL
);
CREATE TABLE checkpoints (
    job_id        BIGINT  PRIMARY KEY REFERENCES jobs (job_id),
    frame         INTEGER NOT NULL,
    data          BYTEA   NOT NULL,
    fencing_token BIGINT  NOT NULL,
    written_ms    BIGINT  NOT NULL
);
CREATE SEQUENCE fencing_tokens;
CREATE TABLE leases (
    lock_key      TEXT   PRIMARY KEY,
    owner         TEXT   NOT NULL,
    fencing_token BIGINT NOT NULL,
    expires_ms    BIGINT NOT NULL
);
CREATE TABLE coordinator (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    term       BIGINT  NOT NULL,
    leader     TEXT,
    updated_ms BIGINT  NOT NULL
);
INSERT INTO coordinator (id, term, leader, updated_ms) VALUES (1, 0, NULL, 0);
CREATE TABLE coordinator_log (
    entry_id BIGSERIAL PRIMARY KEY,
    term     BIGINT NOT NULL,
    leader   TEXT   NOT NULL,
    action   TEXT   NOT NULL,
    at_ms    BIGINT NOT NULL
);
CREATE TABLE nightly_runs (
    run_date   TEXT    PRIMARY KEY,
    term       BIGINT  NOT NULL,
    leader     TEXT    NOT NULL,
    jobs_done  INTEGER NOT NULL,
    jobs_dead  INTEGER NOT NULL,
    marked_ms  BIGINT  NOT NULL
);
