import { createHash } from 'node:crypto'
import type { BiddingModality, BiddingStatus, ManagementStatus, OrderStatus } from '../domain.js'
import type { JsonObject } from '../json.js'
import type { ArpSource, BiddingSource, ContractSource, ProcessKind, ProcessSource } from './source.js'

// Our records as OCDS 1.1 (docs/ocds-mapping.md says field by field what goes where, and why). Plain
// functions with no database and no HTTP: the read model stores what they return, the routes and the bulk
// download only join it to the ocid.

/** OCDS tenderStatus for each of our bidding statuses. */
export const TENDER_STATUS: Readonly<Record<BiddingStatus, string>> = {
  Publicado: 'active',
  'Em disputa': 'active',
  'Em julgamento': 'active',
  'Em habilitação': 'active',
  'Em recurso': 'active',
  Adjudicado: 'complete',
  Homologado: 'complete',
  Suspenso: 'active',
  Revogado: 'cancelled',
  Anulado: 'cancelled',
  Deserto: 'unsuccessful',
  Fracassado: 'unsuccessful',
  Cancelado: 'cancelled',
  Concluído: 'complete',
}

/** OCDS method (procurementMethod) for each of the 20 modalities; the modality's name goes in the details. */
export const PROCUREMENT_METHOD: Readonly<Record<BiddingModality, string>> = {
  Adesão: 'direct',
  'Pregão Eletrônico': 'open',
  'Pregão Presencial': 'open',
  'Tomada de Preço': 'selective',
  'Concorrência - Presencial': 'open',
  'Chamamento Público': 'open',
  'Carta Convite': 'limited',
  'Dispensa sem Disputa': 'direct',
  Inexigibilidade: 'direct',
  'Leilão Presencial': 'open',
  'Regime Diferenciado de Contratação': 'open',
  'Dispensa Eletrônica': 'open',
  'Diálogo Competitivo': 'selective',
  'Procedimento da Lei 13.393/2016': 'open',
  Concurso: 'open',
  'Concorrência - Eletrônica': 'open',
  'Manifestação de Interesse': 'open',
  'Pré-Qualificação': 'selective',
  Credenciamento: 'open',
  'Leilão Eletrônico': 'open',
}

/** OCDS contractStatus for a contract's management status. */
export const CONTRACT_STATUS: Readonly<Record<ManagementStatus, string>> = {
  'Aguardando assinatura': 'pending',
  Vigente: 'active',
  Suspenso: 'active',
  Encerrado: 'terminated',
  Rescindido: 'terminated',
  Cancelado: 'cancelled',
}

/** OCDS awardStatus for an ARP's management status (an ARP is an award: the framework agreement). */
export const AWARD_STATUS: Readonly<Record<ManagementStatus, string>> = {
  'Aguardando assinatura': 'pending',
  Vigente: 'active',
  Suspenso: 'active',
  Encerrado: 'active',
  Rescindido: 'cancelled',
  Cancelado: 'cancelled',
}

/** OCDS milestoneStatus for a supply order's status: the order is a delivery milestone. */
export const MILESTONE_STATUS: Readonly<Record<OrderStatus, string>> = {
  Emitida: 'scheduled',
  'Recebido total': 'met',
  'Recebido parcialmente': 'partiallyMet',
  'Recebido provisoriamente': 'partiallyMet',
}

/** A day of ours (YYYY-MM-DD) as an OCDS date-time: its start in Brasília time (UTC-3, no daylight saving). */
const dayStart = (day: string) => `${day}T00:00:00-03:00`
/** A day's end, for the end of a period. */
const dayEnd = (day: string) => `${day}T23:59:59-03:00`

/** Money as served ("1234.50") as an OCDS Value: a JSON number, exact to the cent, in reais. */
const value = (money: string) => ({ amount: Number(money), currency: 'BRL' })

const documents = (list: readonly { uuid: string; name: string; url: string }[]) =>
  list.map((d) => ({ id: d.uuid, title: d.name, url: d.url }))

const amendments = (terms: ArpSource['terms']) =>
  terms.map((t) => {
    const amendment: JsonObject = {
      id: t.number,
      date: dayStart(t.signature_date),
      rationale: t.kind,
      description: t.description,
    }
    return amendment
  })

/** The parties of a release, each once, with every role it plays. */
class Parties {
  private readonly byId = new Map<string, JsonObject & { roles: string[] }>()
  private people = 0
  private readonly personIds = new Map<string, string>()

  /**
   * A supplier or tenderer. A company is `BR-CNPJ-<cnpj>` with its CNPJ as identifier. A person (whose
   * served document is a masked CPF) gets an id local to the release, `pessoa-N`, and no identifier: no
   * value derived from a CPF, not even a hash, since the masked digits leave too few candidates.
   */
  supplier(
    name: string,
    servedDocument: string,
    role: 'supplier' | 'tenderer',
  ): { id: string; name: string } {
    if (/^[0-9]{14}$/.test(servedDocument)) {
      return this.add(`BR-CNPJ-${servedDocument}`, name, role, {
        scheme: 'BR-CNPJ',
        id: servedDocument,
        legalName: name,
      })
    }
    const key = `${servedDocument}\u0000${name}`
    let id = this.personIds.get(key)
    if (id === undefined) {
      this.people += 1
      id = `pessoa-${this.people}`
      this.personIds.set(key, id)
    }
    return this.add(id, name, role)
  }

  /** The organ: buyer and procuring entity, identified by its CNPJ. */
  organ(name: string, cnpj: string): { id: string; name: string } {
    this.add(`BR-CNPJ-${cnpj}`, name, 'buyer', { scheme: 'BR-CNPJ', id: cnpj, legalName: name })
    return this.add(`BR-CNPJ-${cnpj}`, name, 'procuringEntity')
  }

  private add(id: string, name: string, role: string, identifier?: JsonObject): { id: string; name: string } {
    let party = this.byId.get(id)
    if (party === undefined) {
      party = { id, name, roles: [] }
      if (identifier) party.identifier = identifier
      this.byId.set(id, party)
    }
    if (!party.roles.includes(role)) party.roles.push(role)
    return { id, name: party.name as string }
  }

  list(): JsonObject[] {
    return [...this.byId.values()]
  }
}

function tender(bidding: BiddingSource, parties: Parties, buyer: { id: string; name: string }): JsonObject {
  // A supplier that took part twice (two representatives) is one tenderer.
  const tenderers = [
    ...new Map(
      bidding.providers.map((p) => {
        const party = parties.supplier(p.name, p.document, 'tenderer')
        return [party.id, party] as const
      }),
    ).values(),
  ]
  const result: JsonObject = {
    // A process published on PNCP is known there by its control number.
    id: bidding.pncp_id ?? bidding.id,
    title: `${bidding.modality} ${bidding.number}`,
    description: bidding.object_details,
    status: TENDER_STATUS[bidding.status as BiddingStatus],
    procuringEntity: buyer,
  }
  // A secret budget is served as null (budget_secret): no value at all, rather than a misleading zero.
  if (bidding.sum_amount_total !== null) result.value = value(bidding.sum_amount_total)
  result.procurementMethod = PROCUREMENT_METHOD[bidding.modality as BiddingModality]
  result.procurementMethodDetails = bidding.modality
  if (bidding.judgment_criteria !== null) result.awardCriteriaDetails = bidding.judgment_criteria
  if (bidding.opening_date !== null || bidding.closing_date !== null)
    result.tenderPeriod = {
      ...(bidding.opening_date === null ? {} : { startDate: bidding.opening_date }),
      ...(bidding.closing_date === null ? {} : { endDate: bidding.closing_date }),
    }
  result.numberOfTenderers = tenderers.length
  if (tenderers.length > 0) result.tenderers = tenderers
  if (bidding.items.length > 0)
    result.items = bidding.items.map((i) =>
      item(i, i.estimated_amount === null || bidding.budget_secret ? null : i.estimated_amount),
    )
  if (bidding.documents.length > 0) result.documents = documents(bidding.documents)
  return result
}

type TenderItem = BiddingSource['items'][number]

/** An item, its unit's value the unit price given (none when null). */
function item(source: TenderItem, price: number | null, quantity = source.quantity): JsonObject {
  const unit: JsonObject = { name: source.unit_measurement }
  if (price !== null) unit.value = { amount: price, currency: 'BRL' }
  return { id: String(source.number_item), description: source.description, quantity, unit }
}

/**
 * The awards of a contratação's results (PNCP): one per supplier, in the order of its first result, with the
 * items it won at the unit price homologated, worth their totals, on the day of its last result.
 */
function resultAwards(bidding: BiddingSource, parties: Parties): JsonObject[] {
  const items = new Map(bidding.items.map((i) => [i.number_item, i]))
  const bySupplier = new Map<string, BiddingSource['results']>()
  for (const r of bidding.results) {
    const list = bySupplier.get(r.document)
    if (list) list.push(r)
    else bySupplier.set(r.document, [r])
  }
  return [...bySupplier.values()].map((results, n) => {
    const first = results[0] as BiddingSource['results'][number]
    const days = results.map((r) => r.result_date).filter((d): d is string => d !== null)
    const total = results.reduce((sum, r) => sum + Math.round(Number(r.amount_total) * 100), 0)
    const award: JsonObject = {
      id: `${bidding.id}-result-${n + 1}`,
      title: `Resultado da contratação ${bidding.number}`,
      status: 'active',
    }
    if (days.length > 0) award.date = dayStart(days.sort().at(-1) as string)
    award.value = { amount: total / 100, currency: 'BRL' }
    award.suppliers = [parties.supplier(first.name, first.document, 'supplier')]
    award.items = results.map((r) => {
      const of = items.get(r.number_item) as TenderItem
      return item(of, r.amount, r.quantity)
    })
    return award
  })
}

function arpAward(arp: ArpSource, parties: Parties): JsonObject {
  const award: JsonObject = {
    id: arp.id,
    title: `Ata de registro de preços ${arp.number}`,
    description: arp.object_details,
    status: AWARD_STATUS[arp.management_status as ManagementStatus],
    date: dayStart(arp.date_signature),
    // A PNCP ata says neither its value nor its supplier: the award leaves them out.
    ...(arp.amount_total === null ? {} : { value: value(arp.amount_total) }),
    ...(arp.provider_company_name === null || arp.provider_document === null
      ? {}
      : { suppliers: [parties.supplier(arp.provider_company_name, arp.provider_document, 'supplier')] }),
    contractPeriod: { startDate: dayStart(arp.date_signature), endDate: dayEnd(arp.date_expiration) },
  }
  if (arp.documents.length > 0) award.documents = documents(arp.documents)
  if (arp.terms.length > 0) award.amendments = amendments(arp.terms)
  return award
}

/** The award a contract comes from when no ARP of the process covers it: the award of that contract. */
function contractAward(contract: ContractSource, parties: Parties): JsonObject {
  const status = CONTRACT_STATUS[contract.management_status as ManagementStatus]
  return {
    id: `${contract.id}-award`,
    title: `Adjudicação do contrato ${contract.contract_number}`,
    status: status === 'terminated' ? 'active' : status,
    value: value(contract.amount_total),
    suppliers: [parties.supplier(contract.provider_company_name, contract.provider_document, 'supplier')],
    contractPeriod: { startDate: dayStart(contract.date_start), endDate: dayEnd(contract.date_end) },
  }
}

function contract(source: ContractSource, awardID: string): JsonObject {
  const result: JsonObject = {
    id: source.id,
    awardID,
    title: `Contrato ${source.contract_number}`,
    description: source.object_details,
    status: CONTRACT_STATUS[source.management_status as ManagementStatus],
    period: { startDate: dayStart(source.date_start), endDate: dayEnd(source.date_end) },
    value: value(source.amount_total),
  }
  if (source.documents.length > 0) result.documents = documents(source.documents)
  if (source.orders.length > 0) {
    result.implementation = {
      milestones: source.orders.map((o) => ({
        id: o.number,
        title: `Ordem de fornecimento ${o.number}`,
        type: 'delivery',
        description: o.object,
        dueDate: o.deadline_delivery,
        status: MILESTONE_STATUS[o.status_title as OrderStatus],
        // The milestone-value extension (extension.ts): what the order is worth.
        value: value(o.amount_total),
      })),
    }
  }
  if (source.terms.length > 0) result.amendments = amendments(source.terms)
  return result
}

/** A release's content without its ocid, id, date and tag, in the schema's order. */
export function releaseContent(source: ProcessSource): JsonObject {
  const parties = new Parties()
  const buyer = parties.organ(source.organization.name, source.organization.document)
  const tenderSection = source.bidding ? tender(source.bidding, parties, buyer) : undefined
  const arpIds = new Map(source.arps.map((a) => [a.number, a.id]))
  const awards = source.arps.map((a) => arpAward(a, parties))
  if (source.bidding) awards.push(...resultAwards(source.bidding, parties))
  const contracts = source.contracts.map((c) => {
    const arpId = c.arp_number === null ? undefined : arpIds.get(c.arp_number)
    if (arpId !== undefined) return contract(c, arpId)
    const award = contractAward(c, parties)
    awards.push(award)
    return contract(c, award.id as string)
  })
  const content: JsonObject = { initiationType: 'tender', parties: parties.list(), buyer }
  if (tenderSection) content.tender = tenderSection
  if (awards.length > 0) content.awards = awards
  if (contracts.length > 0) content.contracts = contracts
  content.language = 'pt'
  return content
}

/** The codelist's release tags, in its order: a release's tags are listed in it. */
export const TAGS = [
  'tender',
  'tenderUpdate',
  'tenderCancellation',
  'award',
  'awardUpdate',
  'awardCancellation',
  'contract',
  'contractUpdate',
  'contractAmendment',
  'implementation',
  'implementationUpdate',
  'contractTermination',
] as const

type Tag = (typeof TAGS)[number]

const inOrder = (tags: Set<Tag>) => TAGS.filter((tag) => tags.has(tag))

/** The tags of a process's first release: the stages its content shows. */
export function firstTags(content: JsonObject): Tag[] {
  const tags = new Set<Tag>()
  if (content.tender) tags.add('tender')
  if (content.awards) tags.add('award')
  const contracts = (content.contracts ?? []) as JsonObject[]
  if (contracts.length > 0) tags.add('contract')
  if (contracts.some((c) => c.implementation !== undefined)) tags.add('implementation')
  return inOrder(tags)
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
const byId = (list: unknown) =>
  new Map(((list ?? []) as JsonObject[]).map((item) => [item.id as string, item]))
const without = (item: JsonObject, ...names: string[]) =>
  Object.fromEntries(Object.entries(item).filter(([name]) => !names.includes(name)))

/**
 * The tags of a later release, from what changed since the one before: a new section is its stage (`award`,
 * `contract`, `implementation`), a changed one its update, a cancelled tender or award its cancellation, a
 * new additive term a `contractAmendment`, a contract that ends a `contractTermination`. A change only to the
 * parties (a supplier renamed) updates the latest stage the process shows.
 */
export function changeTags(before: JsonObject, after: JsonObject): Tag[] {
  const tags = new Set<Tag>()
  const tender = {
    before: before.tender as JsonObject | undefined,
    after: after.tender as JsonObject | undefined,
  }
  if (tender.after && !tender.before) tags.add('tender')
  else if (tender.after && !same(tender.before, tender.after))
    tags.add(
      tender.after.status === 'cancelled' && tender.before?.status !== 'cancelled'
        ? 'tenderCancellation'
        : 'tenderUpdate',
    )
  const awards = byId(before.awards)
  for (const award of (after.awards ?? []) as JsonObject[]) {
    const was = awards.get(award.id as string)
    if (!was) tags.add('award')
    else if (!same(was, award))
      tags.add(
        award.status === 'cancelled' && was.status !== 'cancelled' ? 'awardCancellation' : 'awardUpdate',
      )
  }
  const contracts = byId(before.contracts)
  for (const contract of (after.contracts ?? []) as JsonObject[]) {
    const was = contracts.get(contract.id as string)
    if (!was) {
      tags.add('contract')
      if (contract.implementation) tags.add('implementation')
      continue
    }
    if (!same(was.amendments, contract.amendments)) tags.add('contractAmendment')
    if (!same(was.implementation, contract.implementation))
      tags.add(was.implementation ? 'implementationUpdate' : 'implementation')
    if (
      !same(without(was, 'amendments', 'implementation'), without(contract, 'amendments', 'implementation'))
    )
      tags.add(
        contract.status === 'terminated' && was.status !== 'terminated'
          ? 'contractTermination'
          : 'contractUpdate',
      )
  }
  if (tags.size === 0)
    tags.add(after.contracts ? 'contractUpdate' : after.awards ? 'awardUpdate' : 'tenderUpdate')
  return inOrder(tags)
}

/**
 * The content's JSON (without tag) and its hash, and the tags of a first release. The stored release
 * (releases.ts) is its date and tags, then this content; the ocid and the id (the ocid and the version) are
 * joined on output (release()).
 */
export function releaseBody(source: ProcessSource): { hash: string; content: string; tags: string } {
  const built = releaseContent(source)
  const content = JSON.stringify(built)
  return {
    hash: createHash('sha1').update(content).digest('hex').slice(0, 16),
    content,
    tags: JSON.stringify(firstTags(built)),
  }
}

/** A stored tail's content: what follows its date and tags, as the object releaseContent made. */
export function contentOf(tail: string): JsonObject {
  const release = JSON.parse(`{${tail}`) as JsonObject
  delete release.date
  delete release.tag
  return release
}

/** A release's id: its process's ocid and its version, which no other release of the process has. */
export const releaseId = (prefix: string, processId: string, version: number) =>
  `${prefix}-${processId}-${version}`

/** A whole release: the ocid and the id joined to the stored tail. */
export const release = (prefix: string, processId: string, version: number, tail: string) =>
  `{"ocid":"${prefix}-${processId}","id":"${releaseId(prefix, processId, version)}",${tail}`

export type { ProcessKind }

/** What a withdrawal takes out of a process's releases: contracts and ARPs by id, supply orders by number. */
export interface Withdrawn {
  contracts: ReadonlySet<string>
  arps: ReadonlySet<string>
  orders: ReadonlySet<string>
}

/**
 * A release's content without what was withdrawn, as the mapping would have made it without those records: a
 * contract and the award of its own, an ARP's award, an order's milestone (and an implementation left with
 * none), and the parties only they named. A contract that came under a withdrawn ARP gets the award of its
 * own that the mapping gives a contract with no ARP (without suppliers, which the ARP's award named). The
 * content is changed in place.
 */
export function withoutWithdrawn(content: JsonObject, gone: Withdrawn): JsonObject {
  const awards = (content.awards ?? []) as JsonObject[]
  const removedAwards = new Set<string>(gone.arps)
  for (const id of gone.contracts) removedAwards.add(`${id}-award`)
  let contracts = ((content.contracts ?? []) as JsonObject[]).filter(
    (c) => !gone.contracts.has(c.id as string),
  )
  const kept = awards.filter((a) => !removedAwards.has(a.id as string))
  contracts = contracts.map((contract) => {
    const implementation = contract.implementation as { milestones: JsonObject[] } | undefined
    if (implementation) {
      const milestones = implementation.milestones.filter((m) => !gone.orders.has(m.id as string))
      if (milestones.length === 0) delete contract.implementation
      else implementation.milestones = milestones
    }
    if (!removedAwards.has(contract.awardID as string) || !gone.arps.has(contract.awardID as string))
      return contract
    const own: JsonObject = {
      id: `${contract.id}-award`,
      title: `Adjudicação do ${(contract.title as string).replace(/^Contrato/, 'contrato')}`,
    }
    own.status = contract.status === 'terminated' ? 'active' : contract.status
    if (contract.value) own.value = contract.value
    if (contract.period) own.contractPeriod = contract.period
    kept.push(own)
    return { ...contract, awardID: own.id }
  })
  if (kept.length > 0) content.awards = kept
  else delete content.awards
  if (contracts.length > 0) content.contracts = contracts
  else delete content.contracts
  // Each party keeps the roles something still names it in; a party named by nothing left goes.
  const named = new Map<string, Set<string>>()
  const name = (id: unknown, role: string) => {
    const roles = named.get(id as string) ?? new Set<string>()
    roles.add(role)
    named.set(id as string, roles)
  }
  const buyer = content.buyer as JsonObject | undefined
  if (buyer) name(buyer.id, 'buyer')
  const tender = content.tender as JsonObject | undefined
  if (tender?.procuringEntity) name((tender.procuringEntity as JsonObject).id, 'procuringEntity')
  else if (buyer) name(buyer.id, 'procuringEntity')
  for (const tenderer of (tender?.tenderers ?? []) as JsonObject[]) name(tenderer.id, 'tenderer')
  for (const award of kept)
    for (const supplier of (award.suppliers ?? []) as JsonObject[]) name(supplier.id, 'supplier')
  content.parties = ((content.parties ?? []) as (JsonObject & { roles: string[] })[])
    .map((party) => ({
      ...party,
      roles: party.roles.filter((role) => named.get(party.id as string)?.has(role)),
    }))
    .filter((party) => party.roles.length > 0)
  return content
}
