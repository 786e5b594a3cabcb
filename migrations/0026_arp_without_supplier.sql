SELECT pg_advisory_xact_lock(7310002);

-- An ARP may name no supplier and no value: PNCP's atas say neither (docs/pncp-mapping.md). The platform's
-- own ARPs still carry both; the import reads them as the ARP's declaration says (src/resources/arp.ts).
ALTER TABLE arps
  ALTER COLUMN amount_total DROP NOT NULL,
  ALTER COLUMN supplier_id DROP NOT NULL,
  ALTER COLUMN representative_name DROP NOT NULL;
