import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DemoRecord } from '../../src/demo/generator.js'
import { cnpjFrom, cpfFrom } from '../../src/demo/tax-ids.js'
import { serving } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, first, TINY } from '../helpers/records.js'

// Behaviours a hand audit of mutants found untested (issue 66, point 8), each over records chosen so that the
// mutant would answer otherwise: the price research's edges and the organization pages' ranking and order.

const demo = demoRecords(TINY, 13)
const [orgA, orgB] = demo.filter((r) => r.type === 'organization') as [DemoRecord, DemoRecord]
const template = first(demo, 'order')
/** Twelve companies and a person: more suppliers than a ranking shows. */
const companies = Array.from({ length: 12 }, (_, k) => ({
  document: cnpjFrom([2, 0, Math.floor(k / 10), k % 10, 1, 1, 2, 2, 0, 0, 0, 1]),
  name: `Fornecedor ${String.fromCharCode(65 + k)} Ltda`,
}))
const person = { document: cpfFrom([3, 3, 3, 6, 6, 6, 9, 9, 9]), name: 'Ana Souza' }

let n = 0
/** An order of one item. */
function order(
  org: DemoRecord,
  supplier: { document: string; name: string },
  description: string,
  amount: number,
  deadline = '2025-03-10T12:00:00.000000Z',
): DemoRecord {
  n += 1
  return {
    ...template,
    organization_uuid: org.uuid,
    number: `AUD-${n}/2025`,
    provider_name: supplier.name,
    provider_document: supplier.document,
    arp_number: null,
    contract_number: null,
    deadline_delivery: deadline,
    amount_total: amount,
    items: [
      {
        number_item: '1',
        description,
        brand: 'Marca',
        unit_measurement: 'UN',
        quantity: 1,
        amount,
        amount_total: amount,
      },
    ],
  }
}

const CHAIR = 'Cadeira fixa empilhável'
const LAMP = 'Luminária de mesa articulada'
const records: DemoRecord[] = [
  ...demo.filter((r) => r.type === 'organization'),
  // Chairs: 1 (a low outlier), then 100 to 105; B buys them.
  ...[1, 100, 101, 102, 103, 104, 105].map((amount, k) =>
    order(orgB, companies[k] as { document: string; name: string }, CHAIR, amount),
  ),
  // A lamp due at 01:30 UTC on March 10: still the 9th in Brasília, the 10th in UTC.
  order(orgB, companies[0] as { document: string; name: string }, LAMP, 50, '2025-03-10T01:30:00.000000Z'),
  // A: twelve companies and a person, each paid a different amount, over two years.
  ...companies.map((company, k) =>
    order(
      orgA,
      company,
      'Serviço de limpeza',
      1000 * (k + 1),
      k % 2 ? '2024-06-01T12:00:00.000000Z' : undefined,
    ),
  ),
  order(orgA, person, 'Serviço de limpeza', 20_000),
]

describe('behaviours a mutant audit found untested', () => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof serving>>
  // biome-ignore lint/suspicious/noExplicitAny: answers read as JSON, checked field by field
  const get = async (path: string): Promise<any> => {
    const response = await fetch(server.base + path)
    assert.equal(response.status, 200, path)
    return ((await response.json()) as { data: unknown }).data
  }

  before(async () => {
    db = await seededDatabase(records)
    server = await serving(db)
  })
  after(async () => {
    await server.close()
    await db.drop()
  })

  it('gives the sanitized figures of the prices inside the fences when an outlier lies below them', async () => {
    const { summary, items } = await get(`/v1/transparency/prices?q=${encodeURIComponent(CHAIR)}`)
    // 1, 100…105: p25 100.50, p75 103.50, fences 96 and 108: 1 is out, 105 is the highest kept.
    assert.deepEqual(summary[0].sanitized, {
      items: 6,
      min: '100.00',
      median: '102.50',
      mean: '102.50',
      max: '105.00',
    })
    assert.equal(summary[0].outliers, 1)
    assert.deepEqual(
      items.data.map((item: { amount: string; outlier: boolean }) => [item.amount, item.outlier]),
      [
        ['1.00', true],
        ['100.00', false],
        ['101.00', false],
        ['102.00', false],
        ['103.00', false],
        ['104.00', false],
        ['105.00', false],
      ],
    )
  })

  it('marks "(fora da faixa)" on the outliers of the panel, and only on them', async () => {
    const page = await (await fetch(`${server.base}/precos?q=${encodeURIComponent(CHAIR)}`)).text()
    const rows = page.split('<tr').filter((row) => row.includes(`data-label="Descrição">${CHAIR}</td>`))
    assert.equal(rows.length, 7)
    assert.deepEqual(
      rows.map((row) => row.includes('(fora da faixa)')),
      [true, false, false, false, false, false, false],
    )
  })

  it("dates an order by its delivery deadline's day in UTC, for the research's filters", async () => {
    const lamp = encodeURIComponent(LAMP)
    const on10 = await get(`/v1/transparency/prices?q=${lamp}&date_from=2025-03-10&date_to=2025-03-10`)
    assert.equal(on10.summary[0]?.items, 1)
    const on9 = await get(`/v1/transparency/prices?q=${lamp}&date_from=2025-03-09&date_to=2025-03-09`)
    assert.deepEqual(on9.summary, [])
  })

  it('ranks ten suppliers of more, the largest value first, a person masked, on the API and the portal', async () => {
    const page = await get(`/v1/transparency/organizations/${orgA.uuid}`)
    const masked = `***.${person.document.slice(3, 6)}.${person.document.slice(6, 9)}-**`
    assert.equal(page.top_suppliers.length, 10)
    assert.deepEqual(
      page.top_suppliers.map((s: { document: string; value: string }) => [s.document, s.value]),
      [
        [masked, '20000.00'],
        ...[12, 11, 10, 9, 8, 7, 6, 5, 4].map((k) => [companies[k - 1]?.document, `${k * 1000}.00`]),
      ],
    )
    assert.ok(!JSON.stringify(page).includes(person.document))
    // Years newest first.
    assert.deepEqual(
      page.years.map((y: { year: number | null }) => y.year),
      [2025, 2024],
    )
    const portal = await (await fetch(`${server.base}/orgaos/${orgA.uuid}`)).text()
    assert.ok(!portal.includes(person.document), 'a whole CPF on the organ page')
    assert.ok(portal.includes(masked))
    assert.ok(portal.indexOf(masked) < portal.indexOf(companies[11]?.name as string))
  })

  it('keeps the search on the next page of the organs found', async () => {
    // More organs of that name than a page shows (a hundred).
    await db.pool.query(
      `INSERT INTO organizations (id, name, document)
       SELECT gen_random_uuid(), 'Câmara Municipal ' || g, lpad(g::text, 14, '9') FROM generate_series(1, 101) g`,
    )
    const page = await (await fetch(`${server.base}/orgaos?q=c%C3%A2mara`)).text()
    const next = /<a href="([^"]*)">Próxima página<\/a>/.exec(page)?.[1]?.replaceAll('&amp;', '&')
    assert.ok(next, 'a next page')
    const url = new URL(next, server.base)
    assert.equal(url.searchParams.get('q'), 'câmara')
    assert.ok(url.searchParams.get('cursor'))
    const second = await (await fetch(url)).text()
    assert.match(second, /Câmara Municipal/)
    assert.ok(!second.includes(orgB.name as string))
  })
})
