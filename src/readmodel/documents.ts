import type { PoolClient } from '../db/pool.js'
import { RESOURCES } from '../transparency/resources.js'
import { array, instant, object } from '../transparency/sql.js'

// The read model (migrations/0004_read_model.sql): each order (spec 2.2) and each transparency detail
// (2.7-2.9) as the JSON text PostgreSQL builds for it, in the served field order. Money in an order is a
// JSON number here; the service parses and re-serializes a document once when it first serves it.

/** Spec 2.2, field by field: the same joins the order query used to run per request. */
const ORDER_DOCUMENT = `${object([
  ['number', 'o.number'],
  ['unity_name', 'u.name'],
  ['unity_name_short', 'u.name_short'],
  ['object', 'o.object'],
  ['process_number', 'o.process_number'],
  ['bidding_number', 'o.bidding_number'],
  ['modality_name', 'm.name'],
  ['status_title', 'st.name'],
  ['provider_name', 's.name'],
  ['provider_document', 's.document'],
  ['representative_name', 'o.representative_name'],
  ['arp_number', 'o.arp_number'],
  ['arp_amount_total', 'a.amount_total'],
  ['contract_number', 'o.contract_number'],
  ['contract_amount_total', 'c.amount_total'],
  ['expense_classification_title', 'o.expense_classification_title'],
  ['expense_type_title', 'o.expense_type_title'],
  ['location_delivery', 'o.location_delivery'],
  ['deadline_delivery', instant('o.deadline_delivery')],
  ['invoice_number', 'o.invoice_number'],
  ['invoice_issue_date', instant('o.invoice_issue_date')],
  ['amount_total', 'o.amount_total'],
  [
    'items',
    array(
      object([
        ['number_item', 'i.number_item'],
        ['description', 'i.description'],
        ['brand', 'i.brand'],
        ['unit_measurement', 'i.unit_measurement'],
        ['quantity', 'i.quantity'],
        ['amount', 'i.amount'],
        ['amount_total', 'i.amount_total'],
      ]),
      'FROM order_items i WHERE i.order_id = o.id',
      'i.position',
    ),
  ],
])}::text`

const ORDER_FROM = `orders o
JOIN units u ON u.id = o.unit_id
JOIN suppliers s ON s.id = o.supplier_id
JOIN bidding_modalities m ON m.id = o.modality_id
JOIN order_statuses st ON st.id = o.status_id
LEFT JOIN arps a ON a.organization_id = o.organization_id AND a.number = o.arp_number
LEFT JOIN contracts c ON c.organization_id = o.organization_id AND c.contract_number = o.contract_number`

/**
 * Which organizations' documents to rebuild: all of them, or those listed in a temporary table
 * `rebuild_organizations (id uuid)` that the caller filled in the same transaction.
 */
export type RebuildScope = 'all' | 'listed'

/** Rebuilds the documents of the organizations in scope; run inside the transaction that wrote the data. */
export async function rebuildDocuments(client: PoolClient, scope: RebuildScope): Promise<void> {
  const inScope = (column: string) =>
    scope === 'all' ? 'true' : `${column} IN (SELECT id FROM rebuild_organizations)`
  await client.query(`DELETE FROM order_documents WHERE ${inScope('organization_id')}`)
  await client.query(`INSERT INTO order_documents (organization_id, number, body)
    SELECT o.organization_id, o.number, ${ORDER_DOCUMENT} FROM ${ORDER_FROM} WHERE ${inScope('o.organization_id')}`)
  await client.query(`DELETE FROM detail_documents WHERE ${inScope('organization_id')}`)
  for (const resource of RESOURCES) {
    const alias = resource.alias
    await client.query(`INSERT INTO detail_documents (resource, id, organization_id, body)
      SELECT '${resource.path}', ${alias}.id, ${alias}.organization_id, ${object(resource.detail)}::text
      FROM ${resource.from} WHERE ${resource.where} AND ${inScope(`${alias}.organization_id`)}`)
  }
  await markChanged(client)
}

/** Bumps the data version and tells every instance (at commit) to drop what it cached. */
async function markChanged(client: PoolClient): Promise<void> {
  await client.query('UPDATE data_version SET version = version + 1')
  await client.query(`SELECT pg_notify('${DATA_CHANNEL}', '')`)
}

/** The NOTIFY channel of data changes. */
export const DATA_CHANNEL = 'compras_data'
