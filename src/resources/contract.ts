import { BIDDING_MODALITIES, MANAGEMENT_STATUSES } from '../domain.js'
import { field, type ImportRecord, linked, owned, shape } from './fields.js'
import {
  biddingNumbered,
  changedSince,
  chosen,
  dateRange,
  numbered,
  organization,
  search,
  supplierFilters,
} from './filters.js'
import { linkedOrders } from './order.js'
import { PNCP_SHOWN, pncpFields, pncpFilter } from './pncp.js'
import { definePublic, defineRecord, pick, type RecordKind } from './resource.js'
import { attachments, Commitment, people, terms } from './shapes.js'

const fields = {
  organization_uuid: field('uuid', 'Organização (UUID)', { column: 'organization_id' }),
  id: field('uuid', 'Identificador'),
  bidding_uuid: field('uuid', 'Licitação (UUID)', { column: 'bidding_id', nullable: true }),
  arp_number: field('number', 'Número da ata', { nullable: true }),
  contract_number: field('number', 'Número do contrato'),
  object_details: field('text', 'Objeto', { maxLength: 10_000 }),
  amount_total: field('money', 'Valor total'),
  provider_company_name: field('text', 'Fornecedor', { maxLength: 300, store: { supplier: 'name' } }),
  provider_document: field('taxId', 'CNPJ/CPF do fornecedor', { store: { supplier: 'document' } }),
  contractor_company_name: field('text', 'Contratante', { maxLength: 300 }),
  managers: people('manager'),
  inspectors: people('inspector'),
  commitments: owned('Empenhos', Commitment, { column: 'contract_id' }),
  bidding_modality: field('enum', 'Modalidade', {
    values: BIDDING_MODALITIES,
    store: { lookup: 'bidding_modalities', column: 'modality_id' },
  }),
  term_title: field('text', 'Título do termo', { maxLength: 300 }),
  bidding_number: field('text', 'Número da licitação', { maxLength: 100, nullable: true }),
  date_start: field('date', 'Início da vigência'),
  date_end: field('date', 'Fim da vigência'),
  management_status: field('enum', 'Situação de gestão', {
    values: MANAGEMENT_STATUSES,
    open: true,
    store: { lookup: 'management_statuses', column: 'management_status_id' },
  }),
  ...pncpFields,
  documents: attachments('contract_id'),
  terms: terms('contract_id'),
  orders: linkedOrders('contract_number', 'contract_number'),
}

/** The fields of a contract, as declared (for types derived from them). */
export type ContractFields = typeof fields

/**
 * A contract (spec 2.7). Key: id; contract_number is unique in its organization. Links: bidding_uuid names a
 * direct contract or public call, arp_number an ARP, both of the same organization. Orders link to it.
 */
const contractShape = shape({
  name: 'Contract',
  description:
    'A contract (spec 2.7). Key: id; contract_number is unique in its organization. Links: bidding_uuid names a ' +
    'direct contract or public call, arp_number an ARP, both of the same organization. Orders link to it.',
  table: 'contracts',
  alias: 'c',
  fields,
})

const recordKind: RecordKind<typeof fields> = {
  ...contractShape,
  types: ['contract'],
  about: () =>
    'A contract (spec 2.7). Key: id; contract_number is unique in its organization. Links: bidding_uuid names a ' +
    'direct contract or public call, arp_number an ARP, both of the same organization. Orders link to it.',
  placement: {
    group: 'contract',
    key: 'id',
    number: 'contract_number',
    arp: 'arp_number',
    bidding: 'bidding_uuid',
    conflict: ['id'],
    version: 'pncp_updated_at',
  },
  search: ['object_details', 'contractor_company_name', 'term_title', 'provider_company_name'],
}
export const Contract = defineRecord(recordKind)

export type ContractRecord = { type: 'contract' } & ImportRecord<typeof fields>

const RELATIONS = ['managers', 'inspectors', 'commitments', 'documents', 'terms', 'orders'] as const

export const contracts = definePublic<typeof fields>({
  path: 'contracts',
  label: 'contract',
  noun: { singular: 'contrato', plural: 'contratos' },
  record: recordKind,
  type: 'contract',
  where: () => 'true',
  value: (a) => `${a}.amount_total`,
  ofSupplier: (a, supplier) => `${a}.supplier_id = ${supplier}`,
  detail: [
    'bidding_uuid',
    'contract_number',
    'object_details',
    'amount_total',
    'provider_company_name',
    'contractor_company_name',
    'managers',
    'inspectors',
    'commitments',
    'bidding_modality',
    'term_title',
    'bidding_number',
    'date_start',
    'date_end',
    'documents',
    'terms',
    'orders',
    ...PNCP_SHOWN,
  ],
  listingExtra: ['management_status'],
  offered: RELATIONS,
  exported: [
    'id',
    'organization_uuid',
    'contract_number',
    'object_details',
    'amount_total',
    'provider_company_name',
    'provider_document',
    'contractor_company_name',
    'bidding_modality',
    'term_title',
    'bidding_number',
    'bidding_uuid',
    'date_start',
    'date_end',
    'management_status',
    ...PNCP_SHOWN,
  ],
  filters: {
    organization_uuid: organization,
    number: numbered('contract_number'),
    bidding_number: biddingNumbered('bidding_number'),
    modality_id: chosen('modality_id', 'Modalidade', 'bidding-modalities'),
    management_status_id: chosen('management_status_id', 'Situação de gestão', 'management-statuses'),
    ...supplierFilters,
    ...dateRange('date_start', fields.date_start.label),
    updated_since: changedSince('contracts'),
    ...pncpFilter,
    q: search,
  },
  sorts: {
    date_start: 'date_start',
    date_end: 'date_end',
    amount_total: 'amount_total',
    contract_number: 'contract_number',
  },
  defaultSort: '-date_start',
  date: 'date_start',
  status: 'management_status',
  portal: {
    path: 'contratos',
    listed: [
      'contract_number',
      'object_details',
      'provider_company_name',
      'amount_total',
      'date_start',
      'date_end',
      'management_status',
    ],
  },
})

/** A linked contract, inside a bidding's or ARP's detail. */
export const ContractSummary = pick(
  contractShape,
  [
    'id',
    'contract_number',
    'object_details',
    'amount_total',
    'provider_company_name',
    'date_start',
    'date_end',
    'management_status',
  ],
  {
    name: 'ContractSummary',
    alias: 'cs',
    description: 'A linked contract; GET /v1/transparency/contracts/{id} has the rest',
  },
)

/** The contracts that name a record: by its ARP number, or its bidding's id. */
export const linkedContracts = (column: 'arp_number' | 'bidding_id', ownerColumn: string) =>
  linked(
    'Contratos',
    ContractSummary,
    { table: 'contracts', column, ownerColumn, sameOrganization: column === 'arp_number' },
    'cs.date_start DESC, cs.id',
  )
