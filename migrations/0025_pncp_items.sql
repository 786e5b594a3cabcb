SELECT pg_advisory_xact_lock(7310002);

-- What PNCP tells of a contratação besides the platform's fields (src/resources/pncp.ts): its process, legal
-- basis, the end of its proposal period, remarks and its page on the system it was run in. Null on the
-- platform's own biddings.
ALTER TABLE biddings
  ADD COLUMN IF NOT EXISTS process text,
  ADD COLUMN IF NOT EXISTS legal_basis text,
  ADD COLUMN IF NOT EXISTS closing_date timestamptz,
  ADD COLUMN IF NOT EXISTS additional_info text,
  ADD COLUMN IF NOT EXISTS origin_url text;

-- A contratação's items and their results (owned children of biddings, written whole by the import).
CREATE TABLE IF NOT EXISTS bidding_items (
  bidding_id        uuid NOT NULL REFERENCES biddings (id) ON DELETE CASCADE,
  position          smallint NOT NULL,
  number_item       integer NOT NULL,
  description       text NOT NULL,
  unit_measurement  text NOT NULL,
  quantity          numeric NOT NULL,
  estimated_amount  numeric,
  estimated_total   numeric,
  PRIMARY KEY (bidding_id, position)
);
-- An item is named by its number in its bidding (the import refuses a repeated one): what a result names.
CREATE UNIQUE INDEX IF NOT EXISTS bidding_items_number ON bidding_items (bidding_id, number_item);
CREATE TABLE IF NOT EXISTS bidding_results (
  bidding_id   uuid NOT NULL REFERENCES biddings (id) ON DELETE CASCADE,
  position     smallint NOT NULL,
  number_item  integer NOT NULL,
  supplier_id  bigint NOT NULL REFERENCES suppliers (id),
  quantity     numeric NOT NULL,
  amount       numeric NOT NULL,
  amount_total numeric NOT NULL,
  discount     numeric,
  result_date  date,
  PRIMARY KEY (bidding_id, position)
);
CREATE INDEX IF NOT EXISTS bidding_results_supplier ON bidding_results (supplier_id);

-- The unit a price is compared in: the spelling as published, upper-cased, accents, a trailing period and
-- repeated spaces aside, then the synonyms below (docs/pncp-mapping.md lists them). Each item keeps its spelling.
CREATE OR REPLACE FUNCTION compras_unit(u text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  -- One expression, so that PostgreSQL inlines it into the statements that call it for every item.
  SELECT CASE upper(regexp_replace(regexp_replace(translate(btrim(u),
      'áàâãäéèêëíìîïóòôõöúùûüçÁÀÂÃÄÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇ', 'aaaaaeeeeiiiiooooouuuucAAAAAEEEEIIIIOOOOOUUUUC'),
      '[.]+$', ''), '\s+', ' ', 'g'))
    WHEN 'U' THEN 'UN' WHEN 'UND' THEN 'UN' WHEN 'UNDS' THEN 'UN' WHEN 'UNI' THEN 'UN'
    WHEN 'UNID' THEN 'UN' WHEN 'UNIDS' THEN 'UN' WHEN 'UNIDADE' THEN 'UN' WHEN 'UNIDADES' THEN 'UN'
    WHEN 'UNIT' THEN 'UN' WHEN 'CAIXA' THEN 'CX' WHEN 'CAIXAS' THEN 'CX' WHEN 'CXS' THEN 'CX'
    WHEN 'PACOTE' THEN 'PCT' WHEN 'PACOTES' THEN 'PCT' WHEN 'PCTE' THEN 'PCT' WHEN 'PCTS' THEN 'PCT'
    WHEN 'PECA' THEN 'PC' WHEN 'PECAS' THEN 'PC' WHEN 'PCS' THEN 'PC' WHEN 'KGS' THEN 'KG'
    WHEN 'KILO' THEN 'KG' WHEN 'KILOS' THEN 'KG' WHEN 'QUILO' THEN 'KG' WHEN 'QUILOS' THEN 'KG'
    WHEN 'QUILOGRAMA' THEN 'KG' WHEN 'QUILOGRAMAS' THEN 'KG' WHEN 'GR' THEN 'G' WHEN 'GRS' THEN 'G'
    WHEN 'GRAMA' THEN 'G' WHEN 'GRAMAS' THEN 'G' WHEN 'LT' THEN 'L' WHEN 'LTS' THEN 'L'
    WHEN 'LITRO' THEN 'L' WHEN 'LITROS' THEN 'L' WHEN 'MILILITRO' THEN 'ML' WHEN 'MILILITROS' THEN 'ML'
    WHEN 'MT' THEN 'M' WHEN 'MTS' THEN 'M' WHEN 'METRO' THEN 'M' WHEN 'METROS' THEN 'M'
    WHEN 'M²' THEN 'M2' WHEN 'METRO QUADRADO' THEN 'M2' WHEN 'METROS QUADRADOS' THEN 'M2'
    WHEN 'M³' THEN 'M3' WHEN 'METRO CUBICO' THEN 'M3' WHEN 'METROS CUBICOS' THEN 'M3'
    WHEN 'FRASCO' THEN 'FR' WHEN 'FRASCOS' THEN 'FR' WHEN 'GALAO' THEN 'GL' WHEN 'GALOES' THEN 'GL'
    WHEN 'ROLO' THEN 'RL' WHEN 'ROLOS' THEN 'RL' WHEN 'DUZIA' THEN 'DZ' WHEN 'DUZIAS' THEN 'DZ'
    WHEN 'PARES' THEN 'PAR' WHEN 'SERV' THEN 'SV' WHEN 'SERVICO' THEN 'SV' WHEN 'SERVICOS' THEN 'SV'
    WHEN 'MESES' THEN 'MES' WHEN 'HR' THEN 'H' WHEN 'HRS' THEN 'H' WHEN 'HORA' THEN 'H'
    WHEN 'HORAS' THEN 'H' WHEN 'DIAS' THEN 'DIA' WHEN 'KITS' THEN 'KIT' WHEN 'SACO' THEN 'SC'
    WHEN 'SACOS' THEN 'SC' WHEN 'TUBO' THEN 'TB' WHEN 'TUBOS' THEN 'TB' WHEN 'CONJ' THEN 'CJ'
    WHEN 'CONJUNTO' THEN 'CJ' WHEN 'CONJUNTOS' THEN 'CJ' WHEN 'AMPOLA' THEN 'AMP'
    WHEN 'AMPOLAS' THEN 'AMP' WHEN 'COMP' THEN 'CP' WHEN 'CPR' THEN 'CP' WHEN 'COMPRIMIDO' THEN 'CP'
    WHEN 'COMPRIMIDOS' THEN 'CP' WHEN 'FARDO' THEN 'FD' WHEN 'FARDOS' THEN 'FD'
    WHEN 'CAPSULA' THEN 'CAP' WHEN 'CAPSULAS' THEN 'CAP' WHEN 'GARRAFA' THEN 'GF'
    WHEN 'GARRAFAS' THEN 'GF' WHEN 'RESMAS' THEN 'RESMA' WHEN 'TON' THEN 'T' WHEN 'TONELADA' THEN 'T'
    WHEN 'TONELADAS' THEN 'T'
    ELSE upper(regexp_replace(regexp_replace(translate(btrim(u),
      'áàâãäéèêëíìîïóòôõöúùûüçÁÀÂÃÄÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇ', 'aaaaaeeeeiiiiooooouuuucAAAAAEEEEIIIIOOOOOUUUUC'),
      '[.]+$', ''), '\s+', ' ', 'g'))
  END
$$;

-- Order items are compared in their normalized unit too.
UPDATE price_items SET unit = compras_unit(unit) WHERE unit IS DISTINCT FROM compras_unit(unit);

-- The price research's rows of results (src/readmodel/prices.ts), as price_items holds those of orders: one per
-- stored result, keyed by its bidding and position; `ref` names it in a cursor.
CREATE TABLE IF NOT EXISTS price_results (
  bidding_id       uuid NOT NULL REFERENCES biddings (id) ON DELETE CASCADE,
  position         smallint NOT NULL,
  ref              bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  description_id   integer NOT NULL REFERENCES item_descriptions (id),
  unit             text NOT NULL,
  amount           numeric NOT NULL,
  quantity         numeric NOT NULL,
  organization_id  uuid NOT NULL,
  supplier_id      bigint NOT NULL,
  modality_id      smallint NOT NULL,
  day              date NOT NULL,
  PRIMARY KEY (bidding_id, position)
);
CREATE INDEX IF NOT EXISTS price_results_lookup ON price_results (description_id, unit, amount)
  INCLUDE (quantity, organization_id, supplier_id, modality_id, day, ref, position);

-- Every price the research reads: an order's item (source 1) or a result (source 2), each named by its source,
-- ref (the order's id, the result's ref) and position. A UNION ALL view: a research's conditions reach both
-- tables' indexes.
CREATE OR REPLACE VIEW price_rows AS
  SELECT 1::smallint AS source, order_id AS ref, position, description_id, unit, amount, quantity::numeric AS quantity,
    organization_id, supplier_id, modality_id, day
  FROM price_items
  UNION ALL
  SELECT 2::smallint, ref, position, description_id, unit, amount, quantity, organization_id, supplier_id,
    modality_id, day
  FROM price_results;
