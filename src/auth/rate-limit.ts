import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import type { Redis } from 'ioredis'

// Sliding-window limits: an event is admitted when fewer than `limit` events were admitted under the same
// key in the last `windowMs`, so "60 per second" holds in every one-second span, across the boundary of
// calendar seconds too (a fixed window lets 120 through around it). Only admitted events count, and the
// check and the count are one step, so concurrent requests cannot all pass a check made before any counts.
//
// We keep our own small limiter instead of @fastify/rate-limit because the spec wants a different
// failure mode: when Redis is unreachable that plugin either fails the request or (skipOnError) stops
// limiting; we fall back to per-process counters and return to Redis when it is back.

export interface Hit {
  allowed: boolean
  limit: number
  remaining: number
  /** Milliseconds until the oldest counted event leaves the window and a place frees. */
  resetMs: number
}

export interface Limiter {
  /** Admits and counts one event under key, or refuses it (uncounted) when the window is full. */
  take(key: string, limit: number, windowMs: number): Promise<Hit>
  close(): Promise<void>
}

/** The times of the admitted events of one key, oldest first, as a ring of at most `limit` entries. */
class Window {
  private readonly times: number[] = []
  private head = 0

  constructor(readonly windowMs: number) {}

  /** Drops what left the window; returns how many events remain in it. */
  private expire(now: number): number {
    const times = this.times
    // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end, times[head] is undefined and the loop stops the same
    while (this.head < times.length && (times[this.head] as number) <= now - this.windowMs) this.head++
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: when the ring compacts changes its memory, not the count (never compacting is tested)
    if (this.head > 64 && this.head * 2 > times.length) {
      times.splice(0, this.head)
      this.head = 0
    }
    return times.length - this.head
  }

  take(limit: number, now: number): Hit {
    let count = this.expire(now)
    const allowed = count < limit
    if (allowed) {
      this.times.push(now)
      count++
    }
    const oldest = this.times[this.head] ?? now
    return { allowed, limit, remaining: Math.max(0, limit - count), resetMs: oldest + this.windowMs - now }
  }

  idle(now: number): boolean {
    return this.expire(now) === 0
  }
}

export class MemoryLimiter implements Limiter {
  private readonly windows = new Map<string, Window>()
  private takes = 0

  constructor(private readonly now: () => number = Date.now) {}

  async take(key: string, limit: number, windowMs: number): Promise<Hit> {
    return this.takeNow(key, limit, windowMs)
  }

  /** take, synchronously: for callers on a hot path that have no reason to wait. */
  takeNow(key: string, limit: number, windowMs: number): Hit {
    const now = this.now()
    let window = this.windows.get(key)
    if (!window || window.windowMs !== windowMs) {
      window = new Window(windowMs)
      this.windows.set(key, window)
    }
    // Stryker disable next-line UpdateOperator: counting down sweeps at every 10,000th take as well
    if (++this.takes % 10_000 === 0) this.sweep(now)
    return window.take(limit, now)
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.idle(now)) this.windows.delete(key)
  }

  async close(): Promise<void> {}
}

// KEYS[1]: the key's sorted set of admitted events (score: time). ARGV: now, window, limit, a unique member.
// Returns {admitted (0/1), count in the window, time of the oldest event in the window}.
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local admitted = 0
if count < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  count = count + 1
  admitted = 1
end
redis.call('PEXPIRE', KEYS[1], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
return {admitted, count, tonumber(oldest or now)}`

export interface RedisLimiterOptions {
  /** Reports a Redis fault; called at most once per outage. */
  onFault?: (error: Error) => void
  onRecover?: () => void
  /** How long a Redis command may take before the process answers from its own counters. */
  commandTimeoutMs?: number
  /** The clock of the windows (tests move it); instances sharing Redis need clocks in step. */
  now?: () => number
  /** Prefix of the Redis keys; instances that share limits share it. */
  prefix?: string
}

/** Windows in Redis, shared by every instance; per-process windows while Redis is unreachable. */
export class RedisLimiter implements Limiter {
  private readonly redis: Redis
  private readonly fallback: MemoryLimiter
  private readonly now: () => number
  private readonly instance = randomBytes(6).toString('base64url')
  private sequence = 0
  private faulty = false

  constructor(
    url: string,
    private readonly options: RedisLimiterOptions = {},
  ) {
    this.now = options.now ?? Date.now
    this.fallback = new MemoryLimiter(this.now)
    // Loaded here, not at the top: a service without REDIS_URL never holds the client (about 10 MB).
    const { Redis: Client } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis')
    this.redis = new Client(url, {
      // Stryker disable next-line BooleanLiteral: take() asks Redis only when ready, so nothing would wait in the queue
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 200,
      // Stryker disable next-line MethodExpression,ArithmeticOperator: how soon it reconnects, not whether (the return is tested)
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
      lazyConnect: false,
    })
    this.redis.on('error', (error: Error) => this.fault(error))
    this.redis.on('ready', () => {
      if (this.faulty) {
        this.faulty = false
        this.options.onRecover?.()
      }
    })
  }

  private fault(error: Error) {
    if (!this.faulty) {
      this.faulty = true
      this.options.onFault?.(error)
    }
  }

  async take(key: string, limit: number, windowMs: number): Promise<Hit> {
    // Stryker disable next-line ConditionalExpression: without an offline queue ioredis refuses at once, and the catch falls back the same
    if (this.redis.status !== 'ready') return this.fallback.take(key, limit, windowMs)
    const now = this.now()
    try {
      const [admitted, count, oldest] = (await this.redis.eval(
        TAKE_SCRIPT,
        1,
        `${this.options.prefix ?? 'compras:rl:'}${key}`,
        now,
        windowMs,
        limit,
        `${now}:${this.instance}:${this.sequence++}`,
      )) as [number, number, number]
      return {
        allowed: admitted === 1,
        limit,
        remaining: Math.max(0, limit - count),
        resetMs: oldest + windowMs - now,
      }
    } catch (error) {
      this.fault(error as Error)
      return this.fallback.take(key, limit, windowMs)
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect()
  }
}
