import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type Limiter, MemoryLimiter, RedisLimiter } from '../../src/auth/rate-limit.js'
import { issueToken } from '../../src/auth/tokens.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { DocumentStore } from '../../src/readmodel/store.js'
import { buildTestApp } from '../helpers/app.js'
import { manualClock } from '../helpers/clock.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { until } from '../helpers/http.js'
import { demoRecords } from '../helpers/records.js'
import { limiterReady, NO_REDIS, type TestRedis, testRedis } from '../helpers/redis.js'

// Hardening, items 2 (a hostile order number in the access log), 3 (one bad key in a batch), 7 (the failure
// limit under concurrency) and 9 (a sliding window across the boundary of a second). The access log's own
// tests are in test/auth/access-log.test.ts.

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
    db = await seededDatabase(records)
    ;({ token: tokenA } = await issueToken(db.pool, orgA.uuid as string, 'A'))
    ;({ token: tokenB } = await issueToken(db.pool, orgB.uuid as string, 'B'))
    redis = await testRedis()
  })
  after(async () => {
    await redis?.stop()
    await db.drop()
  })

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
