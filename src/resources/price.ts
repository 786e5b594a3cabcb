import { ORDER_STATUSES } from '../domain.js'
import { field, shape } from './fields.js'
import { OrderItem } from './shapes.js'

// What the price research (GET /v1/transparency/prices) shows of each item bought: the order item's own
// fields (spec 2.2, OrderItem), its order, organ and supplier, the contract or ARP it executes, and whether its
// price lies outside its unit's fences. Declared once for the API's schema, the export's columns and the
// portal's table; src/prices/research.ts gives each field its SQL, typed against these names.

const item = OrderItem.fields

export const PriceItem = shape({
  name: 'PriceItem',
  description:
    'An item of a supply order, with the order, organization and supplier it belongs to; its unit price as ' +
    'text with two decimals, as the transparency API writes money',
  table: 'price_items',
  alias: 'p',
  fields: {
    description: item.description,
    brand: item.brand,
    unit_measurement: item.unit_measurement,
    quantity: item.quantity,
    amount: { ...item.amount, kind: 'money' as const },
    amount_total: { ...item.amount_total, kind: 'money' as const },
    order_number: field('number', 'Número da ordem', { description: 'The order number' }),
    deadline_delivery: field('instant', 'Data da ordem (prazo de entrega)', {
      description: "The order's date: its delivery deadline, the one date every order has",
    }),
    status_title: field('enum', 'Situação da ordem', {
      values: ORDER_STATUSES,
      description: "The order's status",
    }),
    organization_uuid: field('uuid', 'Órgão (UUID)'),
    organization_name: field('text', 'Órgão', { description: "The organization's name" }),
    provider_name: field('text', 'Fornecedor', { description: "The supplier's name" }),
    provider_document: field('taxId', 'CNPJ/CPF do fornecedor'),
    contract_number: field('number', 'Número do contrato', {
      nullable: true,
      description: 'The contract the order executes, when it names one',
    }),
    contract_id: field('uuid', 'Contrato (UUID)', {
      nullable: true,
      description: "The contract's id (GET /v1/transparency/contracts/{id}), when it is published",
    }),
    arp_number: field('number', 'Número da ata', {
      nullable: true,
      description: 'The ARP the order executes, when it names one',
    }),
    arp_id: field('uuid', 'Ata (UUID)', {
      nullable: true,
      description: "The ARP's id (GET /v1/transparency/arps/{id}), when it is published",
    }),
    outlier: field('boolean', 'Fora da faixa', {
      description: "Whether the unit price lies outside its unit's [p25 − 1.5 × IQR, p75 + 1.5 × IQR]",
    }),
  },
})

export type PriceItemName = keyof typeof PriceItem.fields
