import { BIDDING_MODALITIES, ORDER_STATUSES } from '../domain.js'
import { derived, field, type ImportRecord, linked, owned, shape } from './fields.js'
import { defineRecord, type Name, pick, type RecordKind } from './resource.js'
import { OrderItem } from './shapes.js'

const fields = {
  organization_uuid: field('uuid', 'Organização (UUID)', { column: 'organization_id' }),
  number: field('number', 'Número da ordem', { description: 'Order number' }),
  unity_name: field('text', 'Unidade', {
    maxLength: 300,
    store: { unit: 'name' },
    description: 'Full name of the responsible unit',
  }),
  unity_name_short: field('text', 'Sigla da unidade', {
    maxLength: 100,
    store: { unit: 'name_short' },
    description: 'Abbreviated unit name',
  }),
  object: field('text', 'Objeto', { maxLength: 10_000, description: 'Object of the order' }),
  process_number: field('text', 'Número do processo', {
    maxLength: 100,
    nullable: true,
    description: 'Administrative process number',
  }),
  bidding_number: field('text', 'Número da licitação', {
    maxLength: 100,
    nullable: true,
    description: 'Bidding or contracting number',
  }),
  modality_name: field('enum', 'Modalidade', {
    values: BIDDING_MODALITIES,
    store: { lookup: 'bidding_modalities', column: 'modality_id' },
    description: 'Bidding modality (spec 2.3)',
  }),
  status_title: field('enum', 'Situação', {
    values: ORDER_STATUSES,
    store: { lookup: 'order_statuses', column: 'status_id' },
    description: 'Current status (spec 3)',
  }),
  provider_name: field('text', 'Fornecedor', {
    maxLength: 300,
    store: { supplier: 'name' },
    description: 'Name of the responsible supplier',
  }),
  // Shown whole: the order query answers only the organ that issued the order, with its token.
  provider_document: field('taxId', 'CNPJ/CPF do fornecedor', {
    store: { supplier: 'document' },
    reveal: true,
  }),
  representative_name: field('text', 'Representante do fornecedor', {
    maxLength: 300,
    description: "Name of the supplier's representative",
  }),
  arp_number: field('number', 'Número da ata', {
    nullable: true,
    description: 'ARP number, when applicable',
  }),
  arp_amount_total: derived(
    'amount',
    'Valor total da ata',
    { table: 'arps', column: 'number', ownerColumn: 'arp_number', sameOrganization: true },
    'amount_total',
    { nullable: true, description: 'Total value of the ARP, when applicable' },
  ),
  contract_number: field('number', 'Número do contrato', {
    nullable: true,
    description: 'Contract number, when applicable',
  }),
  contract_amount_total: derived(
    'amount',
    'Valor total do contrato',
    { table: 'contracts', column: 'contract_number', ownerColumn: 'contract_number', sameOrganization: true },
    'amount_total',
    { nullable: true, description: 'Total value of the contract, when applicable' },
  ),
  expense_classification_title: field('codeTitle', 'Classificação da despesa', {
    examples: ['3.3.90.30 - Material de Consumo'],
  }),
  expense_type_title: field('codeTitle', 'Tipo de despesa', { examples: ['1 - Ordinária'] }),
  location_delivery: field('text', 'Local de entrega', { maxLength: 1000, description: 'Delivery location' }),
  deadline_delivery: field('instant', 'Prazo de entrega'),
  invoice_number: field('text', 'Número da nota fiscal', {
    maxLength: 100,
    nullable: true,
    description: 'Invoice number, when applicable',
  }),
  invoice_issue_date: field('instant', 'Emissão da nota fiscal', { nullable: true }),
  amount_total: field('amount', 'Valor total', { description: 'Total value of the order' }),
  items: owned('Itens', OrderItem, { column: 'order_id' }, { minItems: 1 }),
}

/**
 * A supply order (spec 2.2). Key: organization_uuid + number. Links: contract_number and arp_number, in the
 * same organization. arp_amount_total and contract_amount_total come from the linked ARP and contract.
 */
const orderShape = shape({
  name: 'Order',
  description:
    'A supply order (spec 2.2) without arp_amount_total and contract_amount_total, which come from the ' +
    'linked ARP and contract. Key: organization_uuid + number. Links: contract_number and arp_number in ' +
    'the same organization.',
  table: 'orders',
  alias: 'o',
  fields,
})

const recordKind: RecordKind<typeof fields> = {
  ...orderShape,
  types: ['order'],
  about: () =>
    'A supply order (spec 2.2) without arp_amount_total and contract_amount_total, which come from the linked ARP ' +
    'and contract. Key: organization_uuid + number. Links: contract_number and arp_number in the same organization.',
  placement: {
    group: 'order',
    key: 'number',
    number: 'number',
    arp: 'arp_number',
    contract: 'contract_number',
    conflict: ['organization_id', 'number'],
  },
}
export const Order = defineRecord(recordKind)

export type OrderRecord = { type: 'order' } & ImportRecord<typeof fields>

/** The order query's answer (spec 2.2), in the spec's order. */
export const ORDER_DOCUMENT: readonly Name<typeof fields>[] = [
  'number',
  'unity_name',
  'unity_name_short',
  'object',
  'process_number',
  'bidding_number',
  'modality_name',
  'status_title',
  'provider_name',
  'provider_document',
  'representative_name',
  'arp_number',
  'arp_amount_total',
  'contract_number',
  'contract_amount_total',
  'expense_classification_title',
  'expense_type_title',
  'location_delivery',
  'deadline_delivery',
  'invoice_number',
  'invoice_issue_date',
  'amount_total',
  'items',
]

/** An order as public as it can be, inside a contract's or ARP's detail: its supplier's CPF is masked. */
export const OrderSummary = pick(
  {
    ...orderShape,
    fields: {
      ...orderShape.fields,
      provider_document: { ...orderShape.fields.provider_document, reveal: false },
    },
  },
  [
    'number',
    'object',
    'status_title',
    'amount_total',
    'deadline_delivery',
    'provider_name',
    'provider_document',
  ],
  {
    name: 'OrderSummary',
    alias: 'os',
    description: 'A supply order, as much of it as is public',
    served: { amount_total: 'money' },
  },
)

/** The orders linked to a record by number: `column` is orders.contract_number or orders.arp_number. */
export const linkedOrders = (column: 'contract_number' | 'arp_number', ownerColumn: string) =>
  linked(
    'Ordens de fornecimento',
    OrderSummary,
    { table: 'orders', column, ownerColumn, sameOrganization: true },
    'os.deadline_delivery DESC, os.id',
  )
