import { LRUCache } from 'lru-cache'
import { DATA_CHANNEL, Notifications } from '../channel.js'
import type { Pool } from '../db/pool.js'
import { Answer } from './answer.js'
import type { Difference } from './differences.js'
import { restoreAll } from './patch.js'

/** What the cache holds: answers as they go on the wire, and strings (counts, kept until the next import). */
export type Cached = string | Answer

/**
 * What an entry costs: V8 keeps Latin-1 text (Portuguese included) at a byte a character, an answer what
 * it charges for its bytes, and a map entry with its two headers takes about 64 bytes more.
 */
const entrySize = (key: string, value: Cached) =>
  key.length + (typeof value === 'string' ? value.length : value.chargedBytes) + 64

/**
 * Values by key, least recently used first out once their size passes maxBytes. A generation number
 * changes on every clear, so a value read from the database before a clear is not stored after it.
 *
 * The recency is lru-cache's, kept in arrays beside its Map: a hit moves nothing in the Map, which a plain
 * Map (delete and set again) would leave full of holes for V8 to rehash.
 */
export class LruCache {
  private readonly entries: LRUCache<string, Cached> | undefined
  generation = 0

  constructor(readonly maxBytes: number) {
    this.entries =
      maxBytes > 0
        ? new LRUCache<string, Cached>({
            maxSize: maxBytes,
            sizeCalculation: (value, key) => entrySize(key, value),
          })
        : undefined
  }

  get(key: string): Cached | undefined {
    return this.entries?.get(key)
  }

  /** Stores value unless the cache was cleared since `generation` was read, or it is over a quarter of it. */
  set(key: string, value: Cached, generation: number): void {
    if (generation !== this.generation || this.entries === undefined) return
    if (entrySize(key, value) > this.maxBytes / 4) return
    this.entries.set(key, value)
  }

  clear(): void {
    this.entries?.clear()
    this.generation++
  }

  get size(): number {
    return this.entries?.size ?? 0
  }

  /** Bytes held, as entrySize counts them. */
  get usedBytes(): number {
    return this.entries?.calculatedSize ?? 0
  }
}

/** A value being built, and who waits for it. */
interface Flight {
  value: Promise<Cached | undefined>
  /** Aborts the build once no asker waits. */
  controller: AbortController
  /** Askers with a signal that has not aborted. */
  askers: number
  /** An asker came without a signal: the build is never aborted. */
  held: boolean
}

/** Counts an asker in a flight, and aborts the build when the last asker with a signal leaves. */
/**
 * The signal of a request that asks for a value, or how to get it: asked for only when the value is not in the
 * cache, since a request's signal (an AbortController and a listener on its socket) costs on every hit.
 */
export type Asker = AbortSignal | (() => AbortSignal)

function join(flight: Flight, asker: Asker | undefined): void {
  const signal = typeof asker === 'function' ? asker() : asker
  if (signal === undefined) {
    flight.held = true
    return
  }
  if (!signal.aborted) {
    flight.askers++
    const leave = () => {
      flight.askers--
      if (flight.askers === 0 && !flight.held) flight.controller.abort(signal.reason)
    }
    signal.addEventListener('abort', leave, { once: true })
    void flight.value.then(
      () => signal.removeEventListener('abort', leave),
      () => signal.removeEventListener('abort', leave),
    )
  } else if (flight.askers === 0 && !flight.held) flight.controller.abort(signal.reason)
}

/** A document of the read model, as JSON text, with the organization it belongs to. */
export interface Found {
  body: string
  organizationId: string
}

/** Keys sent in one query at most: a burst larger than this goes as several, one after another. */
const MAX_BATCH_KEYS = 500

/** A version of a public record as its history lists it (migrations/0017 and 0019). */
export interface VersionEntry {
  /** From 1, the oldest. */
  version: number
  /** When the import that made it ran (ISO 8601 UTC, microseconds); null for a record older than the log. */
  changed_at: string | null
  change: 'created' | 'updated'
  /** What it changed from the version before, as the import named it (none for the first). */
  changes: Difference[]
}

/** A record's document and history, read in one snapshot. */
export interface RecordHistory extends Found {
  /** Its versions, oldest first: at least one (a record older than the log has today's). */
  versions: VersionEntry[]
}

/** One earlier version of a record, and how many it has, read in one snapshot. */
export interface VersionRead {
  organizationId: string
  /** Its versions, oldest first, without their differences. */
  versions: Omit<VersionEntry, 'changes'>[]
  /** The version asked for, as its detail served it; undefined when there is no such version. */
  document: string | undefined
}

const CHANGED_AT = `to_char(c.changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

/** A record's entries that make versions, in order (alias c). */
const VERSIONS = `c.in_history AND c.change <> 'withdrawn'`

/** The versions of a record from its entries' [changed_at, change, changes] (none: older than the log). */
function versionsOf(
  entries: readonly [string, VersionEntry['change'], Difference[] | null][],
): VersionEntry[] {
  if (entries.length === 0) return [{ version: 1, changed_at: null, change: 'created', changes: [] }]
  return entries.map(([changed_at, change, changes], k) => ({
    version: k + 1,
    changed_at,
    change: k === 0 ? 'created' : change,
    changes: k === 0 ? [] : (changes ?? []),
  }))
}

/** A batch's rows, each led by its key's place in the batch (from 1), as what each key found. */
type Collect<T> = (rows: unknown[][]) => Map<number, T>

/**
 * Looks keys up in batches, one query of a batcher out at a time: the lookups asked for while it is out
 * wait for it and then go together as the next. Concurrent requests share a round trip instead of queueing
 * for connections, and a busy instance sends PostgreSQL fewer, larger queries (a query per turn of the event
 * loop instead sends many small ones, each costing PostgreSQL its own planning and round trip).
 */
class Batcher<T> {
  private pending: {
    key: string[]
    resolve: (found: T | undefined) => void
    reject: (error: Error) => void
  }[] = []
  /** Whether a query of this batcher is out. */
  private out = false
  private readonly sql: string

  /**
   * Rows of `table` by its key columns, given as [column, SQL type] in key order: `select` names what each
   * row gives after the key's place (the table is `d`), `order` how a key's rows follow each other.
   */
  constructor(
    private readonly pool: Pool,
    /** Names the prepared statement. */
    private readonly name: string,
    table: string,
    key: readonly (readonly [string, string])[],
    select: string,
    private readonly collect: Collect<T>,
    order = '',
  ) {
    // Each array behind a subquery, hidden from the planner: with its values in view PostgreSQL plans every
    // small batch again; hidden, every batch keeps the generic plan, the same nested loop over the key.
    this.sql = `SELECT k.i::int, ${select}
      FROM unnest(${key.map(([, type], n) => `(SELECT $${n + 1}::${type}[])`).join(', ')}) WITH ORDINALITY
        k(${key.map(([column]) => column).join(', ')}, i)
      JOIN ${table} d ON ${key.map(([column]) => `d.${column} = k.${column}`).join(' AND ')}${order}`
  }

  load(key: string[]): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      // The first lookup of a turn sends at its end, unless a query is out: its end sends them then.
      if (this.pending.push({ key, resolve, reject }) === 1 && !this.out) setImmediate(() => this.send())
    })
  }

  /** Sends what waits, unless a query is out: its end sends what came meanwhile. */
  private send() {
    if (this.out || this.pending.length === 0) return
    const batch = this.pending.splice(0, MAX_BATCH_KEYS)
    this.out = true
    void this.run(batch).finally(() => {
      this.out = false
      this.send()
    })
  }

  private async run(batch: typeof this.pending) {
    const columns = (batch[0]?.key ?? []).map((_, part) => batch.map((entry) => entry.key[part]))
    try {
      const { rows } = await this.pool.query<unknown[]>({
        name: this.name,
        text: this.sql,
        values: columns,
        rowMode: 'array',
      })
      const found = this.collect(rows)
      for (const [i, entry] of batch.entries()) entry.resolve(found.get(i + 1))
    } catch (error) {
      // A value PostgreSQL refuses (a data exception) fails only the lookup that carried it: the others of
      // the batch are asked again one by one. Any other failure (the connection) fails them all.
      const refusedValue = String((error as { code?: unknown }).code ?? '').startsWith('22')
      if (refusedValue && batch.length > 1) {
        await Promise.all(batch.map((entry) => this.run([entry])))
        return
      }
      for (const entry of batch) entry.reject(error as Error)
    }
  }
}

/** A document batcher: the body and organization of each key found. */
function documents(pool: Pool, table: string, key: readonly (readonly [string, string])[]) {
  return new Batcher<Found>(pool, `batch-${table}`, table, key, 'd.body, d.organization_id::text', (rows) => {
    const found = new Map<number, Found>()
    for (const [i, body, organizationId] of rows as [number, string, string][])
      found.set(i, { body, organizationId })
    return found
  })
}

export interface DocumentStoreOptions {
  /** Memory for cached documents and responses; 0 turns the cache off. */
  cacheBytes: number
  onError: (error: Error, what: string) => void
  /**
   * The data channel heard on a connection shared with others (started and closed by its owner); by
   * default the store listens on one of its own, from start to close.
   */
  notifications?: Notifications
}

/**
 * The service's read path: documents of the read model looked up in batches, and an in-process cache of
 * served documents and responses. The cache lives only while this instance listens on the data channel:
 * every import notifies it (across instances) and it drops everything; while the listening connection is
 * down nothing is cached, so no instance serves data older than the last import it could have heard of.
 */
export class DocumentStore {
  private readonly cache: LruCache
  /** Values being built, by key: who asks meanwhile waits for the same build. */
  private readonly building = new Map<string, Flight>()
  /** Where imports are heard of (when there is a cache): the cache is trusted only while they are. */
  private readonly heard: Notifications | undefined
  /** The same, when it is the store's own, started and closed with it. */
  private readonly own: Notifications | undefined
  private readonly orders: Batcher<Found>
  private readonly details: Batcher<Found>
  private readonly histories: Batcher<RecordHistory>
  private readonly pool: Pool

  constructor(pool: Pool, options: DocumentStoreOptions) {
    this.cache = new LruCache(options.cacheBytes)
    this.orders = documents(pool, 'order_documents', [
      ['organization_id', 'uuid'],
      ['number', 'text'],
    ])
    this.details = documents(pool, 'detail_documents', [
      ['resource', 'text'],
      ['id', 'uuid'],
    ])
    // The document and its versions in one statement, so in one snapshot: an import in between cannot
    // give the newest version's differences with an older document.
    this.histories = new Batcher<RecordHistory>(
      pool,
      'batch-histories',
      'detail_documents',
      [
        ['resource', 'text'],
        ['id', 'uuid'],
      ],
      `d.body, d.organization_id::text, (SELECT json_agg(json_build_array(${CHANGED_AT}, c.change, c.changes::json)
         ORDER BY c.seq) FROM public_changes c WHERE c.resource = d.resource AND c.id = d.id AND ${VERSIONS})::text`,
      (rows) => {
        const found = new Map<number, RecordHistory>()
        for (const [i, body, organizationId, entries] of rows as [number, string, string, string | null][])
          found.set(i, {
            body,
            organizationId,
            versions: versionsOf(entries === null ? [] : JSON.parse(entries)),
          })
        return found
      },
    )
    this.pool = pool
    if (options.cacheBytes <= 0) return
    const heard =
      options.notifications ??
      new Notifications(pool, (error) =>
        options.onError(error, 'listening for data changes failed; caching is off until it is back'),
      )
    if (heard !== options.notifications) this.own = heard
    heard.subscribe(DATA_CHANNEL, () => {
      this.cache.clear()
      const clears = this.clears
      this.clears = []
      for (const done of clears) done()
    })
    this.heard = heard
  }

  private get listening(): boolean {
    return this.heard?.listening === true
  }

  /** Starts listening for data changes (unless given notifications to share); the cache is used once it does. */
  async start(): Promise<void> {
    await this.own?.start()
  }

  /** Where the cache stands: it changes at every import heard. */
  get generation(): number {
    return this.cache.generation
  }

  /**
   * Resolves once the cache has heard of an import after `generation` (or at once when it keeps nothing), or
   * after `ms`: a reader woken by an import on another connection reads after the cache has dropped what it
   * held, never the page it held before the import.
   */
  heardSince(generation: number, ms = 1000): Promise<void> {
    if (!this.listening || this.cache.generation !== generation) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        resolve()
      }
      this.clears.push(done)
    })
  }

  /** Who waits for the next clear (heardSince). */
  private clears: (() => void)[] = []

  /** Lookups answered from the cache, and lookups that were not, since start (for the metrics). */
  hits = 0
  misses = 0
  /** Values built (the misses less those that waited for a build already under way). */
  builds = 0

  /** What the cache holds now. */
  get cacheStats(): { entries: number; bytes: number } {
    return { entries: this.cache.size, bytes: this.cache.usedBytes }
  }

  /** A cached value, when the cache is trusted. */
  cached(key: string): Cached | undefined {
    return this.listening ? this.cache.get(key) : undefined
  }

  /**
   * The cached value of key, or what build gives: built once however many ask meanwhile, and kept (when
   * defined, and when no import came in between) until the next import. Each asker may bring the signal of
   * its request: when every asker that brought one has gone (and none came without one), the build's own
   * signal aborts, so that its queries are cancelled rather than run for nobody.
   */
  through<T extends Cached | undefined>(
    key: string,
    build: (signal: AbortSignal) => Promise<T>,
    signal?: Asker,
  ): Promise<T> {
    const hit = this.cached(key)
    if (hit !== undefined) {
      this.hits++
      return Promise.resolve(hit as T)
    }
    this.misses++
    let flight = this.building.get(key)
    // A build every asker left is being abandoned: who asks now gets a build of its own, not that one's abort.
    if (!flight || flight.controller.signal.aborted) {
      this.builds++
      const generation = this.cache.generation
      const controller = new AbortController()
      const started: Flight = { controller, askers: 0, held: false, value: Promise.resolve(undefined) }
      started.value = build(controller.signal)
        .then((built) => {
          if (built !== undefined && this.listening) this.cache.set(key, built, generation)
          return built
        })
        .finally(() => {
          if (this.building.get(key) === started) this.building.delete(key)
        })
      this.building.set(key, started)
      flight = started
    }
    join(flight, signal)
    return flight.value as Promise<T>
  }

  /**
   * What keeps a value about to be read from the database under key, until the next import: nothing is
   * kept if one came in meanwhile (the value may be older than it), or while the cache is not trusted.
   */
  keeper(key: string): (value: Cached) => void {
    const generation = this.cache.generation
    return (value) => {
      if (this.listening) this.cache.set(key, value, generation)
    }
  }

  /**
   * The answer made of what build gives, as `through` keeps values: its bytes, tag and compressed variants
   * are made once and served from memory until the next import. Undefined when build gives nothing.
   */
  answer(
    key: string,
    build: (signal: AbortSignal) => Promise<string | Answer | undefined>,
    signal?: Asker,
  ): Promise<Answer | undefined> {
    const hit = this.cached(key)
    // The fast path: no promise chain, no closure, for the answer already in memory.
    if (hit instanceof Answer) {
      this.hits++
      return Promise.resolve(hit)
    }
    return this.through(
      key,
      async (aborted) => {
        const built = await build(aborted)
        return typeof built === 'string' ? new Answer(built) : built
      },
      signal,
    )
  }

  /**
   * An order's document from the read model, as served: stored compact (src/resources/sql.ts), so it goes
   * out as read, never parsed. Undefined when there is none. The document is not cached by itself: the
   * answers made of it are.
   */
  order(organizationId: string, number: string): Promise<string | undefined> {
    return this.orders.load([organizationId, number]).then((found) => found?.body)
  }

  /** A detail's document, as `order` gives an order's. */
  detail(resource: string, id: string): Promise<string | undefined> {
    return this.details.load([resource, id]).then((found) => found?.body)
  }

  /** A public record's document and its versions with what each changed; undefined when there is no record. */
  history(resource: string, id: string): Promise<RecordHistory | undefined> {
    return this.histories.load([resource, id])
  }

  /**
   * One version of a public record (from 1) as its detail served it, rebuilt from the nearest version kept
   * whole after it (or the document now) through at most CHECKPOINT - 1 patches, with the list of its
   * versions; the document is undefined for a version past the last, found from the count alone. Undefined
   * when there is no record. One statement, so one snapshot.
   */
  async version(resource: string, id: string, version: number): Promise<VersionRead | undefined> {
    const { rows } = await this.pool.query<{
      organization_id: string
      body: string | null
      patches: string | null
      entries: string | null
    }>({
      name: 'record-version',
      text: `WITH e AS (
          SELECT row_number() OVER (ORDER BY c.seq) AS v, c.change, ${CHANGED_AT} AS changed_at, c.restore,
            left(c.restore, 5) = '{"w":' AS whole
          FROM public_changes c WHERE c.resource = $1 AND c.id = $2 AND ${VERSIONS}),
        last AS (SELECT count(*) AS v FROM e),
        stop AS (SELECT min(v) AS v FROM e WHERE v > $3 AND whole)
        SELECT d.organization_id::text,
          CASE WHEN (SELECT v FROM stop) IS NULL AND $3 <= greatest((SELECT v FROM last), 1) THEN d.body END AS body,
          CASE WHEN $3 <= greatest((SELECT v FROM last), 1) THEN (SELECT json_agg(e.restore ORDER BY e.v DESC) FROM e
            WHERE e.v > $3 AND e.v <= coalesce((SELECT v FROM stop), (SELECT v FROM last))) END::text AS patches,
          (SELECT json_agg(json_build_array(e.changed_at, e.change, NULL) ORDER BY e.v) FROM e)::text AS entries
        FROM detail_documents d WHERE d.resource = $1 AND d.id = $2`,
      values: [resource, id, version],
    })
    const row = rows[0]
    if (row === undefined) return undefined
    const versions = versionsOf(row.entries === null ? [] : JSON.parse(row.entries)).map(
      ({ changes: _, ...entry }) => entry,
    )
    const document =
      version > versions.length
        ? undefined
        : restoreAll(row.body ?? undefined, row.patches === null ? [] : (JSON.parse(row.patches) as string[]))
    return { organizationId: row.organization_id, versions, document }
  }

  /** A detail's document and the organization it belongs to (which the document does not show). */
  ownedDetail(resource: string, id: string): Promise<Found | undefined> {
    return this.details.load([resource, id])
  }

  async close(): Promise<void> {
    await this.own?.close()
  }
}
