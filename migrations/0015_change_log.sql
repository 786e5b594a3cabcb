-- The change log (src/readmodel/changes.ts): one entry per record whose published document an import created,
-- changed or withdrew, written in the import's transaction, so that entries become visible when it commits.
-- Imports run one at a time (their advisory lock), so entries are numbered in commit order: a reader that
-- resumes after an entry's seq never misses a later one. Public records and orders have a log each, so that
-- an order can never reach the public feed.
SELECT pg_advisory_xact_lock(7310002); -- the import lock: no import writes while the logs are seeded

CREATE TABLE IF NOT EXISTS public_changes (
  seq              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  resource         text NOT NULL,
  id               uuid NOT NULL,
  organization_id  uuid NOT NULL,
  change           text NOT NULL CHECK (change IN ('created', 'updated', 'withdrawn')),
  changed_at       timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS public_changes_organization ON public_changes (organization_id, seq);
CREATE INDEX IF NOT EXISTS public_changes_record ON public_changes (resource, id, seq);
CREATE INDEX IF NOT EXISTS public_changes_changed_at ON public_changes (resource, changed_at);

CREATE TABLE IF NOT EXISTS order_changes (
  seq              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id  uuid NOT NULL,
  number           text NOT NULL,
  change           text NOT NULL CHECK (change IN ('created', 'updated', 'withdrawn')),
  changed_at       timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS order_changes_organization ON order_changes (organization_id, seq);
CREATE INDEX IF NOT EXISTS order_changes_record ON order_changes (organization_id, number, seq);

-- Records published before the log: each starts as created now, so that a mirror syncs them all (once: the
-- statements below run again harmlessly, as every statement here).
INSERT INTO public_changes (resource, id, organization_id, change, changed_at)
  SELECT resource, id, organization_id, 'created', now() FROM detail_documents
  WHERE NOT EXISTS (SELECT 1 FROM public_changes) ORDER BY resource, id;
INSERT INTO order_changes (organization_id, number, change, changed_at)
  SELECT organization_id, number, 'created', now() FROM order_documents
  WHERE NOT EXISTS (SELECT 1 FROM order_changes) ORDER BY organization_id, number;
