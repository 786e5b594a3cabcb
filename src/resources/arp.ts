import { BIDDING_MODALITIES, MANAGEMENT_STATUSES } from '../domain.js'
import { linkedContracts } from './contract.js'
import { field, type ImportRecord, linked, shape } from './fields.js'
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
import { attachments, terms } from './shapes.js'

const fields = {
  organization_uuid: field('uuid', 'Organização (UUID)', { column: 'organization_id' }),
  id: field('uuid', 'Identificador'),
  bidding_uuid: field('uuid', 'Licitação (UUID)', { column: 'bidding_id', nullable: true }),
  number: field('number', 'Número da ata'),
  object_details: field('text', 'Objeto', { maxLength: 10_000 }),
  amount_total: field('money', 'Valor total', { nullable: true }),
  company_name: field('text', 'Órgão', { maxLength: 300 }),
  provider_company_name: field('text', 'Fornecedor', {
    maxLength: 300,
    nullable: true,
    store: { supplier: 'name' },
  }),
  provider_document: field('taxId', 'CNPJ/CPF do fornecedor', {
    nullable: true,
    store: { supplier: 'document' },
  }),
  provider_representative_name: field('text', 'Representante do fornecedor', {
    maxLength: 300,
    nullable: true,
    column: 'representative_name',
  }),
  bidding_modality: field('enum', 'Modalidade', {
    values: BIDDING_MODALITIES,
    store: { lookup: 'bidding_modalities', column: 'modality_id' },
  }),
  bidding_number: field('text', 'Número da licitação', { maxLength: 100, nullable: true }),
  date_signature: field('date', 'Data de assinatura'),
  date_expiration: field('date', 'Data de vencimento'),
  management_status: field('enum', 'Situação de gestão', {
    values: MANAGEMENT_STATUSES,
    open: true,
    store: { lookup: 'management_statuses', column: 'management_status_id' },
  }),
  ...pncpFields,
  documents: attachments('arp_id'),
  contracts: linkedContracts('arp_number', 'number'),
  terms: terms('arp_id'),
  orders: linkedOrders('arp_number', 'number'),
}

/** The fields of an ARP, as declared (for types derived from them). */
export type ArpFields = typeof fields

/** A price-registration record (spec 2.9). Key: id; number is unique in its organization. Link: bidding_uuid. */
const arpShape = shape({
  name: 'Arp',
  description:
    'A price-registration record (spec 2.9). Key: id; number is unique in its organization. Link: bidding_uuid.',
  table: 'arps',
  alias: 'a',
  fields,
})

const recordKind: RecordKind<typeof fields> = {
  ...arpShape,
  types: ['arp'],
  about: () =>
    'A price-registration record (spec 2.9). Key: id; number is unique in its organization. Link: bidding_uuid.',
  placement: {
    group: 'arp',
    key: 'id',
    number: 'number',
    bidding: 'bidding_uuid',
    conflict: ['id'],
    version: 'pncp_updated_at',
  },
  search: ['object_details', 'company_name', 'provider_company_name'],
}
export const Arp = defineRecord(recordKind)

export type ArpRecord = { type: 'arp' } & ImportRecord<typeof fields>

export const arps = definePublic<typeof fields>({
  path: 'arps',
  label: 'ARP',
  noun: { singular: 'ata de registro de preços', plural: 'atas de registro de preços' },
  record: recordKind,
  type: 'arp',
  where: () => 'true',
  value: (a) => `${a}.amount_total`,
  ofSupplier: (a, supplier) => `${a}.supplier_id = ${supplier}`,
  detail: [
    'bidding_uuid',
    'number',
    'object_details',
    'amount_total',
    'company_name',
    'provider_company_name',
    'provider_representative_name',
    'bidding_modality',
    'bidding_number',
    'date_signature',
    'date_expiration',
    'documents',
    'contracts',
    'terms',
    'orders',
    ...PNCP_SHOWN,
  ],
  listingExtra: ['management_status'],
  // Spec 4.1: the ARP listing accepts exactly documents, terms and orders.
  offered: ['documents', 'terms', 'orders'],
  exported: [
    'id',
    'organization_uuid',
    'number',
    'object_details',
    'amount_total',
    'company_name',
    'provider_company_name',
    'provider_document',
    'provider_representative_name',
    'bidding_modality',
    'bidding_number',
    'bidding_uuid',
    'date_signature',
    'date_expiration',
    'management_status',
    ...PNCP_SHOWN,
  ],
  filters: {
    organization_uuid: organization,
    number: numbered('number'),
    bidding_number: biddingNumbered('bidding_number'),
    modality_id: chosen('modality_id', 'Modalidade', 'bidding-modalities'),
    management_status_id: chosen('management_status_id', 'Situação de gestão', 'management-statuses'),
    ...supplierFilters,
    ...dateRange('date_signature', fields.date_signature.label),
    updated_since: changedSince('arps'),
    ...pncpFilter,
    q: search,
  },
  sorts: {
    date_signature: 'date_signature',
    date_expiration: 'date_expiration',
    amount_total: 'amount_total',
    number: 'number',
  },
  defaultSort: '-date_signature',
  date: 'date_signature',
  status: 'management_status',
  portal: {
    path: 'atas',
    listed: [
      'number',
      'object_details',
      'provider_company_name',
      'amount_total',
      'date_signature',
      'date_expiration',
      'management_status',
    ],
  },
})

/** A linked ARP, inside a bidding's detail. */
export const ArpSummary = pick(
  arpShape,
  [
    'id',
    'number',
    'object_details',
    'amount_total',
    'provider_company_name',
    'date_signature',
    'date_expiration',
    'management_status',
  ],
  {
    name: 'ArpSummary',
    alias: 'ars',
    description: 'A linked ARP; GET /v1/transparency/arps/{id} has the rest',
  },
)

/** The ARPs of a bidding. */
export const linkedArps = () =>
  linked(
    'Atas de registro de preços',
    ArpSummary,
    { table: 'arps', column: 'bidding_id', ownerColumn: 'id', sameOrganization: false },
    'ars.date_signature DESC, ars.id',
  )
