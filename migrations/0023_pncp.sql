SELECT pg_advisory_xact_lock(7310002);

-- What a record imported from PNCP carries (src/resources/pncp.ts, docs/pncp-mapping.md): its number and
-- page on PNCP, when PNCP last changed it, and the publishing unit. Null on the platform's own records.
ALTER TABLE biddings
  ADD COLUMN IF NOT EXISTS pncp_id text,
  ADD COLUMN IF NOT EXISTS pncp_url text,
  ADD COLUMN IF NOT EXISTS pncp_updated_at timestamptz,
  ADD COLUMN IF NOT EXISTS unit_code text,
  ADD COLUMN IF NOT EXISTS unit_name text,
  ADD COLUMN IF NOT EXISTS unit_city text,
  ADD COLUMN IF NOT EXISTS unit_ibge_code text,
  ADD COLUMN IF NOT EXISTS unit_uf text;
ALTER TABLE contracts
  ADD COLUMN IF NOT EXISTS pncp_id text,
  ADD COLUMN IF NOT EXISTS pncp_url text,
  ADD COLUMN IF NOT EXISTS pncp_updated_at timestamptz,
  ADD COLUMN IF NOT EXISTS unit_code text,
  ADD COLUMN IF NOT EXISTS unit_name text,
  ADD COLUMN IF NOT EXISTS unit_city text,
  ADD COLUMN IF NOT EXISTS unit_ibge_code text,
  ADD COLUMN IF NOT EXISTS unit_uf text;
ALTER TABLE arps
  ADD COLUMN IF NOT EXISTS pncp_id text,
  ADD COLUMN IF NOT EXISTS pncp_url text,
  ADD COLUMN IF NOT EXISTS pncp_updated_at timestamptz,
  ADD COLUMN IF NOT EXISTS unit_code text,
  ADD COLUMN IF NOT EXISTS unit_name text,
  ADD COLUMN IF NOT EXISTS unit_city text,
  ADD COLUMN IF NOT EXISTS unit_ibge_code text,
  ADD COLUMN IF NOT EXISTS unit_uf text;

-- The listings' pncp_id filter, and the PNCP import's look-up of a contract's contratação.
CREATE INDEX IF NOT EXISTS biddings_pncp_id ON biddings (pncp_id) WHERE pncp_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS contracts_pncp_id ON contracts (pncp_id) WHERE pncp_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS arps_pncp_id ON arps (pncp_id) WHERE pncp_id IS NOT NULL;
