-- History (src/readmodel/patch.ts, src/ocds/releases.ts). Each updated entry of the public change log keeps
-- the patch that turns the version it produced back into the one before (a reverse delta): the latest version
-- is the document served, so a record that never changed stores nothing. Every OCDS release is published once
-- and never changes: a process's current release has a version number, and the versions it replaced are kept
-- whole, by version. The releases stored before this kept no version: they are dropped once and rebuilt
-- (the next `migrate` or `serve` finds none and builds every process's first version).
SELECT pg_advisory_xact_lock(7310002);

ALTER TABLE public_changes ADD COLUMN IF NOT EXISTS restore text;

DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = 'ocds_releases'
                   AND column_name = 'version') THEN
    TRUNCATE ocds_releases;
    ALTER TABLE ocds_releases ADD COLUMN version integer NOT NULL DEFAULT 1;
  END IF;
END $$;

CREATE TABLE IF NOT EXISTS ocds_release_versions (
  process_id       uuid NOT NULL,
  version          integer NOT NULL,
  organization_id  uuid NOT NULL,
  seq              bigint NOT NULL,
  date             timestamptz NOT NULL,
  tail             text NOT NULL,
  PRIMARY KEY (process_id, version)
);
CREATE INDEX IF NOT EXISTS ocds_release_versions_seq ON ocds_release_versions (seq);
