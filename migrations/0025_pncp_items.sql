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
-- repeated spaces aside, then the synonyms below (docs/prices.md lists them). Each item keeps its spelling.
CREATE OR REPLACE FUNCTION compras_unit(u text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(m.unit, k.key) FROM
    (SELECT upper(regexp_replace(regexp_replace(translate(btrim(u),
       'áàâãäéèêëíìîïóòôõöúùûüçÁÀÂÃÄÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇ', 'aaaaaeeeeiiiiooooouuuucAAAAAEEEEIIIIOOOOOUUUUC'),
       '[.]+$', ''), '\s+', ' ', 'g')) AS key) k
  LEFT JOIN (VALUES
    ('U', 'UN'), ('UND', 'UN'), ('UNDS', 'UN'), ('UNI', 'UN'), ('UNID', 'UN'), ('UNIDS', 'UN'),
    ('UNIDADE', 'UN'), ('UNIDADES', 'UN'), ('UNIT', 'UN'),
    ('CAIXA', 'CX'), ('CAIXAS', 'CX'), ('CXS', 'CX'),
    ('PACOTE', 'PCT'), ('PACOTES', 'PCT'), ('PCTE', 'PCT'), ('PCTS', 'PCT'),
    ('PECA', 'PC'), ('PECAS', 'PC'), ('PCS', 'PC'),
    ('KGS', 'KG'), ('KILO', 'KG'), ('KILOS', 'KG'), ('QUILO', 'KG'), ('QUILOS', 'KG'), ('QUILOGRAMA', 'KG'),
    ('QUILOGRAMAS', 'KG'),
    ('GR', 'G'), ('GRS', 'G'), ('GRAMA', 'G'), ('GRAMAS', 'G'),
    ('LT', 'L'), ('LTS', 'L'), ('LITRO', 'L'), ('LITROS', 'L'),
    ('MILILITRO', 'ML'), ('MILILITROS', 'ML'),
    ('MT', 'M'), ('MTS', 'M'), ('METRO', 'M'), ('METROS', 'M'),
    ('M²', 'M2'), ('METRO QUADRADO', 'M2'), ('METROS QUADRADOS', 'M2'),
    ('M³', 'M3'), ('METRO CUBICO', 'M3'), ('METROS CUBICOS', 'M3'),
    ('FRASCO', 'FR'), ('FRASCOS', 'FR'),
    ('GALAO', 'GL'), ('GALOES', 'GL'),
    ('ROLO', 'RL'), ('ROLOS', 'RL'),
    ('DUZIA', 'DZ'), ('DUZIAS', 'DZ'),
    ('PARES', 'PAR'),
    ('SERV', 'SV'), ('SERVICO', 'SV'), ('SERVICOS', 'SV'),
    ('MESES', 'MES'),
    ('HR', 'H'), ('HRS', 'H'), ('HORA', 'H'), ('HORAS', 'H'),
    ('DIAS', 'DIA'),
    ('KITS', 'KIT'),
    ('SACO', 'SC'), ('SACOS', 'SC'),
    ('TUBO', 'TB'), ('TUBOS', 'TB'),
    ('CONJ', 'CJ'), ('CONJUNTO', 'CJ'), ('CONJUNTOS', 'CJ'),
    ('AMPOLA', 'AMP'), ('AMPOLAS', 'AMP'),
    ('COMP', 'CP'), ('CPR', 'CP'), ('COMPRIMIDO', 'CP'), ('COMPRIMIDOS', 'CP'),
    ('FARDO', 'FD'), ('FARDOS', 'FD'),
    ('CAPSULA', 'CAP'), ('CAPSULAS', 'CAP'),
    ('GARRAFA', 'GF'), ('GARRAFAS', 'GF'),
    ('RESMAS', 'RESMA'),
    ('TON', 'T'), ('TONELADA', 'T'), ('TONELADAS', 'T')
  ) m(spelling, unit) ON m.spelling = k.key
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
