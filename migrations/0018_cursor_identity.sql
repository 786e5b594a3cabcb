-- Cursors that say when to start over (src/queries/cursors.ts). The change log's identity is made when
-- the database is: a database loaded again from a dump is a new log, and the cursors of the old one are
-- refused (410) instead of pointing past its end. The secret signs listing cursors, so that the page a
-- cursor says it starts cannot be made up. Each organization's orders feed is numbered on its own, so that
-- an organ's cursors tell nothing of the others' changes.
SELECT pg_advisory_xact_lock(7310002); -- the import lock: no import writes while the orders feed is renumbered

CREATE TABLE IF NOT EXISTS change_log_identity (
  single    boolean PRIMARY KEY DEFAULT true CHECK (single),
  identity  uuid NOT NULL DEFAULT gen_random_uuid(),
  -- 244 random bits from PostgreSQL's strong source (pgcrypto is not needed).
  secret    bytea NOT NULL DEFAULT uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())
);
INSERT INTO change_log_identity DEFAULT VALUES ON CONFLICT DO NOTHING;

ALTER TABLE order_changes ADD COLUMN IF NOT EXISTS org_seq bigint;
UPDATE order_changes c SET org_seq = n.org_seq
  FROM (SELECT seq, row_number() OVER (PARTITION BY organization_id ORDER BY seq) AS org_seq FROM order_changes) n
  WHERE n.seq = c.seq AND c.org_seq IS NULL;
ALTER TABLE order_changes ALTER org_seq SET NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS order_changes_org_seq ON order_changes (organization_id, org_seq);
DROP INDEX IF EXISTS order_changes_organization;

-- The last number each organization's feed gave: a withdrawal deletes the order's earlier entries, so the
-- highest entry left is no guide (a number given once is never given again).
CREATE TABLE IF NOT EXISTS order_feed_numbers (
  organization_id  uuid PRIMARY KEY,
  last             bigint NOT NULL
);
INSERT INTO order_feed_numbers (organization_id, last)
  SELECT organization_id, max(org_seq) FROM order_changes GROUP BY organization_id
  ON CONFLICT (organization_id) DO UPDATE SET last = greatest(order_feed_numbers.last, excluded.last);

-- `since` without kinds: the first entry at or after an instant, off an index (entries are dated in the
-- order they are numbered, src/readmodel/log.ts).
CREATE INDEX IF NOT EXISTS public_changes_changed ON public_changes (changed_at, seq);
CREATE INDEX IF NOT EXISTS order_changes_changed ON order_changes (organization_id, changed_at, org_seq);

-- The moment of the last entry of either log: the next import's entries are dated no earlier, so that dates
-- follow numbers (a clock set back would otherwise let `since` skip entries).
ALTER TABLE change_log_identity ADD COLUMN IF NOT EXISTS last_change timestamptz;
UPDATE change_log_identity SET last_change = greatest(
  (SELECT max(changed_at) FROM public_changes), (SELECT max(changed_at) FROM order_changes))
  WHERE last_change IS NULL;
