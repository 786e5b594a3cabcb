// The types an integrator works with: every call typed from the OpenAPI document, the feed's record
// following its kind. Compiled with the rest of the repository (`npm run check`, strict).
import {
  type Arp,
  type Bidding,
  Compras,
  ComprasError,
  type Contract,
  MemoryCursorStore,
  type OcdsRelease,
  type Order,
} from '../src/index.js'

const api = new Compras({ baseUrl: 'http://localhost:3000', headers: { 'user-agent': 'exemplo/1.0' } })

export async function contractsOf(organization_uuid: string): Promise<string[]> {
  const numbers: string[] = []
  for await (const item of api.contracts.list({ organization_uuid, per_page: 100, sort: '-amount_total' }))
    numbers.push(item.contract_number)
  return numbers
}

export async function firstVersion(id: string): Promise<string> {
  const history = await api.contracts.history(id)
  const first = await api.contracts.version(id, 1)
  const now: Contract = await api.contracts.get(id)
  return `${history.versions.length} versions; first ${first.record.amount_total}, now ${now.amount_total}`
}

export async function order(number: string, token: string): Promise<Order | undefined> {
  try {
    return await api.orders.get(number, { token })
  } catch (error) {
    if (error instanceof ComprasError && error.status === 500) return undefined // "Ordem não encontrada"
    throw error
  }
}

export async function arpsChanged(signal: AbortSignal): Promise<Arp[]> {
  const arps: Arp[] = []
  for await (const entry of api.changes.sync({ store: new MemoryCursorStore(), withRecords: true, signal })) {
    // The record follows the kind; a withdrawal never has one.
    if (entry.change !== 'withdrawn' && entry.kind === 'arps' && entry.record) arps.push(entry.record)
  }
  return arps
}

/** A status the interface leaves open: the values listed today, and a default for any a later version adds. */
export function stage(call: Bidding): 'open' | 'closed' | 'unknown' {
  switch (call.status) {
    case 'Publicado':
    case 'Em disputa':
      return 'open'
    case 'Homologado':
    case 'Cancelado':
      return 'closed'
    default:
      return 'unknown'
  }
}

/** An OCDS record: its releases linked, its compiled release typed as compras fills it. */
export async function suppliersOf(ocid: string): Promise<string[]> {
  const [record] = (await api.ocds.record(ocid)).records
  const parties = record?.compiledRelease.parties ?? []
  return parties.filter((party) => party.roles.includes('supplier')).map((party) => party.name)
}

// The types are not loose: each line below must fail, or the unused directive fails the check.
// @ts-expect-error a contract's amount is text, not a number
export const amount = (contract: Contract): number => contract.amount_total
// @ts-expect-error the sort takes only the listing's own fields
export const wrongSort = () => api.contracts.list({ sort: 'object_details' })
// @ts-expect-error an order's status is one of the four of the interface, a closed list
export const notAStatus: Order['status_title'] = 'Cancelada'
// @ts-expect-error an OCDS release names its process by ocid: it has no number
export const noNumber = (release: OcdsRelease) => release.number
// @ts-expect-error the orders feed needs the organ's token
export const noToken = () => api.orders.changes({})
