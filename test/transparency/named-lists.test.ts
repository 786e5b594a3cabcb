import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DemoRecord } from '../../src/demo/generator.js'
import { cnpjFrom } from '../../src/demo/tax-ids.js'
import { cnpjDigits } from '../../src/parties/parties.js'
import { serving } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { turns } from '../helpers/http.js'
import { demoRecords, first } from '../helpers/records.js'

// The lists of suppliers and organizations by name, where names repeat (several city halls are "Prefeitura
// Municipal", several companies share a trade name): each page continues where the last ended, none twice;
// a CNPJ written as people write it; a supplier's years; what each list refuses.

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON, checked field by field
type Json = Record<string, any>

const demo = demoRecords(undefined, 11)
const template = first(demo, 'order')
const SAME = 'Prefeitura Municipal de Santa Luzia'
const TRADE = 'Comercial Igual Ltda'

// Four organizations of one name, their uuids out of the order of their CNPJs.
const organizations: DemoRecord[] = [4, 1, 3, 2].map((k, i) => ({
  type: 'organization',
  uuid: `0000000${k}-aaaa-4000-8000-00000000000${i}`,
  name: SAME,
  document: cnpjFrom([9, 9, 0, 0, 0, 0, 0, i, 0, 0, 0, 1]),
}))
const buyer = organizations[0] as DemoRecord
// Three companies of one name; the first sold in 2024 and 2025.
const companies = [3, 1, 2].map((k) => cnpjFrom([7, 7, 0, 0, 0, 0, 0, k, 0, 0, 0, 1]))

let n = 0
const order = (document: string, day: string, amount: number): DemoRecord => {
  n += 1
  return {
    ...template,
    organization_uuid: buyer.uuid,
    number: `L-${n}/2025`,
    provider_name: TRADE,
    provider_document: document,
    arp_number: null,
    contract_number: null,
    deadline_delivery: `${day}T12:00:00.000000Z`,
    amount_total: amount,
    items: [
      {
        number_item: '1',
        description: 'Resma de papel',
        brand: 'Marca',
        unit_measurement: 'UN',
        quantity: 1,
        amount,
        amount_total: amount,
      },
    ],
  }
}
const orders = [
  order(companies[0] as string, '2024-05-02', 10),
  order(companies[0] as string, '2025-05-02', 20),
  order(companies[0] as string, '2025-06-02', 30),
  order(companies[1] as string, '2025-05-02', 40),
  order(companies[2] as string, '2025-05-02', 50),
]

describe('named lists, where names repeat', () => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof serving>>
  const get = async (path: string) => {
    const response = await fetch(server.base + path)
    return { status: response.status, body: (await response.json()) as Json }
  }
  /** Every item of a list, a page of one at a time. */
  const pages = async (path: string) => {
    const seen: Json[] = []
    let next = `${path}&per_page=1`
    for (const _turn of turns(100, path)) {
      const { status, body } = await get(next)
      assert.equal(status, 200, next)
      seen.push(...body.data.data)
      if (!body.data.has_more) {
        assert.equal(body.data.next_cursor, null)
        return seen
      }
      next = `${path}&per_page=1&cursor=${body.data.next_cursor}`
    }
    return seen
  }

  before(async () => {
    db = await seededDatabase([...organizations, ...orders])
    server = await serving(db)
  })
  after(async () => {
    await server.close()
    await db.drop()
  })

  it('pages organizations of one name in the order of their ids, each once', async () => {
    const seen = await pages(`/v1/transparency/organizations?q=${encodeURIComponent('santa luzia')}`)
    assert.deepEqual(
      seen.map((o) => o.uuid),
      organizations.map((o) => o.uuid as string).sort(),
    )
    assert.ok(seen.every((o) => o.name === SAME))
  })

  it('pages companies of one name in the order of their CNPJs, each once', async () => {
    const seen = await pages(`/v1/transparency/suppliers?q=${encodeURIComponent('comercial igual')}`)
    assert.deepEqual(
      seen.map((s) => s.document),
      [...companies].sort(),
    )
  })

  it("reads a CNPJ written with its punctuation, and nothing else, as the CNPJ's digits", async () => {
    const digits = companies[0] as string
    const written = `${digits.slice(0, 2)}.${digits.slice(2, 5)}.${digits.slice(5, 8)}/${digits.slice(8, 12)}-${digits.slice(12)}`
    assert.equal(cnpjDigits(written), digits)
    assert.equal(cnpjDigits(` ${digits} `), digits)
    for (const text of [
      `${digits}0`,
      digits.slice(1),
      `x${digits.slice(1)}`,
      `${digits.slice(1)}x`,
      '',
      'a'.repeat(14),
    ])
      assert.equal(cnpjDigits(text), undefined, text)
    const page = await get(`/v1/transparency/suppliers/${encodeURIComponent(written.replace('/', '-'))}`)
    assert.equal(page.status, 200)
    assert.equal(page.body.data.document, digits)
  })

  it("gives a supplier's years newest first, each with its own figures", async () => {
    const { body } = await get(`/v1/transparency/suppliers/${companies[0]}`)
    assert.deepEqual(
      body.data.years.map((y: Json) => [y.year, y.orders.count, y.orders.value]),
      [
        [2025, 2, '50.00'],
        [2024, 1, '10.00'],
      ],
    )
  })

  it('refuses what a list does not take, saying what it takes', async () => {
    const cases: [string, string][] = [
      ['suppliers?q=ab', 'Parâmetro inválido: q. Aceita um texto de 3 a 200 caracteres (palavras do nome).'],
      [
        'organizations?q=ab',
        'Parâmetro inválido: q. Aceita um texto de 3 a 200 caracteres (palavras do nome).',
      ],
      ['suppliers?document=123', 'Parâmetro inválido: document. Aceita um CNPJ, só os 14 dígitos.'],
      [
        'suppliers?cursor=',
        'Parâmetro inválido: cursor. Aceita o next_cursor de uma página anterior desta lista.',
      ],
      [
        'suppliers?cursor=bGlzdA',
        'Cursor inválido: cursor. Use o next_cursor de uma página anterior, com a mesma ordenação e os mesmos filtros.',
      ],
    ]
    for (const [path, message] of cases) {
      const { status, body } = await get(`/v1/transparency/${path}`)
      assert.equal(status, 422, path)
      assert.equal(body.message, message, path)
    }
    // A cursor of one list is not the other's.
    const suppliers = (await get('/v1/transparency/suppliers?per_page=1')).body.data
    const crossed = await get(`/v1/transparency/organizations?cursor=${suppliers.next_cursor}`)
    assert.equal(crossed.status, 422)
    const missing = await get('/v1/transparency/organizations/6f1c2b1e-0000-4000-8000-000000000000')
    assert.equal(missing.status, 404)
    assert.deepEqual(missing.body, { success: false, message: 'Organização não encontrada.' })
  })
})
