import type { OrderRow } from './repository.js'
import type { OrderData } from './schema.js'

const amount = (value: string) => Number(value)
const optionalAmount = (value: string | null) => (value === null ? null : Number(value))

/** Row → spec 2.2 Order: money becomes a JSON number, everything else is already in its served form. */
export function toOrder(row: OrderRow): OrderData {
  return {
    number: row.number,
    unity_name: row.unity_name,
    unity_name_short: row.unity_name_short,
    object: row.object,
    process_number: row.process_number,
    bidding_number: row.bidding_number,
    modality_name: row.modality_name as OrderData['modality_name'],
    status_title: row.status_title as OrderData['status_title'],
    provider_name: row.provider_name,
    provider_document: row.provider_document,
    representative_name: row.representative_name,
    arp_number: row.arp_number,
    arp_amount_total: optionalAmount(row.arp_amount_total),
    contract_number: row.contract_number,
    contract_amount_total: optionalAmount(row.contract_amount_total),
    expense_classification_title: row.expense_classification_title,
    expense_type_title: row.expense_type_title,
    location_delivery: row.location_delivery,
    deadline_delivery: row.deadline_delivery,
    invoice_number: row.invoice_number,
    invoice_issue_date: row.invoice_issue_date,
    amount_total: amount(row.amount_total),
    items: row.items.map((item) => ({
      number_item: item.number_item,
      description: item.description,
      brand: item.brand,
      unit_measurement: item.unit_measurement,
      quantity: item.quantity,
      amount: amount(item.amount),
      amount_total: amount(item.amount_total),
    })),
  }
}
