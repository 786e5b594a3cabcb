import assert from 'node:assert/strict'
import type http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { MemoryLimiter } from '../../src/auth/rate-limit.js'
import { issueToken, revokeToken } from '../../src/auth/tokens.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { DocumentStore } from '../../src/readmodel/store.js'
import { MESSAGES } from '../../src/routes/orders.js'
import { buildTestApp, listen, type TestAppOptions } from '../helpers/app.js'
import { manualClock } from '../helpers/clock.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { comparable, eventually, request } from '../helpers/http.js'
import { demoRecords, ndjson, source } from '../helpers/records.js'

// Issue 12: an order query whose token is in memory is served before Fastify, from the cache or looked up
// first (src/routes/order-hits.ts). An integrator cannot tell: each such answer is compared, header by header and
// byte by byte, with the one Fastify gives for the same request (app.inject goes straight to Fastify), its
// access record with Fastify's, and whatever the shortcut leaves alone still reaches the route.

describe('order queries served before Fastify', () => {
  let db: TestDatabase
  const records = demoRecords(
    { organizations: 2, orders: 6, contracts: 3, arps: 2, directContracts: 1, publicCalls: 1 },
    31,
  )
  const orgs = records.filter((r) => r.type === 'organization') as DemoRecord[]
  const orgA = orgs[0] as DemoRecord
  const ordersOfA = records.filter((r) => r.type === 'order' && r.organization_uuid === orgA.uuid)
  const plain = ordersOfA[0] as DemoRecord
  // Numbers a client must escape: a space, an accented letter, and an ampersand inside the value.
  const spaced = { ...plain, number: 'OF 12/2025' }
  const accented = { ...plain, number: 'Ação-7/2025' }
  const ampersand = { ...plain, number: 'A&B=1/2025' }
  const numbers = [plain.number as string, spaced.number, accented.number, ampersand.number]
  let tokenA = ''
  let tokenAId = 0
  let tokenB = ''

  const path = (number: string) => `/external/orders?order_number=${encodeURIComponent(number)}`

  before(async () => {
    db = await createTestDatabase()
    const result = await importRecords(db.pool, [source(ndjson([...records, spaced, accented, ampersand]))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    ;({ token: tokenA, id: tokenAId } = await issueToken(db.pool, orgA.uuid as string, 'A'))
    ;({ token: tokenB } = await issueToken(db.pool, (orgs[1] as DemoRecord).uuid as string, 'B'))
  })
  after(() => db.drop())

  /** The app listening, with its limit on a clock the test moves, and how many requests Fastify answered. */
  async function serving(options: TestAppOptions = {}) {
    const clock = manualClock()
    const app = await buildTestApp(db, { limiter: new MemoryLimiter(clock.now), ...options })
    let reached = 0
    app.addHook('onResponse', (_request, _reply, done) => {
      reached++
      done()
    })
    const base = await listen(app)
    return { app, base, clock, reached: () => reached }
  }

  /** The access records of these request ids, as the route and the shortcut wrote them. */
  async function accessRecords(ids: string[]) {
    const { rows } = await db.pool.query(
      `SELECT request_id, token_id, organization_id, order_number, status FROM access_log
       WHERE request_id = ANY($1) ORDER BY request_id`,
      [ids],
    )
    return rows
  }

  it('answers a cached order as the route does, without entering Fastify, and records it alike', async () => {
    const { app, base, clock, reached } = await serving()
    const ids: [string, string][] = []
    try {
      for (const [n, number] of numbers.entries()) {
        clock.advance(1000)
        const built = await request(`${base}${path(number)}`, { authorization: tokenA })
        assert.equal(built.status, 200, number)
        const variants: Record<string, string>[] = [
          {},
          { 'accept-encoding': 'gzip, br' },
          { 'x-request-id': `hit-${n}` },
          { 'if-none-match': '"anything"', origin: 'https://example.org' },
        ]
        for (const headers of variants) {
          const before = reached()
          const hit = await request(`${base}${path(number)}`, { ...headers, authorization: tokenA })
          assert.equal(reached(), before, `${number} ${JSON.stringify(headers)} was served before Fastify`)
          const fastify = await app.inject({
            url: path(number),
            headers: {
              ...headers,
              authorization: tokenA,
              ...(headers['x-request-id'] ? { 'x-request-id': `route-${n}` } : {}),
            },
          })
          assert.equal(hit.status, fastify.statusCode)
          assert.deepEqual(comparable(hit.headers), comparable(fastify.headers), JSON.stringify(headers))
          assert.equal(hit.body, fastify.rawPayload.toString('latin1'))
          const answer = JSON.parse(Buffer.from(hit.body, 'latin1').toString())
          assert.equal(answer.message, MESSAGES.success)
          assert.equal(answer.data.number, number)
          // The limit counted it: one more left than Fastify's answer just after it showed.
          assert.equal(
            Number(hit.headers['x-ratelimit-remaining']),
            Number(fastify.headers['x-ratelimit-remaining']) + 1,
          )
          if (headers['x-request-id']) {
            assert.equal(hit.headers['x-request-id'], headers['x-request-id'])
            ids.push([`hit-${n}`, `route-${n}`])
          } else assert.match(hit.headers['x-request-id'] as string, /^[\w-]{36}$/)
        }
      }
    } finally {
      await app.close() // flushes the access records
    }
    for (const [hit, route] of ids) {
      const rows = await accessRecords([hit, route])
      assert.equal(rows.length, 2, `${hit} and ${route} were both recorded`)
      const [byHit, byRoute] = rows.map(({ request_id: _id, ...rest }) => rest)
      assert.deepEqual(byHit, byRoute)
      assert.equal(byHit?.token_id, tokenAId)
    }
  })

  it('leaves to the route whatever is not a cached answer to a known token', async () => {
    const { app, base, clock, reached } = await serving()
    try {
      const number = plain.number as string
      const cached = await request(`${base}${path(number)}`, { authorization: tokenA })
      assert.equal(cached.status, 200)
      const escaped = encodeURIComponent(number)
      for (const [label, url, headers, status, message] of [
        ['no token', path(number), {}, 401, MESSAGES.unauthorized],
        ['an unknown token', path(number), { authorization: `${tokenA.slice(0, -4)}AAAA` }, 401, null],
        ["another organ's token", path(number), { authorization: tokenB }, 500, MESSAGES.notFound],
        ['a missing order', path('NAO-EXISTE/1900'), { authorization: tokenA }, 500, MESSAGES.notFound],
        ['a blank number', '/external/orders?order_number=', { authorization: tokenA }, 500, null],
        [
          'a padded number',
          `/external/orders?order_number=%20${escaped}`,
          { authorization: tokenA },
          200,
          null,
        ],
        ['a second parameter', `${path(number)}&x=1`, { authorization: tokenA }, 200, null],
        ['a plus sign', `/external/orders?order_number=${escaped}+`, { authorization: tokenA }, 200, null],
        ['a broken escape', '/external/orders?order_number=%E0%A4%A', { authorization: tokenA }, 500, null],
      ] as const) {
        clock.advance(1000)
        const before = reached()
        const got = await request(`${base}${url}`, headers)
        assert.equal(reached(), before + 1, `${label} reached the route`)
        assert.equal(got.status, status, label)
        if (message)
          assert.equal(JSON.parse(Buffer.from(got.body, 'latin1').toString()).message, message, label)
      }
      // Authorization sent twice is ambiguous: the route answers 401 (node:http's client joins nothing here).
      const before = reached()
      const twice = await request(`${base}${path(number)}`, { authorization: [tokenA, tokenA] as never })
      assert.equal(twice.status, 401)
      assert.equal(reached(), before + 1)
      for (const method of ['HEAD', 'POST']) {
        const got = await request(`${base}${path(number)}`, { authorization: tokenA }, method)
        assert.equal(got.status, method === 'HEAD' ? 200 : 405, method)
      }
      assert.equal(reached(), before + 3)
    } finally {
      await app.close()
    }
  })

  it('looks an order up before Fastify for a known token, and answers, counts and records it as the route', async () => {
    const store = new DocumentStore(db.pool, { cacheBytes: 1 << 20, onError: () => {} })
    await store.start()
    const { app, base, reached } = await serving({ store })
    const ids: [string, string][] = []
    try {
      // The token's first query reaches the route, which keeps the token in memory.
      assert.equal(
        (await request(`${base}${path(plain.number as string)}`, { authorization: tokenA })).status,
        200,
      )
      assert.equal(reached(), 1)
      const remainingAfter = async () =>
        Number(
          (await request(`${base}${path(plain.number as string)}`, { authorization: tokenA })).headers[
            'x-ratelimit-remaining'
          ],
        )
      for (const [n, number] of numbers.slice(1).entries()) {
        const misses = store.misses
        const routed = reached()
        const looked = await request(`${base}${path(number)}`, {
          authorization: tokenA,
          'x-request-id': `looked-${n}`,
        })
        assert.equal(store.misses, misses + 1, `${number} was not in the cache`)
        assert.equal(reached(), routed, `${number} was answered before Fastify`)
        const fastify = await app.inject({
          url: path(number),
          headers: { authorization: tokenA, 'x-request-id': `routed-${n}` },
        })
        assert.equal(looked.status, 200)
        assert.deepEqual(comparable(looked.headers), comparable(fastify.headers))
        assert.equal(looked.body, fastify.rawPayload.toString('latin1'))
        assert.equal(
          Number(looked.headers['x-ratelimit-remaining']),
          Number(fastify.headers['x-ratelimit-remaining']) + 1,
        )
        ids.push([`looked-${n}`, `routed-${n}`])
      }

      // A missing order: looked up once, counted once, answered and recorded once, by the route.
      const before = await remainingAfter()
      const misses = store.misses
      const routed = reached()
      const missing = await request(`${base}${path('NAO-EXISTE/1900')}`, {
        authorization: tokenA,
        'x-request-id': 'missing-1',
      })
      assert.equal(missing.status, 500)
      assert.equal(JSON.parse(Buffer.from(missing.body, 'latin1').toString()).message, MESSAGES.notFound)
      assert.equal(reached(), routed + 1, 'the route answered the missing order')
      assert.equal(store.misses, misses + 1, 'without looking it up again')
      assert.equal(Number(missing.headers['x-ratelimit-remaining']), before - 1, 'the limit counted it once')

      // A failed lookup: the route answers the failure without trying again; counted and recorded once.
      const lookUp = store.orderAnswer.bind(store)
      let calls = 0
      store.orderAnswer = (...args: Parameters<typeof lookUp>) =>
        calls++ === 0 ? Promise.reject(new Error('a fault in the lookup')) : lookUp(...args)
      const before2 = await remainingAfter()
      const failed = await request(`${base}${path((ordersOfA[1] as DemoRecord).number as string)}`, {
        authorization: tokenA,
        'x-request-id': 'failed-1',
      })
      assert.equal(calls, 1, 'the route answered the failure without looking the order up again')
      assert.equal(failed.status, 500)
      assert.equal(JSON.parse(failed.body).message, MESSAGES.internal)
      assert.equal(Number(failed.headers['x-ratelimit-remaining']), before2 - 1)
    } finally {
      await app.close() // flushes the access records
      await store.close()
    }
    for (const [looked, routed] of ids) {
      const rows = await accessRecords([looked, routed])
      assert.equal(rows.length, 2, `${looked} and ${routed} were both recorded`)
      const [byShortcut, byRoute] = rows.map(({ request_id: _id, ...rest }) => rest)
      assert.deepEqual(byShortcut, byRoute)
    }
    const once = await accessRecords(['missing-1', 'failed-1'])
    assert.deepEqual(
      once.map((row) => [row.request_id, row.status, row.token_id]),
      [
        ['failed-1', 500, tokenAId],
        ['missing-1', 500, tokenAId],
      ],
    )
  })

  it('counts hits against the per-token limit, and leaves the refusal to the route', async () => {
    const { app, base, reached } = await serving()
    try {
      const url = `${base}${path(plain.number as string)}`
      const seen: number[] = []
      for (let i = 0; i < 61; i++) {
        const got = await request(url, { authorization: tokenA })
        if (got.status !== 200) {
          assert.equal(got.status, 429)
          assert.equal(JSON.parse(got.body).message, MESSAGES.tooManyRequests)
          assert.ok(Number(got.headers['retry-after']) >= 1)
          break
        }
        seen.push(Number(got.headers['x-ratelimit-remaining']))
      }
      assert.deepEqual(
        seen,
        Array.from({ length: 60 }, (_, i) => 59 - i),
      )
      assert.equal(reached(), 2, 'the first built the answer, the 61st was refused; the rest were hits')
    } finally {
      await app.close()
    }
  })

  it('stops serving a token from memory once it is revoked', async () => {
    const { token, id } = await issueToken(db.pool, orgA.uuid as string, 'to revoke')
    const { app, base, clock } = await serving()
    try {
      const url = `${base}${path(plain.number as string)}`
      assert.equal((await request(url, { authorization: token })).status, 200)
      assert.equal((await request(url, { authorization: token })).status, 200)
      assert.equal(await revokeToken(db.pool, id), true)
      await eventually(async () => {
        clock.advance(1000)
        assert.equal((await request(url, { authorization: token })).status, 401)
      })
    } finally {
      await app.close()
    }
  })

  it('counts hits in the metrics under the route, as Fastify counts the rest', async () => {
    const { app, base } = await serving({ env: { METRICS_PORT: '0' } })
    try {
      const url = `${base}${path(plain.number as string)}`
      for (let i = 0; i < 3; i++) assert.equal((await request(url, { authorization: tokenA })).status, 200)
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
      assert.match(line ?? metrics.body, / 3$/)
    } finally {
      await app.close()
    }
  })

  it('lets the route answer every query when each request is logged', async () => {
    const { app, base, reached } = await serving({ env: { LOG_REQUESTS: 'true' } })
    try {
      const url = `${base}${path(plain.number as string)}`
      await request(url, { authorization: tokenA })
      await request(url, { authorization: tokenA })
      assert.equal(reached(), 2)
    } finally {
      await app.close()
    }
  })
})
