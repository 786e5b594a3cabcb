import assert from 'node:assert/strict'
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { RedisLimiter } from '../../src/auth/rate-limit.js'
import { issueToken } from '../../src/auth/tokens.js'
import { importRecords } from '../../src/import/importer.js'
import { buildTestApp, listen } from '../helpers/app.js'
import { manualClock } from '../helpers/clock.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { request, until } from '../helpers/http.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'
import {
  freePort,
  limiterReady,
  NO_REDIS,
  REDIS_SERVER,
  startRedisServer,
  type TestRedis,
  testRedis,
} from '../helpers/redis.js'

describe('order query rate limit with Redis', () => {
  let db: TestDatabase
  let redis: TestRedis | undefined
  let token = ''
  let url = ''
  const records = demoRecords()
  before(async () => {
    db = await createTestDatabase()
    redis = await testRedis()
    await importRecords(db.pool, [source(ndjson(records))])
    const order = first(records, 'order')
    ;({ token } = await issueToken(db.pool, order.organization_uuid as string, null))
    url = `/external/orders?order_number=${encodeURIComponent(order.number as string)}`
  })
  after(async () => {
    await redis?.stop()
    await db.drop()
  })

  const ask = (app: FastifyInstance) => app.inject({ method: 'GET', url, headers: { authorization: token } })

  it('holds 60 per second per token across two instances sharing Redis', async (t) => {
    if (!redis) return t.skip(NO_REDIS)
    const redisUrl = redis.url
    const clock = manualClock()
    const prefix = `compras-test:${Math.random()}:`
    const limiters = [0, 1].map(() => new RedisLimiter(redisUrl, { now: clock.now, prefix }))
    const apps = await Promise.all(limiters.map((limiter) => buildTestApp(db, { limiter })))
    try {
      // Over real sockets: an answer in memory must not be served past the shared limit (src/app.ts keeps
      // the order query's shortcut for in-process limits).
      const bases = await Promise.all(apps.map((app) => listen(app)))
      const status = async (i: number) =>
        (await request(`${bases[i % 2]}${url}`, { authorization: token })).status
      await until(() => limiters.every(limiterReady))
      for (let i = 0; i < 60; i++) assert.equal(await status(i), 200, `request ${i + 1}`)
      for (const i of [0, 1]) assert.equal(await status(i), 429)
      clock.advance(1000)
      assert.equal(await status(1), 200)
    } finally {
      for (const app of apps) await app.close()
      for (const limiter of limiters) await limiter.close()
    }
  })

  it('keeps answering with a per-process limit when Redis is unreachable, and says so once', async () => {
    const clock = manualClock()
    const faults: Error[] = []
    const limiter = new RedisLimiter('redis://127.0.0.1:1', {
      now: clock.now,
      onFault: (error) => faults.push(error),
    })
    const app = await buildTestApp(db, { limiter })
    try {
      clock.advance(1000 - (clock.now() % 1000))
      for (let i = 0; i < 60; i++) assert.equal((await ask(app)).statusCode, 200)
      assert.equal((await ask(app)).statusCode, 429)
      await until(() => faults.length > 0)
      assert.equal(faults.length, 1)
    } finally {
      await app.close()
      await limiter.close()
    }
  })

  it('returns to Redis by itself when Redis comes back', async (t) => {
    if (!REDIS_SERVER) return t.skip(NO_REDIS)
    const port = await freePort()
    const start = () => startRedisServer(port)
    let server: ChildProcess = await start()
    const clock = manualClock()
    let faults = 0
    let recoveries = 0
    const limiter = new RedisLimiter(`redis://127.0.0.1:${port}`, {
      now: clock.now,
      onFault: () => faults++,
      onRecover: () => recoveries++,
    })
    const peer = new RedisLimiter(`redis://127.0.0.1:${port}`, { now: clock.now })
    try {
      await until(() => limiterReady(limiter) && limiterReady(peer))
      assert.equal((await limiter.take('k', 60, 1000)).remaining, 59)
      server.kill('SIGKILL')
      await once(server, 'exit')
      await until(() => faults > 0)
      // While Redis is away, this process counts alone.
      assert.equal((await limiter.take('k', 60, 1000)).remaining, 59)
      server = await start()
      await until(() => recoveries > 0 && limiterReady(peer))
      // Shared again: what one instance counts, the other sees (allowing for the reconnection to settle).
      let shared = false
      for (let attempt = 0; attempt < 50 && !shared; attempt++) {
        const key = `k${attempt}`
        await limiter.take(key, 60, 1000)
        shared = (await peer.take(key, 60, 1000)).remaining === 58
        if (!shared) await new Promise((resolve) => setTimeout(resolve, 100))
      }
      assert.ok(shared, 'the two limiters never shared a count after Redis returned')
    } finally {
      await limiter.close()
      await peer.close()
      server.kill('SIGKILL')
    }
  })
})
