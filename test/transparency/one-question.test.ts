import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DemoRecord } from '../../src/demo/generator.js'
import { cnpjFrom } from '../../src/demo/tax-ids.js'
import { importRecords } from '../../src/import/importer.js'
import { MESSAGES } from '../../src/messages.js'
import { WAITS_PER_ADDRESS } from '../../src/services.js'
import { serving } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { turns, until } from '../helpers/http.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// One question, one answer (issue 66, F2 and F4): the spellings a client can give one question (case and spaces
// of a search, %-escapes, parameter order, stray &, +, zeros before a number, defaults written out) are kept as
// one cache entry, and every request waiting on the feed for the same question shares one read when an import
// comes. Both are seen in the read path's own count of what it had to build.

const records = demoRecords(
  { organizations: 2, orders: 12, contracts: 6, arps: 2, directContracts: 2, publicCalls: 2 },
  21,
)
const organization = first(records, 'organization')
const template = first(records, 'order')
const company = { document: cnpjFrom([1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 1]), name: 'Papelaria Central Ltda' }
const pens: DemoRecord[] = ['1.00', '2.00', '3.00'].map((amount, k) => ({
  ...template,
  number: `CANETA-${k}/2025`,
  provider_name: company.name,
  provider_document: company.document,
  arp_number: null,
  contract_number: null,
  amount_total: Number(amount),
  items: [
    {
      number_item: '1',
      description: 'Caneta esferográfica azul',
      brand: 'Marca',
      unit_measurement: 'UN',
      quantity: 1,
      amount: Number(amount),
      amount_total: Number(amount),
    },
  ],
}))

describe('one question, one answer', () => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof serving>>

  before(async () => {
    db = await seededDatabase([...records, ...pens])
    server = await serving(db, { env: { TRUST_PROXY: 'true', PUBLIC_RATE_LIMIT: '0' } })
  })
  after(async () => {
    await server.close()
    await db.drop()
  })

  /** Every spelling answers the first one's bytes, and only the first is built. */
  async function oneEntry(path: string, spellings: readonly string[]) {
    const [spelled, ...others] = spellings as [string, ...string[]]
    const answered = await fetch(`${server.base}${path}${spelled}`)
    assert.equal(answered.status, 200, spelled)
    const body = await answered.text()
    const misses = server.store.misses
    for (const other of others) {
      const again = await fetch(`${server.base}${path}${other}`)
      assert.equal(again.status, 200, other)
      assert.equal(await again.text(), body, other)
      assert.equal(server.store.misses, misses, `${other} was built again`)
    }
  }

  it('keeps one price research however it is spelled', async () => {
    await oneEntry('/v1/transparency/prices', [
      '?q=caneta%20azul',
      '?q=Caneta%20Azul',
      '?q=CANETA%20AZUL',
      '?q=can%65ta%20azul',
      '?q=caneta+azul',
      '?q=caneta%20%20azul',
      '?q=%20caneta%20azul%20',
      '?&q=caneta%20azul&',
      '?q=caneta%20azul&per_page=20',
      '?per_page=20&q=caneta%20azul',
      '?q=caneta%20azul&per_page=020',
      '?q=caneta%20azul&sort=amount',
      '?sort=amount&per_page=20&q=caneta%20azul',
    ])
  })

  it('keeps one listing page, one list of suppliers or organizations, one supplier page', async () => {
    const uuid = organization.uuid as string
    await oneEntry('/v1/transparency/contracts', [
      `?organization_uuid=${uuid}&with_relations=documents,terms`,
      `?organization_uuid=${uuid.toUpperCase()}&with_relations=terms,documents`,
      `?with_relations=terms,%20documents&per_page=20&organization_uuid=${uuid}`,
      `?organization_uuid=${uuid}&with_relations=documents,terms&sort=-date_start&per_page=020`,
    ])
    await oneEntry('/v1/transparency/suppliers', [
      '?q=papelaria',
      '?q=Papelaria',
      '?per_page=20&q=PAPELARIA%20',
    ])
    await oneEntry('/v1/transparency/organizations', ['?per_page=5', '?per_page=05&'])
    const [a, b, c, d, e, f, g, h, i, j, k, l, m, n] = company.document
    await oneEntry('/v1/transparency/suppliers/', [
      company.document,
      `${a}${b}.${c}${d}${e}.${f}${g}${h}%2F${i}${j}${k}${l}-${m}${n}`,
      `${a}${b}.${c}${d}${e}.${f}${g}${h}${i}${j}${k}${l}-${m}${n}`,
      `${a}${b}${c}${d}${e}${f}${g}${h}-${i}${j}${k}${l}${m}${n}`,
    ])
  })

  it('reads the feed once for every request waiting on one question, and bounds the waits of an address', async () => {
    const { base, store } = server
    let after = ''
    for (const _turn of turns(10_000, 'the feed')) {
      const page = (await (await fetch(`${base}/v1/transparency/changes?per_page=1000${after}`)).json()) as {
        data: { next_cursor: string; has_more: boolean }
      }
      after = `&after=${page.data.next_cursor}`
      if (!page.data.has_more) break
    }
    // Twenty-four readers at the end of the feed, each from an address of its own, some spelling it otherwise.
    const readers = Array.from({ length: 24 }, (_, k) =>
      fetch(
        `${base}/v1/transparency/changes?${k % 2 ? `wait=20${after}` : `${after.slice(1)}&wait=25&per_page=100`}`,
        {
          headers: { 'x-forwarded-for': `10.9.0.${k + 1}` },
          signal: AbortSignal.timeout(30_000),
        },
      ),
    )
    // They all wait (one read of the feed's end between them, kept as a listing's page is).
    await new Promise((resolve) => setTimeout(resolve, 500))
    const before = store.builds
    // An address past its share of waits is told to come back.
    const crowd = Array.from({ length: WAITS_PER_ADDRESS + 1 }, () =>
      fetch(`${base}/v1/transparency/changes?wait=20${after}`, {
        headers: { 'x-forwarded-for': '10.9.1.1' },
        signal: AbortSignal.timeout(30_000),
      }),
    )
    const refused = await Promise.race(crowd)
    assert.equal(refused.status, 429)
    assert.equal(refused.headers.get('retry-after'), '5')
    assert.deepEqual(await refused.json(), { success: false, message: MESSAGES.waitsBusy })
    // An import: every waiter is answered with its entry, and the feed was read once for all of them.
    const changed = { ...first(records, 'contract'), object_details: 'Objeto alterado para o teste' }
    const result = await importRecords(db.pool, [source(ndjson([changed]))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    const answers = await Promise.all(readers)
    const bodies = await Promise.all(answers.map((answer) => answer.text()))
    for (const [k, answer] of answers.entries()) {
      assert.equal(answer.status, 200)
      assert.equal(bodies[k], bodies[0], 'every waiter has the same page')
    }
    const page = JSON.parse(bodies[0] as string) as { data: { data: { id: string }[] } }
    assert.ok(page.data.data.some((entry) => entry.id === (changed as DemoRecord).id))
    await until(async () => store.builds > before, 5000, 'the read after the import')
    assert.equal(store.builds - before, 1, 'one read for every waiter')
    await Promise.all(crowd.map((asked) => asked.then((answer) => (answer.bodyUsed ? '' : answer.text()))))
  })
})
