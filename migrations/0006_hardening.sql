-- Finding a supplier by name instead of by CPF (a CPF filter would confirm a person's hidden digits), and
-- numbers stored without surrounding white space, as the import now trims them.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- unaccent() is STABLE because its dictionary could change; ours never does, so a wrapper that names the
-- dictionary can be IMMUTABLE and feed a generated column and its index.
CREATE FUNCTION compras_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;

-- The LIKE pattern of a name filter: its words in order, LIKE's own wildcards taken literally.
CREATE FUNCTION compras_name_pattern(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT '%' || array_to_string(regexp_split_to_array(btrim(
      replace(replace(replace(compras_fold($1), '\', '\\'), '%', '\%'), '_', '\_')), '\s+'), '%') || '%' $$;

ALTER TABLE suppliers ADD COLUMN name_folded text GENERATED ALWAYS AS (compras_fold(name)) STORED;
CREATE INDEX suppliers_name_folded ON suppliers USING gin (name_folded gin_trgm_ops);

-- Numbers with surrounding white space, trimmed where the trimmed number is free in its organization;
-- a pair that would collide is left as it is. (0007 has every document rebuilt afterwards.)
CREATE FUNCTION compras_trim(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT regexp_replace($1, '^\s+|\s+$', '', 'g') $$;

WITH candidates AS (
  SELECT id, organization_id, compras_trim(number) AS trimmed FROM orders WHERE number <> compras_trim(number)
), free AS (
  SELECT c.* FROM candidates c
  WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.organization_id = c.organization_id AND o.number = c.trimmed)
    AND (SELECT count(*) FROM candidates d WHERE d.organization_id = c.organization_id AND d.trimmed = c.trimmed) = 1
)
UPDATE orders o SET number = f.trimmed FROM free f WHERE o.id = f.id;

WITH candidates AS (
  SELECT id, organization_id, compras_trim(contract_number) AS trimmed FROM contracts
  WHERE contract_number <> compras_trim(contract_number)
), free AS (
  SELECT c.* FROM candidates c
  WHERE NOT EXISTS (SELECT 1 FROM contracts o WHERE o.organization_id = c.organization_id AND o.contract_number = c.trimmed)
    AND (SELECT count(*) FROM candidates d WHERE d.organization_id = c.organization_id AND d.trimmed = c.trimmed) = 1
)
UPDATE contracts o SET contract_number = f.trimmed FROM free f WHERE o.id = f.id;

WITH candidates AS (
  SELECT id, organization_id, compras_trim(number) AS trimmed FROM arps WHERE number <> compras_trim(number)
), free AS (
  SELECT c.* FROM candidates c
  WHERE NOT EXISTS (SELECT 1 FROM arps o WHERE o.organization_id = c.organization_id AND o.number = c.trimmed)
    AND (SELECT count(*) FROM candidates d WHERE d.organization_id = c.organization_id AND d.trimmed = c.trimmed) = 1
)
UPDATE arps o SET number = f.trimmed FROM free f WHERE o.id = f.id;

UPDATE biddings SET number = compras_trim(number) WHERE number <> compras_trim(number);

-- Links by number follow their target when the untrimmed number no longer names anything.
UPDATE orders o SET contract_number = compras_trim(o.contract_number)
  WHERE o.contract_number <> compras_trim(o.contract_number)
    AND NOT EXISTS (SELECT 1 FROM contracts c WHERE c.organization_id = o.organization_id AND c.contract_number = o.contract_number);

UPDATE orders o SET arp_number = compras_trim(o.arp_number)
  WHERE o.arp_number <> compras_trim(o.arp_number)
    AND NOT EXISTS (SELECT 1 FROM arps a WHERE a.organization_id = o.organization_id AND a.number = o.arp_number);

UPDATE contracts c SET arp_number = compras_trim(c.arp_number)
  WHERE c.arp_number <> compras_trim(c.arp_number)
    AND NOT EXISTS (SELECT 1 FROM arps a WHERE a.organization_id = c.organization_id AND a.number = c.arp_number);
