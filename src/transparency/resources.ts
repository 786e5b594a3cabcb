import {
  arpSummaries,
  commitments,
  contractSummaries,
  day,
  documents,
  type Field,
  instant,
  money,
  orders,
  people,
  providers,
  terms,
} from './sql.js'

/** A SQL condition for one filter; `p` is the placeholder of the filter's value. */
type FilterSql = (p: string) => string

/** One transparency resource kind: how to read it, list it, filter it and sort it. */
export interface Resource {
  /** URL segment under /v1/transparency. */
  path: 'contracts' | 'direct-contracts' | 'public-calls' | 'arps'
  /** Used in the OpenAPI document. */
  label: string
  alias: string
  /**
   * The record's table and its one-to-one lookups. The lookups are LEFT JOINs to rows their foreign keys
   * guarantee, so they give the same rows as inner joins, and PostgreSQL leaves out those a count or a
   * page's ids do not use.
   */
  from: string
  where: string
  /** The detail's fields, relations included, in the spec's order. */
  detail: readonly Field[]
  /** A listing item's own fields. */
  item: readonly Field[]
  /** Relations a listing item may add (with_relations), in the order they are added. */
  relations: Readonly<Record<string, string>>
  filters: Readonly<Record<string, FilterSql>>
  sorts: Readonly<Record<string, string>>
  /** Newest first by the kind's main date; the id breaks ties so pages are stable. */
  defaultSort: string
}

/** Suppliers whose name holds the words of `p` in order (migrations/0006_hardening.sql). */
const namedSuppliers = (p: string) =>
  `(SELECT id FROM suppliers WHERE name_folded LIKE compras_name_pattern(${p}))`

const searchFilter =
  (alias: string): FilterSql =>
  (p) =>
    `${alias}.search @@ websearch_to_tsquery('compras_pt', ${p})`

/**
 * A listing's view of a detail: each item is the record's id and organization, the detail's own fields
 * (not its relation arrays) and the extra fields; `offered` relations can be added with with_relations.
 */
function listing(
  alias: string,
  detail: readonly Field[],
  relations: readonly string[],
  offered: readonly string[],
  extra: readonly Field[],
): Pick<Resource, 'item' | 'relations'> {
  return {
    item: [
      ['id', `${alias}.id`],
      ['organization_uuid', `${alias}.organization_id`],
      ...detail.filter(([name]) => !relations.includes(name)),
      ...extra,
    ],
    relations: Object.fromEntries(detail.filter(([name]) => offered.includes(name))),
  }
}

const CONTRACT_RELATIONS = ['managers', 'inspectors', 'commitments', 'documents', 'terms', 'orders']
const contractDetail: readonly Field[] = [
  ['bidding_uuid', 'c.bidding_id'],
  ['contract_number', 'c.contract_number'],
  ['object_details', 'c.object_details'],
  ['amount_total', money('c.amount_total')],
  ['provider_company_name', 's.name'],
  ['contractor_company_name', 'c.contractor_company_name'],
  ['managers', people('c', 'manager')],
  ['inspectors', people('c', 'inspector')],
  ['commitments', commitments('c')],
  ['bidding_modality', 'm.name'],
  ['term_title', 'c.term_title'],
  ['bidding_number', 'c.bidding_number'],
  ['date_start', day('c.date_start')],
  ['date_end', day('c.date_end')],
  ['documents', documents('d.contract_id = c.id')],
  ['terms', terms('t.contract_id = c.id')],
  ['orders', orders('c', 'contract_number', 'c.contract_number')],
]

const contract: Resource = {
  path: 'contracts',
  label: 'contract',
  alias: 'c',
  from: `contracts c LEFT JOIN suppliers s ON s.id = c.supplier_id LEFT JOIN bidding_modalities m ON m.id = c.modality_id
    LEFT JOIN management_statuses ms ON ms.id = c.management_status_id`,
  where: 'true',
  detail: contractDetail,
  ...listing('c', contractDetail, CONTRACT_RELATIONS, CONTRACT_RELATIONS, [['management_status', 'ms.name']]),
  filters: {
    organization_uuid: (p) => `c.organization_id = ${p}::uuid`,
    number: (p) => `c.contract_number = ${p}`,
    bidding_number: (p) => `c.bidding_number = ${p}`,
    modality_id: (p) => `c.modality_id = ${p}::smallint`,
    management_status_id: (p) => `c.management_status_id = ${p}::smallint`,
    provider_document: (p) => `s.document = ${p}`,
    provider_name: (p) => `c.supplier_id IN ${namedSuppliers(p)}`,
    date_from: (p) => `c.date_start >= ${p}::date`,
    date_to: (p) => `c.date_start <= ${p}::date`,
    q: searchFilter('c'),
  },
  sorts: {
    date_start: 'c.date_start',
    date_end: 'c.date_end',
    amount_total: 'c.amount_total',
    contract_number: 'c.contract_number',
  },
  defaultSort: '-date_start',
}

function bidding(kind: 'direct_contract' | 'public_call'): Resource {
  const detail: Field[] = [
    ['number', 'b.number'],
    ['modality', 'm.name'],
    ['budget_secret', 'b.budget_secret'],
    ['status', 'st.name'],
    ['register_price', 'b.register_price'],
    ['opening_date', instant('b.opening_date')],
    ['object_details', 'b.object_details'],
    ['company_name', 'b.company_name'],
    ['electronic_dispute_mode', 'b.electronic_dispute_mode'],
    ['adjudication_mode', 'b.adjudication_mode'],
    ['judgment_criteria', 'b.judgment_criteria'],
    ['competent_authority', 'b.competent_authority'],
    ['agent', 'b.agent'],
    ['type_range_bids', 'b.type_range_bids'],
    ['range_bids', 'b.range_bids'],
    // A secret budget stays secret: the estimate is not published.
    ['sum_amount_total', `CASE WHEN b.budget_secret THEN NULL ELSE ${money('b.sum_amount_total')} END`],
    ['precision', 'b.precision'],
    ['sum_amount_total_finish', money('b.sum_amount_total_finish')],
  ]
  const relations: Field[] = [
    ['documents', documents('d.bidding_id = b.id')],
    ['providers', providers('b')],
    ['arps', arpSummaries('ars.bidding_id = b.id')],
    ['contracts', contractSummaries('cs.bidding_id = b.id')],
  ]
  const relationNames = relations.map(([name]) => name)
  return {
    path: kind === 'direct_contract' ? 'direct-contracts' : 'public-calls',
    label: kind === 'direct_contract' ? 'direct contract' : 'public call',
    alias: 'b',
    from: `biddings b LEFT JOIN bidding_modalities m ON m.id = b.modality_id
      LEFT JOIN bidding_statuses st ON st.id = b.status_id`,
    where: `b.kind = '${kind}'`,
    detail: [...detail, ...relations],
    ...listing('b', [...detail, ...relations], relationNames, relationNames, []),
    filters: {
      organization_uuid: (p) => `b.organization_id = ${p}::uuid`,
      number: (p) => `b.number = ${p}`,
      modality_id: (p) => `b.modality_id = ${p}::smallint`,
      status_id: (p) => `b.status_id = ${p}::smallint`,
      provider_document: (p) =>
        `EXISTS (SELECT 1 FROM bidding_providers fp JOIN suppliers fs ON fs.id = fp.supplier_id
          WHERE fp.bidding_id = b.id AND fs.document = ${p})`,
      provider_name: (p) =>
        `EXISTS (SELECT 1 FROM bidding_providers fp WHERE fp.bidding_id = b.id AND fp.supplier_id IN ${namedSuppliers(p)})`,
      date_from: (p) => `b.opening_date >= ${p}::date`,
      date_to: (p) => `b.opening_date < ${p}::date + 1`,
      q: searchFilter('b'),
    },
    sorts: { opening_date: 'b.opening_date', number: 'b.number', sum_amount_total: 'b.sum_amount_total' },
    defaultSort: '-opening_date',
  }
}

const arpDetail: readonly Field[] = [
  ['bidding_uuid', 'a.bidding_id'],
  ['number', 'a.number'],
  ['object_details', 'a.object_details'],
  ['amount_total', money('a.amount_total')],
  ['company_name', 'a.company_name'],
  ['provider_company_name', 's.name'],
  ['provider_representative_name', 'a.representative_name'],
  ['bidding_modality', 'm.name'],
  ['bidding_number', 'a.bidding_number'],
  ['date_signature', day('a.date_signature')],
  ['date_expiration', day('a.date_expiration')],
  ['documents', documents('d.arp_id = a.id')],
  ['contracts', contractSummaries('cs.organization_id = a.organization_id AND cs.arp_number = a.number')],
  ['terms', terms('t.arp_id = a.id')],
  ['orders', orders('a', 'arp_number', 'a.number')],
]

const arp: Resource = {
  path: 'arps',
  label: 'ARP',
  alias: 'a',
  from: `arps a LEFT JOIN suppliers s ON s.id = a.supplier_id LEFT JOIN bidding_modalities m ON m.id = a.modality_id
    LEFT JOIN management_statuses ms ON ms.id = a.management_status_id`,
  where: 'true',
  detail: arpDetail,
  // Spec 4.1: the ARP listing accepts exactly documents, terms and orders.
  ...listing(
    'a',
    arpDetail,
    ['documents', 'contracts', 'terms', 'orders'],
    ['documents', 'terms', 'orders'],
    [['management_status', 'ms.name']],
  ),
  filters: {
    organization_uuid: (p) => `a.organization_id = ${p}::uuid`,
    number: (p) => `a.number = ${p}`,
    bidding_number: (p) => `a.bidding_number = ${p}`,
    modality_id: (p) => `a.modality_id = ${p}::smallint`,
    management_status_id: (p) => `a.management_status_id = ${p}::smallint`,
    provider_document: (p) => `s.document = ${p}`,
    provider_name: (p) => `a.supplier_id IN ${namedSuppliers(p)}`,
    date_from: (p) => `a.date_signature >= ${p}::date`,
    date_to: (p) => `a.date_signature <= ${p}::date`,
    q: searchFilter('a'),
  },
  sorts: {
    date_signature: 'a.date_signature',
    date_expiration: 'a.date_expiration',
    amount_total: 'a.amount_total',
    number: 'a.number',
  },
  defaultSort: '-date_signature',
}

export const RESOURCES: readonly Resource[] = [
  contract,
  bidding('direct_contract'),
  bidding('public_call'),
  arp,
]
