import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { MemoryLimiter } from '../../src/auth/rate-limit.js'
import { issueToken } from '../../src/auth/tokens.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { buildTestApp } from '../helpers/app.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { turns } from '../helpers/http.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// An organ's feed of its orders (GET /external/orders/changes), under the order query's authentication:
// what an organ's system needs to keep its copy of its orders in sync.

interface Entry {
  cursor: string
  number: string
  change: string
  changed_at: string
  order?: Record<string, unknown>
}

describe("an organ's feed of its orders", () => {
  let db: TestDatabase
  let app: FastifyInstance
  let tokenA = ''
  let tokenB = ''
  const records = demoRecords(
    { organizations: 2, orders: 30, contracts: 4, arps: 2, directContracts: 1, publicCalls: 1 },
    50,
  )
  const [orgA, orgB] = records.filter((r) => r.type === 'organization') as [DemoRecord, DemoRecord]
  const ordersOf = (org: DemoRecord) =>
    records.filter((r) => r.type === 'order' && r.organization_uuid === org.uuid)

  const get = async (url: string, authorization?: string) => {
    const response = await app.inject({ url, headers: authorization === undefined ? {} : { authorization } })
    return { status: response.statusCode, headers: response.headers, body: response.json() }
  }
  async function readAll(token: string, from?: string, perPage = 4) {
    const entries: Entry[] = []
    let cursor = from
    for (const _turn of turns(10_000, 'the feed')) {
      const { status, body } = await get(
        `/external/orders/changes?per_page=${perPage}${cursor ? `&after=${cursor}` : ''}`,
        token,
      )
      assert.equal(status, 200, JSON.stringify(body))
      assert.equal(body.message, 'Alterações recuperadas com sucesso')
      entries.push(...body.data.data)
      cursor = body.data.next_cursor
      if (!body.data.has_more) return { entries, next: cursor as string }
    }
    throw new Error('unreachable: turns() throws past its last turn')
  }
  const importLines = async (lines: readonly unknown[]) => {
    const result = await importRecords(db.pool, [source(ndjson(lines))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
  }

  before(async () => {
    db = await createTestDatabase()
    await importLines(records)
    ;({ token: tokenA } = await issueToken(db.pool, orgA.uuid as string, 'A'))
    ;({ token: tokenB } = await issueToken(db.pool, orgB.uuid as string, 'B'))
    app = await buildTestApp(db, { limiter: new MemoryLimiter(), env: { PUBLIC_RATE_LIMIT: '0' } })
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  it("lists the token's organ's orders, each with the order as the order query answers it", async () => {
    const { entries } = await readAll(tokenA)
    assert.deepEqual(
      entries.map((e) => e.number).sort(),
      ordersOf(orgA)
        .map((o) => o.number as string)
        .sort(),
    )
    for (const entry of entries.slice(0, 5)) {
      assert.equal(entry.change, 'created')
      const query = await get(`/external/orders?order_number=${encodeURIComponent(entry.number)}`, tokenA)
      assert.deepEqual(entry.order, query.body.data)
    }
    // A page holds per_page entries at most, and says whether more follow: exactly so at the edge.
    const whole = await get(`/external/orders/changes?per_page=${entries.length}`, tokenA)
    assert.deepEqual(whole.body.data.data, entries)
    assert.equal(whole.body.data.has_more, false)
    const short = await get(`/external/orders/changes?per_page=${entries.length - 1}`, tokenA)
    assert.deepEqual(short.body.data.data, entries.slice(0, -1))
    assert.equal(short.body.data.has_more, true)
    // Another organ sees its own, never these.
    const theirs = (await readAll(tokenB)).entries.map((e) => e.number)
    assert.ok(
      theirs.every(
        (number) =>
          !entries.some((e) => e.number === number) || ordersOf(orgB).some((o) => o.number === number),
      ),
    )
    assert.equal(theirs.length, ordersOf(orgB).length)
  })

  it('adds a changed order and a withdrawn one, in commit order, and shows them to their organ alone', async () => {
    const { next: fromA } = await readAll(tokenA)
    const { next: fromB } = await readAll(tokenB)
    const [changed, withdrawn] = ordersOf(orgA) as [DemoRecord, DemoRecord]
    await importLines([{ ...changed, location_delivery: 'Almoxarifado central, doca 3' }])
    await importLines([
      { type: 'withdraw', record: 'order', organization_uuid: orgA.uuid, number: withdrawn.number },
    ])
    const { entries } = await readAll(tokenA, fromA)
    assert.deepEqual(
      entries.map((e) => [e.number, e.change]),
      [
        [changed.number, 'updated'],
        [withdrawn.number, 'withdrawn'],
      ],
    )
    assert.equal(entries[0]?.order?.location_delivery, 'Almoxarifado central, doca 3')
    assert.deepEqual(Object.keys(entries[1] as Entry), ['cursor', 'number', 'change', 'changed_at'])
    assert.deepEqual((await readAll(tokenB, fromB)).entries, [])
    // Only the tombstone of the withdrawn order remains, from the start.
    const all = (await readAll(tokenA)).entries.filter((e) => e.number === withdrawn.number)
    assert.deepEqual(
      all.map((e) => e.change),
      ['withdrawn'],
    )
  })

  it('answers as the order query does without a good token, and shares its limit', async () => {
    for (const authorization of [undefined, '', 'Bearer x', `${tokenA} `]) {
      const { status, body } = await get('/external/orders/changes', authorization)
      assert.equal(status, 401)
      assert.deepEqual(body, { message: 'Unauthorized', data: [] })
    }
    const { token } = await issueToken(db.pool, orgA.uuid as string, 'limit')
    const statuses: number[] = []
    for (let i = 0; i < 40; i++)
      statuses.push((await get('/external/orders/changes?per_page=1', token)).status)
    const number = encodeURIComponent(
      first(records, 'order', (o) => o.organization_uuid === orgA.uuid).number as string,
    )
    for (let i = 0; i < 25; i++)
      statuses.push((await get(`/external/orders?order_number=${number}`, token)).status)
    assert.equal(statuses.filter((s) => s === 200).length, 60)
    assert.equal(statuses.filter((s) => s === 429).length, 5)
    const refused = await get('/external/orders/changes', token)
    assert.equal(refused.status, 429)
    assert.deepEqual(refused.body, { message: 'Too Many Requests', data: [] })
    assert.ok(Number(refused.headers['retry-after']) >= 1)
  })

  it("keeps another organ's entries of an order of the same number when one organ withdraws its own", async () => {
    // The same number in both organs: two orders, each its organ's.
    const number = 'OF-COMUM/2026'
    const mineA: DemoRecord = {
      ...(ordersOf(orgA)[0] as DemoRecord),
      number,
      contract_number: null,
      arp_number: null,
    }
    const mineB: DemoRecord = {
      ...(ordersOf(orgB)[0] as DemoRecord),
      number,
      contract_number: null,
      arp_number: null,
    }
    await importLines([mineA, mineB])
    await importLines([{ type: 'withdraw', record: 'order', organization_uuid: orgA.uuid, number }])
    const a = (await readAll(tokenA)).entries.filter((e) => e.number === number)
    assert.deepEqual(
      a.map((e) => e.change),
      ['withdrawn'],
    )
    const b = (await readAll(tokenB)).entries.filter((e) => e.number === number)
    assert.deepEqual(
      b.map((e) => e.change),
      ['created'],
    )
    assert.equal(b[0]?.order?.number, number)
  })

  it("refuses a bad cursor and bad parameters with 422, another feed's cursor with 410, each named", async () => {
    for (const [query, status, message] of [
      ['after=xyz', 422, /^Cursor inválido: after\. Use o next_cursor/],
      [`after=${Buffer.from('o1.3').toString('base64url')}`, 410, /^Cursor desconhecido: after\./],
      [`after=${Buffer.from('c1.3').toString('base64url')}`, 410, /^Cursor desconhecido: after\./],
      ['per_page=0', 422, /^Parâmetro inválido: per_page\. Aceita um número inteiro de 1 a 1000\.$/],
      ['since=ontem', 422, /^Parâmetro inválido: since\./],
      ['wait=31', 422, /^Parâmetro inválido: wait\./],
      [
        'order_number=1',
        422,
        /^Parâmetro desconhecido: order_number\. Aceitos: after, per_page, since, wait\.$/,
      ],
    ] as const) {
      const { status: got, body } = await get(`/external/orders/changes?${query}`, tokenA)
      assert.equal(got, status, query)
      assert.deepEqual(body.data, [], query)
      assert.match(body.message, message, query)
    }
  })

  it('leaves an access record per page, under its request id', async () => {
    const response = await app.inject({
      url: '/external/orders/changes',
      headers: { authorization: tokenA, 'x-request-id': 'feed-page-1' },
    })
    assert.equal(response.statusCode, 200)
    await app.close()
    app = await buildTestApp(db, { limiter: new MemoryLimiter(), env: { PUBLIC_RATE_LIMIT: '0' } })
    const { rows } = await db.pool.query(
      "SELECT status, order_number, organization_id FROM access_log WHERE request_id = 'feed-page-1'",
    )
    assert.deepEqual(rows, [{ status: 200, order_number: null, organization_id: orgA.uuid }])
  })
})
