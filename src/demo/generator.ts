import { base, Faker, pt_BR } from '@faker-js/faker'
import {
  BIDDING_MODALITIES,
  BIDDING_STATUSES,
  type BiddingModality,
  MANAGEMENT_STATUSES,
  ORDER_STATUSES,
} from '../domain.js'
import type { ImportLine } from '../resources/index.js'
import {
  ADJUDICATION_MODES,
  CATALOG,
  type Category,
  DELIVERY_PLACES,
  DISPUTE_MODES,
  EXPENSE_TYPES,
  JUDGMENT_CRITERIA,
  PERSON_OFFICES,
  TERM_KINDS,
} from './catalog.js'
import { MUNICIPALITIES, ORGANIZATION_KINDS, UNITS } from './places.js'
import type { DemoCounts } from './scales.js'
import { cnpjFrom, cpfFrom } from './tax-ids.js'

export { type DemoCounts, SCALES, type Scale } from './scales.js'
/** A record as tests read it: any field by name. The generator itself yields typed import lines. */
export type DemoRecord = { type: string } & Record<string, unknown>

/** Modalities of a direct contract (no competition); every other modality is a public call's. */
const DIRECT_MODALITIES: readonly BiddingModality[] = [
  'Dispensa sem Disputa',
  'Dispensa Eletrônica',
  'Inexigibilidade',
  'Adesão',
  'Credenciamento',
]
const CALL_MODALITIES = BIDDING_MODALITIES.filter((m) => !DIRECT_MODALITIES.includes(m))
const PREFIX: Record<string, string> = {
  'Pregão Eletrônico': 'PE',
  'Pregão Presencial': 'PP',
  'Dispensa Eletrônica': 'DE',
}

interface Supplier {
  name: string
  document: string
  representative: string
}
interface Organization {
  uuid: string
  name: string
  city: string
  uf: string
  streets: string[]
}
interface BiddingRef {
  id: string
  number: string
  modality: BiddingModality
  registerPrice: boolean
  category: Category
  process: string
  year: number
}
interface ArpRef {
  number: string
  cents: number
  bidding?: BiddingRef
  supplier: Supplier
  category: Category
}
interface ContractRef {
  number: string
  cents: number
  modality: BiddingModality
  biddingNumber: string | null
  process: string | null
  supplier: Supplier
  category: Category
  arp?: ArpRef
}

/** Splits total over n buckets as evenly as possible: bucket i gets its share. */
function share(total: number, n: number, i: number): number {
  return Math.floor(total / n) + (i < total % n ? 1 : 0)
}

const money = (cents: number) => (cents / 100).toFixed(2)

/**
 * Realistic demo records in the import format, deterministic for a seed. Records of one organization
 * come together, and every link (order → contract/ARP, contract → ARP/bidding, ARP → bidding) points to
 * a record of the same organization emitted before it.
 */
export function* generateDemo(counts: DemoCounts, seed = 1): Generator<ImportLine> {
  const faker = new Faker({ locale: [pt_BR, base], seed })
  // Prices are shaped by a stream of their own (outliers, sales by the box), so the other records of a seed
  // stay what they were.
  const prices = new Faker({ locale: [base], seed: seed + 7919 })
  const int = (min: number, max: number) => faker.number.int({ min, max })
  const pick = <T>(values: readonly T[]): T => values[int(0, values.length - 1)] as T
  const chance = (p: number) => faker.number.float({ min: 0, max: 1 }) < p
  const digits = (n: number) => Array.from({ length: n }, () => int(0, 9))
  const uuid = () => faker.string.uuid()
  const day = (from: string, to: string) => faker.date.between({ from, to }).toISOString().slice(0, 10)
  const addDays = (date: string, days: number) =>
    new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
  /** ISO 8601 UTC with six fractional digits, as the order query serves timestamps. */
  const instant = (from: string, to: string) =>
    `${faker.date.between({ from, to }).toISOString().slice(0, 19)}.${String(int(0, 999_999)).padStart(6, '0')}Z`
  /** Attached files of a record. */
  const attachments = (n: number, what: string, id: string) =>
    Array.from({ length: n }, (_, i) => {
      const docUuid = uuid()
      const name = `${what}-${i + 1}.pdf`
      return { uuid: docUuid, name, url: `https://arquivos.example.org/${id}/${docUuid}/${name}` }
    })
  const person = (role: string) => ({
    role,
    name: faker.person.fullName(),
    cpf: cpfFrom(digits(9)),
    office: pick(PERSON_OFFICES),
  })

  const supplierPool: Supplier[] = Array.from(
    { length: Math.max(20, Math.min(5000, counts.organizations * 20)) },
    () => {
      const individual = chance(0.1)
      const representative = faker.person.fullName()
      return individual
        ? { name: representative, document: cpfFrom(digits(9)), representative }
        : { name: faker.company.name(), document: cnpjFrom([...digits(8), 0, 0, 0, 1]), representative }
    },
  )

  let directTurn = 0
  let callTurn = 0
  for (let o = 0; o < counts.organizations; o++) {
    const [city, uf] = MUNICIPALITIES[o % MUNICIPALITIES.length] as readonly [string, string]
    const kind = ORGANIZATION_KINDS[
      Math.floor(o / MUNICIPALITIES.length) % ORGANIZATION_KINDS.length
    ] as string
    const org: Organization = {
      uuid: uuid(),
      name: `${kind} ${city}`,
      city,
      uf,
      streets: Array.from(
        { length: 3 },
        () => `${faker.location.street()}, ${faker.location.buildingNumber()}`,
      ),
    }
    yield {
      type: 'organization',
      uuid: org.uuid,
      name: org.name,
      document: cnpjFrom([...digits(8), 0, 0, 0, 1]),
    }
    const units = UNITS.slice(0, 4 + (o % 7))
    const suppliers = Array.from({ length: 12 }, () => pick(supplierPool))

    const biddings: BiddingRef[] = []
    const nDirect = share(counts.directContracts, counts.organizations, o)
    const nCalls = share(counts.publicCalls, counts.organizations, o)
    for (let b = 0; b < nDirect + nCalls; b++) {
      const direct = b < nDirect
      // Cycle through the modalities so that even the small scale shows all twenty.
      const modality = direct
        ? (DIRECT_MODALITIES[directTurn++ % DIRECT_MODALITIES.length] as BiddingModality)
        : (CALL_MODALITIES[callTurn++ % CALL_MODALITIES.length] as BiddingModality)
      const year = int(2023, 2026)
      const category = pick(CATALOG)
      const unit = pick(units)
      const id = uuid()
      const number = `${PREFIX[modality] ?? (direct ? 'DISP' : 'LIC')} ${b + 1}/${year}`
      const registerPrice = !direct && chance(0.5)
      const estimated = int(5_000_00, 2_000_000_00)
      const status = pick(BIDDING_STATUSES)
      const finished = ['Adjudicado', 'Homologado', 'Concluído'].includes(status)
      const ref: BiddingRef = {
        id,
        number,
        modality,
        registerPrice,
        category,
        process: `${int(1000, 9999)}/${year}`,
        year,
      }
      biddings.push(ref)
      const electronic = modality.includes('Eletrônic')
      yield {
        type: direct ? 'direct_contract' : 'public_call',
        organization_uuid: org.uuid,
        id,
        number,
        modality,
        budget_secret: !direct && chance(0.3),
        status,
        register_price: registerPrice,
        opening_date: direct && chance(0.3) ? null : instant(`${year}-01-01`, `${year}-12-31`),
        object_details: category.object.replace('{unit}', unit[0]),
        company_name: org.name,
        electronic_dispute_mode: electronic ? pick(DISPUTE_MODES) : null,
        adjudication_mode: direct ? null : pick(ADJUDICATION_MODES),
        judgment_criteria: direct ? null : pick(JUDGMENT_CRITERIA),
        competent_authority: faker.person.fullName(),
        agent: direct ? null : faker.person.fullName(),
        type_range_bids: electronic ? pick(['Percentual', 'Valor']) : null,
        range_bids: electronic ? pick(['0.50', '1.00', '10.00']) : null,
        sum_amount_total: money(estimated),
        precision: 2,
        sum_amount_total_finish: finished
          ? money(Math.round(estimated * (0.7 + 0.25 * faker.number.float())))
          : null,
        documents: attachments(int(1, 3), direct ? 'termo-de-dispensa' : 'edital', id),
        providers: Array.from({ length: direct ? 1 : int(1, 4) }, () => {
          const s = pick(suppliers)
          return {
            name: s.name,
            document: s.document,
            representative_name: chance(0.8) ? s.representative : null,
          }
        }),
      }
    }

    const arps: ArpRef[] = []
    const withPrices = biddings.filter((b) => b.registerPrice)
    const nArps = share(counts.arps, counts.organizations, o)
    for (let a = 0; a < nArps; a++) {
      const bidding = withPrices.length > 0 && chance(0.9) ? pick(withPrices) : undefined
      const category = bidding?.category ?? pick(CATALOG)
      const supplier = pick(suppliers)
      const year = bidding?.year ?? int(2023, 2026)
      const id = uuid()
      const signature = day(`${year}-01-01`, `${year}-12-31`)
      const cents = int(10_000_00, 1_500_000_00)
      const ref: ArpRef = { number: `ARP ${a + 1}/${year}`, cents, bidding, supplier, category }
      arps.push(ref)
      yield {
        type: 'arp',
        organization_uuid: org.uuid,
        id,
        bidding_uuid: bidding?.id ?? null,
        number: ref.number,
        object_details:
          `Registro de preços para ${category.object.charAt(0).toLowerCase()}${category.object.slice(1)}`.replace(
            '{unit}',
            pick(units)[0],
          ),
        amount_total: money(cents),
        company_name: org.name,
        provider_company_name: supplier.name,
        provider_document: supplier.document,
        provider_representative_name: supplier.representative,
        bidding_modality: bidding?.modality ?? 'Pregão Eletrônico',
        bidding_number: bidding?.number ?? null,
        date_signature: signature,
        date_expiration: addDays(signature, 364),
        management_status: pick(MANAGEMENT_STATUSES),
        documents: attachments(int(1, 2), 'ata', id),
        terms: chance(0.2) ? terms(id, signature, cents) : [],
      }
    }

    const contracts: ContractRef[] = []
    const nContracts = share(counts.contracts, counts.organizations, o)
    for (let c = 0; c < nContracts; c++) {
      const arp = arps.length > 0 && chance(0.4) ? pick(arps) : undefined
      const bidding = arp?.bidding ?? (biddings.length > 0 && chance(0.8) ? pick(biddings) : undefined)
      const supplier = arp?.supplier ?? pick(suppliers)
      const category = arp?.category ?? bidding?.category ?? pick(CATALOG)
      const year = bidding?.year ?? int(2023, 2026)
      const start = day(`${year}-01-01`, `${year}-12-31`)
      const cents = arp
        ? Math.round(arp.cents * (0.1 + 0.4 * faker.number.float()))
        : int(5_000_00, 3_000_000_00)
      const id = uuid()
      const ref: ContractRef = {
        number: `${c + 1}/${year}`,
        cents,
        modality: bidding?.modality ?? 'Dispensa sem Disputa',
        biddingNumber: bidding?.number ?? null,
        process: bidding?.process ?? null,
        supplier,
        category,
        arp,
      }
      contracts.push(ref)
      yield {
        type: 'contract',
        organization_uuid: org.uuid,
        id,
        bidding_uuid: bidding?.id ?? null,
        arp_number: arp?.number ?? null,
        contract_number: ref.number,
        object_details: category.object.replace('{unit}', pick(units)[0]),
        amount_total: money(cents),
        provider_company_name: supplier.name,
        provider_document: supplier.document,
        contractor_company_name: org.name,
        managers: [person('Gestor do contrato')],
        inspectors: Array.from({ length: int(1, 2) }, (_, i) =>
          person(i === 0 ? 'Fiscal titular' : 'Fiscal suplente'),
        ),
        commitments: Array.from({ length: int(1, 3) }, (_, i) => ({
          year,
          number: `${int(100, 9999)}/${year}`,
          emission_date: addDays(start, i * 30),
          description: `Empenho ${i === 0 ? 'inicial' : 'complementar'} referente ao contrato ${ref.number}`,
          value: money(Math.round(cents / (i + 2))),
          expense_account_code: category.expense.split(' - ')[0] as string,
          expense_account_name: category.expense.split(' - ').slice(1).join(' - '),
        })),
        bidding_modality: ref.modality,
        term_title: `Contrato nº ${ref.number}`,
        bidding_number: ref.biddingNumber,
        date_start: start,
        date_end: addDays(start, pick([90, 180, 365, 730])),
        management_status: pick(MANAGEMENT_STATUSES),
        documents: attachments(int(1, 3), 'contrato', id),
        terms: chance(0.3) ? terms(id, start, cents) : [],
      }
    }

    const nOrders = share(counts.orders, counts.organizations, o)
    for (let n = 0; n < nOrders; n++) {
      const roll = faker.number.float()
      const contract = contracts.length > 0 && roll < 0.6 ? pick(contracts) : undefined
      const arp = contract?.arp ?? (arps.length > 0 && roll >= 0.6 && roll < 0.85 ? pick(arps) : undefined)
      const supplier = contract?.supplier ?? arp?.supplier ?? pick(suppliers)
      const category = contract?.category ?? arp?.category ?? pick(CATALOG)
      const unit = pick(units)
      const year = int(2023, 2026)
      const status = pick(ORDER_STATUSES)
      const deadline = instant(`${year}-01-01`, `${year}-12-31`)
      const itemCount = counts.itemsPerOrder ?? int(1, 9)
      let totalCents = 0
      const items = Array.from({ length: itemCount }, (_, i) => {
        const product = pick(category.products)
        let quantity = int(1, product.maxCents > 100_000 ? 20 : 500)
        let cents = int(product.minCents, product.maxCents)
        let unitOf = product.unit
        // A few prices far above the rest, as a price research must set aside; some sales by the box.
        if (prices.number.float() < 0.02) cents *= prices.number.int({ min: 3, max: 6 })
        if (product.box && prices.number.float() < 0.3) {
          unitOf = 'CX'
          cents = Math.round(cents * product.box * 0.9)
          quantity = Math.max(1, Math.round(quantity / product.box))
        }
        totalCents += quantity * cents
        return {
          number_item: String(i + 1),
          description: product.description,
          brand: pick(product.brands),
          unit_measurement: unitOf,
          quantity,
          amount: cents / 100,
          amount_total: (quantity * cents) / 100,
        }
      })
      const invoiced = status !== 'Emitida' && chance(0.85)
      yield {
        type: 'order',
        organization_uuid: org.uuid,
        number: `${String(n + 1).padStart(6, '0')}/${year}`,
        unity_name: unit[0],
        unity_name_short: unit[1],
        object: category.object.replace('{unit}', unit[0]),
        process_number: contract?.process ?? (chance(0.7) ? `${int(1000, 9999)}/${year}` : null),
        bidding_number: contract?.biddingNumber ?? arp?.bidding?.number ?? null,
        modality_name: contract?.modality ?? arp?.bidding?.modality ?? pick(DIRECT_MODALITIES),
        status_title: status,
        provider_name: supplier.name,
        provider_document: supplier.document,
        representative_name: supplier.representative,
        arp_number: arp?.number ?? null,
        contract_number: contract?.number ?? null,
        expense_classification_title: category.expense,
        expense_type_title: pick(EXPENSE_TYPES),
        location_delivery: pick(DELIVERY_PLACES)
          .replace('{unit}', unit[0])
          .replace('{street}', pick(org.streets))
          .replace('{city}', org.city)
          .replace('{uf}', org.uf),
        deadline_delivery: deadline,
        invoice_number: invoiced ? String(int(1000, 999_999)) : null,
        invoice_issue_date: invoiced ? instant(`${year}-01-01`, `${deadline.slice(0, 19)}Z`) : null,
        amount_total: totalCents / 100,
        items,
      }
    }
  }

  function terms(ownerId: string, from: string, cents: number) {
    return Array.from({ length: int(1, 2) }, (_, i) => {
      const kind = pick(TERM_KINDS)
      const signature = addDays(from, 120 * (i + 1))
      const changesDates = kind.includes('prazo')
      const changesValue = kind.includes('valor')
      return {
        number: `${i + 1}º Termo Aditivo`,
        kind,
        description: `${kind} ao instrumento, conforme justificativa nos autos`,
        signature_date: signature,
        date_start: changesDates ? signature : null,
        date_end: changesDates ? addDays(signature, 365) : null,
        value: changesValue ? money(Math.round(cents * 0.25)) : null,
        documents: attachments(1, `termo-aditivo-${i + 1}`, ownerId),
      }
    })
  }
}
