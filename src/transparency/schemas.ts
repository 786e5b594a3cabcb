import { type TObject, type TProperties, type TSchema, Type } from 'typebox'
import { Nullable } from '../schemas.js'

// Shapes of the transparency resources (spec 2.5–2.9) and of the relation items the spec leaves open.
// Field order is the spec's; the SQL in sql.ts builds the objects in the same order.

const Uuid = Type.String({ format: 'uuid' })
const Money = Type.String({ description: 'Decimal text with two decimals', examples: ['1234.50'] })
const Day = Type.String({ format: 'date', description: 'YYYY-MM-DD', examples: ['2025-03-10'] })
const Timestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601 UTC with microseconds',
  examples: ['2025-03-10T14:30:15.123456Z'],
})
const TaxDocument = Type.String({
  description: 'CNPJ (14 digits) in full; a CPF (11 digits) masked as ***.456.789-**',
})

export const Document = Type.Object(
  { uuid: Uuid, name: Type.String({ description: 'File name' }), url: Type.String({ format: 'uri' }) },
  { $id: 'Document' },
)

export const Person = Type.Object(
  {
    role: Type.String(),
    name: Type.String(),
    cpf: Type.String({
      description: 'Masked: only the middle digits are visible',
      examples: ['***.456.789-**'],
    }),
    office: Type.String(),
  },
  { $id: 'Person' },
)

export const Commitment = Type.Object(
  {
    year: Type.Integer(),
    number: Type.String(),
    emission_date: Day,
    description: Type.String(),
    value: Money,
    expense_account_code: Type.String(),
    expense_account_name: Type.String(),
  },
  { $id: 'Commitment' },
)

export const Term = Type.Object(
  {
    number: Type.String(),
    kind: Type.String({ examples: ['Aditivo de prazo'] }),
    description: Type.String(),
    signature_date: Day,
    date_start: Nullable(Day),
    date_end: Nullable(Day),
    value: Nullable(Money),
    documents: Type.Array(Document),
  },
  { $id: 'Term', description: 'An additive term' },
)

export const OrderSummary = Type.Object(
  {
    number: Type.String(),
    object: Type.String(),
    status_title: Type.String(),
    amount_total: Money,
    deadline_delivery: Timestamp,
    provider_name: Type.String(),
    provider_document: TaxDocument,
  },
  { $id: 'OrderSummary', description: 'A supply order, as much of it as is public' },
)

export const Provider = Type.Object(
  { name: Type.String(), document: TaxDocument, representative_name: Nullable(Type.String()) },
  { $id: 'Provider', description: 'A supplier taking part in a direct contract or public call' },
)

export const ContractSummary = Type.Object(
  {
    id: Uuid,
    contract_number: Type.String(),
    object_details: Type.String(),
    amount_total: Money,
    provider_company_name: Type.String(),
    date_start: Day,
    date_end: Day,
    management_status: Type.String(),
  },
  {
    $id: 'ContractSummary',
    description: 'A linked contract; GET /v1/transparency/contracts/{id} has the rest',
  },
)

export const ArpSummary = Type.Object(
  {
    id: Uuid,
    number: Type.String(),
    object_details: Type.String(),
    amount_total: Money,
    provider_company_name: Type.String(),
    date_signature: Day,
    date_expiration: Day,
    management_status: Type.String(),
  },
  { $id: 'ArpSummary', description: 'A linked ARP; GET /v1/transparency/arps/{id} has the rest' },
)

const contractFields = {
  bidding_uuid: Nullable(Uuid),
  contract_number: Type.String(),
  object_details: Type.String(),
  amount_total: Money,
  provider_company_name: Type.String(),
  contractor_company_name: Type.String(),
}
const contractFieldsAfterPeople = {
  bidding_modality: Type.String(),
  term_title: Type.String(),
  bidding_number: Nullable(Type.String()),
  date_start: Day,
  date_end: Day,
}

export const Contract = Type.Object(
  {
    ...contractFields,
    managers: Type.Array(Person),
    inspectors: Type.Array(Person),
    commitments: Type.Array(Commitment),
    ...contractFieldsAfterPeople,
    documents: Type.Array(Document),
    terms: Type.Array(Term),
    orders: Type.Array(OrderSummary),
  },
  { $id: 'Contract' },
)

const biddingFields = {
  number: Type.String(),
  modality: Type.String(),
  budget_secret: Type.Boolean(),
  status: Type.String(),
  register_price: Type.Boolean(),
  opening_date: Nullable(Timestamp),
  object_details: Type.String(),
  company_name: Type.String(),
  electronic_dispute_mode: Nullable(Type.String()),
  adjudication_mode: Nullable(Type.String()),
  judgment_criteria: Nullable(Type.String()),
  competent_authority: Nullable(Type.String()),
  agent: Nullable(Type.String()),
  type_range_bids: Nullable(Type.String()),
  range_bids: Nullable(Type.String()),
  sum_amount_total: Nullable(
    Type.String({ description: 'Estimated total; null while the budget is secret (budget_secret)' }),
  ),
  precision: Type.Integer(),
  sum_amount_total_finish: Nullable(Money),
}

export const Bidding = Type.Object(
  {
    ...biddingFields,
    documents: Type.Array(Document),
    providers: Type.Array(Provider),
    arps: Type.Array(ArpSummary),
    contracts: Type.Array(ContractSummary),
  },
  { $id: 'Bidding', description: 'A direct contract or public call (one shape for both)' },
)

const arpFields = {
  bidding_uuid: Nullable(Uuid),
  number: Type.String(),
  object_details: Type.String(),
  amount_total: Money,
  company_name: Type.String(),
  provider_company_name: Type.String(),
  provider_representative_name: Type.String(),
  bidding_modality: Type.String(),
  bidding_number: Nullable(Type.String()),
  date_signature: Day,
  date_expiration: Day,
}

export const Arp = Type.Object(
  {
    ...arpFields,
    documents: Type.Array(Document),
    contracts: Type.Array(ContractSummary),
    terms: Type.Array(Term),
    orders: Type.Array(OrderSummary),
  },
  { $id: 'Arp' },
)

/** A listing item: the record's id and organization, its own fields, and the relations asked for. */
function listItem(id: string, fields: TProperties, relations: TProperties, extra: TProperties): TObject {
  const optional = Object.fromEntries(
    Object.entries(relations).map(([name, schema]) => [name, Type.Optional(schema)]),
  )
  return Type.Object(
    { id: Uuid, organization_uuid: Uuid, ...fields, ...extra, ...optional },
    { $id: id, description: 'Relation arrays appear when with_relations names them' },
  )
}

export const ContractItem = listItem(
  'ContractItem',
  { ...contractFields, ...contractFieldsAfterPeople },
  {
    managers: Type.Array(Person),
    inspectors: Type.Array(Person),
    commitments: Type.Array(Commitment),
    documents: Type.Array(Document),
    terms: Type.Array(Term),
    orders: Type.Array(OrderSummary),
  },
  { management_status: Type.String() },
)

export const BiddingItem = listItem(
  'BiddingItem',
  biddingFields,
  {
    documents: Type.Array(Document),
    providers: Type.Array(Provider),
    arps: Type.Array(ArpSummary),
    contracts: Type.Array(ContractSummary),
  },
  {},
)

export const ArpItem = listItem(
  'ArpItem',
  arpFields,
  { documents: Type.Array(Document), terms: Type.Array(Term), orders: Type.Array(OrderSummary) },
  { management_status: Type.String() },
)

export const Lookup = Type.Object({ id: Type.Integer(), name: Type.String() }, { $id: 'Lookup' })

/** Spec 2.5: the success envelope. */
export function Success<T extends TSchema>(data: T, description: string) {
  return Type.Object(
    {
      success: Type.Literal(true),
      message: Type.String({ examples: ['Dados recuperados com sucesso'] }),
      data,
    },
    { description },
  )
}

/** Spec 4.1: a page of a listing, inside the envelope's data. */
export function Page<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    current_page: Type.Integer(),
    per_page: Type.Integer(),
    total: Type.Integer(),
    last_page: Type.Integer(),
    from: Nullable(Type.Integer({ description: '1-based position of the first row; null on an empty page' })),
    to: Nullable(Type.Integer({ description: '1-based position of the last row; null on an empty page' })),
  })
}

/** Spec 7.2: the error envelope. */
export const Failure = Type.Object(
  { success: Type.Literal(false), message: Type.String() },
  { $id: 'TransparencyError' },
)

export const MESSAGES = {
  success: 'Dados recuperados com sucesso',
  invalidId: 'Identificador inválido.',
  notFound: 'Registro não encontrado.',
  organizationNotFound: 'Organização não encontrada.',
  routeNotFound: 'Rota não encontrada.',
  internal: 'Erro interno do servidor.',
  tooManyRequests: 'Muitas requisições deste endereço. Tente novamente em alguns segundos.',
  exportsBusy: 'Exportações demais em andamento. Tente novamente em alguns instantes.',
  exportRunning: 'Já há uma exportação deste endereço em andamento. Aguarde o fim dela.',
  exportTimeout: 'A exportação demorou demais. Tente com filtros mais restritos.',
} as const
