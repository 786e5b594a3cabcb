import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import fc from 'fast-check'
import type { DemoRecord } from '../../src/demo/generator.js'
import { cnpjFrom, cpfFrom } from '../../src/demo/tax-ids.js'
import { importRecords } from '../../src/import/importer.js'
import { rebuildDocuments } from '../../src/readmodel/build.js'
import { serving } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { eventually, request, turns } from '../helpers/http.js'
import { assertFresh } from '../helpers/readmodel.js'
import { demoRecords, first, ndjson, source, TINY } from '../helpers/records.js'

// The price research, the suppliers' and the organizations' pages, over orders whose prices were chosen so
// that every statistic can be worked out by hand (below, beside each assertion).

const demo = demoRecords(TINY, 5)
const [orgA, orgB] = demo.filter((r) => r.type === 'organization') as [DemoRecord, DemoRecord]
const template = first(demo, 'order')
const company = { document: cnpjFrom([1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 1]), name: 'Papelaria Central Ltda' }
const other = { document: cnpjFrom([8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 1]), name: 'Distribuidora Norte S.A.' }
const person = { document: cpfFrom([1, 1, 1, 4, 4, 4, 7, 7, 7]), name: 'Maria da Silva' }

let n = 0
/** An order of one item, by an organization and a supplier, on a day. */
function order(
  org: DemoRecord,
  supplier: { document: string; name: string },
  description: string,
  unit: string,
  amount: string,
  quantity: number,
  dayOf = '2025-03-10',
): DemoRecord {
  n += 1
  const total = (Number(amount) * quantity).toFixed(2)
  return {
    ...template,
    organization_uuid: org.uuid,
    number: `P-${String(n).padStart(3, '0')}/2025`,
    provider_name: supplier.name,
    provider_document: supplier.document,
    arp_number: null,
    contract_number: null,
    deadline_delivery: `${dayOf}T12:00:00.000000Z`,
    amount_total: Number(total),
    items: [
      {
        number_item: '1',
        description,
        brand: 'Marca',
        unit_measurement: unit,
        quantity,
        amount: Number(amount),
        amount_total: Number(total),
      },
    ],
  }
}

/** The address the service says it is reached at. */
const PUBLIC = 'https://compras.example.gov.br'

const PEN = 'Caneta esferográfica azul, ponta média'
const PAPER = 'Papel sulfite A4, pacote com 500 folhas'
// Pens by the unit: 1, 2, 3, 4 and 100 (an outlier); quantities 10, 10, 10, 10 and 1.
const pens = [
  order(orgA, company, PEN, 'UN', '1.00', 10),
  order(orgA, other, PEN, 'UN', '2.00', 10),
  order(orgB, company, PEN, 'UN', '3.00', 10),
  order(orgB, person, PEN, 'UN', '4.00', 10),
  order(orgB, other, PEN, 'UN', '100.00', 1, '2025-06-01'),
]
// Pens by the box, kept apart: 10 and 12.
const boxes = [order(orgA, company, PEN, 'CX', '10.00', 2), order(orgB, company, PEN, 'CX', '12.00', 3)]
// Paper: 20, 21, 22.50 and 23, no outlier.
const paper = [
  order(orgA, company, PAPER, 'PCT', '20.00', 1),
  order(orgA, company, PAPER, 'PCT', '21.00', 1),
  order(orgB, other, PAPER, 'PCT', '22.50', 1),
  order(orgB, other, PAPER, 'PCT', '23.00', 1),
]

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON, checked field by field
type Json = Record<string, any>

/** A contract of the company with organization A, worth 5,000.00. */
const contract: DemoRecord = {
  ...first(demo, 'contract'),
  id: 'c0ffee00-0000-4000-8000-000000000001',
  organization_uuid: orgA.uuid,
  contract_number: 'CT 1/2025',
  bidding_uuid: null,
  arp_number: null,
  provider_document: company.document,
  provider_company_name: company.name,
  amount_total: '5000.00',
  date_start: '2025-02-01',
  terms: [],
}

describe('price research, suppliers and organizations', () => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof serving>>
  const get = async (path: string) => {
    const response = await fetch(server.base + path)
    return { status: response.status, body: (await response.json()) as Json }
  }

  before(async () => {
    db = await seededDatabase([orgA, orgB, contract, ...pens, ...boxes, ...paper])
    server = await serving(db, { env: { PUBLIC_URL: PUBLIC } })
  })
  after(async () => {
    await server.close()
    await db.drop()
  })

  it('gives each unit its statistics, outliers apart', async () => {
    const { status, body } = await get('/v1/transparency/prices?q=caneta')
    assert.equal(status, 200)
    assert.equal(body.success, true)
    const [un, cx] = body.data.summary
    // UN sorted: 1, 2, 3, 4, 100. p25 at rank 1 + 0.25 × 4 = 2: 2.00; the median at rank 3: 3.00; p75 at
    // rank 4: 4.00. IQR 2, fences [-1, 7]: 100 is out. Mean 110 / 5 = 22. Weighted: (10 + 20 + 30 + 40 + 100)
    // / 41 = 4.878… Without the outlier: 1, 2, 3, 4, median at rank 2.5: 2.50, mean 2.50.
    assert.deepEqual(un, {
      unit: 'UN',
      items: 5,
      organizations: 2,
      suppliers: 3,
      min: '1.00',
      p25: '2.00',
      median: '3.00',
      p75: '4.00',
      max: '100.00',
      mean: '22.00',
      weighted_mean: '4.88',
      outliers: 1,
      sanitized: { items: 4, min: '1.00', median: '2.50', mean: '2.50', max: '4.00' },
    })
    // CX: 10 and 12, quantities 2 and 3. p25 = 10 + 0.25 × 2 = 10.50, p75 = 11.50; weighted (20 + 36) / 5.
    assert.deepEqual(cx, {
      unit: 'CX',
      items: 2,
      organizations: 2,
      suppliers: 1,
      min: '10.00',
      p25: '10.50',
      median: '11.00',
      p75: '11.50',
      max: '12.00',
      mean: '11.00',
      weighted_mean: '11.20',
      outliers: 0,
      sanitized: { items: 2, min: '10.00', median: '11.00', mean: '11.00', max: '12.00' },
    })
  })

  it('interpolates quartiles and rounds half up, as a spreadsheet does', async () => {
    const { body } = await get('/v1/transparency/prices?q=PAPEL')
    // 20, 21, 22.50, 23. p25 at rank 1.75: 20 + 0.75 × 1 = 20.75; median at 2.5: 21 + 0.5 × 1.5 = 21.75;
    // p75 at 3.25: 22.50 + 0.25 × 0.5 = 22.625, half up 22.63 (half to even would give 22.62). Mean
    // 86.5 / 4 = 21.625: 21.63. IQR 1.875, fences [17.94, 25.44]: no outlier.
    assert.deepEqual(body.data.summary, [
      {
        unit: 'PCT',
        items: 4,
        organizations: 2,
        suppliers: 2,
        min: '20.00',
        p25: '20.75',
        median: '21.75',
        p75: '22.63',
        max: '23.00',
        mean: '21.63',
        weighted_mean: '21.63',
        outliers: 0,
        sanitized: { items: 4, min: '20.00', median: '21.75', mean: '21.63', max: '23.00' },
      },
    ])
  })

  it('matches words with accents and case aside, and keeps units apart on request', async () => {
    const accented = await get('/v1/transparency/prices?q=CANETÁ%20esferografica')
    assert.deepEqual(
      accented.body.data.summary.map((s: Json) => [s.unit, s.items]),
      [
        ['UN', 5],
        ['CX', 2],
      ],
    )
    const boxesOnly = await get('/v1/transparency/prices?q=caneta&unit=CX')
    assert.deepEqual(
      boxesOnly.body.data.summary.map((s: Json) => s.unit),
      ['CX'],
    )
    assert.ok(boxesOnly.body.data.items.data.every((item: Json) => item.unit_measurement === 'CX'))
  })

  it('pages the items by cursor in price order, each marked when it is an outlier', async () => {
    const seen: Json[] = []
    let path = '/v1/transparency/prices?q=caneta&per_page=3'
    for (const _turn of turns(1000, 'the pages of items')) {
      const { status, body } = await get(path)
      assert.equal(status, 200)
      seen.push(...body.data.items.data)
      if (!body.data.items.has_more) {
        assert.equal(body.data.items.next_cursor, null)
        break
      }
      path = `/v1/transparency/prices?q=caneta&per_page=3&cursor=${body.data.items.next_cursor}`
    }
    assert.deepEqual(
      seen.map((item) => [item.amount, item.unit_measurement, item.outlier]),
      [
        ['1.00', 'UN', false],
        ['2.00', 'UN', false],
        ['3.00', 'UN', false],
        ['4.00', 'UN', false],
        ['10.00', 'CX', false],
        ['12.00', 'CX', false],
        ['100.00', 'UN', true],
      ],
    )
    const item = seen[0] as Json
    assert.deepEqual(Object.keys(item), [
      'description',
      'brand',
      'unit_measurement',
      'unit',
      'quantity',
      'amount',
      'amount_total',
      'source',
      'date',
      'order_number',
      'deadline_delivery',
      'status_title',
      'bidding_id',
      'bidding_type',
      'bidding_number',
      'organization_uuid',
      'organization_name',
      'provider_name',
      'provider_document',
      'contract_number',
      'contract_id',
      'arp_number',
      'arp_id',
      'outlier',
    ])
    assert.equal(item.organization_uuid, orgA.uuid)
    assert.equal(item.provider_document, company.document)
    assert.equal(item.amount_total, '10.00')
    assert.equal(item.source, 'order')
    assert.equal(item.unit, 'UN')
    assert.equal(item.bidding_id, null)
    const newest = await get('/v1/transparency/prices?q=caneta&sort=-date&per_page=1')
    assert.equal(newest.body.data.items.data[0].amount, '100.00')
  })

  it('pages every sort by cursor to the order one page gives, none twice', async () => {
    const key = (item: Json) => `${item.order_number}:${item.amount}`
    for (const sort of ['amount', '-amount', 'date', '-date']) {
      const whole = (await get(`/v1/transparency/prices?q=caneta&sort=${sort}&per_page=100`)).body.data.items
      assert.equal(whole.has_more, false)
      const seen: Json[] = []
      let path = `/v1/transparency/prices?q=caneta&sort=${sort}&per_page=2`
      for (const _turn of turns(100, `the pages sorted by ${sort}`)) {
        const { status, body } = await get(path)
        assert.equal(status, 200, sort)
        seen.push(...body.data.items.data)
        if (!body.data.items.has_more) break
        path = `/v1/transparency/prices?q=caneta&sort=${sort}&per_page=2&cursor=${body.data.items.next_cursor}`
      }
      assert.deepEqual(seen.map(key), whole.data.map(key), sort)
      const amounts = whole.data.map((item: Json) => Number(item.amount))
      const days = whole.data.map((item: Json) => item.deadline_delivery as string)
      const [values, descending] = sort.endsWith('amount')
        ? [amounts, sort === '-amount']
        : [days, sort === '-date']
      const ordered = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      assert.deepEqual(values, descending ? ordered.reverse() : ordered, sort)
      // The 100.00 pen was ordered in June, after every other: last by date, first by -date.
      if (sort === '-date') assert.equal(whole.data[0].amount, '100.00')
      if (sort === 'date') assert.equal(whole.data.at(-1).amount, '100.00')
      // A cursor is for the sort it was given under.
      const other = sort === 'amount' ? 'date' : 'amount'
      const first = (await get(`/v1/transparency/prices?q=caneta&sort=${sort}&per_page=1`)).body.data.items
      const crossed = await get(`/v1/transparency/prices?q=caneta&sort=${other}&cursor=${first.next_cursor}`)
      assert.equal(crossed.status, 422, sort)
      assert.match(crossed.body.message, /^Cursor inválido: cursor\./)
    }
  })

  it('gives a first page alike, whether its summary is computed with it or was kept', async () => {
    // The summary of q=caneta kept; each research with a date_from before every order is asked for the first
    // time, so its statement reads the first page off the rows it matched.
    assert.equal((await get('/v1/transparency/prices?q=caneta')).status, 200)
    let day = 0
    for (const sort of ['amount', '-amount', 'date', '-date'])
      for (const perPage of [1, 2, 100]) {
        const asked = `q=caneta&sort=${sort}&per_page=${perPage}`
        const fresh = await get(
          `/v1/transparency/prices?${asked}&date_from=2000-01-${String(++day).padStart(2, '0')}`,
        )
        const kept = await get(`/v1/transparency/prices?${asked}`)
        assert.equal(fresh.status, 200, asked)
        assert.deepEqual(fresh.body.data, kept.body.data, asked)
        assert.equal(fresh.body.data.items.has_more, perPage < 7, asked)
      }
  })

  it("narrows to a company's prices by its CNPJ", async () => {
    const { body } = await get(
      `/v1/transparency/prices?q=caneta&provider_document=${company.document}&per_page=100`,
    )
    // The company sold pens at 1.00 (A) and 3.00 (B) by the unit, 10.00 (A) and 12.00 (B) by the box.
    assert.deepEqual(
      body.data.summary.map((s: Json) => [s.unit, s.items, s.suppliers]),
      // As many items by the box as by the unit: the units in name order.
      [
        ['CX', 2, 1],
        ['UN', 2, 1],
      ],
    )
    assert.deepEqual(
      body.data.items.data.map((item: Json) => [item.amount, item.provider_document]),
      [
        ['1.00', company.document],
        ['3.00', company.document],
        ['10.00', company.document],
        ['12.00', company.document],
      ],
    )
    const nobody = await get(
      `/v1/transparency/prices?q=caneta&provider_document=${cnpjFrom([9, 9, 9, 9, 9, 9, 9, 9, 0, 0, 0, 1])}`,
    )
    assert.equal(nobody.status, 200)
    assert.deepEqual(nobody.body.data.summary, [])
  })

  it("narrows to a supplier's prices by words of its name, a person's too", async () => {
    const byName = async (words: string) =>
      (await get(`/v1/transparency/prices?q=caneta&provider_name=${encodeURIComponent(words)}&per_page=100`))
        .body
    const central = await byName('PAPELARIA  central')
    assert.deepEqual(
      central.data.items.data.map((item: Json) => [item.amount, item.provider_name]),
      ['1.00', '3.00', '10.00', '12.00'].map((amount) => [amount, company.name]),
    )
    // Its words in order, accents and case aside: a person is found as the listings find one, CPF masked.
    const maria = await byName('maria silva')
    assert.deepEqual(
      maria.data.items.data.map((item: Json) => [item.amount, item.provider_document]),
      [['4.00', '***.444.777-**']],
    )
    assert.deepEqual((await byName('silva maria')).data.summary, [])
    const short = await get('/v1/transparency/prices?q=caneta&provider_name=ab')
    assert.equal(short.status, 422)
    assert.equal(
      short.body.message,
      'Parâmetro inválido: provider_name. Aceita um texto de 3 a 200 caracteres (palavras do nome do fornecedor).',
    )
  })

  it('shows no whole CPF, and has no page for a person', async () => {
    const { body } = await get('/v1/transparency/prices?q=caneta&per_page=100')
    const text = JSON.stringify(body)
    assert.ok(!text.includes(person.document), 'a whole CPF on the price research')
    assert.ok(text.includes('***.444.777-**'))
    const unknown = await get(`/v1/transparency/suppliers/${cnpjFrom([5, 5, 5, 5, 5, 5, 5, 5, 0, 0, 0, 1])}`)
    for (const path of [person.document, '***.444.777-**', `111.444.777-${person.document.slice(9)}`]) {
      const answer = await get(`/v1/transparency/suppliers/${encodeURIComponent(path)}`)
      assert.equal(answer.status, 404, path)
      assert.deepEqual(answer.body, unknown.body, path)
    }
    assert.deepEqual(unknown.body, { success: false, message: 'Registro não encontrado.' })
    const listed = await get('/v1/transparency/suppliers?per_page=100')
    assert.ok(!JSON.stringify(listed.body).includes(person.name))
    const cpfFilter = await get(`/v1/transparency/prices?q=caneta&provider_document=${person.document}`)
    const onListing = await get(`/v1/transparency/contracts?provider_document=${person.document}`)
    assert.equal(cpfFilter.status, 422)
    assert.equal(cpfFilter.body.message, onListing.body.message)
  })

  it('refuses what it cannot answer, in the envelope', async () => {
    const missing = await get('/v1/transparency/prices')
    assert.equal(missing.status, 422)
    assert.match(missing.body.message, /^Parâmetro obrigatório: q\./)
    const none = await get('/v1/transparency/prices?q=helicoptero')
    assert.equal(none.status, 200)
    assert.deepEqual(none.body.data, { summary: [], items: { data: [], next_cursor: null, has_more: false } })
    const organization = await get(
      '/v1/transparency/prices?q=caneta&organization_uuid=6f1c2b1e-0000-4000-8000-000000000000',
    )
    assert.equal(organization.status, 404)
    assert.equal(organization.body.message, 'Organização não encontrada.')
    const forged = await get('/v1/transparency/prices?q=caneta&cursor=bGlzdA')
    assert.equal(forged.status, 422)
    assert.match(forged.body.message, /^Cursor inválido: cursor\./)
    // Each refused value is told what is accepted.
    for (const [query, message] of [
      [
        'q=a%01b',
        'Parâmetro inválido: q. Aceita um texto de 1 a 200 caracteres, sem caracteres de controle (palavras da descrição do item).',
      ],
      ['q=caneta&unit=U%01N', 'Parâmetro inválido: unit. Aceita uma unidade de medida (UN, CX...).'],
      [
        'q=caneta&sort=price',
        'Parâmetro inválido: sort. Aceita um destes valores: amount, -amount, date, -date.',
      ],
      [
        'q=caneta&cursor=',
        'Parâmetro inválido: cursor. Aceita o next_cursor de uma página anterior desta pesquisa, com a mesma ordenação.',
      ],
    ]) {
      const refused = await get(`/v1/transparency/prices?${query}`)
      assert.equal(refused.status, 422, query)
      assert.equal(refused.body.message, message, query)
    }
    const unknown = await get('/v1/transparency/prices?q=caneta&page=2')
    assert.equal(unknown.status, 422)
    assert.match(unknown.body.message, /^Parâmetro desconhecido: page\./)
  })

  it('adds up a company by kind, year and organization', async () => {
    const { status, body } = await get(`/v1/transparency/suppliers/${company.document}`)
    assert.equal(status, 200)
    const page = body.data
    assert.equal(page.document, company.document)
    assert.equal(page.name, company.name)
    assert.deepEqual(
      page.names.map((n: Json) => n.name),
      [company.name],
    )
    // Orders: pens 1 × 10 + 3 × 10, boxes 10 × 2 + 12 × 3, paper 20 + 21 = 10 + 30 + 20 + 36 + 41 = 137.
    assert.deepEqual(page.totals.orders, {
      count: 6,
      value: '137.00',
      first: '2025-03-10',
      last: '2025-03-10',
    })
    assert.deepEqual(page.totals.contracts, {
      count: 1,
      value: '5000.00',
      first: '2025-02-01',
      last: '2025-02-01',
    })
    assert.deepEqual(page.totals.arps, { count: 0, value: '0.00', first: null, last: null })
    assert.deepEqual(
      page.years.map((y: Json) => [y.year, y.orders.count]),
      [[2025, 6]],
    )
    assert.deepEqual(
      page.organizations.map((o: Json) => [o.organization_uuid, o.orders.count, o.orders.value]).sort(),
      [
        [orgA.uuid, 4, '71.00'],
        [orgB.uuid, 2, '66.00'],
      ].sort(),
    )
    const formatted = `${company.document.slice(0, 2)}.${company.document.slice(2, 5)}.${company.document.slice(5, 8)}/${company.document.slice(8, 12)}-${company.document.slice(12)}`
    const same = await get(`/v1/transparency/suppliers/${encodeURIComponent(formatted)}`)
    assert.deepEqual(same.body, body)
    const found = await get('/v1/transparency/suppliers?q=papelaria')
    assert.deepEqual(found.body.data.data, [{ document: company.document, name: company.name }])
  })

  it('adds up an organization, and lists organizations by name', async () => {
    const { status, body } = await get(`/v1/transparency/organizations/${orgB.uuid}`)
    assert.equal(status, 200)
    assert.equal(body.data.name, orgB.name)
    // Pens 30 + 40 + 100, boxes 36, paper 22.50 + 23.
    assert.deepEqual(body.data.totals.orders, {
      count: 6,
      value: '251.50',
      first: '2025-03-10',
      last: '2025-06-01',
    })
    // Ranked by what was committed: here orders alone, no contract carrying them (other 100 + 22.50 + 23, the
    // company 30 + 36, the person 40, masked).
    assert.deepEqual(
      body.data.top_suppliers.map((s: Json) => [s.document, s.orders, s.value]),
      [
        [other.document, 3, '145.50'],
        [company.document, 2, '66.00'],
        [`***.${person.document.slice(3, 6)}.${person.document.slice(6, 9)}-**`, 1, '40.00'],
      ],
    )
    const missing = await get('/v1/transparency/organizations/6f1c2b1e-0000-4000-8000-000000000000')
    assert.equal(missing.status, 404)
    const list = await get('/v1/transparency/organizations?per_page=1')
    assert.equal(list.body.data.data.length, 1)
    assert.equal(list.body.data.has_more, true)
    const rest = await get(`/v1/transparency/organizations?per_page=1&cursor=${list.body.data.next_cursor}`)
    assert.equal(rest.body.data.has_more, false)
    assert.deepEqual(
      [list.body.data.data[0].name, rest.body.data.data[0].name],
      [orgA.name, orgB.name].sort((x, y) => ((x as string) < (y as string) ? -1 : 1)),
    )
  })

  it('writes the research as an XLSX a real reader opens: the summary under its query, then every item', async () => {
    // The address the research is made again at is the service's own (PUBLIC_URL), never the Host a client sent.
    const response = await request(
      `${server.base}/v1/transparency/prices/export?format=xlsx&q=caneta&unit=UN`,
      {
        host: 'evil.example',
      },
    )
    assert.equal(response.status, 200)
    assert.match(
      response.headers['content-disposition'] ?? '',
      /filename="pesquisa-de-precos-\d{4}-\d\d-\d\d\.xlsx"/,
    )
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(Buffer.from(response.body, 'latin1') as never)
    assert.deepEqual(
      workbook.worksheets.map((sheet) => sheet.name),
      ['Resumo', 'Itens'],
    )
    const rows = (sheet: ExcelJS.Worksheet) => {
      const found: unknown[][] = []
      sheet.eachRow({ includeEmpty: false }, (row) => {
        found.push((row.values as unknown[]).slice(1))
      })
      return found
    }
    const summary = rows(workbook.worksheets[0] as ExcelJS.Worksheet)
    assert.match(String(summary[1]?.[0]), /^Consulta: q=caneta; unit=UN; sort=amount$/)
    assert.match(String(summary[2]?.[0]), /^Feita em: \d{4}-\d\d-\d\dT/)
    assert.equal(summary[3]?.[0], `Fonte: ${PUBLIC}/v1/transparency/prices?q=caneta&unit=UN`)
    const titles = summary[5] as string[]
    const un = summary[6] as unknown[]
    assert.deepEqual(titles, [
      'Unidade de medida',
      'Itens',
      'Órgãos',
      'Fornecedores',
      'Mínimo (R$)',
      '1º quartil (R$)',
      'Mediana (R$)',
      '3º quartil (R$)',
      'Máximo (R$)',
      'Média (R$)',
      'Média ponderada pela quantidade (R$)',
      'Preços fora da faixa',
      'Itens sem os fora da faixa',
      'Mínimo sem os fora da faixa (R$)',
      'Mediana sem os fora da faixa (R$)',
      'Máximo sem os fora da faixa (R$)',
      'Média sem os fora da faixa (R$)',
    ])
    assert.deepEqual(un.slice(0, 12), ['UN', 5, 2, 3, 1, 2, 3, 4, 100, 22, 4.88, 1])
    // Every figure of the API's summary, in its order, is the sheet's: one list of statistics makes both.
    const api = (await get('/v1/transparency/prices?q=caneta&unit=UN')).body.data.summary[0] as Json
    const { sanitized, ...figures } = api as Json & { sanitized: Json }
    assert.deepEqual(
      un,
      [...Object.values(figures), ...Object.values(sanitized)].map((v) =>
        typeof v === 'string' && /^\d+\.\d\d$/.test(v) ? Number(v) : v,
      ),
    )
    const items = rows(workbook.worksheets[1] as ExcelJS.Worksheet)
    assert.equal(items.length, 6)
    assert.equal((items[0] as string[])[0], 'Descrição')
    assert.deepEqual(
      items.slice(1).map((row) => row[5]),
      [1, 2, 3, 4, 100],
    )
    assert.ok(!JSON.stringify(items).includes(person.document))
  })

  it('writes the items as CSV, with the separator asked', async () => {
    const response = await fetch(
      `${server.base}/v1/transparency/prices/export?format=csv&separator=%3B&q=caneta&sort=-amount`,
    )
    assert.equal(response.status, 200)
    const rows = parse((await response.text()).replace(/^\uFEFF/, ''), { delimiter: ';' }) as string[][]
    assert.equal(rows.length, 8)
    assert.deepEqual(
      rows.slice(1).map((row) => row[5]),
      ['100,00', '12,00', '10,00', '4,00', '3,00', '2,00', '1,00'],
    )
    const missing = await fetch(`${server.base}/v1/transparency/prices/export?q=caneta`)
    assert.equal(missing.status, 422)
    assert.match(((await missing.json()) as Json).message, /^Parâmetro obrigatório: format\./)
  })

  it('writes a ; CSV whose dates and prices LibreOffice in Portuguese (Brazil) reads as dates and numbers', {
    skip: existsSync('/usr/bin/soffice') ? false : 'no LibreOffice (apt install libreoffice-calc)',
  }, async () => {
    const response = await fetch(
      `${server.base}/v1/transparency/prices/export?format=csv&separator=%3B&q=caneta`,
    )
    assert.equal(response.status, 200)
    const dir = mkdtempSync(path.join(tmpdir(), 'compras-lo-prices-'))
    try {
      writeFileSync(path.join(dir, 'precos.csv'), Buffer.from(await response.arrayBuffer()))
      // Opened as a spreadsheet in pt-BR opens it (separator ;, UTF-8, language 1046), kept as XLSX.
      execFileSync(
        '/usr/bin/soffice',
        [
          '--headless',
          '--infilter=CSV:59,34,76,1,,1046,false,true',
          '--convert-to',
          'xlsx',
          '--outdir',
          dir,
          path.join(dir, 'precos.csv'),
        ],
        { env: { ...process.env, HOME: dir }, timeout: 120_000, stdio: 'ignore' },
      )
      const workbook = new ExcelJS.Workbook()
      await workbook.xlsx.readFile(path.join(dir, 'precos.xlsx'))
      const sheet = workbook.worksheets[0] as ExcelJS.Worksheet
      const titles = (sheet.getRow(1).values as unknown[]).slice(1)
      const at = (title: RegExp) => titles.findIndex((t) => title.test(String(t))) + 1
      const price = at(/^Valor unitário/)
      const date = at(/^Data da ordem/)
      assert.ok(price > 0 && date > 0, JSON.stringify(titles))
      for (let row = 2; row <= sheet.rowCount; row++) {
        assert.equal(typeof sheet.getRow(row).getCell(price).value, 'number', `row ${row}: its price`)
        assert.ok(sheet.getRow(row).getCell(date).value instanceof Date, `row ${row}: its date`)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('keeps every name a company was recorded under', async () => {
    const renamed = { ...(paper[0] as DemoRecord), provider_name: 'Papelaria Central Eireli' }
    assert.ok((await importRecords(db.pool, [source(ndjson([renamed]))])).ok)
    // Every instance drops its cache when it hears of the import: this one hears it a moment after the commit.
    await eventually(async () => {
      const { body } = await get(`/v1/transparency/suppliers/${company.document}`)
      assert.equal(body.data.name, 'Papelaria Central Eireli')
    })
    const { body } = await get(`/v1/transparency/suppliers/${company.document}`)
    assert.deepEqual(
      body.data.names.map((n: Json) => n.name).sort(),
      ['Papelaria Central Eireli', company.name].sort(),
    )
    assert.ok(!JSON.stringify(body).includes(person.name))
  })

  it("ranks an organization's suppliers, and a withdrawn contract leaves every total", async () => {
    const before = await get(`/v1/transparency/organizations/${orgA.uuid}`)
    // The company: its contract (5,000) and its orders, none under the contract (10 + 20 + 20 + 21); the other
    // supplier: its one order (20).
    assert.deepEqual(before.body.data.top_suppliers, [
      {
        document: company.document,
        // The name the test before gave it last.
        name: 'Papelaria Central Eireli',
        company: true,
        contracts: 1,
        direct_contracts: 0,
        orders: 4,
        value: '5071.00',
      },
      {
        document: other.document,
        name: other.name,
        company: true,
        contracts: 0,
        direct_contracts: 0,
        orders: 1,
        value: '20.00',
      },
    ])
    const result = await importRecords(db.pool, [
      source(
        ndjson([{ type: 'withdraw', record: 'contract', organization_uuid: orgA.uuid, id: contract.id }]),
      ),
    ])
    assert.ok(result.ok)
    await eventually(async () => {
      const after = await get(`/v1/transparency/organizations/${orgA.uuid}`)
      assert.deepEqual(
        after.body.data.top_suppliers.map((s: Json) => [s.document, s.contracts, s.value]),
        [
          [company.document, 0, '71.00'],
          [other.document, 0, '20.00'],
        ],
      )
    })
    const after = await get(`/v1/transparency/organizations/${orgA.uuid}`)
    assert.equal(after.body.data.totals.contracts.count, 0)
    const supplier = await get(`/v1/transparency/suppliers/${company.document}`)
    assert.deepEqual(supplier.body.data.totals.contracts, {
      count: 0,
      value: '0.00',
      first: null,
      last: null,
    })
  })

  it('follows an import: a withdrawn order leaves the statistics and the pages', async () => {
    const outlier = pens[4] as DemoRecord
    const result = await importRecords(db.pool, [
      source(
        ndjson([
          {
            type: 'withdraw',
            record: 'order',
            organization_uuid: outlier.organization_uuid,
            number: outlier.number,
          },
        ]),
      ),
    ])
    assert.ok(result.ok)
    await eventually(async () => {
      assert.equal((await get('/v1/transparency/prices?q=caneta')).body.data.summary[0].items, 4)
    })
    const { body } = await get('/v1/transparency/prices?q=caneta')
    const un = body.data.summary[0]
    assert.equal(un.items, 4)
    assert.equal(un.outliers, 0)
    assert.equal(un.max, '4.00')
    const organization = await get(`/v1/transparency/organizations/${orgB.uuid}`)
    assert.equal(organization.body.data.totals.orders.count, 5)
    assert.equal(organization.body.data.totals.orders.last, '2025-03-10')
  })

  it('follows an import: a changed price, and an item an order no longer has', async () => {
    const stapler = order(orgA, company, 'Grampeador de mesa', 'UN', '30.00', 1)
    const [first] = stapler.items as Record<string, unknown>[]
    const clips = { ...first, number_item: '2', description: 'Clipe niquelado', amount: 4, amount_total: 4 }
    const load = async (record: DemoRecord) =>
      assert.ok((await importRecords(db.pool, [source(ndjson([record]))])).ok)
    await load({ ...stapler, amount_total: 34, items: [first, clips] })
    await eventually(async () => {
      assert.equal((await get('/v1/transparency/prices?q=clipe')).body.data.summary[0]?.items, 1)
    })
    await load(stapler)
    await eventually(async () => {
      assert.deepEqual((await get('/v1/transparency/prices?q=clipe')).body.data.summary, [])
    })
    const { body } = await get('/v1/transparency/prices?q=clipe')
    assert.deepEqual(body.data.items.data, [])
    assert.equal((await get('/v1/transparency/prices?q=grampeador')).body.data.summary[0].max, '30.00')
    // The same order again at another price: its row changes, and no second row is made.
    await load({ ...stapler, amount_total: 32, items: [{ ...first, amount: 32, amount_total: 32 }] })
    await eventually(async () => {
      const [summary] = (await get('/v1/transparency/prices?q=grampeador')).body.data.summary
      assert.deepEqual([summary.items, summary.min, summary.max], [1, '32.00', '32.00'])
    })
    // And the rows an import kept are the rows a full rebuild writes.
    await assertFresh(db.pool)
  })

  it('writes the prices again from the orders on a full rebuild, whatever rows were there', async () => {
    const client = await db.pool.connect()
    try {
      await client.query('BEGIN')
      const count = 'SELECT count(*)::int AS n FROM price_items'
      const { n } = (await client.query(count)).rows[0]
      // A row no order item has, and a row whose price is not its item's.
      await client.query(
        `INSERT INTO price_items (order_id, position, description_id, unit, amount, quantity, organization_id,
           supplier_id, modality_id, day)
         SELECT order_id, 999, description_id, unit, amount, quantity, organization_id, supplier_id, modality_id, day
         FROM price_items LIMIT 1`,
      )
      await client.query('UPDATE price_items SET amount = 0.01 WHERE amount = 2.00')
      await rebuildDocuments(client, 'all')
      assert.equal((await client.query(count)).rows[0].n, n)
      assert.equal(
        (await client.query('SELECT count(*)::int AS n FROM price_items WHERE position = 999')).rows[0].n,
        0,
      )
      assert.equal(
        (await client.query('SELECT count(*)::int AS n FROM price_items WHERE amount = 2.00')).rows[0].n,
        1,
      )
    } finally {
      await client.query('ROLLBACK')
      client.release()
    }
  })
})

// The statistics against an exact reference, over many made-up price lists at once: each list its own product
// (a made-up word the stemmer leaves whole), with repeated prices, prices on a fence, and outliers on either side.

/** Cents as money text. */
const money = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`
/** x / d rounded half up, for x, d ≥ 0. */
const halfUp = (x: bigint, d: bigint) => (2n * x + d) / (2n * d)
/** The k/4-quantile of sorted cents, in quarter cents, by linear interpolation between the closest ranks. */
function quarterQuantile(sorted: readonly bigint[], k: number): bigint {
  const h = (sorted.length - 1) * k
  const i = Math.floor(h / 4)
  const low = sorted[i] as bigint
  return low * 4n + BigInt(h % 4) * ((sorted[i + 1] ?? low) - low)
}

/** The mean of cents, rounded half up. */
const mean = (cents: readonly bigint[]) =>
  money(
    halfUp(
      cents.reduce((a, b) => a + b, 0n),
      BigInt(cents.length),
    ),
  )

/** What the summary should say of prices (cents, by the unit) and their quantities, worked out in exact integers. */
function expectedSummary(
  items: readonly { cents: bigint; quantity: number; org: string; supplier: string }[],
) {
  const sorted = items.map((item) => item.cents).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const [p25, median, p75] = [1, 2, 3].map((k) => quarterQuantile(sorted, k)) as [bigint, bigint, bigint]
  // Fences in eighths of a cent: p25 − 1.5 × IQR = (2 × p25 − 3 × IQR) / 8 with both in quarter cents.
  const lo = 2n * p25 - 3n * (p75 - p25)
  const hi = 2n * p75 + 3n * (p75 - p25)
  const kept = sorted.filter((cents) => cents * 8n >= lo && cents * 8n <= hi)
  const weight = items.reduce((a, item) => a + BigInt(item.quantity), 0n)
  const weighted = items.reduce((a, item) => a + item.cents * BigInt(item.quantity), 0n)
  const quarter = (q: bigint) => money(halfUp(q, 4n))
  return {
    unit: 'UN',
    items: sorted.length,
    organizations: new Set(items.map((item) => item.org)).size,
    suppliers: new Set(items.map((item) => item.supplier)).size,
    min: money(sorted[0] as bigint),
    p25: quarter(p25),
    median: quarter(median),
    p75: quarter(p75),
    max: money(sorted[sorted.length - 1] as bigint),
    mean: mean(sorted),
    weighted_mean: money(halfUp(weighted, weight)),
    outliers: sorted.length - kept.length,
    sanitized: {
      items: kept.length,
      min: money(kept[0] as bigint),
      median: quarter(quarterQuantile(kept, 2)),
      mean: mean(kept),
      max: money(kept[kept.length - 1] as bigint),
    },
  }
}

describe('price statistics against an exact reference', () => {
  // Mostly whole reais from a narrow range (repeats, and fences that fall on a price), some far out.
  const price = fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 1, max: 12 }).map((k) => BigInt(k * 100)) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 2_000_000 }).map(BigInt) },
    { weight: 1, arbitrary: fc.constantFrom(1n, 5_000_000n) },
  )
  const item = fc.record({
    cents: price,
    quantity: fc.integer({ min: 1, max: 50 }),
    org: fc.constantFrom('A', 'B'),
    supplier: fc.constantFrom('company', 'other', 'person'),
  })
  const lists = fc.sample(fc.array(item, { minLength: 1, maxLength: 30 }), { numRuns: 60, seed: 56 })
  // Consonants only: no Portuguese suffix to strip, so each word matches its own product alone.
  const word = (k: number) =>
    `zq${'bcdfghjklmnpqrstvwxz'[Math.floor(k / 20)]}${'bcdfghjklmnpqrstvwxz'[k % 20]}`
  const suppliers = { company, other, person }
  const records = lists.flatMap((list, k) =>
    list.map((it) =>
      order(
        it.org === 'A' ? orgA : orgB,
        suppliers[it.supplier as keyof typeof suppliers],
        `Produto ${word(k)}`,
        'UN',
        money(it.cents),
        it.quantity,
      ),
    ),
  )
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof serving>>
  before(async () => {
    db = await seededDatabase([orgA, orgB, ...records])
    server = await serving(db)
  })
  after(async () => {
    await server.close()
    await db.drop()
  })

  it('gives every list the quartiles, fences, means and counts worked out exactly', async () => {
    for (const [k, list] of lists.entries()) {
      const response = await fetch(`${server.base}/v1/transparency/prices?q=${word(k)}`)
      const body = (await response.json()) as Json
      const expected = expectedSummary(list)
      assert.deepEqual(
        body.data.summary,
        [expected],
        `prices ${list.map((it) => money(it.cents)).join(', ')}`,
      )
    }
  })
})
