SELECT pg_advisory_xact_lock(7310002);

-- The PNCP files an import took whole (src/pncp/ledger.ts): a file seen again with the same size and modification
-- time, under the same mapping, is not read again, so a harvest directory imported every day costs its new pages.
CREATE TABLE IF NOT EXISTS pncp_files (
  path         text PRIMARY KEY,
  size         bigint NOT NULL,
  mtime_ns     text NOT NULL,
  mapping      text NOT NULL,
  imported_at  timestamptz NOT NULL DEFAULT now()
);
