import { Arp, type ArpRecord, arps } from './arp.js'
import { Bidding, type BiddingRecord, directContracts, publicCalls } from './bidding.js'
import { Contract, type ContractRecord, contracts } from './contract.js'
import { ORDER_DOCUMENT, Order, type OrderRecord } from './order.js'
import { Organization, type OrganizationRecord } from './organization.js'
import type { PublicResource, RecordKind } from './resource.js'

export type { PublicResource, RecordKind } from './resource.js'
export { listingItemFields } from './resource.js'
export type { ArpRecord, BiddingRecord, ContractRecord, OrderRecord, OrganizationRecord }

/** A line of the import format: any record, told apart by its `type`. */
export type ImportLine = OrganizationRecord | OrderRecord | ContractRecord | BiddingRecord | ArpRecord

/** The public resources of /v1/transparency, in the order the API and the portal list them. */
export const PUBLIC_RESOURCES: readonly PublicResource[] = [contracts, directContracts, publicCalls, arps]

const BY_PATH = new Map<string, PublicResource>(PUBLIC_RESOURCES.map((resource) => [resource.path, resource]))

/** The public resource served under a path (`contracts`, `arps`...), if there is one. */
export const publicResource = (path: string): PublicResource | undefined => BY_PATH.get(path)

/** Every kind of record the import takes, in dependency order (what a record links to comes first). */
export const RECORD_KINDS: readonly RecordKind[] = [Organization, Bidding, Arp, Contract, Order]

export {
  Arp,
  arps,
  Bidding,
  Contract,
  contracts,
  directContracts,
  ORDER_DOCUMENT,
  Order,
  Organization,
  publicCalls,
}
