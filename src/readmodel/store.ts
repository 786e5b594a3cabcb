import type { Pool, PoolClient } from '../db/pool.js'
import { DATA_CHANNEL } from './documents.js'

/**
 * What an entry costs: V8 keeps Latin-1 text (Portuguese included) at a byte a character, and a map entry
 * with its two string headers takes about 64 bytes more.
 */
const entrySize = (key: string, value: string) => key.length + value.length + 64

/**
 * Strings by key, least recently used first out once their size passes maxBytes. A generation number
 * changes on every clear, so a value read from the database before a clear is not stored after it.
 */
export class LruCache {
  private readonly entries = new Map<string, string>()
  private bytes = 0
  generation = 0

  constructor(readonly maxBytes: number) {}

  get(key: string): string | undefined {
    const value = this.entries.get(key)
    if (value !== undefined) {
      this.entries.delete(key)
      this.entries.set(key, value)
    }
    return value
  }

  /** Stores value unless the cache was cleared since `generation` was read. */
  set(key: string, value: string, generation: number): void {
    if (generation !== this.generation || this.maxBytes <= 0) return
    const size = entrySize(key, value)
    if (size > this.maxBytes / 4) return
    const previous = this.entries.get(key)
    if (previous !== undefined) this.bytes -= entrySize(key, previous)
    this.entries.delete(key)
    this.entries.set(key, value)
    this.bytes += size
    for (const [oldKey, oldValue] of this.entries) {
      if (this.bytes <= this.maxBytes) break
      this.entries.delete(oldKey)
      this.bytes -= entrySize(oldKey, oldValue)
    }
  }

  clear(): void {
    this.entries.clear()
    this.bytes = 0
    this.generation++
  }

  get size(): number {
    return this.entries.size
  }
}

/**
 * Looks keys up in batches: every lookup asked for during one turn of the event loop goes to the
 * database as one query, so concurrent requests share a round trip instead of queueing for connections.
 */
class Batcher {
  private pending = new Map<string, { parts: string[]; waiters: ((value: string | undefined) => void)[] }>()
  private failures = new Map<string, ((error: Error) => void)[]>()
  private scheduled = false

  constructor(
    private readonly pool: Pool,
    private readonly name: string,
    /** SQL taking one array per key part ($1, $2) and returning (i, body), i the 1-based position. */
    private readonly sql: string,
    private readonly types: readonly string[],
  ) {}

  load(key: string, parts: string[]): Promise<string | undefined> {
    return new Promise((resolve, reject) => {
      let entry = this.pending.get(key)
      if (!entry) {
        entry = { parts, waiters: [] }
        this.pending.set(key, entry)
        this.failures.set(key, [])
      }
      entry.waiters.push(resolve)
      this.failures.get(key)?.push(reject)
      if (!this.scheduled) {
        this.scheduled = true
        setImmediate(() => void this.flush())
      }
    })
  }

  private async flush() {
    const batch = this.pending
    const failures = this.failures
    this.pending = new Map()
    this.failures = new Map()
    this.scheduled = false
    const keys = [...batch.keys()]
    const columns = this.types.map((_, part) => keys.map((key) => batch.get(key)?.parts[part]))
    try {
      const { rows } = await this.pool.query<{ i: string; body: string }>({
        name: this.name,
        text: this.sql,
        values: columns,
      })
      const found = new Map(rows.map((row) => [Number(row.i) - 1, row.body]))
      keys.forEach((key, i) => {
        for (const resolve of batch.get(key)?.waiters ?? []) resolve(found.get(i))
      })
    } catch (error) {
      for (const rejects of failures.values()) for (const reject of rejects) reject(error as Error)
    }
  }
}

export interface DocumentStoreOptions {
  /** Memory for cached documents and responses; 0 turns the cache off. */
  cacheBytes: number
  onError: (error: Error, what: string) => void
}

/**
 * The service's read path: documents of the read model looked up in batches, and an in-process cache of
 * served documents and responses. The cache lives only while this instance listens on the data channel:
 * every import notifies it (across instances) and it drops everything; while the listening connection is
 * down nothing is cached, so no instance serves data older than the last import it could have heard of.
 */
export class DocumentStore {
  readonly cache: LruCache
  private listening = false
  private listener: PoolClient | undefined
  private closed = false
  /** An outage of the listening connection was reported; reset when listening again. */
  private reported = false
  private retry: NodeJS.Timeout | undefined
  private readonly orders: Batcher
  private readonly details: Batcher

  constructor(
    private readonly pool: Pool,
    private readonly options: DocumentStoreOptions,
  ) {
    this.cache = new LruCache(options.cacheBytes)
    this.orders = new Batcher(
      pool,
      'order-documents',
      `SELECT k.i, d.body FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY k(organization_id, number, i)
       JOIN order_documents d ON d.organization_id = k.organization_id AND d.number = k.number`,
      ['uuid', 'text'],
    )
    this.details = new Batcher(
      pool,
      'detail-documents',
      `SELECT k.i, d.body FROM unnest($1::text[], $2::uuid[]) WITH ORDINALITY k(resource, id, i)
       JOIN detail_documents d ON d.resource = k.resource AND d.id = k.id`,
      ['text', 'uuid'],
    )
  }

  /** Starts listening for data changes; the cache is used once this succeeds. */
  async start(): Promise<void> {
    if (this.options.cacheBytes <= 0) return
    await this.listen().catch((error: Error) => this.lost(error))
  }

  private async listen() {
    const client = await this.pool.connect()
    client.on('notification', () => this.cache.clear())
    client.on('error', (error: Error) => this.lost(error))
    await client.query(`LISTEN ${DATA_CHANNEL}`)
    if (this.closed) {
      client.release()
      return
    }
    this.listener = client
    this.cache.clear()
    this.listening = true
    this.reported = false
  }

  private lost(error: Error) {
    this.listening = false
    this.cache.clear()
    if (this.listener) {
      this.listener.release(error)
      this.listener = undefined
    }
    if (this.closed) return
    if (!this.reported) {
      this.reported = true
      this.options.onError(error, 'listening for data changes failed; caching is off until it is back')
    }
    clearTimeout(this.retry)
    this.retry = setTimeout(() => {
      this.retry = undefined
      void this.listen().catch((next: Error) => this.lost(next))
    }, 1000)
    this.retry.unref()
  }

  /** A cached string, when the cache is trusted. */
  cached(key: string): string | undefined {
    return this.listening ? this.cache.get(key) : undefined
  }

  /** The cache generation to pass to remember(), read before the database is asked. */
  get generation(): number {
    return this.cache.generation
  }

  remember(key: string, value: string, generation: number): void {
    if (this.listening) this.cache.set(key, value, generation)
  }

  /**
   * A document's served JSON (compact), from the cache or the read model; undefined when there is none.
   * `kind` keeps orders and details apart in the cache.
   */
  private async document(batcher: Batcher, key: string, parts: string[]): Promise<string | undefined> {
    const hit = this.cached(key)
    if (hit !== undefined) return hit
    const generation = this.generation
    const body = await batcher.load(key, parts)
    if (body === undefined) return undefined
    const compact = JSON.stringify(JSON.parse(body))
    this.remember(key, compact, generation)
    return compact
  }

  order(organizationId: string, number: string): Promise<string | undefined> {
    return this.document(this.orders, `o\u0000${organizationId}\u0000${number}`, [organizationId, number])
  }

  detail(resource: string, id: string): Promise<string | undefined> {
    return this.document(this.details, `d\u0000${resource}\u0000${id}`, [resource, id])
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.retry)
    this.listening = false
    if (this.listener) {
      const client = this.listener
      this.listener = undefined
      await client.query(`UNLISTEN ${DATA_CHANNEL}`).catch(() => {})
      client.release()
    }
  }
}
