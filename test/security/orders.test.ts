import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { AccessLog, type AccessRecord } from '../../src/auth/access-log.js'
import { type Limiter, MemoryLimiter, RedisLimiter } from '../../src/auth/rate-limit.js'
import { issueToken } from '../../src/auth/tokens.js'
import { createPool } from '../../src/db/pool.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { DocumentStore } from '../../src/readmodel/store.js'
import { buildTestApp } from '../helpers/app.js'
import { manualClock } from '../helpers/clock.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { until } from '../helpers/http.js'
import { startProxy, type TcpProxy, viaProxy } from '../helpers/proxy.js'
import { demoRecords, ndjson, source } from '../helpers/records.js'
import { limiterReady, NO_REDIS, type TestRedis, testRedis } from '../helpers/redis.js'

// Hardening, items 2 (the access log), 3 (one bad key in a batch), 7 (the failure limit under
// concurrency) and 9 (a sliding window across the boundary of a second).

describe('order query under hostile input', () => {
  let db: TestDatabase
  let redis: TestRedis | undefined
  const records = demoRecords(
    { organizations: 2, orders: 40, contracts: 6, arps: 4, directContracts: 2, publicCalls: 2 },
    33,
  )
  const [orgA, orgB] = records.filter((r) => r.type === 'organization') as [DemoRecord, DemoRecord]
  const ordersOf = (org: DemoRecord) =>
    records.filter((r) => r.type === 'order' && r.organization_uuid === org.uuid)
  let tokenA = ''
  let tokenB = ''
  const url = (number: string) => `/external/orders?order_number=${encodeURIComponent(number)}`

  before(async () => {
    db = await createTestDatabase()
    const result = await importRecords(db.pool, [source(ndjson(records))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    ;({ token: tokenA } = await issueToken(db.pool, orgA.uuid as string, 'A'))
    ;({ token: tokenB } = await issueToken(db.pool, orgB.uuid as string, 'B'))
    redis = await testRedis()
  })
  after(async () => {
    await redis?.stop()
    await db.drop()
  })

  /** An access record at `at` of an order number, with no organization, as the access log tests send. */
  const accessRecord = (
    at: Date,
    orderNumber: string,
    tokenId: number | null = null,
    status = 200,
  ): AccessRecord => ({
    at,
    tokenId,
    organizationId: null,
    orderNumber,
    status,
    requestId: 'r',
  })

  /** The order numbers recorded at `at`, in the order COPY wrote them (ctid: where each row landed). */
  async function writtenAt(at: Date): Promise<string[]> {
    const { rows } = await db.pool.query('SELECT order_number FROM access_log WHERE at = $1 ORDER BY ctid', [
      at,
    ])
    return rows.map((row) => row.order_number)
  }

  /**
   * Runs body with an access log (batches of maxBatch, at most maxPending kept while the database is away)
   * whose pool reaches the database through a proxy that body may cut, and the faults it reported; the log,
   * the pool and the proxy are closed after.
   */
  async function throughProxy(
    body: (proxy: TcpProxy, log: AccessLog, faults: Error[]) => Promise<void>,
    maxBatch?: number,
    maxPending?: number,
  ) {
    const address = new URL(db.url)
    const proxy = await startProxy(address.hostname, Number(address.port || 5432))
    const pool = createPool(viaProxy(db.url, proxy), { max: 2 })
    const faults: Error[] = []
    const log = new AccessLog(pool, (error) => faults.push(error), 60_000, maxBatch, maxPending)
    try {
      await body(proxy, log, faults)
    } finally {
      await log.close()
      await pool.end()
      await proxy.close()
    }
  }

  it('records a NUL order number, sanitized, and loses no record of the same batch', async () => {
    const app = await buildTestApp(db)
    const own = ordersOf(orgB)[0]?.number as string
    try {
      const answers = await Promise.all([
        app.inject({ method: 'GET', url: '/external/orders?order_number=%00' }),
        app.inject({
          method: 'GET',
          url: '/external/orders?order_number=a%00b',
          headers: { authorization: tokenA },
        }),
        ...Array.from({ length: 20 }, () =>
          app.inject({ method: 'GET', url: url(own), headers: { authorization: tokenB } }),
        ),
      ])
      assert.deepEqual(
        answers.slice(0, 2).map((a) => [a.statusCode, a.body]),
        [
          [401, '{"message":"Unauthorized","data":[]}'],
          [500, '{"message":"Ordem não encontrada","data":[]}'],
        ],
      )
    } finally {
      await app.close() // flushes the access records
    }
    const { rows } = await db.pool.query<{ order_number: string; status: number; n: number }>(
      `SELECT order_number, status, count(*)::int AS n FROM access_log GROUP BY 1, 2 ORDER BY 1, 2`,
    )
    assert.deepEqual(rows, [
      { order_number: own, status: 200, n: 20 },
      { order_number: 'a\ufffdb', status: 500, n: 1 },
      { order_number: '\ufffd', status: 401, n: 1 },
    ])
  })

  it('writes a batch as soon as 1,000 records wait, without waiting for the timer', async () => {
    const log = new AccessLog(db.pool, (error) => assert.fail(error), 60_000)
    const at = new Date('2031-01-01T00:00:00Z')
    const written = async () =>
      Number((await db.pool.query('SELECT count(*) FROM access_log WHERE at = $1', [at])).rows[0].count)
    const record = (n: number) => log.record(accessRecord(at, `b-${n}`, null, 404))
    try {
      for (let n = 0; n < 999; n++) record(n)
      // A flush would have been sent at once; nothing is, with the timer a minute away.
      await new Promise((resolve) => setTimeout(resolve, 200))
      assert.equal(await written(), 0)
      record(999)
      await until(async () => (await written()) === 1000)
    } finally {
      await log.close()
    }
  })

  it("writes a batch in its token index's order, each token's records in the order they came", async () => {
    const log = new AccessLog(db.pool, (error) => assert.fail(error), 60_000)
    const at = new Date('2031-02-01T00:00:00Z')
    const sent: [number | null, string][] = [
      [900_003, 'c1'],
      [900_001, 'a1'],
      [null, 'n1'],
      [900_002, 'b1'],
      [900_001, 'a2'],
      [900_003, 'c2'],
      [null, 'n2'],
      [900_001, 'a3'],
    ]
    for (const [tokenId, orderNumber] of sent) log.record(accessRecord(at, orderNumber, tokenId))
    await log.close()
    assert.deepEqual(await writtenAt(at), ['n1', 'n2', 'a1', 'a2', 'a3', 'b1', 'c1', 'c2'])
  })

  it('keeps the records, and the process, when the connection is lost during a COPY', () =>
    throughProxy(async (proxy, log, faults) => {
      const at = new Date('2032-01-01T00:00:00Z')
      const locker = await db.pool.connect()
      try {
        // The COPY waits for this lock, so that the connection can be cut while it is under way.
        await locker.query('BEGIN')
        await locker.query('LOCK TABLE access_log IN ACCESS EXCLUSIVE MODE')
        log.record(accessRecord(at, 'cut', null, 404))
        const flushed = log.flush()
        await until(
          async () =>
            (
              await db.pool.query(
                `SELECT count(*)::int AS n FROM pg_stat_activity
                 WHERE wait_event_type = 'Lock' AND query LIKE 'COPY access_log%'`,
              )
            ).rows[0].n === 1,
        )
        proxy.cut()
        await flushed
        assert.equal(faults.length, 1)
        await locker.query('COMMIT')
        proxy.restore()
        await log.close()
        const { rows } = await db.pool.query('SELECT order_number FROM access_log WHERE at = $1', [at])
        assert.deepEqual(
          rows.map((row) => row.order_number),
          ['cut'],
        )
      } finally {
        await locker.query('ROLLBACK').catch(() => undefined)
        locker.release()
      }
    }))

  // Batches of 2, and at most 4 records kept while the database is away.
  it('keeps the newest records while the database is unreachable, in batches up to maxPending', () =>
    throughProxy(
      async (proxy, log, faults) => {
        const at = new Date('2032-02-01T00:00:00Z')
        proxy.cut()
        for (let n = 1; n <= 7; n++) log.record(accessRecord(at, `away-${n}`))
        await log.flush()
        assert.equal(faults.length, 1, 'an outage is reported once')
        proxy.restore()
        await log.close()
        const { rows } = await db.pool.query(
          'SELECT order_number FROM access_log WHERE at = $1 ORDER BY order_number',
          [at],
        )
        // Batches [1,2] [3,4] [5,6] [7]: past 4 records the oldest batches went, whole.
        assert.deepEqual(
          rows.map((row) => row.order_number),
          ['away-5', 'away-6', 'away-7'],
        )
      },
      2,
      4,
    ))

  it("keeps a quiet outage's flushes as one batch, and writes them all once the database is back", () =>
    throughProxy(
      async (proxy, log) => {
        const at = new Date('2032-03-01T00:00:00Z')
        proxy.cut()
        for (const [n, tokenId] of [3, 1, 2].entries()) {
          log.record(accessRecord(at, `quiet-${n}`, tokenId))
          await log.flush()
        }
        proxy.restore()
        await log.close()
        // One batch: written in token order.
        assert.deepEqual(await writtenAt(at), ['quiet-1', 'quiet-2', 'quiet-0'])
      },
      10,
      100,
    ))

  it('writes the rest of a batch when the database refuses one record', async () => {
    const faults: Error[] = []
    const log = new AccessLog(db.pool, (error) => faults.push(error), 60_000)
    const at = new Date('2030-01-01T00:00:00Z')
    log.record({
      at,
      tokenId: null,
      organizationId: null,
      orderNumber: 'lote-1',
      status: 401,
      requestId: 'r',
    })
    // Not a UUID: PostgreSQL refuses the whole INSERT ... unnest at once.
    log.record({
      at,
      tokenId: null,
      organizationId: 'not-a-uuid',
      orderNumber: 'lote-2',
      status: 401,
      requestId: 'r',
    })
    log.record({
      at,
      tokenId: null,
      organizationId: null,
      orderNumber: 'lote-3',
      status: 401,
      requestId: 'r',
    })
    await log.close()
    const { rows } = await db.pool.query(
      `SELECT order_number FROM access_log WHERE at = $1 ORDER BY order_number`,
      [at.toISOString()],
    )
    assert.deepEqual(
      rows.map((r) => r.order_number),
      ['lote-1', 'lote-3'],
    )
    assert.equal(faults.length, 1)
    assert.match(faults[0]?.message as string, /^1 of 3 access records were refused/)
  })

  it("answers every other organization's request while one sends a NUL, and fails only the bad key of a batch", async () => {
    const app = await buildTestApp(db)
    try {
      const numbers = ordersOf(orgB).map((o) => o.number as string)
      const answers = await Promise.all([
        app.inject({
          method: 'GET',
          url: '/external/orders?order_number=%00',
          headers: { authorization: tokenA },
        }),
        ...numbers.map((number) =>
          app.inject({ method: 'GET', url: url(number), headers: { authorization: tokenB } }),
        ),
      ])
      assert.equal(answers[0]?.statusCode, 500)
      assert.equal(answers[0]?.json().message, 'Ordem não encontrada')
      for (const [i, answer] of answers.slice(1).entries())
        assert.equal(answer.statusCode, 200, `${numbers[i]}: ${answer.body}`)
    } finally {
      await app.close()
    }
    // Below the route's checks: a key PostgreSQL refuses, batched with good ones, fails alone.
    const store = new DocumentStore(db.pool, { cacheBytes: 0, onError: () => {} })
    const good = ordersOf(orgB).slice(0, 5)
    const results = await Promise.allSettled([
      store.order('not-a-uuid', 'x'),
      ...good.map((o) => store.order(o.organization_uuid as string, o.number as string)),
    ])
    assert.equal(results[0]?.status, 'rejected')
    for (const result of results.slice(1)) {
      assert.equal(result.status, 'fulfilled')
      assert.ok((result as PromiseFulfilledResult<string | undefined>).value?.startsWith('{"number":'))
    }
  })

  const limiters: [string, () => Promise<Limiter | undefined>][] = [
    ['in memory', async () => new MemoryLimiter()],
    [
      'in Redis',
      async () => redis && new RedisLimiter(redis.url, { prefix: `compras-test:${Math.random()}:` }),
    ],
  ]
  for (const [where, make] of limiters) {
    it(`counts concurrent failed authentications exactly (${where}): 30 get 401, the rest 429`, async (t) => {
      const limiter = await make()
      if (!limiter) return t.skip(NO_REDIS)
      const app = await buildTestApp(db, { limiter, env: { AUTH_FAILURE_LIMIT: '30' } })
      try {
        if (limiter instanceof RedisLimiter) await until(() => limiterReady(limiter))
        const bad = (i: number) => `${String(i).padStart(3, '0')}${'x'.repeat(40)}`
        const answers = await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            app.inject({
              method: 'GET',
              url: url('1'),
              headers: { authorization: bad(i) },
              remoteAddress: '192.0.2.7',
            }),
          ),
        )
        const count = (status: number) => answers.filter((a) => a.statusCode === status).length
        assert.deepEqual([count(401), count(429)], [30, 170])
        // A valid token from that address still passes.
        const valid = await app.inject({
          method: 'GET',
          url: url(ordersOf(orgA)[0]?.number as string),
          headers: { authorization: tokenA },
          remoteAddress: '192.0.2.7',
        })
        assert.equal(valid.statusCode, 200)
      } finally {
        await app.close()
        await limiter.close()
      }
    })

    it(`holds 60 in every one-second span, across the boundary of a second (${where})`, async (t) => {
      const clock = manualClock()
      const limiter =
        where === 'in memory'
          ? new MemoryLimiter(clock.now)
          : redis && new RedisLimiter(redis.url, { now: clock.now, prefix: `compras-test:${Math.random()}:` })
      if (!limiter) return t.skip(NO_REDIS)
      const app = await buildTestApp(db, { limiter })
      const ask = () =>
        app.inject({
          method: 'GET',
          url: url(ordersOf(orgA)[0]?.number as string),
          headers: { authorization: tokenA },
        })
      try {
        if (limiter instanceof RedisLimiter) await until(() => limiterReady(limiter))
        const second = clock.now()
        clock.set(second + 900) // late in a calendar second
        for (let i = 0; i < 60; i++) assert.equal((await ask()).statusCode, 200, `request ${i + 1}`)
        clock.set(second + 1100) // the next calendar second: a fixed window would start over here
        const refused = await ask()
        assert.equal(refused.statusCode, 429)
        assert.equal(refused.headers['retry-after'], '1')
        assert.equal(refused.headers['x-ratelimit-remaining'], '0')
        clock.set(second + 1899) // still within a second of the 60
        assert.equal((await ask()).statusCode, 429)
        clock.set(second + 1900) // the 60 are a second old: places free again
        const admitted = await ask()
        assert.equal(admitted.statusCode, 200)
        assert.equal(admitted.headers['x-ratelimit-remaining'], '59')
      } finally {
        await app.close()
        await limiter.close()
      }
    })
  }
})
