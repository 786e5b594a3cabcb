import { ORDER_STATUSES, PRICE_SOURCES } from '../domain.js'
import { field, shape } from './fields.js'
import { OrderItem } from './shapes.js'

// What the price research (GET /v1/transparency/prices) shows of each price: an item of a supply order (spec
// 2.2, OrderItem) with its order, organ and supplier and the contract or ARP it executes; or a result of a
// contratação imported from PNCP (src/resources/pncp.ts) with its item, organ, supplier and bidding. Each says
// where it came from (`source`), and whether its price lies outside its unit's fences. Declared once for the API's schema, the export's columns and the
// portal's table; src/prices/research.ts gives each field its SQL, typed against these names.

const item = OrderItem.fields

export const PriceItem = shape({
  name: 'PriceItem',
  description:
    'A price: an item of a supply order (source order) or a homologated result of a direct contract or ' +
    'public call (source result), with its organization and supplier; its unit price as text with two ' +
    'decimals, as the transparency API writes money',
  table: 'price_items',
  alias: 'p',
  fields: {
    description: item.description,
    brand: field('text', 'Marca', { nullable: true, description: "Item brand (an order's item only)" }),
    unit_measurement: { ...item.unit_measurement, description: 'Unit of measure, as published' },
    unit: field('text', 'Unidade (normalizada)', {
      description:
        'The unit the statistics compare it in: unit_measurement normalized (UN, Unidade, UNID and und. are UN; ' +
        'docs/prices.md)',
    }),
    quantity: field('amount', 'Quantidade', { description: 'Quantity (a result may have decimals)' }),
    amount: { ...item.amount, kind: 'money' as const },
    amount_total: { ...item.amount_total, kind: 'money' as const },
    source: field('enum', 'Origem', {
      values: PRICE_SOURCES,
      description: 'order: an item of a supply order; result: a homologated result of a contratação (PNCP)',
    }),
    date: field('date', 'Data', {
      description:
        "The price's date: the order's delivery deadline, or the result's date (else its bidding's opening)",
    }),
    order_number: field('number', 'Número da ordem', { nullable: true, description: 'The order number' }),
    deadline_delivery: field('instant', 'Data da ordem (prazo de entrega)', {
      nullable: true,
      description: "The order's date: its delivery deadline, the one date every order has",
    }),
    status_title: field('enum', 'Situação da ordem', {
      values: ORDER_STATUSES,
      nullable: true,
      description: "The order's status",
    }),
    bidding_id: field('uuid', 'Contratação (UUID)', {
      nullable: true,
      description:
        "A result's direct contract or public call (GET /v1/transparency/direct-contracts/{id} or public-calls)",
    }),
    bidding_type: field('enum', 'Tipo de contratação', {
      values: ['direct_contract', 'public_call'] as const,
      nullable: true,
      description: "A result's bidding kind: direct_contract or public_call (the path to read it at)",
    }),
    bidding_number: field('number', 'Número da contratação', { nullable: true }),
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
