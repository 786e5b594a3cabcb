-- The order in which releases changed (src/ocds/releases.ts): each new or changed release takes the next
-- number, in the transaction that publishes it. Imports and rebuilds publish one at a time (the import
-- lock), so the numbers follow commit order, and GET /v1/ocds/releases?after= reads processes in the order
-- their releases changed without ever skipping one that changed after the cursor.
SELECT pg_advisory_xact_lock(7310002);

CREATE SEQUENCE IF NOT EXISTS ocds_release_seq;
ALTER TABLE ocds_releases ADD COLUMN IF NOT EXISTS seq bigint;
UPDATE ocds_releases r SET seq = o.n
  FROM (SELECT process_id, row_number() OVER (ORDER BY date, process_id) AS n FROM ocds_releases) o
  WHERE o.process_id = r.process_id AND r.seq IS NULL;
SELECT setval('ocds_release_seq', coalesce((SELECT max(seq) FROM ocds_releases), 0) + 1, false)
  WHERE NOT (SELECT is_called FROM ocds_release_seq);
ALTER TABLE ocds_releases ALTER seq SET DEFAULT nextval('ocds_release_seq'), ALTER seq SET NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS ocds_releases_seq ON ocds_releases (seq);
CREATE INDEX IF NOT EXISTS ocds_releases_organization_seq ON ocds_releases (organization_id, seq);
