import type { Pool } from '../db/pool.js'
import type { RecordType } from '../domain.js'

// The inverse of the import: every stored record in the import format, so that data can be moved
// between instances (`compras dump`) and the import's round trip can be checked.

const TIMESTAMP = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

const DOCUMENTS = (where: string) => `coalesce((
  SELECT json_agg(json_build_object('uuid', d.uuid, 'name', d.name, 'url', d.url) ORDER BY d.position)
  FROM documents d WHERE ${where}), '[]')`

const TERMS = (where: string) => `coalesce((
  SELECT json_agg(json_build_object(
    'number', t.number, 'kind', t.kind, 'description', t.description, 'signature_date', t.signature_date,
    'date_start', t.date_start, 'date_end', t.date_end, 'value', t.value::text,
    'documents', ${DOCUMENTS('d.term_id = t.id')}) ORDER BY t.position)
  FROM additive_terms t WHERE ${where}), '[]')`

const PEOPLE = (kind: string) => `coalesce((
  SELECT json_agg(json_build_object('role', p.role, 'name', p.name, 'cpf', p.cpf, 'office', p.office)
    ORDER BY p.position)
  FROM contract_people p WHERE p.contract_id = c.id AND p.kind = '${kind}'), '[]')`

/** One query per record type; each selects (key, record) for rows after a key, in key order. */
const QUERIES: Record<RecordType, string> = {
  organization: `
    SELECT o.id::text AS key, json_build_object('type', 'organization', 'uuid', o.id, 'name', o.name,
      'document', o.document) AS record
    FROM organizations o WHERE ($1::text IS NULL OR o.id > $1::uuid) ORDER BY o.id LIMIT $2`,
  direct_contract: biddingQuery('direct_contract'),
  public_call: biddingQuery('public_call'),
  arp: `
    SELECT a.id::text AS key, json_build_object('type', 'arp', 'organization_uuid', a.organization_id, 'id', a.id,
      'bidding_uuid', a.bidding_id, 'number', a.number, 'object_details', a.object_details,
      'amount_total', a.amount_total::text, 'company_name', a.company_name, 'provider_company_name', s.name,
      'provider_document', s.document, 'provider_representative_name', a.representative_name,
      'bidding_modality', m.name, 'bidding_number', a.bidding_number, 'date_signature', a.date_signature,
      'date_expiration', a.date_expiration, 'management_status', ms.name,
      'documents', ${DOCUMENTS('d.arp_id = a.id')}, 'terms', ${TERMS('t.arp_id = a.id')}) AS record
    FROM arps a JOIN suppliers s ON s.id = a.supplier_id JOIN bidding_modalities m ON m.id = a.modality_id
    JOIN management_statuses ms ON ms.id = a.management_status_id
    WHERE ($1::text IS NULL OR a.id > $1::uuid) ORDER BY a.id LIMIT $2`,
  contract: `
    SELECT c.id::text AS key, json_build_object('type', 'contract', 'organization_uuid', c.organization_id,
      'id', c.id, 'bidding_uuid', c.bidding_id, 'arp_number', c.arp_number, 'contract_number', c.contract_number,
      'object_details', c.object_details, 'amount_total', c.amount_total::text, 'provider_company_name', s.name,
      'provider_document', s.document, 'contractor_company_name', c.contractor_company_name,
      'managers', ${PEOPLE('manager')}, 'inspectors', ${PEOPLE('inspector')},
      'commitments', coalesce((
        SELECT json_agg(json_build_object('year', k.year, 'number', k.number, 'emission_date', k.emission_date,
          'description', k.description, 'value', k.value::text, 'expense_account_code', k.expense_account_code,
          'expense_account_name', k.expense_account_name) ORDER BY k.position)
        FROM contract_commitments k WHERE k.contract_id = c.id), '[]'),
      'bidding_modality', m.name, 'term_title', c.term_title, 'bidding_number', c.bidding_number,
      'date_start', c.date_start, 'date_end', c.date_end, 'management_status', ms.name,
      'documents', ${DOCUMENTS('d.contract_id = c.id')}, 'terms', ${TERMS('t.contract_id = c.id')}) AS record
    FROM contracts c JOIN suppliers s ON s.id = c.supplier_id JOIN bidding_modalities m ON m.id = c.modality_id
    JOIN management_statuses ms ON ms.id = c.management_status_id
    WHERE ($1::text IS NULL OR c.id > $1::uuid) ORDER BY c.id LIMIT $2`,
  order: `
    SELECT o.id::text AS key, json_build_object('type', 'order',
      'organization_uuid', o.organization_id, 'number', o.number, 'unity_name', u.name,
      'unity_name_short', u.name_short, 'object', o.object, 'process_number', o.process_number,
      'bidding_number', o.bidding_number, 'modality_name', m.name, 'status_title', st.name,
      'provider_name', s.name, 'provider_document', s.document, 'representative_name', o.representative_name,
      'arp_number', o.arp_number, 'contract_number', o.contract_number,
      'expense_classification_title', o.expense_classification_title, 'expense_type_title', o.expense_type_title,
      'location_delivery', o.location_delivery, 'deadline_delivery', ${TIMESTAMP('o.deadline_delivery')},
      'invoice_number', o.invoice_number, 'invoice_issue_date', ${TIMESTAMP('o.invoice_issue_date')},
      'amount_total', o.amount_total,
      'items', (SELECT json_agg(json_build_object('number_item', i.number_item, 'description', i.description,
          'brand', i.brand, 'unit_measurement', i.unit_measurement, 'quantity', i.quantity, 'amount', i.amount,
          'amount_total', i.amount_total) ORDER BY i.position)
        FROM order_items i WHERE i.order_id = o.id)) AS record
    FROM orders o JOIN units u ON u.id = o.unit_id JOIN suppliers s ON s.id = o.supplier_id
    JOIN bidding_modalities m ON m.id = o.modality_id JOIN order_statuses st ON st.id = o.status_id
    WHERE ($1::text IS NULL OR o.id > $1::bigint) ORDER BY o.id LIMIT $2`,
}

function biddingQuery(kind: 'direct_contract' | 'public_call'): string {
  return `
    SELECT b.id::text AS key, json_build_object('type', b.kind, 'organization_uuid', b.organization_id, 'id', b.id,
      'number', b.number, 'modality', m.name, 'budget_secret', b.budget_secret, 'status', st.name,
      'register_price', b.register_price, 'opening_date', ${TIMESTAMP('b.opening_date')},
      'object_details', b.object_details, 'company_name', b.company_name,
      'electronic_dispute_mode', b.electronic_dispute_mode, 'adjudication_mode', b.adjudication_mode,
      'judgment_criteria', b.judgment_criteria, 'competent_authority', b.competent_authority, 'agent', b.agent,
      'type_range_bids', b.type_range_bids, 'range_bids', b.range_bids,
      'sum_amount_total', b.sum_amount_total::text, 'precision', b.precision,
      'sum_amount_total_finish', b.sum_amount_total_finish::text,
      'documents', ${DOCUMENTS('d.bidding_id = b.id')},
      'providers', coalesce((
        SELECT json_agg(json_build_object('name', s.name, 'document', s.document,
          'representative_name', p.representative_name) ORDER BY p.position)
        FROM bidding_providers p JOIN suppliers s ON s.id = p.supplier_id WHERE p.bidding_id = b.id), '[]')) AS record
    FROM biddings b JOIN bidding_modalities m ON m.id = b.modality_id JOIN bidding_statuses st ON st.id = b.status_id
    WHERE b.kind = '${kind}' AND ($1::text IS NULL OR b.id > $1::uuid) ORDER BY b.id LIMIT $2`
}

/** Dependency order, so that the output imports as it is. */
const ORDER: readonly RecordType[] = [
  'organization',
  'direct_contract',
  'public_call',
  'arp',
  'contract',
  'order',
]

/** Every stored record in the import format, in batches by key; memory stays flat. */
export async function* dumpRecords(pool: Pool, batch = 1000): AsyncGenerator<Record<string, unknown>> {
  for (const type of ORDER) {
    let after: string | null = null
    for (;;) {
      const result: { rows: { key: string; record: Record<string, unknown> }[] } = await pool.query(
        QUERIES[type],
        [after, batch],
      )
      const rows = result.rows
      for (const row of rows) yield row.record
      if (rows.length < batch) break
      after = (rows[rows.length - 1] as { key: string }).key
    }
  }
}
