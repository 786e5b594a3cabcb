-- Full-text search for the transparency listings: Portuguese stemming without accents, so that
-- "licitacao" finds "Licitação" and "computador" finds "computadores". The import fills the
-- search columns (names live in other tables, so a generated column cannot).
CREATE EXTENSION IF NOT EXISTS unaccent;

CREATE TEXT SEARCH CONFIGURATION compras_pt (COPY = portuguese);
ALTER TEXT SEARCH CONFIGURATION compras_pt
  ALTER MAPPING FOR hword, hword_part, word WITH unaccent, portuguese_stem;

ALTER TABLE contracts ADD COLUMN search tsvector;
ALTER TABLE arps ADD COLUMN search tsvector;
ALTER TABLE biddings ADD COLUMN search tsvector;

CREATE INDEX contracts_search ON contracts USING gin (search);
CREATE INDEX arps_search ON arps USING gin (search);
CREATE INDEX biddings_search ON biddings USING gin (search);

UPDATE contracts c SET search = to_tsvector('compras_pt',
  concat_ws(' ', c.object_details, c.contractor_company_name, c.term_title, s.name))
FROM suppliers s WHERE s.id = c.supplier_id;
UPDATE arps a SET search = to_tsvector('compras_pt', concat_ws(' ', a.object_details, a.company_name, s.name))
FROM suppliers s WHERE s.id = a.supplier_id;
UPDATE biddings b SET search = to_tsvector('compras_pt', concat_ws(' ', b.object_details, b.company_name, b.agent,
  (SELECT string_agg(s.name, ' ') FROM bidding_providers p JOIN suppliers s ON s.id = p.supplier_id
   WHERE p.bidding_id = b.id)));

-- Filters of the listings by supplier and by number.
CREATE INDEX contracts_number ON contracts (contract_number);
CREATE INDEX arps_number ON arps (number);
CREATE INDEX contracts_bidding_number ON contracts (bidding_number);
CREATE INDEX arps_bidding_number ON arps (bidding_number);
