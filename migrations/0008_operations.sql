-- Operations: the request id of each order query, so that an access record and the log lines about the same
-- request can be matched; and a row per import run, which every instance's /metrics reads (imports run in
-- their own processes, so no serving process sees them otherwise).
ALTER TABLE access_log ADD COLUMN IF NOT EXISTS request_id text;

CREATE TABLE IF NOT EXISTS import_runs (
  id         bigserial PRIMARY KEY,
  at         timestamptz NOT NULL DEFAULT now(),
  ok         boolean NOT NULL,
  seconds    double precision NOT NULL,
  records    bigint NOT NULL,
  documents  bigint NOT NULL
);
