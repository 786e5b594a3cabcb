import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { type Hit, type Limiter, MemoryLimiter } from '../../src/auth/rate-limit.js'
import { issueToken } from '../../src/auth/tokens.js'
import { importRecords } from '../../src/import/importer.js'
import { MESSAGES } from '../../src/routes/orders.js'
import { buildTestApp, listen } from '../helpers/app.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// Issue 12: an order query whose token and answer are in memory is served before Fastify
// (answerOrderHits, src/routes/hits.ts). A client cannot tell: each such answer is compared, header by
// header, with Fastify's for the same request (app.inject goes straight to Fastify); it is counted by the
// same per-token limit, recorded in the access log and the metrics alike; and whatever the shortcut does
// not answer still reaches Fastify.

interface Got {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

/** A request over a real socket; rawHeaders lets a header be sent twice. */
function request(url: string, rawHeaders: string[] = [], method = 'GET'): Promise<Got> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode as number,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      )
      response.on('error', reject)
    })
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const name = rawHeaders[i] as string
      const value = rawHeaders[i + 1] as string
      const had = outgoing.getHeader(name)
      outgoing.setHeader(name, had === undefined ? value : [String(had), value])
    }
    outgoing.on('error', reject).end()
  })
}

/** What two answers to the same request must share: all but the per-request and per-connection headers. */
function comparable(headers: Record<string, string | string[] | number | undefined>) {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (['date', 'x-request-id', 'connection', 'keep-alive', 'x-ratelimit-remaining'].includes(name)) continue
    kept[name] = String(value)
  }
  return kept
}

/** A limiter kept elsewhere (as Redis is): the same counts, but nothing the shortcut may count in. */
class ElsewhereLimiter implements Limiter {
  private readonly inner = new MemoryLimiter(() => 1_000_000)
  take(key: string, limit: number, windowMs: number): Promise<Hit> {
    return this.inner.take(key, limit, windowMs)
  }
  async close(): Promise<void> {}
}

describe('order queries served before Fastify', () => {
  let db: TestDatabase
  const records = demoRecords(
    { organizations: 2, orders: 6, contracts: 2, arps: 1, directContracts: 1, publicCalls: 1 },
    17,
  )
  const order = first(records, 'order')
  const number = order.number as string
  let token: string
  let tokenId: number

  before(async () => {
    db = await createTestDatabase()
    const result = await importRecords(db.pool, [source(ndjson(records))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    ;({ token, id: tokenId } = await issueToken(db.pool, order.organization_uuid as string, null))
  })
  after(() => db.drop())

  /** The app listening with limiter, and how many requests Fastify answered. */
  async function serving(limiter: Limiter, env: Record<string, string> = {}) {
    const app = await buildTestApp(db, { env, limiter })
    let reached = 0
    app.addHook('onResponse', (_request, _reply, done) => {
      reached++
      done()
    })
    const base = await listen(app)
    return { app, base, reached: () => reached }
  }

  const path = `/external/orders?order_number=${number}`

  it('answers a kept order as Fastify does, counted by the same limit and recorded alike', async () => {
    assert.match(number, /^[0-9A-Za-z./-]+$/, 'the demo numbers need no encoding')
    // A clock that stands still: the per-token window never empties, so every count is exact.
    const limiter = new MemoryLimiter(() => 1_000_000)
    const { app, base, reached } = await serving(limiter, { METRICS_PORT: '0' })
    const ids: string[] = []
    try {
      const built = await request(`${base}${path}`, ['authorization', token])
      assert.equal(built.status, 200)
      assert.equal(reached(), 1, 'the first request looked the token and the order up')
      for (const [index, headers] of [
        [],
        ['x-request-id', 'integrator.req-1'],
        ['accept-encoding', 'gzip, br'],
        ['origin', 'https://example.org'],
      ].entries()) {
        const before = reached()
        const hit = await request(`${base}${path}`, ['authorization', token, ...headers])
        assert.equal(reached(), before, `${JSON.stringify(headers)} was served before Fastify`)
        const fastify = await app.inject({
          url: path,
          headers: { authorization: token, ...(headers[0] ? { [headers[0]]: headers[1] as string } : {}) },
        })
        assert.equal(hit.status, fastify.statusCode)
        assert.deepEqual(comparable(hit.headers), comparable(fastify.headers), JSON.stringify(headers))
        assert.equal(hit.body, fastify.body)
        assert.equal(JSON.parse(hit.body).message, MESSAGES.success)
        // Each took one place of the token's 60: the hit, then Fastify's request after it.
        assert.equal(hit.headers['x-ratelimit-remaining'], String(60 - 2 - 2 * index))
        assert.equal(fastify.headers['x-ratelimit-remaining'], String(60 - 3 - 2 * index))
        const id = hit.headers['x-request-id'] as string
        if (headers[0] === 'x-request-id') assert.equal(id, headers[1])
        ids.push(id)
      }
      const server = (app as unknown as { metricsServer: http.Server }).metricsServer
      const metrics = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)
      const line = metrics.body
        .split('\n')
        .find(
          (l) =>
            l.startsWith('compras_http_requests_total{') &&
            l.includes('route="/external/orders"') &&
            l.includes('status="200"'),
        )
      assert.match(line as string, / 9$/, 'one built, four hits and four through Fastify')
    } finally {
      await app.close() // writes the access records still pending
    }
    const { rows } = await db.pool.query(
      `SELECT token_id, organization_id, order_number, status FROM access_log WHERE request_id = ANY($1)`,
      [ids],
    )
    // One record for each hit, and one for Fastify's answer that was sent the same chosen id.
    assert.equal(rows.length, ids.length + 1)
    for (const row of rows)
      assert.deepEqual(row, {
        token_id: tokenId,
        organization_id: order.organization_uuid,
        order_number: number,
        status: 200,
      })
  })

  it('leaves to Fastify what it cannot answer as Fastify would', async () => {
    const limiter = new MemoryLimiter(() => 2_000_000)
    const { app, base, reached } = await serving(limiter)
    try {
      assert.equal((await request(`${base}${path}`, ['authorization', token])).status, 200)
      // An order of another organ, under a number this organ has not used.
      const own = new Set(
        records.filter((r) => r.organization_uuid === order.organization_uuid).map((r) => r.number),
      )
      const other = records.find(
        (r) => r.type === 'order' && r.organization_uuid !== order.organization_uuid && !own.has(r.number),
      ) as (typeof records)[number]
      assert.ok(other, 'the demo data has an order of another organ under a number of its own')
      for (const [label, url, headers, status, method] of [
        ['a number sent encoded', path.replace(/[0-9]/, (d) => `%3${d}`), ['authorization', token], 200],
        ['another parameter too', `${path}&x=1`, ['authorization', token], 200],
        ['the parameter twice', `${path}&order_number=${number}`, ['authorization', token], 500],
        ['Authorization twice', path, ['authorization', token, 'authorization', token], 401],
        ['no token', path, [], 401],
        ['an unknown token', path, ['authorization', `${token.slice(0, -2)}xx`], 401],
        [
          'an order not in the cache',
          '/external/orders?order_number=999999/1999',
          ['authorization', token],
          500,
        ],
        [
          "another organ's order",
          `/external/orders?order_number=${other.number as string}`,
          ['authorization', token],
          500,
        ],
        ['HEAD', path, ['authorization', token], 200, 'HEAD'],
      ] as [string, string, string[], number, string?][]) {
        const before = reached()
        const got = await request(`${base}${url}`, headers, method)
        assert.equal(got.status, status, label)
        assert.equal(reached(), before + 1, `${label} reached Fastify`)
      }
      // Over the limit: the shortcut counts nothing it refuses, and Fastify refuses it.
      let served = 0
      while (served < 100) {
        const got = await request(`${base}${path}`, ['authorization', token])
        if (got.status !== 200) {
          assert.equal(got.status, 429)
          assert.deepEqual(JSON.parse(got.body), { message: MESSAGES.tooManyRequests, data: [] })
          assert.ok(Number(got.headers['retry-after']) >= 1)
          break
        }
        served++
      }
      assert.ok(served < 60, `${served} served before the refusal`)
      const before = reached()
      assert.equal((await request(`${base}${path}`, ['authorization', token])).status, 429)
      assert.equal(reached(), before + 1)
    } finally {
      await app.close()
    }
  })

  it('is off when the per-token limit is kept outside the process', async () => {
    const { app, base, reached } = await serving(new ElsewhereLimiter())
    try {
      for (let i = 1; i <= 3; i++) {
        assert.equal((await request(`${base}${path}`, ['authorization', token])).status, 200)
        assert.equal(reached(), i)
      }
    } finally {
      await app.close()
    }
  })
})
