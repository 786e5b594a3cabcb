import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { MemoryLimiter } from '../../src/auth/rate-limit.js'
import { issueToken, revokeToken } from '../../src/auth/tokens.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { ORDER_MESSAGES as MESSAGES } from '../../src/messages.js'
import { metricsPortOf } from '../../src/metrics.js'
import { serving, type TestAppOptions } from '../helpers/app.js'
import { manualClock } from '../helpers/clock.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { comparable, eventually, request } from '../helpers/http.js'
import { demoRecords } from '../helpers/records.js'

// Order queries answered from the cache go through the same hooks as every other: the token, the limit, the
// access record, the request id and the metrics. An integrator cannot tell a cached answer from a new one.

describe('cached order answers', () => {
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
    db = await seededDatabase([...records, spaced, accented, ampersand])
    ;({ token: tokenA, id: tokenAId } = await issueToken(db.pool, orgA.uuid as string, 'A'))
    ;({ token: tokenB } = await issueToken(db.pool, (orgs[1] as DemoRecord).uuid as string, 'B'))
  })
  after(() => db.drop())

  /** The app listening, with its limit on a clock the test moves, over a store the test can read. */
  async function servingOnClock(options: TestAppOptions = {}) {
    const clock = manualClock()
    return { clock, ...(await serving(db, { limiter: new MemoryLimiter(clock.now), ...options })) }
  }

  /** The access records of these request ids. */
  async function accessRecords(ids: string[]) {
    const { rows } = await db.pool.query(
      `SELECT request_id, token_id, organization_id, order_number, status FROM access_log
       WHERE request_id = ANY($1) ORDER BY request_id`,
      [ids],
    )
    return rows
  }

  it('answers a cached order from memory as app.inject does, and records it alike', async () => {
    const { app, base, clock, store, close } = await servingOnClock()
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
          const misses = store.misses
          const hit = await request(`${base}${path(number)}`, { ...headers, authorization: tokenA })
          assert.equal(store.misses, misses, `${number} ${JSON.stringify(headers)} was answered from memory`)
          const injected = await app.inject({
            url: path(number),
            headers: {
              ...headers,
              authorization: tokenA,
              ...(headers['x-request-id'] ? { 'x-request-id': `route-${n}` } : {}),
            },
          })
          assert.equal(hit.status, injected.statusCode)
          assert.deepEqual(comparable(hit.headers), comparable(injected.headers), JSON.stringify(headers))
          assert.equal(hit.body, injected.rawPayload.toString('latin1'))
          const answer = JSON.parse(Buffer.from(hit.body, 'latin1').toString())
          assert.equal(answer.message, MESSAGES.success)
          assert.equal(answer.data.number, number)
          assert.equal(hit.headers['cache-control'], 'no-store')
          if (headers['x-request-id']) {
            assert.equal(hit.headers['x-request-id'], headers['x-request-id'])
            ids.push([`hit-${n}`, `route-${n}`])
          } else assert.match(hit.headers['x-request-id'] as string, /^[\w-]{36}$/)
        }
      }
    } finally {
      await close()
    }
    for (const [hit, route] of ids) {
      const rows = await accessRecords([hit, route])
      assert.equal(rows.length, 2, `${hit} and ${route} were both recorded`)
      const [byHit, byRoute] = rows.map(({ request_id: _id, ...rest }) => rest)
      assert.deepEqual(byHit, byRoute)
      assert.equal(byHit?.token_id, tokenAId)
    }
  })

  it('records an answer under the id it sent back when the client sent none', async () => {
    const { base, close } = await servingOnClock()
    const sent: string[] = []
    try {
      for (let i = 0; i < 3; i++) {
        const got = await request(`${base}${path(plain.number as string)}`, { authorization: tokenA })
        assert.equal(got.status, 200)
        sent.push(got.headers['x-request-id'] as string)
      }
    } finally {
      await close()
    }
    const rows = await accessRecords(sent)
    assert.deepEqual(
      rows.map((row) => row.request_id),
      [...sent].sort(),
    )
  })

  it('answers every other query alike, cached answer or not', async () => {
    const { base, clock, close } = await servingOnClock()
    try {
      const number = plain.number as string
      assert.equal((await request(`${base}${path(number)}`, { authorization: tokenA })).status, 200)
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
        const got = await request(`${base}${url}`, headers)
        assert.equal(got.status, status, label)
        if (message)
          assert.equal(JSON.parse(Buffer.from(got.body, 'latin1').toString()).message, message, label)
      }
      // Authorization sent twice is ambiguous: 401 (node:http's client joins nothing here).
      const twice = await request(`${base}${path(number)}`, { authorization: [tokenA, tokenA] as never })
      assert.equal(twice.status, 401)
      for (const method of ['HEAD', 'POST']) {
        const got = await request(`${base}${path(number)}`, { authorization: tokenA }, method)
        assert.equal(got.status, method === 'HEAD' ? 200 : 405, method)
      }
    } finally {
      await close()
    }
  })

  it('looks a missing order up once, and answers a failed lookup with 500, recording each once', async () => {
    const { base, store, close } = await servingOnClock()
    try {
      const misses = store.misses
      const missing = await request(`${base}${path('NAO-EXISTE/1900')}`, {
        authorization: tokenA,
        'x-request-id': 'missing-1',
      })
      assert.equal(missing.status, 500)
      assert.equal(JSON.parse(Buffer.from(missing.body, 'latin1').toString()).message, MESSAGES.notFound)
      assert.equal(store.misses, misses + 1)

      const lookUp = store.order.bind(store)
      let calls = 0
      store.order = (...args: Parameters<typeof lookUp>) =>
        calls++ === 0 ? Promise.reject(new Error('a fault in the lookup')) : lookUp(...args)
      const failed = await request(`${base}${path((ordersOfA[1] as DemoRecord).number as string)}`, {
        authorization: tokenA,
        'x-request-id': 'failed-1',
      })
      assert.equal(calls, 1)
      assert.equal(failed.status, 500)
      assert.equal(JSON.parse(failed.body).message, MESSAGES.internal)
    } finally {
      await close()
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

  it('counts cached answers against the per-token limit', async () => {
    const { base, close } = await servingOnClock()
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
    } finally {
      await close()
    }
  })

  it('stops answering a token once it is revoked, cached answer or not', async () => {
    const { token, id } = await issueToken(db.pool, orgA.uuid as string, 'to revoke')
    const { base, clock, close } = await servingOnClock()
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
      await close()
    }
  })

  it('counts cached answers in the metrics under the route', async () => {
    const { app, base, close } = await servingOnClock({ env: { METRICS_PORT: '0' } })
    try {
      const url = `${base}${path(plain.number as string)}`
      for (let i = 0; i < 3; i++) assert.equal((await request(url, { authorization: tokenA })).status, 200)
      const port = metricsPortOf(app.metricsServer as NonNullable<typeof app.metricsServer>)
      const metrics = (await request(`http://127.0.0.1:${port}/metrics`)).body
      const line = metrics
        .split('\n')
        .find(
          (l) =>
            l.startsWith('compras_http_requests_total{') &&
            l.includes('route="/external/orders"') &&
            l.includes('status="200"'),
        )
      assert.match(line ?? metrics, / 3$/)
    } finally {
      await close()
    }
  })
})
