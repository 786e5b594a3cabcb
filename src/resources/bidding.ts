import { BIDDING_MODALITIES, BIDDING_STATUSES } from '../domain.js'
import { linkedArps } from './arp.js'
import { linkedContracts } from './contract.js'
import { field, type ImportRecord, owned, shape } from './fields.js'
import {
  changedSince,
  chosen,
  dateRange,
  nameFilter,
  numbered,
  organization,
  search,
  supplierFilters,
} from './filters.js'
import {
  PNCP_BIDDING_SHOWN,
  PNCP_SHOWN,
  pncpBiddingFields,
  pncpBiddingLists,
  pncpFields,
  pncpFilter,
} from './pncp.js'
import { definePublic, defineRecord, type PublicResource, type RecordKind } from './resource.js'
import { attachments, Provider } from './shapes.js'

const fields = {
  organization_uuid: field('uuid', 'Organização (UUID)', { column: 'organization_id' }),
  id: field('uuid', 'Identificador'),
  number: field('number', 'Número'),
  modality: field('enum', 'Modalidade', {
    values: BIDDING_MODALITIES,
    store: { lookup: 'bidding_modalities', column: 'modality_id' },
  }),
  budget_secret: field('boolean', 'Orçamento sigiloso'),
  status: field('enum', 'Situação', {
    values: BIDDING_STATUSES,
    open: true,
    store: { lookup: 'bidding_statuses', column: 'status_id' },
  }),
  register_price: field('boolean', 'Registro de preços'),
  opening_date: field('instant', 'Data de abertura', {
    nullable: true,
    description: 'ISO 8601 UTC with microseconds',
  }),
  object_details: field('text', 'Objeto', { maxLength: 10_000 }),
  company_name: field('text', 'Órgão', { maxLength: 300 }),
  electronic_dispute_mode: field('text', 'Modo de disputa', { maxLength: 200, nullable: true }),
  adjudication_mode: field('text', 'Forma de adjudicação', { maxLength: 200, nullable: true }),
  judgment_criteria: field('text', 'Critério de julgamento', { maxLength: 200, nullable: true }),
  competent_authority: field('text', 'Autoridade competente', { maxLength: 300, nullable: true }),
  agent: field('text', 'Agente de contratação', { maxLength: 300, nullable: true }),
  type_range_bids: field('text', 'Tipo de intervalo de lances', { maxLength: 100, nullable: true }),
  range_bids: field('text', 'Intervalo de lances', { maxLength: 100, nullable: true }),
  // A secret budget stays secret: the estimate is not published.
  sum_amount_total: field('money', 'Valor estimado', {
    secretIf: 'budget_secret',
    description: 'Estimated total; null while the budget is secret (budget_secret)',
  }),
  precision: field('integer', 'Precisão', { minimum: 0, maximum: 6 }),
  sum_amount_total_finish: field('money', 'Valor homologado', { nullable: true }),
  ...pncpFields,
  ...pncpBiddingFields,
  documents: attachments('bidding_id'),
  providers: owned('Participantes', Provider, { column: 'bidding_id' }),
  ...pncpBiddingLists,
  arps: linkedArps(),
  contracts: linkedContracts('bidding_id', 'id'),
}

/** The fields of a bidding, as declared (for types derived from them). */
export type BiddingFields = typeof fields

/**
 * A direct contract or public call (spec 2.8; one shape for both). Key: id, shared by both kinds. Contracts
 * and ARPs link to it by bidding_uuid.
 */
const biddingShape = shape({
  name: 'Bidding',
  description: 'A direct contract or public call (one shape for both)',
  table: 'biddings',
  alias: 'b',
  fields,
})

const recordKind: RecordKind<typeof fields> = {
  ...biddingShape,
  types: ['direct_contract', 'public_call'],
  about: (type) =>
    `A ${type === 'direct_contract' ? 'direct contract' : 'public call'} (spec 2.8). Key: id (shared with the ` +
    'other bidding kind). Contracts and ARPs link to it by bidding_uuid.',
  placement: {
    group: 'bidding',
    key: 'id',
    number: 'number',
    conflict: ['id'],
    typeColumn: 'kind',
    version: 'pncp_updated_at',
  },
  search: ['object_details', 'company_name', 'agent', 'providers'],
}
export const Bidding = defineRecord(recordKind)

export type BiddingRecord = { type: 'direct_contract' | 'public_call' } & ImportRecord<typeof fields>

const DETAIL = [
  'number',
  'modality',
  'budget_secret',
  'status',
  'register_price',
  'opening_date',
  'object_details',
  'company_name',
  'electronic_dispute_mode',
  'adjudication_mode',
  'judgment_criteria',
  'competent_authority',
  'agent',
  'type_range_bids',
  'range_bids',
  'sum_amount_total',
  'precision',
  'sum_amount_total_finish',
  'documents',
  'providers',
  'arps',
  'contracts',
  ...PNCP_SHOWN,
  ...PNCP_BIDDING_SHOWN,
  'items',
  'results',
] as const

function biddings(kind: 'direct_contract' | 'public_call'): PublicResource {
  const direct = kind === 'direct_contract'
  return definePublic<typeof fields>({
    path: direct ? 'direct-contracts' : 'public-calls',
    label: direct ? 'direct contract' : 'public call',
    noun: direct
      ? { singular: 'contratação direta', plural: 'contratações diretas' }
      : { singular: 'chamada pública', plural: 'chamadas públicas' },
    record: recordKind,
    type: kind,
    where: (a) => `${a}.kind = '${kind}'`,
    // Its finished total when it has one.
    value: (a) => `coalesce(${a}.sum_amount_total_finish, ${a}.sum_amount_total)`,
    // A direct contract's suppliers are its providers; a public call has no supplier of its own.
    ...(direct
      ? {
          ofSupplier: (a: string, supplier: string) =>
            `${a}.id IN (SELECT bidding_id FROM bidding_providers WHERE supplier_id = ${supplier})`,
        }
      : {}),
    detail: DETAIL,
    listingExtra: [],
    offered: ['documents', 'providers', 'arps', 'contracts'],
    exported: [
      'id',
      'organization_uuid',
      'number',
      'modality',
      'budget_secret',
      'status',
      'register_price',
      'opening_date',
      'object_details',
      'company_name',
      'electronic_dispute_mode',
      'adjudication_mode',
      'judgment_criteria',
      'competent_authority',
      'agent',
      'sum_amount_total',
      'sum_amount_total_finish',
      ...PNCP_SHOWN,
      ...PNCP_BIDDING_SHOWN,
    ],
    filters: {
      organization_uuid: organization,
      number: numbered('number'),
      modality_id: chosen('modality_id', 'Modalidade', 'bidding-modalities'),
      status_id: chosen('status_id', 'Situação', 'bidding-statuses'),
      // Among the bidding's providers.
      provider_document: {
        ...supplierFilters.provider_document,
        sql: (a, p) => `EXISTS (SELECT 1 FROM bidding_providers fp JOIN suppliers fs ON fs.id = fp.supplier_id
          WHERE fp.bidding_id = ${a}.id AND fs.document = ${p})`,
      },
      provider_name: {
        ...supplierFilters.provider_name,
        sql: (a, p) =>
          `EXISTS (SELECT 1 FROM bidding_providers fp WHERE fp.bidding_id = ${a}.id AND fp.supplier_id IN ${nameFilter(p)})`,
      },
      // The opening is a moment: the last day takes until its end.
      ...dateRange('opening_date', fields.opening_date.label, (a, p) => `${a}.opening_date < ${p}::date + 1`),
      updated_since: changedSince(direct ? 'direct-contracts' : 'public-calls'),
      ...pncpFilter,
      q: search,
    },
    sorts: { opening_date: 'opening_date', number: 'number', sum_amount_total: 'sum_amount_total' },
    defaultSort: '-opening_date',
    date: 'opening_date',
    status: 'status',
    portal: {
      path: direct ? 'contratacoes-diretas' : 'chamadas-publicas',
      listed: ['number', 'modality', 'object_details', 'status', 'opening_date', 'sum_amount_total'],
    },
  })
}

export const directContracts = biddings('direct_contract')
export const publicCalls = biddings('public_call')
