SELECT pg_advisory_xact_lock(7310002);

-- Integrity indicators (src/indicators, docs/indicators.md): the flags the rules raise, each a reason to open a
-- record, never a verdict. Derived from the records in the import's transaction, like the documents: an
-- import computes again the flags of the organizations it touched.

-- One row per flag. `key` is the code and what the flag is about (a record, or a group of records: an
-- organization's year, a supplier in it), so a flag keeps its key, and a page's cursor its place, while the
-- records stay as they are.
CREATE TABLE IF NOT EXISTS integrity_flags (
  key              text PRIMARY KEY,
  code             text NOT NULL,
  organization_id  uuid NOT NULL,
  year             integer NOT NULL,
  -- The suppliers the flag names (a direct contract may have several): the provider_document filter.
  supplier_ids     bigint[] NOT NULL DEFAULT '{}',
  -- [{"resource": "direct-contracts", "id": "…"}, …]: the records involved, in the order the reason reads them.
  records          jsonb NOT NULL,
  -- The rule's figures, as the reason quotes them: money as text with two decimals, shares as numbers.
  figures          jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS integrity_flags_page ON integrity_flags (year DESC, key);
CREATE INDEX IF NOT EXISTS integrity_flags_code ON integrity_flags (code, year DESC, key);
CREATE INDEX IF NOT EXISTS integrity_flags_organization ON integrity_flags (organization_id, year DESC, key);
CREATE INDEX IF NOT EXISTS integrity_flags_suppliers ON integrity_flags USING gin (supplier_ids);
-- A record's flags (its detail, its page, the record filter): records @> [{"resource": …, "id": …}].
CREATE INDEX IF NOT EXISTS integrity_flags_records ON integrity_flags USING gin (records jsonb_path_ops);

-- Each organization's year as the organization-wide indicators compare them: what it committed (each real once,
-- as the supplier and organization pages add it up), how much of that by direct contract, and how concentrated
-- on few suppliers (Herfindahl index). Kept for the organizations an import touched; the fences across
-- organizations are computed from this table whole.
CREATE TABLE IF NOT EXISTS integrity_organization_years (
  organization_id  uuid NOT NULL,
  year             integer NOT NULL,
  commitments      integer NOT NULL,
  committed        numeric NOT NULL,
  direct_share     numeric NOT NULL,
  hhi              numeric NOT NULL,
  PRIMARY KEY (organization_id, year)
);
