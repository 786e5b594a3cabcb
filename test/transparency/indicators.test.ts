import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import fc from 'fast-check'
import type { DemoRecord } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { INDICATOR_CODES } from '../../src/indicators/indicators.js'
import { DIRECT_AWARD_LIMITS } from '../../src/indicators/limits.js'
import { projectIndicators } from '../../src/indicators/project.js'
import { serving } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { eventually } from '../helpers/http.js'
import {
  call,
  contract,
  direct,
  item,
  order,
  org,
  person,
  type Supplier,
  supplier,
  term,
  uuid,
} from '../helpers/indicator-records.js'
import { ndjson, source } from '../helpers/records.js'

// The integrity indicators (issue 69), each on records whose flags are worked out by hand: both sides of every
// threshold (at the limit, a cent under, a cent over), a year turning in Brasília before it turns in UTC, a
// withdrawn record, an organization with no direct contract. docs/indicators.md gives the rules.

type Six = [DemoRecord, DemoRecord, DemoRecord, DemoRecord, DemoRecord, DemoRecord]
const [A, B, C, D, E, F] = [1, 2, 3, 4, 5, 6].map(org) as Six
const G = Array.from({ length: 10 }, (_, k) => org(10 + k))
const [X, Y, Z, W] = [1, 2, 3, 4].map((n) => supplier(n)) as [Supplier, Supplier, Supplier, Supplier]

// BR-LIMITE-DISPENSA, organization A (its suppliers apart, so that none adds up past the limit, R011, nor holds
// half, R050). Art. 75, II in 2025: R$ 62.725,59; its 90%, in cents: R$ 56.453,03.
const atLimit = direct(A, '62725.59', '2025-06-02T15:00:00.000000Z', [X])
const overLimit = direct(A, '62725.60', '2025-06-03T15:00:00.000000Z', [X])
const atNinety = direct(A, '56453.03', '2025-06-04T15:00:00.000000Z', [Y])
const underNinety = direct(A, '56453.02', '2025-06-05T15:00:00.000000Z', [Z])
// 23:30 in Brasília on 31 December 2025 is 2026 in UTC: the year is 2025's, whose limit R$ 65.000,00 passes.
const lastEvening = direct(A, '65000.00', '2026-01-01T02:30:00.000000Z', [Y])
// 00:30 in Brasília on 1 January 2026: 2026's limit, R$ 65.492,11, whose 90% R$ 65.000,00 reaches.
const firstMorning = direct(A, '65000.00', '2026-01-01T03:30:00.000000Z', [Y])
// Works (art. 75, I, by its legal basis): R$ 125.451,15 in 2025.
const works = direct(A, '120000.00', '2025-07-01T15:00:00.000000Z', [Z], {
  legal_basis: 'Lei 14.133/2021, Art. 75, I',
})
// Not by value: an emergency (art. 75, VIII), and an Inexigibilidade without a legal basis.
const emergency = direct(A, '62000.00', '2025-07-02T15:00:00.000000Z', [W], {
  legal_basis: 'Lei 14.133/2021, Art. 75, VIII',
})
const unique = direct(A, '62000.00', '2025-07-03T15:00:00.000000Z', [Z], { modality: 'Inexigibilidade' })
// Under Lei 8.666: before the law's day.
const older = direct(A, '60000.00', '2021-03-01T15:00:00.000000Z', [Z])

// R011, organization B: three to Y that add up past the limit; two to Z exactly at it; two to W a cent past it.
const splitY = [
  direct(B, '30000.00', '2025-02-01T15:00:00.000000Z', [Y]),
  direct(B, '20000.00', '2025-05-01T15:00:00.000000Z', [Y]),
  direct(B, '15000.00', '2025-09-01T15:00:00.000000Z', [Y]),
]
const splitZ = [
  direct(B, '31362.79', '2025-02-02T15:00:00.000000Z', [Z]),
  direct(B, '31362.80', '2025-02-03T15:00:00.000000Z', [Z]),
]
const splitW = [
  direct(B, '31362.80', '2025-02-04T15:00:00.000000Z', [W]),
  direct(B, '31362.80', '2025-02-05T15:00:00.000000Z', [W]),
]

// BR-ADITIVO-25, organization C: 25% exactly; a cent past it; a reform at 40% and a cent past 50%.
const quarter = contract(C, '1000.00', '2025-01-10', X, { terms: [term('250.00')] })
const pastQuarter = contract(C, '1000.00', '2025-01-11', X, { terms: [term('150.00'), term('100.01')] })
const reform = contract(C, '1000.00', '2025-01-12', X, {
  terms: [term('400.00', 'Reforma do edifício-sede')],
})
const pastReform = contract(C, '1000.00', '2025-01-13', X, {
  terms: [term('500.01', 'Reforma do edifício-sede'), term(null, 'Apostilamento')],
})

// R018, organization C: one provider; two; one but still in dispute; one in a call for registration; one of one item.
const single = call(C, [X])
const two = call(C, [X, Y])
const disputing = call(C, [X], { status: 'Em disputa' })
const registration = call(C, [X], { modality: 'Credenciamento' })
const oneItem = call(C, [X], { items: [item(1)] })
const twoItems = call(C, [X], { items: [item(1), item(2)] })

// BR-PRAZO-PROPOSTA, organization C (its calls have several providers, so R018 stays apart). Opening on Monday
// 3 March 2025: to Wednesday 12 is 7 working days, to Thursday 13 is 8; by technique and price, 35 are needed.
const period = (closing: string, criterion = 'Menor preço') =>
  call(C, [X, Y], {
    opening_date: '2025-03-03T12:00:00.000000Z',
    closing_date: closing,
    judgment_criteria: criterion,
  })
const seven = period('2025-03-12T20:00:00.000000Z')
const eight = period('2025-03-13T20:00:00.000000Z')
const technique = period('2025-04-14T20:00:00.000000Z', 'Técnica e preço')

// R050: in D, X holds 600 of 999.99 over five commitments; in E, exactly half; in F, 90% of four commitments.
const concentrated = [
  contract(D, '600.00', '2025-03-01', X),
  contract(D, '100.00', '2025-03-02', Y),
  contract(D, '100.00', '2025-03-03', Z),
  contract(D, '100.00', '2025-03-04', W),
  contract(D, '99.99', '2025-03-05', person),
]
const half = [
  contract(E, '500.00', '2025-03-01', X),
  ...[Y, Z, W, person].map((who, k) => contract(E, '125.00', `2025-03-0${k + 2}`, who)),
]
const few = [
  contract(F, '900.00', '2025-03-01', X),
  ...[Y, Z, W].map((who, k) => contract(F, '33.33', `2025-03-0${k + 2}`, who)),
]

// R013 and R051 in 2024, ten organizations of five contracts of R$ 100,00. Direct shares: 0, six of 0.2, two of
// 0.4, and G9's 1.0: Q1 0.2, Q3 0.35, fence 0.575. Herfindahl: nine of 0.2 (five suppliers), G9's 1.0 (one).
const DIRECT_CONTRACTS = [0, 1, 1, 1, 1, 1, 1, 2, 2, 5]
const fenced = G.flatMap((organization, k) =>
  [X, Y, Z, W, person].map((who, n) =>
    contract(organization, '100.00', `2024-04-0${n + 1}`, k === 9 ? X : who, {
      bidding_modality: n < (DIRECT_CONTRACTS[k] as number) ? 'Dispensa sem Disputa' : 'Pregão Eletrônico',
    }),
  ),
)

// R017, organization H, eleven prices a description and unit, one a supply order each: 1 to 10, and the top one.
// Sorted, Q1 is 3.50 and Q3 8.50 (interpolated at ranks 3.5 and 8.5), so the fence is 8.50 + 1.5 × 5.00 = 16.00.
// Lápis: the top price 16.00, at the fence. Borracha: 16.01, a cent past it, a PNCP result of a call of C (its
// units written UN, Unidade and und., one unit). Clipe: 16.01, an order under no contract or ARP. Régua: nine
// prices, too few, whatever the last.
const H = org(7)
const sellers = [X, Y, Z, W, person]
const seller = (k: number) => sellers[k % sellers.length] as Supplier
const ten = (description: string, units = ['UN']) =>
  Array.from({ length: 10 }, (_, k) =>
    order(H, description, units[k % units.length] as string, k + 1, seller(k)),
  )
const pencils = [...ten('Lápis preto nº 2'), order(H, 'Lápis preto nº 2', 'UN', 16, X)]
const erasers = ten('Borracha branca', ['UN', 'Unidade', 'und.'])
const erasersCall = call(C, [X, Y], {
  items: [{ ...item(1), description: 'Borracha branca', unit_measurement: 'UN' }, item(2)],
  results: [
    {
      number_item: 1,
      name: X.name,
      document: X.document,
      quantity: 1,
      amount: 16.01,
      amount_total: '16.01',
      discount: null,
      result_date: '2025-05-02',
    },
  ],
})
const clips = [...ten('Clipe niquelado 2/0'), order(H, 'Clipe niquelado 2/0', 'UN', 16.01, Y)]
const rulers = [
  ...Array.from({ length: 8 }, (_, k) => order(H, 'Régua 30 cm', 'UN', k + 1, seller(k))),
  order(H, 'Régua 30 cm', 'UN', 100, Z),
]

const records: DemoRecord[] = [
  A,
  B,
  C,
  D,
  E,
  F,
  ...G,
  atLimit,
  overLimit,
  atNinety,
  underNinety,
  lastEvening,
  firstMorning,
  works,
  emergency,
  unique,
  older,
  ...splitY,
  ...splitZ,
  ...splitW,
  quarter,
  pastQuarter,
  reform,
  pastReform,
  single,
  two,
  disputing,
  registration,
  oneItem,
  twoItems,
  seven,
  eight,
  technique,
  ...concentrated,
  ...half,
  ...few,
  ...fenced,
  H,
  ...pencils,
  ...erasers,
  erasersCall,
  ...clips,
  ...rulers,
]

interface Flag {
  code: string
  title: string
  reason: string
  year: number
  organization_uuid: string
  organization_name: string
  providers: { document: string; name: string }[]
  figures: Record<string, string | number>
  records: { kind: string; id: string; link: string }[]
}

describe('integrity indicators, each on both sides of its threshold', () => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof serving>>
  const answer = async (path: string) => {
    const response = await fetch(server.base + path)
    return { status: response.status, body: (await response.json()) as { message: string; data: unknown } }
  }
  /** Every flag the API gives for the query, read by cursor to the end. */
  const flags = async (query = '') => {
    const all: Flag[] = []
    let cursor: string | null = null
    for (let page = 0; page < 100; page++) {
      const { status, body } = await answer(
        `/v1/transparency/indicators?per_page=7${query}${cursor ? `&cursor=${cursor}` : ''}`,
      )
      assert.equal(status, 200, body.message)
      const data = body.data as { data: Flag[]; next_cursor: string | null; has_more: boolean }
      all.push(...data.data)
      if (!data.has_more) return all
      cursor = data.next_cursor
    }
    throw new Error('more than 100 pages of flags')
  }
  const ids = (list: Flag[], code: string) =>
    list.filter((f) => f.code === code).map((f) => f.records.map((r) => r.id).join(' '))

  before(async () => {
    db = await seededDatabase(records)
    server = await serving(db)
  })
  after(async () => {
    await server?.close()
    await db?.drop()
  })

  it('flags a direct contract by value from 90% of the limit in force, in cents, up to the limit', async () => {
    const all = await flags('&code=BR-LIMITE-DISPENSA')
    assert.deepEqual(
      ids(all, 'BR-LIMITE-DISPENSA').sort(),
      [atLimit.id, atNinety.id, firstMorning.id, works.id].sort(),
    )
    const at = all.find((f) => f.records[0]?.id === atLimit.id) as Flag
    assert.equal(
      at.reason,
      'Dispensa de R$ 62.725,59, 100,0% do limite de R$ 62.725,59 do art. 75, II em 2025 (Decreto 12.343/2024).',
    )
    assert.deepEqual(at.figures, {
      value: '62725.59',
      limit: '62725.59',
      share: 1,
      inciso: 'II',
      year: 2025,
      act: 'Decreto 12.343/2024',
    })
    assert.deepEqual(at.providers, [X])
    assert.deepEqual(at.records, [
      { kind: 'direct-contracts', id: atLimit.id, link: `/v1/transparency/direct-contracts/${atLimit.id}` },
    ])
    const morning = all.find((f) => f.records[0]?.id === firstMorning.id) as Flag
    assert.equal(morning.year, 2026)
    assert.equal(morning.figures.limit, '65492.11')
    const engineering = all.find((f) => f.records[0]?.id === works.id) as Flag
    assert.equal(engineering.figures.inciso, 'I')
    assert.equal(engineering.figures.limit, '125451.15')
    // The link answers: the flagged record is there.
    assert.equal((await answer(at.records[0]?.link as string)).status, 200)
  })

  it('flags direct contracts by value to one supplier in a year that add up past the limit, each under it', async () => {
    const all = await flags('&code=R011')
    assert.deepEqual(
      ids(all, 'R011').sort(),
      [splitY, splitW].map((group) => group.map((d) => d.id).join(' ')).sort(),
    )
    const y = all.find((f) => f.providers[0]?.document === Y.document) as Flag
    assert.deepEqual(y.figures, {
      total: '65000.00',
      limit: '62725.59',
      count: 3,
      largest: '30000.00',
      inciso: 'II',
      year: 2025,
      act: 'Decreto 12.343/2024',
    })
    assert.equal(
      y.reason,
      '3 dispensas por valor ao mesmo fornecedor em 2025 somam R$ 65.000,00, acima do limite de R$ 62.725,59 do ' +
        'art. 75, II, embora cada uma esteja abaixo dele (a maior: R$ 30.000,00).',
    )
    assert.equal(y.organization_uuid, B.uuid)
  })

  it('flags a contract whose additive terms add more than art. 125 allows, 50% for a reform', async () => {
    const all = await flags('&code=BR-ADITIVO-25')
    assert.deepEqual(ids(all, 'BR-ADITIVO-25').sort(), [pastQuarter.id, pastReform.id].sort())
    const quarterPast = all.find((f) => f.records[0]?.id === pastQuarter.id) as Flag
    assert.equal(
      quarterPast.reason,
      'Os 2 termos aditivos acrescentam R$ 250,01, 25,001% do valor inicial de R$ 1.000,00, acima dos 25,0% do art. 125.',
    )
    const reformPast = all.find((f) => f.records[0]?.id === pastReform.id) as Flag
    assert.equal(reformPast.figures.allowed, 0.5)
    assert.equal(reformPast.figures.terms, 1, 'a term that adds nothing is not counted')
  })

  it('flags a competitive call concluded with one provider, unless it had one item', async () => {
    const all = await flags('&code=R018')
    assert.deepEqual(ids(all, 'R018').sort(), [single.id, twoItems.id].sort())
    const items = all.find((f) => f.records[0]?.id === twoItems.id) as Flag
    assert.equal(
      items.reason,
      'Licitação competitiva de 2 itens, de R$ 80.000,00, concluída com um só fornecedor para todos.',
    )
  })

  it('flags a call whose proposal period is shorter than art. 55 allows, in working days', async () => {
    const all = await flags('&code=BR-PRAZO-PROPOSTA')
    assert.deepEqual(ids(all, 'BR-PRAZO-PROPOSTA').sort(), [seven.id, technique.id].sort())
    const short = all.find((f) => f.records[0]?.id === seven.id) as Flag
    assert.deepEqual(short.figures, {
      working_days: 7,
      minimum: 8,
      opening: '2025-03-03',
      closing: '2025-03-12',
    })
    assert.equal(
      short.reason,
      'Propostas recebidas de 03/03/2025 a 12/03/2025: 7 dias úteis, menos que os 8 do art. 55.',
    )
    const slow = all.find((f) => f.records[0]?.id === technique.id) as Flag
    assert.equal(slow.figures.minimum, 35)
  })

  it("flags a supplier holding more than half of an organization's year, of five commitments or more", async () => {
    const all = await flags('&code=R050')
    const found = all.map((f) => [f.organization_uuid, f.year, f.providers.map((p) => p.document).join()])
    assert.deepEqual(found, [
      [D.uuid, 2025, X.document],
      [G[9]?.uuid, 2024, X.document],
    ])
    const d = all[0] as Flag
    assert.deepEqual(d.figures, {
      supplier_value: '600.00',
      committed: '999.99',
      share: 0.600006,
      commitments: 5,
      year: 2025,
    })
  })

  it('flags the organizations above the fence of their year: direct contracting, and concentration', async () => {
    const direct = await flags('&code=R013')
    assert.deepEqual(
      direct.map((f) => [f.organization_uuid, f.year]),
      [[G[9]?.uuid, 2024]],
    )
    assert.deepEqual(direct[0]?.figures, {
      direct_share: 1,
      fence: 0.575,
      median: 0.2,
      q1: 0.2,
      q3: 0.35,
      organizations: 10,
      committed: '500.00',
    })
    assert.equal(
      direct[0]?.reason,
      '100,0% do valor contratado pelo órgão no ano foi por contratação direta, acima da cerca de 57,5% entre 10 ' +
        'órgãos (mediana: 20,0%).',
    )
    const concentration = await flags('&code=R051')
    assert.deepEqual(
      concentration.map((f) => [f.organization_uuid, f.year, f.figures.hhi, f.figures.fence]),
      [[G[9]?.uuid, 2024, 1, 0.2]],
    )
  })

  it("flags a unit price above its description's fence among ten prices or more, from orders and results", async () => {
    const all = await flags('&code=R017')
    assert.deepEqual(all.map((f) => f.figures.description).sort(), ['Borracha branca', 'Clipe niquelado 2/0'])
    const result = all.find((f) => f.figures.source === 'result') as Flag
    assert.deepEqual(result.figures, {
      amount: '16.01',
      unit: 'UN',
      description: 'Borracha branca',
      source: 'result',
      prices: 11,
      q1: '3.50',
      median: '6.00',
      q3: '8.50',
      fence: '16.00',
      ratio: 2.668333,
    })
    assert.equal(
      result.reason,
      'Preço unitário de R$ 16,01 (UN) para «Borracha branca», 2,7 vezes a mediana de R$ 6,00 entre 11 preços do ' +
        'mesmo item, acima da cerca de R$ 16,00 (Q3 + 1,5 × IQR).',
    )
    // A result names its contratação; an order under no contract or ARP, its organization.
    assert.deepEqual(result.records, [
      { kind: 'public-calls', id: erasersCall.id, link: `/v1/transparency/public-calls/${erasersCall.id}` },
    ])
    assert.equal(result.organization_uuid, C.uuid)
    assert.deepEqual(result.providers, [X])
    const clip = all.find((f) => f.figures.source === 'order') as Flag
    assert.deepEqual(clip.records, [
      { kind: 'organizations', id: H.uuid, link: `/v1/transparency/organizations/${H.uuid}` },
    ])
    assert.deepEqual(clip.providers, [Y])
    assert.equal(clip.year, 2025)
    // The flagged contratação's detail carries it.
    const detail = (await (
      await fetch(`${server.base}/v1/transparency/public-calls/${erasersCall.id}`)
    ).json()) as {
      indicators: Flag[]
    }
    assert.deepEqual(
      detail.indicators.map((f) => f.code),
      ['R017'],
    )
  })

  it('pages every flag once by cursor, newest year first, and filters by organization, supplier and year', async () => {
    const all = await flags()
    const keys = all.map((f) => `${f.code} ${f.records.map((r) => r.id).join(' ')} ${f.year}`)
    assert.equal(new Set(keys).size, keys.length, 'a flag given twice')
    assert.deepEqual(
      all.map((f) => f.year),
      [...all.map((f) => f.year)].sort((a, b) => b - a),
    )
    assert.equal(all.length, 4 + 2 + 2 + 2 + 2 + 2 + 2 + 1 + 1)
    const ofB = await flags(`&organization_uuid=${String(B.uuid).toUpperCase()}`)
    assert.deepEqual(
      ofB.map((f) => f.code),
      ['R011', 'R011'],
    )
    const ofY = await flags(`&provider_document=${Y.document}`)
    assert.deepEqual(ofY.map((f) => f.code).sort(), [
      'BR-LIMITE-DISPENSA',
      'BR-LIMITE-DISPENSA',
      'BR-PRAZO-PROPOSTA',
      'BR-PRAZO-PROPOSTA',
      'R011',
      'R017',
    ])
    const of2024 = await flags('&year=2024')
    assert.deepEqual(of2024.map((f) => f.code).sort(), ['R013', 'R050', 'R051'])
    // A person's name is shown, never the CPF whole.
    assert.ok(!JSON.stringify(all).includes(person.document))
  })

  it('counts the flags by code, over all and for an organization', async () => {
    const { body } = await answer('/v1/transparency/indicators/summary')
    const summary = body.data as { total: number; by_code: { code: string; count: number }[] }
    assert.deepEqual(
      summary.by_code.map((c) => c.code),
      [...INDICATOR_CODES],
    )
    assert.deepEqual(Object.fromEntries(summary.by_code.map((c) => [c.code, c.count])), {
      'BR-LIMITE-DISPENSA': 4,
      R011: 2,
      'BR-ADITIVO-25': 2,
      R018: 2,
      'BR-PRAZO-PROPOSTA': 2,
      R017: 2,
      R050: 2,
      R013: 1,
      R051: 1,
    })
    assert.equal(summary.total, 18)
    const { body: ofA } = await answer(`/v1/transparency/indicators/summary?organization_uuid=${A.uuid}`)
    assert.equal((ofA.data as { total: number }).total, 4)
  })

  it('gives a detail the flags that name its record beside the record, which stays as the feed gives it', async () => {
    const detail = async (path: string) =>
      (await (await fetch(`${server.base}/v1/transparency/${path}`)).json()) as {
        data: Record<string, unknown>
        indicators: Flag[]
      }
    const flagged = await detail(`direct-contracts/${atLimit.id}`)
    assert.deepEqual(
      flagged.indicators.map((f) => f.code),
      ['BR-LIMITE-DISPENSA'],
    )
    assert.deepEqual(
      flagged.indicators,
      await flags(`&record=direct-contracts/${String(atLimit.id).toUpperCase()}`),
    )
    // In a group, each record carries the group's flag.
    const second = await detail(`direct-contracts/${splitY[1]?.id}`)
    assert.deepEqual(
      second.indicators.map((f) => [f.code, f.figures.count]),
      [['R011', 3]],
    )
    assert.deepEqual((await detail(`direct-contracts/${overLimit.id}`)).indicators, [])
    // The record itself is the feed's: a flag is no part of it.
    const feed = (await (
      await fetch(
        `${server.base}/v1/transparency/changes?per_page=1000&with_records=true&kinds=direct-contracts`,
      )
    ).json()) as { data: { data: { id: string; record: Record<string, unknown> }[] } }
    assert.deepEqual(feed.data.data.find((entry) => entry.id === atLimit.id)?.record, flagged.data)
    assert.ok(!('indicators' in flagged.data))
  })

  it("shows a record's flags on its page, with their reasons, and none on a page without", async () => {
    const html = await (await fetch(`${server.base}/contratacoes-diretas/${atLimit.id}`)).text()
    assert.match(html, /<h2 id="sinais-de-alerta">Sinais de alerta<\/h2>/)
    assert.ok(
      html.includes('Dispensa de R$ 62.725,59, 100,0% do limite de R$ 62.725,59 do art. 75, II em 2025'),
    )
    assert.ok(html.includes('nunca um veredito'))
    const clean = await (await fetch(`${server.base}/contratacoes-diretas/${overLimit.id}`)).text()
    assert.ok(!clean.includes('id="sinais-de-alerta"'))
  })

  it('lists the flags on the portal with their counts, filtered by its form, each indicator explained', async () => {
    const text = async (path: string, status = 200) => {
      const response = await fetch(server.base + path)
      assert.equal(response.status, status, path)
      return response.text()
    }
    const all = await text('/indicadores')
    assert.ok(all.includes('<h2 id="sinais">Sinais (18)</h2>'))
    assert.ok(all.includes('nunca um veredito'))
    const split = await text(
      `/indicadores?code=R011&organization_uuid=${B.uuid}&year=2025&provider_document=`,
    )
    assert.ok(split.includes('<h2 id="sinais">Sinais (2)</h2>'))
    assert.ok(split.includes('3 dispensas por valor ao mesmo fornecedor em 2025 somam R$ 65.000,00'))
    assert.ok(split.includes(`href="/contratacoes-diretas/${splitY[0]?.id}"`))
    assert.ok(!split.includes('Dispensa de R$'))
    // A bad value is a page that says what the field takes.
    assert.ok(
      (await text('/indicadores?year=3000', 422)).includes(
        'Parâmetro inválido: year. Aceita um ano, de 1990 a 2100.',
      ),
    )
    const explained = await text('/indicadores/R011')
    assert.ok(explained.includes('art. 75, § 1º'))
    assert.ok(explained.includes('O que ele não diz'))
    assert.ok(explained.includes('Ver os 2 sinais deste indicador'))
    await text('/indicadores/R999', 404)
    // An organ's and a supplier's pages count theirs, each count leading to its flags.
    const organ = await text(`/orgaos/${B.uuid}`)
    assert.match(organ, /<strong>2<\/strong> Possível fracionamento de despesa/)
    assert.ok(organ.includes(`href="/indicadores?organization_uuid=${B.uuid}&amp;code=R011"`))
    const company = await text(`/fornecedores/${Y.document}`)
    assert.match(company, /<strong>2<\/strong> Prazo de propostas menor que o mínimo legal/)
    assert.ok(!(await text(`/orgaos/${F.uuid}`)).includes('id="sinais-de-alerta"'))
  })

  it("gives every flag in the shape of Cardinal's results, by process, buyer and tenderer, with Meta", async () => {
    const response = await fetch(`${server.base}/v1/transparency/indicators?format=cardinal`)
    assert.equal(response.status, 200)
    const cardinal = (await response.json()) as Record<string, Record<string, Record<string, number>>>
    assert.deepEqual(Object.keys(cardinal), ['OCID', 'Buyer', 'Tenderer', 'Meta'])
    const ocid = (id: unknown) => `ocds-xxxxxx-${id}`
    assert.deepEqual(cardinal.OCID?.[ocid(atLimit.id)], { 'BR-LIMITE-DISPENSA': 1 })
    assert.deepEqual(cardinal.OCID?.[ocid(pastQuarter.id)], { 'BR-ADITIVO-25': 0.25 })
    assert.deepEqual(cardinal.OCID?.[ocid(seven.id)], { 'BR-PRAZO-PROPOSTA': 0.875 })
    assert.deepEqual(cardinal.OCID?.[ocid(single.id)], { R018: 1 })
    assert.deepEqual(cardinal.OCID?.[ocid(erasersCall.id)], { R017: 2.6683 })
    assert.equal(Object.keys(cardinal.OCID ?? {}).length, 11)
    // R011 in B: Y's 65,000 over 62,725.59 and W's a cent over, the greater standing for the buyer.
    assert.deepEqual(cardinal.Buyer?.[`BR-CNPJ-${B.document}`], { R011: 1.0363 })
    assert.deepEqual(cardinal.Tenderer?.[`BR-CNPJ-${Y.document}`], { R011: 1.0363 })
    assert.deepEqual(cardinal.Buyer?.[`BR-CNPJ-${G[9]?.document}`], { R050: 1, R013: 1, R051: 1 })
    assert.deepEqual(cardinal.Tenderer?.[`BR-CNPJ-${X.document}`], { R050: 1 })
    assert.deepEqual(cardinal.Meta, {
      R013: { q1: 0.2, q3: 0.35, upper_fence: 0.575 },
      R051: { q1: 0.2, q3: 0.2, upper_fence: 0.2 },
    })
    assert.ok(!JSON.stringify(cardinal).includes(person.document))
    // Filtered as the listing is.
    const ofB = (await (
      await fetch(`${server.base}/v1/transparency/indicators?format=cardinal&organization_uuid=${B.uuid}`)
    ).json()) as { Buyer: Record<string, unknown>; OCID: Record<string, unknown> }
    assert.deepEqual(Object.keys(ofB.Buyer), [`BR-CNPJ-${B.document}`])
    assert.deepEqual(ofB.OCID, {})
  })

  it('writes the flags as a file: CSV as a spreadsheet reads it, XLSX as a real reader opens it', async () => {
    const csv = await fetch(
      `${server.base}/v1/transparency/indicators/export?format=csv&separator=;&code=R011`,
    )
    assert.equal(csv.status, 200)
    const rows = parse(await csv.text(), { delimiter: ';', bom: true }) as string[][]
    assert.deepEqual(rows[0], [
      'Código',
      'Indicador',
      'Ano',
      'Órgão',
      'CNPJ do órgão',
      'Fornecedores',
      'Motivo',
      'Registros',
    ])
    const y = rows.find((row) => row[5]?.includes(Y.name)) as string[]
    assert.equal(rows.length, 3)
    assert.deepEqual(y.slice(0, 5), [
      'R011',
      'Possível fracionamento de despesa',
      '2025',
      String(B.name),
      String(B.document).replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5'),
    ])
    assert.match(y[6] as string, /^3 dispensas por valor ao mesmo fornecedor em 2025 somam R\$ 65\.000,00/)
    assert.deepEqual(
      (y[7] as string).split(' '),
      splitY.map((d) => `http://localhost:3000/v1/transparency/direct-contracts/${d.id}`),
    )
    const xlsx = await fetch(`${server.base}/v1/transparency/indicators/export?format=xlsx&year=2024`)
    assert.equal(xlsx.status, 200)
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load((await xlsx.arrayBuffer()) as never)
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet
    const values: unknown[][] = []
    sheet.eachRow({ includeEmpty: false }, (row) => {
      values.push((row.values as unknown[]).slice(1))
    })
    // The preamble's two lines, the titles, then R050, R013 and R051 of G9 in 2024.
    assert.deepEqual(
      values.slice(3).map((row) => [row[0], row[2], row[3]]),
      [
        ['R013', 2024, G[9]?.name],
        ['R050', 2024, G[9]?.name],
        ['R051', 2024, G[9]?.name],
      ],
    )
    const refused = await fetch(`${server.base}/v1/transparency/indicators/export?format=pdf`)
    assert.equal(refused.status, 422)
  })

  it('refuses what it cannot answer, in the envelope, naming what it accepts', async () => {
    const refused = async (query: string, status: number, message: string) => {
      const { status: got, body } = await answer(`/v1/transparency/indicators${query}`)
      assert.equal(got, status, query)
      assert.equal(body.message, message, query)
    }
    await refused(
      '?code=R999',
      422,
      `Parâmetro inválido: code. Aceita um destes códigos: ${INDICATOR_CODES.join(', ')}.`,
    )
    await refused('?year=1989', 422, 'Parâmetro inválido: year. Aceita um ano, de 1990 a 2100.')
    await refused('?format=csv', 422, 'Parâmetro inválido: format. Aceita json ou cardinal.')
    await refused('?year=dois', 422, 'Parâmetro inválido: year. Aceita um ano, de 1990 a 2100.')
    await refused(
      `?provider_document=${person.document}`,
      422,
      'Parâmetro inválido: provider_document. Aceita um CNPJ, só os 14 dígitos (um CPF não é aceito, para ' +
        'proteger as pessoas; use provider_name).',
    )
    await refused(
      '?cursor=abc',
      422,
      'Cursor inválido: cursor. Use o next_cursor de uma página anterior, com a mesma ordenação e os mesmos filtros.',
    )
    await refused(`?organization_uuid=${uuid('0f', 1)}`, 404, 'Organização não encontrada.')
    await refused(
      `?record=orders/${atLimit.id}`,
      422,
      'Parâmetro inválido: record. Aceita um registro como contracts/<uuid> (contracts, direct-contracts, ' +
        'public-calls, arps, organizations).',
    )
    const { status, body } = await answer('/v1/transparency/indicators/summary?code=R011')
    assert.equal(status, 422)
    assert.match(body.message, /^Parâmetro desconhecido: code\./)
  })

  it('computes again the flags of the organizations an import touches: a withdrawal takes its flags along', async () => {
    const withdrawn = await importRecords(db.pool, [
      source(
        ndjson([
          { type: 'withdraw', record: 'direct_contract', organization_uuid: A.uuid, id: atLimit.id },
          // Past the limit now: the contract at 90% leaves the flags as it changes.
          { ...atNinety, sum_amount_total: '70000.00' },
          direct(A, '60000.00', '2025-08-01T15:00:00.000000Z', [W]),
          // A pencil at R$ 10,00 withdrawn: the nine left and the top one fence at 14.50, which 16.00 passes.
          { type: 'withdraw', record: 'order', organization_uuid: H.uuid, number: pencils[9]?.number },
        ]),
      ),
    ])
    assert.equal(withdrawn.ok, true, JSON.stringify(withdrawn.problems))
    // The service drops its cached answers when it hears of the import, a moment after the commit.
    await eventually(async () => {
      const all = await flags('&code=BR-LIMITE-DISPENSA')
      assert.equal(all.length, 3)
      assert.ok(!ids(all, 'BR-LIMITE-DISPENSA').includes(String(atLimit.id)))
      assert.ok(!ids(all, 'BR-LIMITE-DISPENSA').includes(String(atNinety.id)))
    })
    const prices = await flags('&code=R017')
    assert.deepEqual(prices.map((f) => [f.figures.description, f.figures.amount, f.figures.fence]).sort(), [
      ['Borracha branca', '16.01', '16.00'],
      ['Clipe niquelado 2/0', '16.01', '16.00'],
      ['Lápis preto nº 2', '16.00', '14.50'],
    ])
    // Organizations the import did not touch keep theirs.
    assert.equal((await flags('&code=R011')).length, 2)
    assert.equal((await flags('&code=R013')).length, 1)
    // What the import left is what computing every flag from scratch gives.
    const stored = async (client: { query: typeof db.pool.query }) =>
      (
        await client.query(
          'SELECT key, code, organization_id, year, supplier_ids, records::text, figures::text FROM integrity_flags ORDER BY key',
        )
      ).rows
    const kept = await stored(db.pool)
    const client = await db.pool.connect()
    try {
      await client.query('BEGIN')
      await projectIndicators(client, 'all')
      assert.deepEqual(await stored(client as never), kept)
    } finally {
      await client.query('ROLLBACK')
      client.release()
    }
  })
})

describe('BR-LIMITE-DISPENSA, as arithmetic', () => {
  let db: TestDatabase
  const organization = org(90)
  const id = uuid('dc', 9999)
  before(async () => {
    db = await seededDatabase([organization])
  })
  after(async () => {
    await db?.drop()
  })

  it('flags a direct contract by value exactly when it is from 90% of its limit, in cents, to the limit', async () => {
    const cents = (text: string) => Math.round(Number(text) * 100)
    const cases = fc.record({
      limits: fc.constantFrom(...DIRECT_AWARD_LIMITS),
      works: fc.boolean(),
      // Around the 90% line and the limit itself, and anywhere between.
      share: fc.oneof(
        fc.double({ min: 0.89, max: 0.91, noNaN: true }),
        fc.double({ min: 0.99, max: 1.01, noNaN: true }),
      ),
      jitter: fc.integer({ min: -2, max: 2 }),
      day: fc.integer({ min: 0, max: 360 }),
    })
    await fc.assert(
      fc.asyncProperty(cases, async ({ limits, works, share, jitter, day }) => {
        const cap = cents(works ? limits.works : limits.other)
        const value = Math.max(1, Math.round(cap * share) + jitter)
        // Noon in Brasília on a day of the year (1 April on in 2021, when the law came into force).
        const start = Date.UTC(limits.year, limits.year === 2021 ? 3 : 0, 1, 15)
        const opening = new Date(start + day * 86_400_000)
        if (opening.getUTCFullYear() !== limits.year) return
        const result = await importRecords(db.pool, [
          source(
            ndjson([
              direct(organization, (value / 100).toFixed(2), opening.toISOString(), [X], {
                id,
                legal_basis: `Lei 14.133/2021, Art. 75, ${works ? 'I' : 'II'}`,
              }),
            ]),
          ),
        ])
        assert.equal(result.ok, true, JSON.stringify(result.problems))
        const { rows } = await db.pool.query(
          "SELECT 1 FROM integrity_flags WHERE code = 'BR-LIMITE-DISPENSA'",
        )
        // 90% of the limit in cents, half up: the same rule, said in integers.
        const line = Math.floor((cap * 9 + 5) / 10)
        assert.equal(rows.length === 1, value >= line && value <= cap, `${value} of ${cap} (${limits.year})`)
      }),
      { numRuns: 40, seed: 69 },
    )
  })
})
