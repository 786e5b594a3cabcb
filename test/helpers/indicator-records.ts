import type { DemoRecord } from '../../src/demo/generator.js'
import { cnpjFrom, cpfFrom } from '../../src/demo/tax-ids.js'
import { demoRecords, first, TINY } from './records.js'

// Records for the integrity indicators' tests (test/transparency/indicators.test.ts, test/indicators/), each
// built from a demo record of its type with only what a rule reads set: organizations, suppliers, direct
// contracts, contracts with additive terms, public calls with items and results, and supply orders of one item.
// Each builder names its record anew (a serial number) unless the caller gives `id` or `number`.

const demo = demoRecords(TINY, 11)
let serial = 0

/** A UUID of a prefix and a number, readable in a failure. */
export const uuid = (prefix: string, n: number) =>
  `${prefix}000000-0000-4000-8000-${String(n).padStart(12, '0')}`

export const org = (n: number): DemoRecord => ({
  type: 'organization',
  uuid: uuid('0a', n),
  name: `Órgão ${n}`,
  document: cnpjFrom([9, 9, 0, 0, 0, Math.floor(n / 100) % 10, Math.floor(n / 10) % 10, n % 10, 0, 0, 0, 1]),
})

export const supplier = (n: number, name = `Fornecedor ${n} Ltda`) => ({
  document: cnpjFrom([7, 7, 1, 1, 0, 0, 0, n, 0, 0, 0, 1]),
  name,
})
export type Supplier = ReturnType<typeof supplier>

/** A person who supplies: a CPF, masked on every public face. */
export const person: Supplier = { document: cpfFrom([3, 3, 3, 4, 4, 4, 5, 5, 5]), name: 'Ana Souza' }

const providing = (providers: readonly Supplier[]) =>
  providers.map((p) => ({ name: p.name, document: p.document, representative_name: null }))

export const direct = (
  organization: DemoRecord,
  value: string,
  opening: string,
  providers: readonly Supplier[],
  extra: Partial<DemoRecord> = {},
): DemoRecord => ({
  ...first(demo, 'direct_contract'),
  id: uuid('dc', ++serial),
  organization_uuid: organization.uuid,
  number: `DISP ${serial}/2025`,
  modality: 'Dispensa sem Disputa',
  status: 'Adjudicado',
  opening_date: opening,
  sum_amount_total: value,
  sum_amount_total_finish: null,
  providers: providing(providers),
  ...extra,
})

export const contract = (
  organization: DemoRecord,
  amount: string,
  start: string,
  who: Supplier,
  extra: Partial<DemoRecord> = {},
): DemoRecord => ({
  ...first(demo, 'contract'),
  id: uuid('cc', ++serial),
  organization_uuid: organization.uuid,
  contract_number: `C${serial}/${start.slice(0, 4)}`,
  bidding_uuid: null,
  arp_number: null,
  bidding_modality: 'Pregão Eletrônico',
  provider_document: who.document,
  provider_company_name: who.name,
  amount_total: amount,
  date_start: start,
  terms: [],
  ...extra,
})

export const term = (value: string | null, description = 'Acréscimo de quantitativos') => ({
  number: `${++serial}º Termo Aditivo`,
  kind: 'Termo Aditivo',
  description,
  signature_date: '2025-05-01',
  date_start: null,
  date_end: null,
  value,
  documents: [],
})

export const call = (
  organization: DemoRecord,
  providers: readonly Supplier[],
  extra: Partial<DemoRecord> = {},
): DemoRecord => ({
  ...first(demo, 'public_call'),
  id: uuid('bc', ++serial),
  organization_uuid: organization.uuid,
  number: `PE ${serial}/2025`,
  modality: 'Pregão Eletrônico',
  status: 'Homologado',
  opening_date: '2025-03-03T12:00:00.000000Z',
  judgment_criteria: 'Menor preço',
  sum_amount_total: '90000.00',
  sum_amount_total_finish: '80000.00',
  providers: providing(providers),
  ...extra,
})

export const item = (n: number) => ({
  number_item: n,
  description: `Item ${n}`,
  unit_measurement: 'UN',
  quantity: 1,
  estimated_amount: 10,
  estimated_total: '10.00',
})

/** A supply order of one item, under no contract or ARP unless `extra` says so. */
export const order = (
  organization: DemoRecord,
  description: string,
  unit: string,
  amount: number,
  who: Supplier,
  day = '2025-04-01T12:00:00.000000Z',
  extra: Partial<DemoRecord> = {},
): DemoRecord => ({
  ...first(demo, 'order'),
  organization_uuid: organization.uuid,
  number: `OF ${++serial}/2025`,
  bidding_number: null,
  arp_number: null,
  contract_number: null,
  provider_document: who.document,
  provider_name: who.name,
  deadline_delivery: day,
  amount_total: amount,
  items: [
    {
      number_item: '1',
      description,
      brand: 'Marca',
      unit_measurement: unit,
      quantity: 1,
      amount,
      amount_total: amount,
    },
  ],
  ...extra,
})
