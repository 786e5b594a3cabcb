import assert from 'node:assert/strict'
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import net from 'node:net'
import { after, before, describe, it } from 'node:test'
import { Redis } from 'ioredis'
import {
  type Hit,
  type Limiter,
  MemoryLimiter,
  RedisLimiter,
  type RedisLimiterOptions,
} from '../../src/auth/rate-limit.js'
import { manualClock } from '../helpers/clock.js'
import { until } from '../helpers/http.js'
import {
  freePort,
  limiterReady,
  NO_REDIS,
  REDIS_SERVER,
  startRedisServer,
  type TestRedis,
  testRedis,
} from '../helpers/redis.js'

// The limiter on its own, with a clock the test moves: every field of every answer, at the exact edges of
// the window, in memory and in Redis. The routes' use of it is tested in test/orders and test/security.

/** One answer of the limiter, written in a line. */
function hit(allowed: boolean, limit: number, remaining: number, resetMs: number): Hit {
  return { allowed, limit, remaining, resetMs }
}

/** The first whole RESP command in text: its arguments and how many characters it took, or undefined. */
function nextCommand(text: string): { args: string[]; length: number } | undefined {
  const header = /^\*(\d+)\r\n/.exec(text)
  if (!header) return undefined
  let at = header[0].length
  const args: string[] = []
  for (let i = 0; i < Number(header[1]); i++) {
    const size = /^\$(\d+)\r\n/.exec(text.slice(at))
    if (!size) return undefined
    const start = at + size[0].length
    const end = start + Number(size[1])
    if (text.length < end + 2) return undefined
    args.push(text.slice(start, end))
    at = end + 2
  }
  return { args, length: at }
}

/** The behaviour both limiters share, each answer compared whole. */
function sharedBehaviour(make: (now: () => number) => Promise<Limiter | undefined>) {
  it('admits limit events in a window, then refuses, with what remains and when a place frees', async (t) => {
    const clock = manualClock()
    const limiter = await make(clock.now)
    if (!limiter) return t.skip(NO_REDIS)
    try {
      assert.deepEqual(await limiter.take('a', 3, 1000), hit(true, 3, 2, 1000))
      clock.advance(100)
      assert.deepEqual(await limiter.take('a', 3, 1000), hit(true, 3, 1, 900))
      clock.advance(100)
      assert.deepEqual(await limiter.take('a', 3, 1000), hit(true, 3, 0, 800))
      clock.advance(100)
      // Refused, and not counted: the oldest event still sets when a place frees.
      assert.deepEqual(await limiter.take('a', 3, 1000), hit(false, 3, 0, 700))
      assert.deepEqual(await limiter.take('a', 3, 1000), hit(false, 3, 0, 700))
      // One millisecond before the first event leaves: still full.
      clock.advance(699)
      assert.deepEqual(await limiter.take('a', 3, 1000), hit(false, 3, 0, 1))
      // Exactly windowMs after it: it has left, and the second is now the oldest.
      clock.advance(1)
      assert.deepEqual(await limiter.take('a', 3, 1000), hit(true, 3, 0, 100))
      // A window later everything has left.
      clock.advance(1000)
      assert.deepEqual(await limiter.take('a', 3, 1000), hit(true, 3, 2, 1000))
    } finally {
      await limiter.close()
    }
  })

  it('keeps each key apart', async (t) => {
    const clock = manualClock()
    const limiter = await make(clock.now)
    if (!limiter) return t.skip(NO_REDIS)
    try {
      assert.equal((await limiter.take('a', 1, 1000)).allowed, true)
      assert.equal((await limiter.take('a', 1, 1000)).allowed, false)
      assert.deepEqual(await limiter.take('b', 1, 1000), hit(true, 1, 0, 1000))
    } finally {
      await limiter.close()
    }
  })

  it('holds the limit in every span of the window, across calendar seconds', async (t) => {
    const clock = manualClock()
    const limiter = await make(clock.now)
    if (!limiter) return t.skip(NO_REDIS)
    try {
      clock.advance(1000 - (clock.now() % 1000) - 10) // 10 ms before a calendar second
      let admitted = 0
      for (let i = 0; i < 20; i++) {
        const hit: Hit = await limiter.take('edge', 10, 1000)
        if (hit.allowed) admitted++
        clock.advance(1) // 20 ms across the boundary
      }
      assert.equal(admitted, 10)
    } finally {
      await limiter.close()
    }
  })
}

describe('rate limiter in memory', () => {
  sharedBehaviour(async (now) => new MemoryLimiter(now))

  it('answers synchronously with takeNow what take answers', async () => {
    const clock = manualClock()
    const limiter = new MemoryLimiter(clock.now)
    assert.deepEqual(limiter.takeNow('k', 2, 500), hit(true, 2, 1, 500))
    assert.deepEqual(await limiter.take('k', 2, 500), hit(true, 2, 0, 500))
    assert.deepEqual(limiter.takeNow('k', 2, 500), hit(false, 2, 0, 500))
  })

  it('starts a new window when the same key is asked with another length', () => {
    const clock = manualClock()
    const limiter = new MemoryLimiter(clock.now)
    assert.equal(limiter.takeNow('k', 1, 1000).allowed, true)
    assert.equal(limiter.takeNow('k', 1, 1000).allowed, false)
    assert.deepEqual(limiter.takeNow('k', 1, 2000), hit(true, 1, 0, 2000))
  })

  it('keeps counting right while it compacts a long window', () => {
    const clock = manualClock()
    const limiter = new MemoryLimiter(clock.now)
    // 1,000 events a millisecond apart in a 300 ms window: at most 300 are ever in it, and the ring drops the
    // expired head as it goes, which a wrong compaction would get wrong (too many or too few counted).
    for (let i = 0; i < 1000; i++) {
      const hit = limiter.takeNow('k', 1000, 300)
      assert.equal(hit.allowed, true)
      assert.equal(hit.remaining, 1000 - Math.min(i + 1, 300), `event ${i}`)
      assert.equal(hit.resetMs, i < 300 ? 300 - i : 1, `event ${i}`)
      clock.advance(1)
    }
    const times = (
      limiter as unknown as { windows: Map<string, { times: number[]; head: number }> }
    ).windows.get('k')
    assert.ok(times)
    // The ring keeps at most about twice what the window holds.
    assert.ok(times.times.length <= 2 * 300 + 65, `ring of ${times.times.length}`)
  })

  it('forgets idle keys every 10,000 takes, and keeps the busy ones', () => {
    const clock = manualClock()
    const limiter = new MemoryLimiter(clock.now)
    const windows = (limiter as unknown as { windows: Map<string, unknown> }).windows
    for (let i = 0; i < 5000; i++) limiter.takeNow(`idle${i}`, 10, 1000)
    clock.advance(1000)
    for (let i = 0; i < 4998; i++) limiter.takeNow('busy', 100_000, 1_000_000)
    assert.equal(windows.size, 5001)
    limiter.takeNow('busy', 100_000, 1_000_000) // the 9,999th take
    assert.equal(windows.size, 5001)
    limiter.takeNow('busy', 100_000, 1_000_000) // the 10,000th: the idle keys go
    assert.deepEqual([...windows.keys()], ['busy'])
    assert.equal(limiter.takeNow('busy', 100_000, 1_000_000).remaining, 100_000 - 5001)
  })
})

describe('rate limiter in Redis', () => {
  let redis: TestRedis | undefined
  before(async () => {
    redis = await testRedis()
  })
  const prefix = `compras-test:${process.pid}:${Math.random()}:`
  after(async () => {
    // Nothing of the tests' stays in a shared Redis: every key under their prefix goes.
    if (redis) {
      const client = new Redis(redis.url)
      try {
        const keys = await client.keys(`${prefix}*`)
        if (keys.length > 0) await client.del(...keys)
      } finally {
        client.disconnect()
      }
    }
    await redis?.stop()
  })

  let opened = 0
  /** A limiter on the test's Redis, under a prefix of its own unless told, once its connection is ready. */
  const open = async (now: () => number, options: RedisLimiterOptions = {}) => {
    if (!redis) return undefined
    const limiter = new RedisLimiter(redis.url, { prefix: `${prefix}${opened++}:`, ...options, now })
    await until(() => limiterReady(limiter))
    return limiter
  }

  describe('shared behaviour', () => {
    sharedBehaviour(open)
  })

  it('keeps each key in a sorted set under the prefix, expiring with the window', async (t) => {
    if (!redis) return t.skip(NO_REDIS)
    const clock = manualClock()
    const own = `${prefix}own:`
    const limiter = await open(clock.now, { prefix: own })
    assert.ok(limiter)
    const client = new Redis(redis.url)
    try {
      await limiter.take('k', 5, 1500)
      clock.advance(10)
      await limiter.take('k', 5, 1500)
      assert.equal(await client.type(`${own}k`), 'zset')
      const members = await client.zrange(`${own}k`, '0', '-1', 'WITHSCORES')
      assert.equal(members.length, 4)
      assert.deepEqual([members[1], members[3]], [String(clock.now() - 10), String(clock.now())])
      assert.notEqual(members[0], members[2], 'each event is a member of its own')
      const ttl = await client.pttl(`${own}k`)
      assert.ok(ttl > 0 && ttl <= 1500, `ttl ${ttl}`)
    } finally {
      client.disconnect()
      await limiter.close()
    }
  })

  it('uses compras:rl: as the prefix by default', async (t) => {
    if (!redis) return t.skip(NO_REDIS)
    const clock = manualClock()
    const key = `default-prefix-${process.pid}-${Math.random()}`
    const limiter = new RedisLimiter(redis.url, { now: clock.now })
    const client = new Redis(redis.url)
    try {
      await until(() => limiterReady(limiter))
      await limiter.take(key, 5, 1000)
      assert.equal(await client.zcard(`compras:rl:${key}`), 1)
    } finally {
      await client.del(`compras:rl:${key}`)
      client.disconnect()
      await limiter.close()
    }
  })

  it('counts in its own process while Redis is unreachable, reporting the fault once', async () => {
    const clock = manualClock()
    const faults: Error[] = []
    const limiter = new RedisLimiter('redis://127.0.0.1:1', {
      now: clock.now,
      onFault: (e) => faults.push(e),
    })
    try {
      assert.deepEqual(await limiter.take('k', 2, 1000), hit(true, 2, 1, 1000))
      assert.deepEqual(await limiter.take('k', 2, 1000), hit(true, 2, 0, 1000))
      assert.deepEqual(await limiter.take('k', 2, 1000), hit(false, 2, 0, 1000))
      await until(() => faults.length > 0)
      await new Promise((resolve) => setTimeout(resolve, 300)) // reconnection attempts fail again meanwhile
      assert.equal(faults.length, 1)
    } finally {
      await limiter.close()
    }
  })

  it('falls back to its own count when a command fails, and reports it', async (t) => {
    if (!redis) return t.skip(NO_REDIS)
    const clock = manualClock()
    const faults: Error[] = []
    const limiter = await open(clock.now, { prefix, onFault: (e) => faults.push(e) })
    assert.ok(limiter)
    try {
      // A key holding a string makes the script's ZREMRANGEBYSCORE fail with WRONGTYPE.
      const client = new Redis(redis.url)
      await client.set(`${prefix}wrong`, 'x', 'PX', 60_000)
      client.disconnect()
      assert.deepEqual(await limiter.take('wrong', 2, 1000), hit(true, 2, 1, 1000))
      assert.equal(faults.length, 1)
      assert.match(faults[0]?.message ?? '', /WRONGTYPE/)
    } finally {
      await limiter.close()
    }
  })

  it('answers from its own count when Redis stops answering, instead of waiting on it', async () => {
    // A server that says it is ready (answers ioredis's handshake and INFO) and then answers nothing.
    const silent = net.createServer((socket) => {
      let pending = ''
      socket.on('data', (data) => {
        pending += data.toString('latin1')
        for (;;) {
          const command = nextCommand(pending)
          if (!command) return
          pending = pending.slice(command.length)
          const name = command.args[0]?.toLowerCase()
          if (name === 'hello') socket.write("-ERR unknown command 'hello'\r\n")
          else if (name === 'client') socket.write('+OK\r\n')
          else if (name === 'info') {
            const body = '# Server\r\nredis_version:7.0.0\r\nloading:0\r\n'
            socket.write(`$${body.length}\r\n${body}\r\n`)
          }
        }
      })
    })
    silent.listen(0, '127.0.0.1')
    await once(silent, 'listening')
    const { port } = silent.address() as net.AddressInfo
    const clock = manualClock()
    const faults: Error[] = []
    const limiter = new RedisLimiter(`redis://127.0.0.1:${port}`, {
      now: clock.now,
      onFault: (e) => faults.push(e),
    })
    let timer: NodeJS.Timeout | undefined
    try {
      await until(() => limiterReady(limiter))
      const answer = await Promise.race([
        limiter.take('k', 2, 1000),
        new Promise((resolve) => {
          timer = setTimeout(() => resolve('still waiting after 5 s'), 5000)
        }),
      ])
      assert.deepEqual(answer, hit(true, 2, 1, 1000))
      assert.equal(faults.length, 1)
      assert.match(faults[0]?.message ?? '', /timed out/i)
    } finally {
      clearTimeout(timer)
      await limiter.close()
      silent.close()
    }
  })

  it('reports each outage once and each return once, and nothing when it first connects', async (t) => {
    if (!REDIS_SERVER) return t.skip(NO_REDIS)
    const port = await freePort()
    let server: ChildProcess = await startRedisServer(port)
    let faults = 0
    let recoveries = 0
    const limiter = new RedisLimiter(`redis://127.0.0.1:${port}`, {
      onFault: () => faults++,
      onRecover: () => recoveries++,
    })
    try {
      await until(() => limiterReady(limiter))
      assert.deepEqual([faults, recoveries], [0, 0])
      for (let outage = 1; outage <= 2; outage++) {
        server.kill('SIGKILL')
        await once(server, 'exit')
        await until(() => faults === outage)
        server = await startRedisServer(port)
        await until(() => recoveries === outage)
      }
      assert.deepEqual([faults, recoveries], [2, 2])
    } finally {
      await limiter.close()
      server.kill('SIGKILL')
    }
  })
})
