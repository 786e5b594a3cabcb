-- OCDS records whose cost is bounded by what they hold (src/ocds/releases.ts, src/ocds/publish.ts). A process's
-- compiled and versioned releases are made by the import that publishes its release, from the ones before and
-- the new release (the merge is incremental), not on every request from every release. A process with one
-- release keeps neither (its compiled release is that release, renamed; its versioned one is made on request)
-- unless its release is large. The ones published before get theirs once, when `migrate` or `serve` next runs.
SELECT pg_advisory_xact_lock(7310002);

ALTER TABLE ocds_releases
  ADD COLUMN IF NOT EXISTS compiled text,
  ADD COLUMN IF NOT EXISTS versioned text;
ALTER TABLE ocds_releases ALTER compiled SET STORAGE EXTERNAL, ALTER versioned SET STORAGE EXTERNAL;
-- Where the records still to be completed are: none, once syncReadModel has run.
CREATE INDEX IF NOT EXISTS ocds_releases_incomplete ON ocds_releases (process_id)
  WHERE version > 1 AND compiled IS NULL;
CREATE INDEX IF NOT EXISTS ocds_release_versions_organization ON ocds_release_versions (organization_id);
