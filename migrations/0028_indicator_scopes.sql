SELECT pg_advisory_xact_lock(7310002);

-- The integrity indicators computed for what an import touched (src/indicators/project.ts): a record's own
-- flags for the records it wrote, an organization's year for the years whose commitments changed, a
-- description's fences for the descriptions whose prices changed.

-- What each organization committed, each real once, a row per record and supplier (as the supplier and
-- organization pages add it up): kept for the records an import touched, so that the years whose commitments
-- changed, before and after, are known without reading an organization whole.
CREATE TABLE IF NOT EXISTS integrity_commitments (
  -- contracts, direct_contracts or orders
  kind             text NOT NULL,
  organization_id  uuid NOT NULL,
  -- The record's id; an order's number (an order withdrawn is known by its number alone).
  ref              text NOT NULL,
  supplier_id      bigint NOT NULL,
  year             integer NOT NULL,
  value            numeric NOT NULL,
  modality_id      smallint NOT NULL,
  PRIMARY KEY (kind, ref, organization_id, supplier_id)
);
CREATE INDEX IF NOT EXISTS integrity_commitments_year ON integrity_commitments (organization_id, year);

-- Each description's unit prices as the price research fences them (Q1, median, Q3 and the upper fence
-- Q3 + 1.5 × IQR, exact decimals), for each normalized unit with enough prices: what R017 compares a price with.
CREATE TABLE IF NOT EXISTS price_fences (
  description_id  integer NOT NULL,
  unit            text NOT NULL,
  prices          integer NOT NULL,
  q1              numeric NOT NULL,
  median          numeric NOT NULL,
  q3              numeric NOT NULL,
  fence           numeric NOT NULL,
  PRIMARY KEY (description_id, unit)
);

-- An R017 flag is about a price of one description: the flags of a description whose fences moved are made again.
ALTER TABLE integrity_flags ADD COLUMN IF NOT EXISTS description_id integer;
CREATE INDEX IF NOT EXISTS integrity_flags_description ON integrity_flags (description_id)
  WHERE description_id IS NOT NULL;

-- The descriptions whose prices changed since the indicators last read them: every statement that writes
-- price rows adds the descriptions it wrote, moved or removed (a withdrawn order's rows go by ON DELETE CASCADE,
-- which no import statement sees), and the indicators' projection takes them, in the same transaction.
CREATE TABLE IF NOT EXISTS price_descriptions_changed (description_id integer PRIMARY KEY);

CREATE OR REPLACE FUNCTION compras_price_descriptions_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch reads only the transition tables its event has.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO price_descriptions_changed SELECT DISTINCT description_id FROM added ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO price_descriptions_changed SELECT DISTINCT description_id FROM gone ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO price_descriptions_changed
      SELECT description_id FROM gone UNION SELECT description_id FROM added ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS price_items_added ON price_items;
DROP TRIGGER IF EXISTS price_items_changed ON price_items;
DROP TRIGGER IF EXISTS price_items_gone ON price_items;
DROP TRIGGER IF EXISTS price_results_added ON price_results;
DROP TRIGGER IF EXISTS price_results_changed ON price_results;
DROP TRIGGER IF EXISTS price_results_gone ON price_results;
CREATE TRIGGER price_items_added AFTER INSERT ON price_items REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION compras_price_descriptions_changed();
CREATE TRIGGER price_items_changed AFTER UPDATE ON price_items REFERENCING OLD TABLE AS gone NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION compras_price_descriptions_changed();
CREATE TRIGGER price_items_gone AFTER DELETE ON price_items REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION compras_price_descriptions_changed();
CREATE TRIGGER price_results_added AFTER INSERT ON price_results REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION compras_price_descriptions_changed();
CREATE TRIGGER price_results_changed AFTER UPDATE ON price_results REFERENCING OLD TABLE AS gone NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION compras_price_descriptions_changed();
CREATE TRIGGER price_results_gone AFTER DELETE ON price_results REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION compras_price_descriptions_changed();
