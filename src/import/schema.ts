import { MAX_NUMBER_LENGTH, NO_CONTROL_PATTERN } from '../checks.js'
import { BIDDING_MODALITIES, BIDDING_STATUSES, MANAGEMENT_STATUSES, ORDER_STATUSES } from '../domain.js'

// The NDJSON import format as JSON Schema (draft 2020-12). This object is the single definition:
// the importer compiles it, and `npm run docs:export` writes it to schema/import-record.schema.json.

type Schema = Record<string, unknown>

const text = (maxLength = 2000): Schema => ({ type: 'string', minLength: 1, maxLength })
const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type, 'null'] })
/** A key or link by number: trimmed on import, and never with control characters, so it can be asked for. */
const key: Schema = { ...text(MAX_NUMBER_LENGTH), pattern: NO_CONTROL_PATTERN }
const uuid: Schema = { type: 'string', format: 'uuid' }
const date: Schema = { type: 'string', format: 'date' }
const dateTime: Schema = { type: 'string', format: 'date-time' }
/** Money as decimal text, the transparency resources' form: "1234.50". */
const moneyText: Schema = { type: 'string', pattern: '^[0-9]{1,15}(\\.[0-9]{1,2})?$' }
/** Money as a JSON number, the order query's form. */
const moneyNumber: Schema = { type: 'number', minimum: 0, maximum: 1e15 }
const cnpj: Schema = { type: 'string', pattern: '^[0-9]{14}$' }
const taxDocument: Schema = { type: 'string', pattern: '^([0-9]{11}|[0-9]{14})$' }
const codeTitle: Schema = { type: 'string', pattern: '^\\S+ - \\S.*$', maxLength: 500 }
const enumOf = (values: readonly string[]): Schema => ({ type: 'string', enum: [...values] })
const arrayOf = (items: Schema, maxItems = 1000): Schema => ({ type: 'array', items, maxItems })

function object(properties: Record<string, Schema>, description?: string): Schema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  }
}

const documentSchema = object({
  uuid,
  name: text(500),
  url: { type: 'string', pattern: '^https?://\\S+$', maxLength: 2000 },
})

const termSchema = object(
  {
    number: text(100),
    kind: text(200),
    description: text(10000),
    signature_date: date,
    date_start: nullable(date),
    date_end: nullable(date),
    value: nullable(moneyText),
    documents: arrayOf(documentSchema),
  },
  'An additive term of a contract or ARP',
)

const personSchema = object({
  role: text(200),
  name: text(300),
  cpf: {
    type: 'string',
    pattern: '^[0-9]{11}$',
    description: 'The whole CPF, digits only; masked on output',
  },
  office: text(300),
})

const commitmentSchema = object({
  year: { type: 'integer', minimum: 1900, maximum: 2200 },
  number: text(100),
  emission_date: date,
  description: text(10000),
  value: moneyText,
  expense_account_code: text(100),
  expense_account_name: text(500),
})

const providerSchema = object({
  name: text(300),
  document: taxDocument,
  representative_name: nullable(text(300)),
})

const orderItemSchema = object({
  number_item: text(50),
  description: text(10000),
  brand: text(300),
  unit_measurement: text(100),
  quantity: { type: 'integer', minimum: 0, maximum: 2147483647 },
  amount: moneyNumber,
  amount_total: moneyNumber,
})

const typeTag = (name: string): Schema => ({ const: name })

function biddingSchema(type: 'direct_contract' | 'public_call'): Schema {
  return object(
    {
      type: typeTag(type),
      organization_uuid: uuid,
      id: uuid,
      number: key,
      modality: enumOf(BIDDING_MODALITIES),
      budget_secret: { type: 'boolean' },
      status: enumOf(BIDDING_STATUSES),
      register_price: { type: 'boolean' },
      opening_date: nullable(dateTime),
      object_details: text(10000),
      company_name: text(300),
      electronic_dispute_mode: nullable(text(200)),
      adjudication_mode: nullable(text(200)),
      judgment_criteria: nullable(text(200)),
      competent_authority: nullable(text(300)),
      agent: nullable(text(300)),
      type_range_bids: nullable(text(100)),
      range_bids: nullable(text(100)),
      sum_amount_total: moneyText,
      precision: { type: 'integer', minimum: 0, maximum: 6 },
      sum_amount_total_finish: nullable(moneyText),
      documents: arrayOf(documentSchema),
      providers: arrayOf(providerSchema),
    },
    `A ${type === 'direct_contract' ? 'direct contract' : 'public call'} (spec 2.8). Key: id (shared with the ` +
      'other bidding kind). Contracts and ARPs link to it by bidding_uuid.',
  )
}

export const recordSchemas = {
  organization: object(
    { type: typeTag('organization'), uuid, name: text(300), document: cnpj },
    'A public body (organ). Key: uuid.',
  ),
  order: object(
    {
      type: typeTag('order'),
      organization_uuid: uuid,
      number: key,
      unity_name: text(300),
      unity_name_short: text(100),
      object: text(10000),
      process_number: nullable(text(100)),
      bidding_number: nullable(text(100)),
      modality_name: enumOf(BIDDING_MODALITIES),
      status_title: enumOf(ORDER_STATUSES),
      provider_name: text(300),
      provider_document: taxDocument,
      representative_name: text(300),
      arp_number: nullable(key),
      contract_number: nullable(key),
      expense_classification_title: codeTitle,
      expense_type_title: codeTitle,
      location_delivery: text(1000),
      deadline_delivery: dateTime,
      invoice_number: nullable(text(100)),
      invoice_issue_date: nullable(dateTime),
      amount_total: moneyNumber,
      items: { ...arrayOf(orderItemSchema), minItems: 1 },
    },
    'A supply order (spec 2.2) without arp_amount_total and contract_amount_total, which come from the linked ARP ' +
      'and contract. Key: organization_uuid + number. Links: contract_number and arp_number in the same organization.',
  ),
  contract: object(
    {
      type: typeTag('contract'),
      organization_uuid: uuid,
      id: uuid,
      bidding_uuid: nullable(uuid),
      arp_number: nullable(key),
      contract_number: key,
      object_details: text(10000),
      amount_total: moneyText,
      provider_company_name: text(300),
      provider_document: taxDocument,
      contractor_company_name: text(300),
      managers: arrayOf(personSchema),
      inspectors: arrayOf(personSchema),
      commitments: arrayOf(commitmentSchema),
      bidding_modality: enumOf(BIDDING_MODALITIES),
      term_title: text(300),
      bidding_number: nullable(text(100)),
      date_start: date,
      date_end: date,
      management_status: enumOf(MANAGEMENT_STATUSES),
      documents: arrayOf(documentSchema),
      terms: arrayOf(termSchema),
    },
    'A contract (spec 2.7). Key: id; contract_number is unique in its organization. Links: bidding_uuid names a ' +
      'direct contract or public call, arp_number an ARP, both of the same organization. Orders link to it.',
  ),
  direct_contract: biddingSchema('direct_contract'),
  public_call: biddingSchema('public_call'),
  arp: object(
    {
      type: typeTag('arp'),
      organization_uuid: uuid,
      id: uuid,
      bidding_uuid: nullable(uuid),
      number: key,
      object_details: text(10000),
      amount_total: moneyText,
      company_name: text(300),
      provider_company_name: text(300),
      provider_document: taxDocument,
      provider_representative_name: text(300),
      bidding_modality: enumOf(BIDDING_MODALITIES),
      bidding_number: nullable(text(100)),
      date_signature: date,
      date_expiration: date,
      management_status: enumOf(MANAGEMENT_STATUSES),
      documents: arrayOf(documentSchema),
      terms: arrayOf(termSchema),
    },
    'A price-registration record (spec 2.9). Key: id; number is unique in its organization. Link: bidding_uuid.',
  ),
}

/** The whole format as one published JSON Schema document. */
export function importSchemaDocument(): Schema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'urn:compras:import-record',
    title: 'compras import record',
    description:
      'One line of a compras NDJSON import file. See docs/import-format.md. Formats: uuid, date (YYYY-MM-DD), ' +
      'date-time (ISO 8601 with Z or an offset, up to six fractional digits).',
    oneOf: Object.keys(recordSchemas).map((type) => ({ $ref: `#/$defs/${type}` })),
    $defs: recordSchemas,
  }
}
