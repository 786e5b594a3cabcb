import { Type } from 'typebox'
import { BIDDING_MODALITIES, ORDER_STATUSES } from '../domain.js'
import { Nullable } from '../schemas.js'

const Timestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601 UTC with microseconds and a trailing Z',
  examples: ['2025-03-10T14:30:15.123456Z'],
})

// Spec 2.4, fields in the spec's order.
export const OrderItem = Type.Object(
  {
    number_item: Type.String({ description: 'Item number' }),
    description: Type.String({ description: 'Item description' }),
    brand: Type.String({ description: 'Item brand' }),
    unit_measurement: Type.String({ description: 'Unit of measure' }),
    quantity: Type.Integer({ description: 'Item quantity' }),
    amount: Type.Number({ description: 'Unit value' }),
    amount_total: Type.Number({ description: 'Total value of the item' }),
  },
  { $id: 'OrderItem', additionalProperties: false },
)

// Spec 2.2, fields in the spec's order.
export const Order = Type.Object(
  {
    number: Type.String({ description: 'Order number' }),
    unity_name: Type.String({ description: 'Full name of the responsible unit' }),
    unity_name_short: Type.String({ description: 'Abbreviated unit name' }),
    object: Type.String({ description: 'Object of the order' }),
    process_number: Nullable(Type.String({ description: 'Administrative process number' })),
    bidding_number: Nullable(Type.String({ description: 'Bidding or contracting number' })),
    modality_name: Type.Union(
      BIDDING_MODALITIES.map((m) => Type.Literal(m)),
      { description: 'Bidding modality (spec 2.3)' },
    ),
    status_title: Type.Union(
      ORDER_STATUSES.map((s) => Type.Literal(s)),
      { description: 'Current status (spec 3)' },
    ),
    provider_name: Type.String({ description: 'Name of the responsible supplier' }),
    provider_document: Type.String({
      description: 'Supplier CNPJ or CPF, digits only',
      examples: ['79319596000147'],
    }),
    representative_name: Type.String({ description: "Name of the supplier's representative" }),
    arp_number: Nullable(Type.String({ description: 'ARP number, when applicable' })),
    arp_amount_total: Nullable(Type.Number({ description: 'Total value of the ARP, when applicable' })),
    contract_number: Nullable(Type.String({ description: 'Contract number, when applicable' })),
    contract_amount_total: Nullable(
      Type.Number({ description: 'Total value of the contract, when applicable' }),
    ),
    expense_classification_title: Type.String({ examples: ['3.3.90.30 - Material de Consumo'] }),
    expense_type_title: Type.String({ examples: ['1 - Ordinária'] }),
    location_delivery: Type.String({ description: 'Delivery location' }),
    deadline_delivery: Timestamp,
    invoice_number: Nullable(Type.String({ description: 'Invoice number, when applicable' })),
    invoice_issue_date: Nullable(Timestamp),
    amount_total: Type.Number({ description: 'Total value of the order' }),
    items: Type.Array(OrderItem),
  },
  { $id: 'Order', additionalProperties: false },
)

export const OrderSuccess = Type.Object(
  {
    message: Type.String({ examples: ['Ordem recuperada com sucesso'] }),
    data: Order,
  },
  { description: 'The order with its items' },
)

export const OrderError = Type.Object(
  {
    message: Type.String(),
    data: Type.Array(Type.Never(), { maxItems: 0, description: 'Always an empty array' }),
  },
  { $id: 'OrderError' },
)

export const MESSAGES = {
  success: 'Ordem recuperada com sucesso',
  unauthorized: 'Unauthorized',
  tooManyRequests: 'Too Many Requests',
  orderNumberRequired: 'Número da ordem é obrigatório',
  notFound: 'Ordem não encontrada',
  internal: 'Erro interno do servidor',
} as const
