import type { Pool } from '../db/pool.js'

/** A stored order as the database gives it: numerics and timestamps are text. */
export interface OrderRow {
  number: string
  unity_name: string
  unity_name_short: string
  object: string
  process_number: string | null
  bidding_number: string | null
  modality_name: string
  status_title: string
  provider_name: string
  provider_document: string
  representative_name: string
  arp_number: string | null
  arp_amount_total: string | null
  contract_number: string | null
  contract_amount_total: string | null
  expense_classification_title: string
  expense_type_title: string
  location_delivery: string
  deadline_delivery: string
  invoice_number: string | null
  invoice_issue_date: string | null
  amount_total: string
  items: {
    number_item: string
    description: string
    brand: string
    unit_measurement: string
    quantity: number
    amount: string
    amount_total: string
  }[]
}

const UTC_MICROS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`

const FIND_ORDER = `
SELECT o.number, u.name AS unity_name, u.name_short AS unity_name_short, o.object, o.process_number,
  o.bidding_number, m.name AS modality_name, st.name AS status_title, s.name AS provider_name,
  s.document AS provider_document, o.representative_name, o.arp_number, a.amount_total AS arp_amount_total,
  o.contract_number, c.amount_total AS contract_amount_total, o.expense_classification_title,
  o.expense_type_title, o.location_delivery,
  to_char(o.deadline_delivery AT TIME ZONE 'UTC', ${UTC_MICROS}) AS deadline_delivery,
  o.invoice_number, to_char(o.invoice_issue_date AT TIME ZONE 'UTC', ${UTC_MICROS}) AS invoice_issue_date,
  o.amount_total,
  (SELECT json_agg(json_build_object('number_item', i.number_item, 'description', i.description, 'brand', i.brand,
      'unit_measurement', i.unit_measurement, 'quantity', i.quantity, 'amount', i.amount::text,
      'amount_total', i.amount_total::text) ORDER BY i.position)
   FROM order_items i WHERE i.order_id = o.id) AS items
FROM orders o
JOIN units u ON u.id = o.unit_id
JOIN suppliers s ON s.id = o.supplier_id
JOIN bidding_modalities m ON m.id = o.modality_id
JOIN order_statuses st ON st.id = o.status_id
LEFT JOIN arps a ON a.organization_id = o.organization_id AND a.number = o.arp_number
LEFT JOIN contracts c ON c.organization_id = o.organization_id AND c.contract_number = o.contract_number
WHERE o.organization_id = $1 AND o.number = $2`

/** The order with this number inside one organization, or undefined. */
export async function findOrder(
  pool: Pool,
  organizationId: string,
  number: string,
): Promise<OrderRow | undefined> {
  const { rows } = await pool.query<OrderRow>({
    name: 'find-order',
    text: FIND_ORDER,
    values: [organizationId, number],
  })
  return rows[0]
}
