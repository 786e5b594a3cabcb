import { hash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import pg from 'pg'

// Dates, timestamps and numerics stay text: a JavaScript Date drops microseconds and a float
// drops cents. Mapping code formats them from the database's own value.
const TEXT_TYPES = [
  1082, // date
  1114, // timestamp
  1184, // timestamptz
  1700, // numeric
]
for (const oid of TEXT_TYPES) pg.types.setTypeParser(oid, (value: string) => value)
pg.types.setTypeParser(20, (value: string) => Number(value)) // int8: counts and ids fit in 2^53

/**
 * What queries need of a pool: a statement run on any of its connections, or a connection of the caller's own.
 * A pg.Pool is one, over one server; a ReadPool (src/db/replicas.ts) is one over the primary and its replicas.
 */
export interface Pool {
  query: pg.Pool['query']
  connect(): Promise<pg.PoolClient>
  end(): Promise<void>
}

/** A pool of connections to one server: the primary's, a replica's. */
export type ServerPool = pg.Pool
export type PoolClient = pg.PoolClient

/** Statements prepared by name on every connection, at most: each holds its plan in every backend. */
export const NAMED_STATEMENTS = 200

/** The names of the texts prepared by name, at most NAMED_STATEMENTS of them. */
const statementNames = new Map<string, string>()
/** How often texts not (yet) named were asked, by a hash of the text: bounded, oldest out first. */
const askedUnnamed = new LRUCache<string, number>({ max: 4096 })

/**
 * A query prepared per connection under a name of its text, so that a statement asked on every request (a
 * listing's, a portal page's) is planned once per connection, not per request. A text is named the second
 * time it is asked, while fewer than NAMED_STATEMENTS are; any other goes unnamed, planned on each run. So
 * however many shapes the listings' filters, sorts and relations make, each backend keeps at most
 * NAMED_STATEMENTS plans, and this process at most as many names.
 */
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  const name = statementNames.get(text)
  if (name !== undefined) return { name, text, values }
  if (statementNames.size < NAMED_STATEMENTS) {
    const key = hash('sha1', text, 'base64url')
    const asked = (askedUnnamed.get(key) ?? 0) + 1
    if (asked >= 2) {
      askedUnnamed.delete(key)
      const named = `stmt-${key.slice(0, 16)}`
      statementNames.set(text, named)
      return { name: named, text, values }
    }
    askedUnnamed.set(key, asked)
  }
  return { text, values }
}

/** How many texts are prepared by name (for the tests). */
export const namedStatements = () => statementNames.size

export interface PoolOptions {
  max?: number
  applicationName?: string
  /** An idle client losing its connection (server restart) is reported here instead of crashing the process. */
  onError?: (error: Error) => void
  /** Fail a checkout after this long (CONNECT_TIMEOUT_MS for serving); 0, the default: wait (commands). */
  connectTimeoutMs?: number
  /** Fail a query whose answer has not come after this long (its connection is dropped); none by default. */
  queryTimeoutMs?: number
  /** PostgreSQL's statement_timeout on every connection; none by default. */
  statementTimeoutMs?: number
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
])

/**
 * Whether an error says the database cannot be reached or is going away (the network, a restart), rather
 * than that a query is wrong: SQLSTATE class 08 and 57P01-57P03, socket errors, pg's own connection errors.
 */
export function isUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (
    typeof code === 'string' &&
    (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code))
  )
    return true
  // 'Query read timeout': a server that stopped answering (a frozen host), past the pool's query_timeout.
  return (
    typeof message === 'string' &&
    /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|Query read timeout)/.test(
      message,
    )
  )
}

/** Whether PostgreSQL cancelled a statement: its statement_timeout passed, or a cancel request (57014). */
export function isCancelled(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '57014'
}

/**
 * How long a request waits for a connection, a free one or a new one, before it fails: so that a database
 * that does not answer turns into errors within seconds, never into requests that hang.
 */
export const CONNECT_TIMEOUT_MS = 1500

/**
 * Every client of the pool hears its connection's errors. pg-pool listens only to the clients it holds
 * idle; a client checked out (a COPY, a transaction) that loses its connection reports it both by failing
 * what it was doing, which its user handles, and as an 'error' event, which unheard ends the process. The
 * pool drops a client that lost its connection when it is released.
 */
function hearClientErrors(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    client.on('error', () => {})
  })
}

export function createPool(connectionString: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'compras',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 0,
    ...(options.queryTimeoutMs === undefined ? {} : { query_timeout: options.queryTimeoutMs }),
    ...(options.statementTimeoutMs === undefined ? {} : { statement_timeout: options.statementTimeoutMs }),
    // A peer that vanished without closing (a cut cable, a dead host) is noticed by the kernel's probes.
    keepAlive: true,
  })
  pool.on('error', options.onError ?? (() => {}))
  hearClientErrors(pool)
  return pool
}

/** What a derived pool changes: its size and name, and how long its statements may run. */
export interface DerivedLimits {
  max: number
  applicationName: string
  /** PostgreSQL's statement_timeout on every connection: a statement past it is cancelled (57014). */
  statementTimeoutMs?: number
  /**
   * Fail a query with no answer after this long, dropping its connection: a server that stopped answering
   * (statement_timeout needs a server that runs) fails the read instead of holding it. Set it past
   * statementTimeoutMs, and not on a pool of cursors, whose query lasts as long as its reader.
   */
  queryTimeoutMs?: number
  /** How long a checkout waits for a connection; as the base pool's without. */
  connectTimeoutMs?: number
}

/** A pool of its own to the same database as `pool`, with other limits (the public reads and exports use one). */
export function derivePool(pool: pg.Pool, options: DerivedLimits): pg.Pool {
  const derived = new pg.Pool({
    ...pool.options,
    max: options.max,
    application_name: options.applicationName,
    statement_timeout: options.statementTimeoutMs,
    query_timeout: options.queryTimeoutMs,
    ...(options.connectTimeoutMs === undefined ? {} : { connectionTimeoutMillis: options.connectTimeoutMs }),
  })
  derived.on('error', () => {}) // an idle client's lost connection is dropped; the next checkout reconnects
  hearClientErrors(derived)
  return derived
}

/** Runs fn inside a transaction on a client the caller holds; rolls back on any error and rethrows it. */
export async function inTransaction<T>(client: pg.ClientBase, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN')
  try {
    const result = await fn()
    await client.query('COMMIT')
    return result
  } catch (error) {
    // A server that stopped answering would not answer the ROLLBACK either: the caller drops the connection.
    if (!isUnavailable(error)) await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}
