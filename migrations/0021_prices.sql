-- The price research (src/prices/research.ts): every item of every published order, kept as the
-- statistics read it. An item's description is kept once in item_descriptions with its search vector, so a
-- query's words are matched against the distinct descriptions (a few thousand) and the items are then read
-- off one index in description, unit and price order that holds every column the statistics and filters
-- need. The import keeps price_items in step with the orders it touched (src/readmodel/prices.ts).
SELECT pg_advisory_xact_lock(7310002);
-- Idempotent: a test brings an older schema up with today's importer, which needs these ahead of their turn.

CREATE TABLE IF NOT EXISTS item_descriptions (
  id           integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  description  text NOT NULL,
  search       tsvector NOT NULL
);
-- By its hash: a description may be longer than a B-tree entry can hold.
CREATE UNIQUE INDEX IF NOT EXISTS item_descriptions_text ON item_descriptions (md5(description));
CREATE INDEX IF NOT EXISTS item_descriptions_search ON item_descriptions USING gin (search);

CREATE TABLE IF NOT EXISTS price_items (
  order_id         bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  position         smallint NOT NULL,
  description_id   integer NOT NULL REFERENCES item_descriptions (id),
  unit             text NOT NULL,
  amount           numeric NOT NULL,
  quantity         integer NOT NULL,
  organization_id  uuid NOT NULL,
  supplier_id      bigint NOT NULL,
  modality_id      smallint NOT NULL,
  day              date NOT NULL,
  PRIMARY KEY (order_id, position)
);
-- Every column a research reads is in the index: the items are read from it alone (an index-only scan).
CREATE INDEX IF NOT EXISTS price_items_lookup ON price_items (description_id, unit, amount)
  INCLUDE (quantity, organization_id, supplier_id, modality_id, day, order_id, position);

-- The p-quantile of a sorted array by linear interpolation between the closest ranks, in exact decimals: what
-- percentile_cont (which works in float8) and spreadsheets' QUARTILE.INC give. Null for an empty array.
CREATE OR REPLACE FUNCTION compras_quantile(a numeric[], p numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT a[i] + (h - (i - 1)) * (coalesce(a[i + 1], a[i]) - a[i])
  FROM (SELECT (cardinality(a) - 1) * p AS h) x, LATERAL (SELECT floor(x.h)::int + 1 AS i) y
  WHERE cardinality(a) > 0
$$;

-- The supplier pages: companies are looked up in an index that holds no CPF, so a person's document is a miss
-- exactly as an unknown CNPJ is; and their orders by supplier.
CREATE INDEX IF NOT EXISTS suppliers_companies ON suppliers (document) WHERE length(document) = 14;
CREATE INDEX IF NOT EXISTS orders_supplier ON orders (supplier_id);
CREATE INDEX IF NOT EXISTS orders_organization_deadline ON orders (organization_id, deadline_delivery);

INSERT INTO item_descriptions (description, search)
SELECT d, to_tsvector('compras_pt', d) FROM (SELECT DISTINCT description AS d FROM order_items) x
ON CONFLICT (md5(description)) DO NOTHING;

INSERT INTO price_items (order_id, position, description_id, unit, amount, quantity, organization_id, supplier_id,
  modality_id, day)
SELECT i.order_id, i.position, d.id, i.unit_measurement, i.amount, i.quantity, o.organization_id, o.supplier_id,
  o.modality_id, (o.deadline_delivery AT TIME ZONE 'UTC')::date
FROM order_items i JOIN orders o ON o.id = i.order_id
JOIN item_descriptions d ON md5(d.description) = md5(i.description) AND d.description = i.description
ON CONFLICT (order_id, position) DO NOTHING;

ANALYZE item_descriptions, price_items;
