import { Redis } from 'ioredis'

// Fixed-window counters: a window is one calendar slice of windowMs (one second for the order query),
// so "60 per second" means at most 60 requests whose arrival falls in the same second.
//
// We keep our own small limiter instead of @fastify/rate-limit because the spec wants a different
// failure mode: when Redis is unreachable that plugin either fails the request or (skipOnError) stops
// limiting; we fall back to per-process counters and return to Redis when it is back.

export interface Hit {
  allowed: boolean
  limit: number
  remaining: number
  /** Milliseconds until the window resets. */
  resetMs: number
}

export interface Limiter {
  /** Counts one request against key. */
  hit(key: string, limit: number, windowMs: number): Promise<Hit>
  /** Reads key's count without counting. */
  peek(key: string, limit: number, windowMs: number): Promise<Hit>
  close(): Promise<void>
}

function verdict(count: number, limit: number, windowMs: number, now: number): Hit {
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetMs: windowMs - (now % windowMs),
  }
}

export class MemoryLimiter implements Limiter {
  private readonly windows = new Map<string, { window: number; count: number }>()
  private sweeps = 0

  constructor(private readonly now: () => number = Date.now) {}

  private current(key: string, windowMs: number, add: number): number {
    const now = this.now()
    const window = Math.floor(now / windowMs)
    let entry = this.windows.get(key)
    if (!entry || entry.window !== window) {
      entry = { window, count: 0 }
      this.windows.set(key, entry)
      if (++this.sweeps % 10_000 === 0) this.sweep(now, windowMs)
    }
    entry.count += add
    return entry.count
  }

  private sweep(now: number, windowMs: number) {
    const window = Math.floor(now / windowMs)
    for (const [key, entry] of this.windows) if (entry.window < window - 1) this.windows.delete(key)
  }

  async hit(key: string, limit: number, windowMs: number): Promise<Hit> {
    return verdict(this.current(key, windowMs, 1), limit, windowMs, this.now())
  }

  async peek(key: string, limit: number, windowMs: number): Promise<Hit> {
    const now = this.now()
    const entry = this.windows.get(key)
    const count = entry && entry.window === Math.floor(now / windowMs) ? entry.count : 0
    return verdict(count, limit, windowMs, now)
  }

  async close(): Promise<void> {}
}

const HIT_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return count`

export interface RedisLimiterOptions {
  /** Reports a Redis fault; called at most once per outage. */
  onFault?: (error: Error) => void
  onRecover?: () => void
  /** How long a Redis command may take before the process answers from its own counters. */
  commandTimeoutMs?: number
  /** The clock that picks the window (tests move it). */
  now?: () => number
}

/** Counters in Redis, shared by every instance; per-process counters while Redis is unreachable. */
export class RedisLimiter implements Limiter {
  private readonly redis: Redis
  private readonly fallback: MemoryLimiter
  private readonly now: () => number
  private faulty = false

  constructor(
    url: string,
    private readonly options: RedisLimiterOptions = {},
  ) {
    this.now = options.now ?? Date.now
    this.fallback = new MemoryLimiter(this.now)
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 200,
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

  private async count(key: string, windowMs: number, add: number): Promise<number | undefined> {
    if (this.redis.status !== 'ready') return undefined
    const now = this.now()
    const redisKey = `compras:rl:${key}:${Math.floor(now / windowMs)}`
    try {
      return Number(await this.redis.eval(HIT_SCRIPT, 1, redisKey, add, windowMs * 2))
    } catch (error) {
      this.fault(error as Error)
      return undefined
    }
  }

  async hit(key: string, limit: number, windowMs: number): Promise<Hit> {
    const count = await this.count(key, windowMs, 1)
    if (count === undefined) return this.fallback.hit(key, limit, windowMs)
    return verdict(count, limit, windowMs, this.now())
  }

  async peek(key: string, limit: number, windowMs: number): Promise<Hit> {
    const count = await this.count(key, windowMs, 0)
    if (count === undefined) return this.fallback.peek(key, limit, windowMs)
    return verdict(count, limit, windowMs, this.now())
  }

  async close(): Promise<void> {
    this.redis.disconnect()
  }
}
