import type { ArpFields } from '../resources/arp.js'
import type { BiddingFields } from '../resources/bidding.js'
import type { ContractFields } from '../resources/contract.js'
import type { Served } from '../resources/fields.js'
import { Arp, Bidding, Contract } from '../resources/index.js'
import { from, jsonObject } from '../resources/json.js'
import { array } from '../resources/sql.js'

// What a contracting process is made of, read from the resources' definitions (src/resources) in their
// served form: money as text with two decimals, dates as text, a person's CPF already masked. So the
// OCDS face (mapping.ts) never sees a whole CPF, and a field's meaning is the API's.

/** The fields of a bidding that the mapping reads (a process's tender). */
export const BIDDING_FIELDS = [
  'id',
  'number',
  'modality',
  'budget_secret',
  'status',
  'opening_date',
  'object_details',
  'judgment_criteria',
  'sum_amount_total',
  'documents',
  'providers',
  'pncp_id',
  'closing_date',
  'items',
  'results',
] as const

/** The fields of a contract that the mapping reads (an OCDS contract, its award, its orders). */
export const CONTRACT_FIELDS = [
  'id',
  'contract_number',
  'arp_number',
  'object_details',
  'amount_total',
  'provider_company_name',
  'provider_document',
  'bidding_modality',
  'date_start',
  'date_end',
  'management_status',
  'documents',
  'terms',
  'orders',
] as const

/** The fields of an ARP that the mapping reads (an OCDS award, in the framework-agreement pattern). */
export const ARP_FIELDS = [
  'id',
  'number',
  'object_details',
  'amount_total',
  'provider_company_name',
  'provider_document',
  'bidding_modality',
  'date_signature',
  'date_expiration',
  'management_status',
  'documents',
  'terms',
] as const

/** What the mapping reads of each kind, as the API serves it. */
export type BiddingSource = Served<BiddingFields, (typeof BIDDING_FIELDS)[number]>
export type ContractSource = Served<ContractFields, (typeof CONTRACT_FIELDS)[number]>
export type ArpSource = Served<ArpFields, (typeof ARP_FIELDS)[number]>

/** A contracting process as read: its organ, its bidding (if any), its ARPs and contracts. */
export interface ProcessSource {
  organization: { name: string; document: string }
  bidding: BiddingSource | null
  arps: ArpSource[]
  contracts: ContractSource[]
}

export type ProcessKind = 'bidding' | 'contract' | 'arp'

const contractJson = jsonObject(Contract, CONTRACT_FIELDS, 'c', 'served')
const arpJson = jsonObject(Arp, ARP_FIELDS, 'a', 'served')
const organizationJson = `json_build_object('name', g.name, 'document', g.document)`

/**
 * The processes of one kind whose ids the condition `inScope(idSql)` accepts, as rows
 * (process_id, organization_id, source): `source` is a ProcessSource's JSON text.
 */
export function sourceQuery(kind: ProcessKind, inScope: (id: string) => string): string {
  switch (kind) {
    case 'bidding':
      return `SELECT b.id AS process_id, b.organization_id, json_build_object(
          'organization', ${organizationJson},
          'bidding', ${jsonObject(Bidding, BIDDING_FIELDS, 'b', 'served')},
          'arps', ${array(arpJson, `FROM ${from(Arp, 'a')} WHERE a.bidding_id = b.id`, 'a.date_signature, a.id')},
          'contracts', ${array(contractJson, `FROM ${from(Contract, 'c')} WHERE c.bidding_id = b.id`, 'c.date_start, c.id')}
        )::text AS source
        FROM ${from(Bidding, 'b')} JOIN organizations g ON g.id = b.organization_id
        WHERE ${inScope('b.id')}`
    case 'contract':
      return `SELECT c.id AS process_id, c.organization_id, json_build_object(
          'organization', ${organizationJson},
          'bidding', NULL,
          'arps', '[]'::json,
          'contracts', json_build_array(${contractJson})
        )::text AS source
        FROM ${from(Contract, 'c')} JOIN organizations g ON g.id = c.organization_id
        WHERE c.bidding_id IS NULL AND ${inScope('c.id')} AND NOT EXISTS (
          SELECT 1 FROM arps x WHERE x.bidding_id IS NULL AND x.organization_id = c.organization_id
            AND x.number = c.arp_number)`
    case 'arp':
      return `SELECT a.id AS process_id, a.organization_id, json_build_object(
          'organization', ${organizationJson},
          'bidding', NULL,
          'arps', json_build_array(${arpJson}),
          'contracts', ${array(
            contractJson,
            `FROM ${from(Contract, 'c')} WHERE c.bidding_id IS NULL AND c.arp_number = a.number AND c.organization_id = a.organization_id`,
            'c.date_start, c.id',
          )}
        )::text AS source
        FROM ${from(Arp, 'a')} JOIN organizations g ON g.id = a.organization_id
        WHERE a.bidding_id IS NULL AND ${inScope('a.id')}`
  }
}
