// The set-based half of the import. Validated lines are copied as jsonb into the temporary table
// import_stage; these statements check the links between them and write them, all in the import's
// one transaction. Each statement reads only import_stage and the data tables.

export const CREATE_STAGE = `
CREATE TEMP TABLE import_stage (
  seq              bigint NOT NULL,
  file             integer NOT NULL,
  line             integer NOT NULL,
  grp              text NOT NULL,   -- key space: organization, order, contract, arp, bidding
  type             text NOT NULL,
  org              uuid NOT NULL,
  key              text NOT NULL,
  number           text,            -- natural key: order number, contract_number, ARP number
  arp_number       text,            -- links
  contract_number  text,
  bidding_uuid     uuid,
  doc              jsonb            -- the record, except for orders (typed in import_orders)
) ON COMMIT DROP;
CREATE TEMP TABLE import_orders (
  seq bigint NOT NULL, unity_name text, unity_name_short text, object text, process_number text,
  bidding_number text, modality_name text, status_title text, provider_name text, provider_document text,
  representative_name text, expense_classification_title text, expense_type_title text, location_delivery text,
  deadline_delivery timestamptz, invoice_number text, invoice_issue_date timestamptz, amount_total numeric
) ON COMMIT DROP;
CREATE TEMP TABLE import_items (
  seq bigint NOT NULL, position smallint, number_item text, description text, brand text, unit_measurement text,
  quantity integer, amount numeric, amount_total numeric
) ON COMMIT DROP`

export const COPY_STAGE =
  'COPY import_stage (seq, file, line, grp, type, org, key, number, arp_number, contract_number, bidding_uuid, doc) FROM STDIN'
export const COPY_ORDERS = 'COPY import_orders FROM STDIN'
export const COPY_ITEMS = 'COPY import_items FROM STDIN'

/** The last line wins when a file holds the same key twice. */
export const DROP_SUPERSEDED = `
DELETE FROM import_stage a USING import_stage b
WHERE a.grp = b.grp AND a.key = b.key AND a.seq < b.seq`

export const INDEX_STAGE = `
CREATE INDEX ON import_stage (grp, org, number);
CREATE INDEX ON import_orders (seq);
ANALYZE import_stage, import_orders`

/** Every broken link or key clash, as (file, line, field, reason). */
export const LINK_PROBLEMS = `
SELECT file, line, field, reason FROM (
  SELECT s.file, s.line, 'organization_uuid' AS field, 'names no organization' AS reason
  FROM import_stage s
  WHERE s.grp <> 'organization'
    AND NOT EXISTS (SELECT 1 FROM organizations o WHERE o.id = s.org)
    AND NOT EXISTS (SELECT 1 FROM import_stage t WHERE t.grp = 'organization' AND t.org = s.org)
  UNION ALL
  SELECT s.file, s.line, 'bidding_uuid', 'names no direct contract or public call of this organization'
  FROM import_stage s
  WHERE s.bidding_uuid IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM biddings b WHERE b.id = s.bidding_uuid AND b.organization_id = s.org)
    AND NOT EXISTS (SELECT 1 FROM import_stage t WHERE t.grp = 'bidding' AND t.org = s.org AND t.key = s.bidding_uuid::text)
  UNION ALL
  SELECT s.file, s.line, 'arp_number', 'names no ARP of this organization'
  FROM import_stage s
  WHERE s.arp_number IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM arps a WHERE a.organization_id = s.org AND a.number = s.arp_number)
    AND NOT EXISTS (SELECT 1 FROM import_stage t WHERE t.grp = 'arp' AND t.org = s.org AND t.number = s.arp_number)
  UNION ALL
  SELECT s.file, s.line, 'contract_number', 'names no contract of this organization'
  FROM import_stage s
  WHERE s.contract_number IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM contracts c WHERE c.organization_id = s.org AND c.contract_number = s.contract_number)
    AND NOT EXISTS (SELECT 1 FROM import_stage t WHERE t.grp = 'contract' AND t.org = s.org AND t.number = s.contract_number)
  UNION ALL
  SELECT s.file, s.line, CASE s.grp WHEN 'contract' THEN 'contract_number' ELSE 'number' END,
    'is used by another ' || CASE s.grp WHEN 'contract' THEN 'contract' ELSE 'ARP' END ||
    ' of this organization (id ' || coalesce(c.id, a.id) || ')'
  FROM import_stage s
  LEFT JOIN contracts c ON s.grp = 'contract' AND c.organization_id = s.org AND c.contract_number = s.number
  LEFT JOIN arps a ON s.grp = 'arp' AND a.organization_id = s.org AND a.number = s.number
  WHERE s.grp IN ('contract', 'arp') AND coalesce(c.id, a.id)::text <> s.key
    AND NOT EXISTS (SELECT 1 FROM import_stage t WHERE t.grp = s.grp AND t.key = coalesce(c.id, a.id)::text)
  UNION ALL
  SELECT s.file, s.line, CASE s.grp WHEN 'contract' THEN 'contract_number' ELSE 'number' END,
    'is used by another ' || CASE s.grp WHEN 'contract' THEN 'contract' ELSE 'ARP' END ||
    ' of this organization (line ' || t.line || ')'
  FROM import_stage s
  JOIN import_stage t ON t.grp = s.grp AND t.org = s.org AND t.number = s.number AND t.seq < s.seq
  WHERE s.grp IN ('contract', 'arp')
) problems
ORDER BY file, line`

const UPSERT_ORGANIZATIONS = `
INSERT INTO organizations (id, name, document, updated_at)
SELECT s.org, d.name, d.document, now()
FROM import_stage s, jsonb_to_record(s.doc) AS d(name text, document text)
WHERE s.grp = 'organization'
ON CONFLICT (id) DO UPDATE SET name = excluded.name, document = excluded.document, updated_at = excluded.updated_at`

const UPSERT_SUPPLIERS = `
INSERT INTO suppliers (document, name, representative_name)
SELECT DISTINCT ON (document) document, name, representative_name FROM (
  SELECT s.seq, 0 AS sub, o.provider_document AS document, o.provider_name AS name, o.representative_name
  FROM import_stage s JOIN import_orders o ON o.seq = s.seq
  WHERE s.grp = 'order'
  UNION ALL
  SELECT s.seq, 0, d.provider_document, d.provider_company_name, d.provider_representative_name
  FROM import_stage s,
    jsonb_to_record(s.doc) AS d(provider_document text, provider_company_name text, provider_representative_name text)
  WHERE s.grp IN ('contract', 'arp')
  UNION ALL
  SELECT s.seq, p.ord, p.value->>'document', p.value->>'name', p.value->>'representative_name'
  FROM import_stage s CROSS JOIN LATERAL jsonb_array_elements(s.doc->'providers') WITH ORDINALITY p(value, ord)
  WHERE s.grp = 'bidding'
) found
ORDER BY document, seq DESC, sub DESC
ON CONFLICT (document) DO UPDATE SET
  name = excluded.name,
  representative_name = COALESCE(excluded.representative_name, suppliers.representative_name)`

const UPSERT_UNITS = `
INSERT INTO units (organization_id, name, name_short)
SELECT DISTINCT s.org, o.unity_name, o.unity_name_short
FROM import_stage s JOIN import_orders o ON o.seq = s.seq
WHERE s.grp = 'order'
ON CONFLICT (organization_id, name, name_short) DO NOTHING`

const UPSERT_BIDDINGS = `
INSERT INTO biddings (
  id, organization_id, kind, number, modality_id, budget_secret, status_id, register_price, opening_date,
  object_details, company_name, electronic_dispute_mode, adjudication_mode, judgment_criteria, competent_authority,
  agent, type_range_bids, range_bids, sum_amount_total, precision, sum_amount_total_finish, updated_at)
SELECT s.key::uuid, s.org, s.type, s.number, m.id, d.budget_secret, st.id, d.register_price, d.opening_date,
  d.object_details, d.company_name, d.electronic_dispute_mode, d.adjudication_mode, d.judgment_criteria,
  d.competent_authority, d.agent, d.type_range_bids, d.range_bids, d.sum_amount_total, d.precision,
  d.sum_amount_total_finish, now()
FROM import_stage s
CROSS JOIN LATERAL jsonb_to_record(s.doc) AS d(
  modality text, budget_secret boolean, status text, register_price boolean, opening_date timestamptz,
  object_details text, company_name text, electronic_dispute_mode text, adjudication_mode text,
  judgment_criteria text, competent_authority text, agent text, type_range_bids text, range_bids text,
  sum_amount_total numeric, precision integer, sum_amount_total_finish numeric)
JOIN bidding_modalities m ON m.name = d.modality
JOIN bidding_statuses st ON st.name = d.status
WHERE s.grp = 'bidding'
ON CONFLICT (id) DO UPDATE SET
  organization_id = excluded.organization_id, kind = excluded.kind, number = excluded.number,
  modality_id = excluded.modality_id, budget_secret = excluded.budget_secret, status_id = excluded.status_id,
  register_price = excluded.register_price, opening_date = excluded.opening_date,
  object_details = excluded.object_details, company_name = excluded.company_name,
  electronic_dispute_mode = excluded.electronic_dispute_mode, adjudication_mode = excluded.adjudication_mode,
  judgment_criteria = excluded.judgment_criteria, competent_authority = excluded.competent_authority,
  agent = excluded.agent, type_range_bids = excluded.type_range_bids, range_bids = excluded.range_bids,
  sum_amount_total = excluded.sum_amount_total, precision = excluded.precision,
  sum_amount_total_finish = excluded.sum_amount_total_finish, updated_at = excluded.updated_at`

const BIDDING_CHILDREN = [
  `DELETE FROM bidding_providers WHERE bidding_id IN (SELECT key::uuid FROM import_stage WHERE grp = 'bidding')`,
  `DELETE FROM documents WHERE bidding_id IN (SELECT key::uuid FROM import_stage WHERE grp = 'bidding')`,
  `INSERT INTO bidding_providers (bidding_id, position, supplier_id, representative_name)
   SELECT s.key::uuid, p.ord, sp.id, p.value->>'representative_name'
   FROM import_stage s CROSS JOIN LATERAL jsonb_array_elements(s.doc->'providers') WITH ORDINALITY p(value, ord)
   JOIN suppliers sp ON sp.document = p.value->>'document'
   WHERE s.grp = 'bidding'`,
  documentsOf('bidding', 'bidding_id'),
]

function documentsOf(grp: string, column: string): string {
  return `
INSERT INTO documents (uuid, name, url, position, ${column})
SELECT (d.value->>'uuid')::uuid, d.value->>'name', d.value->>'url', d.ord, s.key::uuid
FROM import_stage s CROSS JOIN LATERAL jsonb_array_elements(s.doc->'documents') WITH ORDINALITY d(value, ord)
WHERE s.grp = '${grp}'`
}

/** Additive terms and their documents, for contracts or ARPs. */
function termsOf(grp: string, column: string): string[] {
  return [
    `DELETE FROM additive_terms WHERE ${column} IN (SELECT key::uuid FROM import_stage WHERE grp = '${grp}')`,
    `INSERT INTO additive_terms (${column}, position, number, kind, description, signature_date, date_start, date_end, value)
     SELECT s.key::uuid, t.ord, t.value->>'number', t.value->>'kind', t.value->>'description',
       (t.value->>'signature_date')::date, (t.value->>'date_start')::date, (t.value->>'date_end')::date,
       (t.value->>'value')::numeric
     FROM import_stage s CROSS JOIN LATERAL jsonb_array_elements(s.doc->'terms') WITH ORDINALITY t(value, ord)
     WHERE s.grp = '${grp}'`,
    `INSERT INTO documents (uuid, name, url, position, term_id)
     SELECT (d.value->>'uuid')::uuid, d.value->>'name', d.value->>'url', d.ord, at.id
     FROM import_stage s
     CROSS JOIN LATERAL jsonb_array_elements(s.doc->'terms') WITH ORDINALITY t(value, ord)
     JOIN additive_terms at ON at.${column} = s.key::uuid AND at.position = t.ord
     CROSS JOIN LATERAL jsonb_array_elements(t.value->'documents') WITH ORDINALITY d(value, ord)
     WHERE s.grp = '${grp}'`,
  ]
}

const UPSERT_ARPS = `
INSERT INTO arps (
  id, organization_id, number, bidding_id, object_details, amount_total, company_name, supplier_id,
  representative_name, modality_id, bidding_number, date_signature, date_expiration, management_status_id, updated_at)
SELECT s.key::uuid, s.org, s.number, s.bidding_uuid, d.object_details, d.amount_total, d.company_name, sp.id,
  d.provider_representative_name, m.id, d.bidding_number, d.date_signature, d.date_expiration, ms.id, now()
FROM import_stage s
CROSS JOIN LATERAL jsonb_to_record(s.doc) AS d(
  object_details text, amount_total numeric, company_name text, provider_document text,
  provider_representative_name text, bidding_modality text, bidding_number text, date_signature date,
  date_expiration date, management_status text)
JOIN suppliers sp ON sp.document = d.provider_document
JOIN bidding_modalities m ON m.name = d.bidding_modality
JOIN management_statuses ms ON ms.name = d.management_status
WHERE s.grp = 'arp'
ON CONFLICT (id) DO UPDATE SET
  organization_id = excluded.organization_id, number = excluded.number, bidding_id = excluded.bidding_id,
  object_details = excluded.object_details, amount_total = excluded.amount_total,
  company_name = excluded.company_name, supplier_id = excluded.supplier_id,
  representative_name = excluded.representative_name, modality_id = excluded.modality_id,
  bidding_number = excluded.bidding_number, date_signature = excluded.date_signature,
  date_expiration = excluded.date_expiration, management_status_id = excluded.management_status_id,
  updated_at = excluded.updated_at`

const UPSERT_CONTRACTS = `
INSERT INTO contracts (
  id, organization_id, contract_number, bidding_id, arp_number, object_details, amount_total, supplier_id,
  contractor_company_name, modality_id, term_title, bidding_number, date_start, date_end, management_status_id,
  updated_at)
SELECT s.key::uuid, s.org, s.number, s.bidding_uuid, s.arp_number, d.object_details, d.amount_total, sp.id,
  d.contractor_company_name, m.id, d.term_title, d.bidding_number, d.date_start, d.date_end, ms.id, now()
FROM import_stage s
CROSS JOIN LATERAL jsonb_to_record(s.doc) AS d(
  object_details text, amount_total numeric, provider_document text, contractor_company_name text,
  bidding_modality text, term_title text, bidding_number text, date_start date, date_end date,
  management_status text)
JOIN suppliers sp ON sp.document = d.provider_document
JOIN bidding_modalities m ON m.name = d.bidding_modality
JOIN management_statuses ms ON ms.name = d.management_status
WHERE s.grp = 'contract'
ON CONFLICT (id) DO UPDATE SET
  organization_id = excluded.organization_id, contract_number = excluded.contract_number,
  bidding_id = excluded.bidding_id, arp_number = excluded.arp_number, object_details = excluded.object_details,
  amount_total = excluded.amount_total, supplier_id = excluded.supplier_id,
  contractor_company_name = excluded.contractor_company_name, modality_id = excluded.modality_id,
  term_title = excluded.term_title, bidding_number = excluded.bidding_number, date_start = excluded.date_start,
  date_end = excluded.date_end, management_status_id = excluded.management_status_id,
  updated_at = excluded.updated_at`

const CONTRACT_CHILDREN = [
  `DELETE FROM contract_people WHERE contract_id IN (SELECT key::uuid FROM import_stage WHERE grp = 'contract')`,
  `DELETE FROM contract_commitments WHERE contract_id IN (SELECT key::uuid FROM import_stage WHERE grp = 'contract')`,
  `DELETE FROM documents WHERE contract_id IN (SELECT key::uuid FROM import_stage WHERE grp = 'contract')`,
  `INSERT INTO contract_people (contract_id, kind, position, role, name, cpf, office)
   SELECT s.key::uuid, k.kind, p.ord, p.value->>'role', p.value->>'name', p.value->>'cpf', p.value->>'office'
   FROM import_stage s
   CROSS JOIN (VALUES ('manager', 'managers'), ('inspector', 'inspectors')) k(kind, field)
   CROSS JOIN LATERAL jsonb_array_elements(s.doc->k.field) WITH ORDINALITY p(value, ord)
   WHERE s.grp = 'contract'`,
  `INSERT INTO contract_commitments (
     contract_id, position, year, number, emission_date, description, value, expense_account_code, expense_account_name)
   SELECT s.key::uuid, c.ord, (c.value->>'year')::integer, c.value->>'number', (c.value->>'emission_date')::date,
     c.value->>'description', (c.value->>'value')::numeric, c.value->>'expense_account_code',
     c.value->>'expense_account_name'
   FROM import_stage s CROSS JOIN LATERAL jsonb_array_elements(s.doc->'commitments') WITH ORDINALITY c(value, ord)
   WHERE s.grp = 'contract'`,
  documentsOf('contract', 'contract_id'),
  ...termsOf('contract', 'contract_id'),
]

const UPSERT_ORDERS = `
INSERT INTO orders (
  organization_id, number, unit_id, object, process_number, bidding_number, modality_id, status_id, supplier_id,
  representative_name, arp_number, contract_number, expense_classification_title, expense_type_title,
  location_delivery, deadline_delivery, invoice_number, invoice_issue_date, amount_total, updated_at)
SELECT s.org, s.number, u.id, d.object, d.process_number, d.bidding_number, m.id, st.id, sp.id,
  d.representative_name, s.arp_number, s.contract_number, d.expense_classification_title, d.expense_type_title,
  d.location_delivery, d.deadline_delivery, d.invoice_number, d.invoice_issue_date, d.amount_total, now()
FROM import_stage s
JOIN import_orders d ON d.seq = s.seq
JOIN units u ON u.organization_id = s.org AND u.name = d.unity_name AND u.name_short = d.unity_name_short
JOIN suppliers sp ON sp.document = d.provider_document
JOIN bidding_modalities m ON m.name = d.modality_name
JOIN order_statuses st ON st.name = d.status_title
WHERE s.grp = 'order'
ON CONFLICT (organization_id, number) DO UPDATE SET
  unit_id = excluded.unit_id, object = excluded.object, process_number = excluded.process_number,
  bidding_number = excluded.bidding_number, modality_id = excluded.modality_id, status_id = excluded.status_id,
  supplier_id = excluded.supplier_id, representative_name = excluded.representative_name,
  arp_number = excluded.arp_number, contract_number = excluded.contract_number,
  expense_classification_title = excluded.expense_classification_title,
  expense_type_title = excluded.expense_type_title, location_delivery = excluded.location_delivery,
  deadline_delivery = excluded.deadline_delivery, invoice_number = excluded.invoice_number,
  invoice_issue_date = excluded.invoice_issue_date, amount_total = excluded.amount_total,
  updated_at = excluded.updated_at`

const ORDER_CHILDREN = [
  `DELETE FROM order_items i USING orders o, import_stage s
   WHERE s.grp = 'order' AND o.organization_id = s.org AND o.number = s.number AND i.order_id = o.id`,
  `INSERT INTO order_items (
     order_id, position, number_item, description, brand, unit_measurement, quantity, amount, amount_total)
   SELECT o.id, i.position, i.number_item, i.description, i.brand, i.unit_measurement, i.quantity, i.amount,
     i.amount_total
   FROM import_items i
   JOIN import_stage s ON s.seq = i.seq
   JOIN orders o ON o.organization_id = s.org AND o.number = s.number`,
]

/** The search columns of what this run wrote (see migrations/0003_search.sql). */
const SEARCH_UPDATES = [
  `UPDATE contracts c SET search = to_tsvector('compras_pt',
     concat_ws(' ', c.object_details, c.contractor_company_name, c.term_title, s.name))
   FROM suppliers s, import_stage st
   WHERE s.id = c.supplier_id AND st.grp = 'contract' AND c.id = st.key::uuid`,
  `UPDATE arps a SET search = to_tsvector('compras_pt', concat_ws(' ', a.object_details, a.company_name, s.name))
   FROM suppliers s, import_stage st
   WHERE s.id = a.supplier_id AND st.grp = 'arp' AND a.id = st.key::uuid`,
  `UPDATE biddings b SET search = to_tsvector('compras_pt', concat_ws(' ', b.object_details, b.company_name, b.agent,
     (SELECT string_agg(s.name, ' ') FROM bidding_providers p JOIN suppliers s ON s.id = p.supplier_id
      WHERE p.bidding_id = b.id)))
   FROM import_stage st
   WHERE st.grp = 'bidding' AND b.id = st.key::uuid`,
]

/** The suppliers this run names, as they were: a changed name must reach other organizations' documents. */
export const SNAPSHOT_SUPPLIERS = `
CREATE TEMP TABLE import_suppliers_before ON COMMIT DROP AS
SELECT id, name, representative_name FROM suppliers WHERE document IN (
  SELECT provider_document FROM import_orders
  UNION SELECT doc->>'provider_document' FROM import_stage WHERE grp IN ('contract', 'arp')
  UNION SELECT p.value->>'document' FROM import_stage s CROSS JOIN LATERAL jsonb_array_elements(s.doc->'providers') p(value)
  WHERE s.grp = 'bidding')`

/**
 * The organizations whose documents (src/readmodel/documents.ts) this run changed: those it wrote, and
 * those with a record of a supplier whose name or representative it changed.
 */
export const AFFECTED_ORGANIZATIONS = `
CREATE TEMP TABLE rebuild_organizations ON COMMIT DROP AS
WITH changed AS (
  SELECT b.id FROM import_suppliers_before b JOIN suppliers s ON s.id = b.id
  WHERE (s.name, s.representative_name) IS DISTINCT FROM (b.name, b.representative_name))
SELECT org AS id FROM import_stage
UNION SELECT organization_id FROM orders WHERE supplier_id IN (SELECT id FROM changed)
UNION SELECT organization_id FROM contracts WHERE supplier_id IN (SELECT id FROM changed)
UNION SELECT organization_id FROM arps WHERE supplier_id IN (SELECT id FROM changed)
UNION SELECT b.organization_id FROM biddings b JOIN bidding_providers p ON p.bidding_id = b.id
  WHERE p.supplier_id IN (SELECT id FROM changed)`

/** In dependency order: what a statement joins to is written before it. */
export const WRITE_STEPS: readonly string[] = [
  UPSERT_ORGANIZATIONS,
  UPSERT_SUPPLIERS,
  UPSERT_UNITS,
  // Fresh statistics, or the planner joins the stage to a table it believes empty and multiplies rows.
  'ANALYZE units, suppliers',
  UPSERT_BIDDINGS,
  ...BIDDING_CHILDREN,
  UPSERT_ARPS,
  `DELETE FROM documents WHERE arp_id IN (SELECT key::uuid FROM import_stage WHERE grp = 'arp')`,
  documentsOf('arp', 'arp_id'),
  ...termsOf('arp', 'arp_id'),
  UPSERT_CONTRACTS,
  ...CONTRACT_CHILDREN,
  'ANALYZE biddings, arps, contracts',
  UPSERT_ORDERS,
  ...ORDER_CHILDREN,
  ...SEARCH_UPDATES,
]

export const ANALYZE_TABLES = `ANALYZE organizations, units, suppliers, biddings, bidding_providers, arps, contracts,
  contract_people, contract_commitments, additive_terms, documents, orders, order_items`
