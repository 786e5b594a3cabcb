import pg from 'pg'
import {
  CONNECT_TIMEOUT_MS,
  createPool,
  type DerivedLimits,
  isUnavailable,
  type Pool,
  type ServerPool,
} from './pool.js'

// Reads from PostgreSQL's streaming replicas (DATABASE_REPLICA_URLS), never older than promised
// (docs/operations.md, "Read replicas"): a replica serves only while it is a standby that answers, no more
// than REPLICA_MAX_LAG behind the primary, and has replayed the primary's position as it was when this
// instance last heard of an import. Otherwise reads go to another replica that qualifies, or to the primary.

/** A WAL position (`16/B374D848`) as a number that orders as positions do. */
export function lsnValue(text: string): bigint {
  // Stryker disable next-line StringLiteral: PostgreSQL writes every position as two words; the defaults type it
  const [high = '0', low = '0'] = text.split('/')
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`)
}

/** Where a replica stands, as `/ready` and the metrics show it. */
export type ReplicaState = 'starting' | 'up' | 'lagging' | 'down' | 'not a standby'

export interface ReplicaStatus {
  /** host:port/database, never the credentials. */
  name: string
  state: ReplicaState
  /** Seconds behind the primary at most, as last seen; null when unknown. */
  lag_seconds: number | null
}

/** What a replica is watched with: its own connection, apart from the reads' pool, so a busy pool never delays it. */
interface Watched {
  name: string
  monitor: Pool
  state: ReplicaState
  /** The position it had replayed at its last check; -1 before the first. */
  replayed: bigint
  lagMs: number
  timer: NodeJS.Timeout | undefined
}

export interface ReplicaOptions {
  /** A replica further behind than this leaves the rotation until it catches up (REPLICA_MAX_LAG). */
  maxLagMs: number
  /** How often each replica and the primary's position are read; 1 s by default. */
  checkMs?: number
  /** Told once per change of a replica's state, with its name (never its credentials). */
  onState?: (status: ReplicaStatus, error?: Error) => void
}

/** A replica behind the floor is read again this often, so that it rejoins as soon as it has replayed it. */
const CATCH_UP_MS = 20

/** The primary's positions kept for measuring lag: a few past REPLICA_MAX_LAG suffice. */
const SAMPLES = 64

/** The name of a server for logs and /ready: its address and database, without user or password. */
export function serverName(url: string): string {
  const parsed = new URL(url)
  return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`
}

/**
 * The state of an instance's replicas: which may serve a read now. Each replica is read every second
 * (`pg_is_in_recovery()`, `pg_last_wal_replay_lsn()`) beside the primary's position (`pg_current_wal_lsn()`);
 * a replica's lag is how long ago the primary was last seen at a position the replica has replayed. When the
 * instance hears of an import (`heard`), the floor is raised to the primary's position then, and until a
 * replica is seen past it, reads leave it alone.
 */
export class Replicas {
  private readonly watched: Watched[]
  /** The position every replica that serves has replayed; undefined while it is being read (primary only). */
  private floor: bigint | undefined = 0n
  /** The latest hearing, by identity, so that an older reading of the floor never replaces a newer one. */
  private hearing: object = {}
  private floorRetry: NodeJS.Timeout | undefined
  /** The primary's positions, oldest first, with when they were read. */
  // Stryker disable next-line ArrayDeclaration: a first entry without a position is never a replica's match
  private readonly samples: { at: number; lsn: bigint }[] = []
  private sampling: NodeJS.Timeout | undefined
  private closed = false
  private turn = 0
  private readonly checkMs: number

  constructor(
    private readonly primary: Pool,
    readonly urls: readonly string[],
    private readonly options: ReplicaOptions,
  ) {
    this.checkMs = options.checkMs ?? 1000
    this.watched = urls.map((url) => ({
      name: serverName(url),
      // A replica that stops answering (a cut network) is found down at the next check, not waited on for ever.
      monitor: createPool(url, {
        max: 1,
        applicationName: 'compras-replica-check',
        connectTimeoutMs: 1000,
        queryTimeoutMs: 2000,
      }),
      state: 'starting',
      replayed: -1n,
      lagMs: Number.POSITIVE_INFINITY,
      timer: undefined,
    }))
  }

  /** Reads the primary's position and every replica once, then keeps watching them. */
  async start(): Promise<void> {
    await this.sample()
    await Promise.all(this.watched.map((replica) => this.check(replica)))
  }

  /**
   * An import committed (or a notification may have gone unheard): until the primary's position now is read,
   * reads go to the primary; then to the replicas that have replayed it.
   */
  heard(): void {
    this.floor = undefined
    const hearing = {}
    this.hearing = hearing
    clearTimeout(this.floorRetry)
    const read = () => {
      this.position()
        .then((lsn) => {
          if (hearing !== this.hearing || this.closed) return
          this.floor = lsn
          this.record(lsn)
          // Every replica is read again at once, and one behind the floor then often, until it passes it.
          for (const replica of this.watched) this.schedule(replica, 0)
        })
        .catch(() => {
          // The primary does not answer: reads stay on it (and fail there) until it does.
          if (hearing !== this.hearing || this.closed) return
          this.floorRetry = setTimeout(read, 100)
          this.floorRetry.unref()
        })
    }
    read()
  }

  /** The index of a replica that may serve a read now, taking turns; undefined: the primary serves. */
  pick(except?: number): number | undefined {
    const floor = this.floor
    if (floor === undefined) return undefined
    const count = this.watched.length
    // Stryker disable next-line EqualityOperator: a second look at the first replica chooses as the first did
    for (let k = 0; k < count; k++) {
      // Stryker disable next-line ArithmeticOperator: turns taken the other way round spread the reads alike
      const index = (this.turn + k) % count
      const replica = this.watched[index] as Watched
      if (index === except || replica.state !== 'up' || replica.replayed < floor) continue
      this.turn = index + 1
      return index
    }
    return undefined
  }

  /** A read on replica `index` failed because the replica did: it leaves the rotation until a check finds it well. */
  failed(index: number, error: Error): void {
    const replica = this.watched[index]
    // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: told only of a replica of the pool; one already down is checked again at the same pace
    if (replica === undefined || replica.state === 'down') return
    this.set(replica, 'down', error)
    this.schedule(replica, this.checkMs)
  }

  get statuses(): ReplicaStatus[] {
    return this.watched.map((replica) => this.status(replica))
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.floorRetry)
    clearTimeout(this.sampling)
    for (const replica of this.watched) clearTimeout(replica.timer)
    await Promise.all(this.watched.map((replica) => replica.monitor.end()))
  }

  private status(replica: Watched): ReplicaStatus {
    const lag = Number.isFinite(replica.lagMs) ? Math.round(replica.lagMs / 100) / 10 : null
    return { name: replica.name, state: replica.state, lag_seconds: lag }
  }

  private set(replica: Watched, state: ReplicaState, error?: Error) {
    if (replica.state === state) return
    replica.state = state
    this.options.onState?.(this.status(replica), error)
  }

  private record(lsn: bigint) {
    // Positions only grow: this orders two readings that cross (sample() and heard()), a race no test stages.
    // Stryker disable next-line UnaryOperator
    const last = this.samples.at(-1)
    // Stryker disable next-line ConditionalExpression,EqualityOperator
    if (last !== undefined && last.lsn > lsn) return
    this.samples.push({ at: Date.now(), lsn })
    // Stryker disable next-line ConditionalExpression,EqualityOperator: bounds memory; 63 or 64 positions measure alike, and growth would show in hours
    if (this.samples.length > SAMPLES) this.samples.shift()
  }

  /** Reads the primary's position every check, for the replicas' lag. */
  private async sample() {
    try {
      this.record(await this.position())
    } catch {
      // Unknown for now: the replicas' lag grows until the primary answers again.
    }
    // Stryker disable next-line ConditionalExpression: a reading in flight at close is the last; the timers are cleared
    if (this.closed) return
    this.sampling = setTimeout(() => void this.sample(), this.checkMs)
    this.sampling.unref()
  }

  /** The primary's position now. */
  private async position(): Promise<bigint> {
    const { rows } = await this.primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')
    // Stryker disable next-line OptionalChaining,StringLiteral: the statement always returns one row
    return lsnValue(rows[0]?.lsn ?? '0/0')
  }

  /**
   * How far the replica is behind, at most: how long ago the primary was last seen at a position it has
   * replayed. 0 when it has replayed the latest read; infinite when it is behind every position kept.
   */
  private lagOf(replayed: bigint): number {
    const latest = this.samples.at(-1)
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: a standby at the latest reading lags by that reading's age at most, a check
    if (latest === undefined || replayed >= latest.lsn) return 0
    // The primary passed `replayed` after the last position kept that the replica has: at most this long ago.
    for (let k = this.samples.length - 1; k >= 0; k--) {
      const sample = this.samples[k] as { at: number; lsn: bigint }
      // Stryker disable next-line EqualityOperator: at the very position either side measures alike, within a check
      if (sample.lsn <= replayed) return Date.now() - sample.at
    }
    return Number.POSITIVE_INFINITY
  }

  private schedule(replica: Watched, ms: number) {
    // Stryker disable next-line ConditionalExpression: a check in flight at close is the last; the timers are cleared
    if (this.closed) return
    clearTimeout(replica.timer)
    replica.timer = setTimeout(() => void this.check(replica), ms)
    replica.timer.unref()
  }

  private async check(replica: Watched) {
    try {
      const { rows } = await replica.monitor.query<{ standby: boolean; replayed: string | null }>(
        'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed',
      )
      const row = rows[0]
      if (row === undefined || !row.standby || row.replayed === null) {
        // A promoted or unrelated server may have diverged from the primary: it never serves.
        // Stryker disable next-line UnaryOperator: a server that is not a standby never serves, whatever it replayed
        replica.replayed = -1n
        replica.lagMs = Number.POSITIVE_INFINITY
        this.set(replica, 'not a standby')
      } else {
        replica.replayed = lsnValue(row.replayed)
        replica.lagMs = this.lagOf(replica.replayed)
        // Stryker disable next-line EqualityOperator: at the very millisecond either side is alike
        this.set(replica, replica.lagMs > this.options.maxLagMs ? 'lagging' : 'up')
      }
    } catch (error) {
      replica.lagMs = Number.POSITIVE_INFINITY
      this.set(replica, 'down', error as Error)
    }
    const floor = this.floor
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: checking a standby more often costs a query, never a read older than promised
    const behind = replica.state === 'up' && floor !== undefined && replica.replayed < floor
    this.schedule(replica, behind ? CATCH_UP_MS : this.checkMs)
  }
}

/** Whether a read that failed on a replica may be run again elsewhere: the replica failed, or replay cancelled it. */
function retryable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code
  // 40001 on a standby: "canceling statement due to conflict with recovery".
  return isUnavailable(error) || code === '40001'
}

/**
 * A pool for reads: each query, and each connection taken, goes to a replica that may serve now (taking
 * turns), or to the primary when none may. A read that fails because its replica did is run once more
 * elsewhere, since reads are safe to run again. A connection already taken is the caller's: its failures are
 * its own (the request in flight fails). Everything that writes, listens or checks tokens uses the primary's
 * own pool, never this one.
 */
export class ReadPool implements Pool {
  constructor(
    readonly primary: ServerPool,
    private readonly replicaPools: readonly ServerPool[],
    private readonly replicas: Replicas,
    /** Whether `end` ends the primary's pool too (one made for this pool, as the exports' is). */
    private readonly ownsPrimary = false,
  ) {}

  /** The pool a read goes to now: a replica's index and pool, or the primary's (index undefined). */
  private choose(except?: number): [number | undefined, ServerPool] {
    const index = this.replicas.pick(except)
    return index === undefined ? [undefined, this.primary] : [index, this.replicaPools[index] as ServerPool]
  }

  // pg.Pool's query takes many shapes; every one is handed on as it came (callbacks are not used here).
  readonly query = ((...args: unknown[]) =>
    this.read((pool) =>
      (pool.query as (...a: unknown[]) => Promise<pg.QueryResult>)(...args),
    )) as Pool['query']

  connect(): Promise<pg.PoolClient> {
    return this.read(async (pool) => {
      const client = await pool.connect()
      this.origins.set(client, pool)
      return client
    })
  }

  /** Which pool a connection taken from this one came from: the server it talks to. */
  serverOf(client: pg.PoolClient): ServerPool {
    return this.origins.get(client) ?? this.primary
  }

  private readonly origins = new WeakMap<pg.PoolClient, ServerPool>()

  private async read<T>(run: (pool: ServerPool) => Promise<T>): Promise<T> {
    const [index, pool] = this.choose()
    try {
      return await run(pool)
    } catch (error) {
      // A failed read on the primary is the caller's; on a replica, run once more elsewhere if it may be.
      // Stryker disable next-line ConditionalExpression: no test fails the primary in the middle of a read
      if (index === undefined || !retryable(error)) throw error
      if (isUnavailable(error)) this.replicas.failed(index, error as Error)
      return run(this.choose(index)[1])
    }
  }

  /** The pools reads go to: the primary's, then each replica's. */
  get members(): ServerPool[] {
    return [this.primary, ...this.replicaPools]
  }

  /** Ends the replicas' pools, and the primary's when it was made for this one. */
  async end(): Promise<void> {
    await Promise.all(
      [...this.replicaPools, ...(this.ownsPrimary ? [this.primary] : [])].map((pool) => pool.end()),
    )
  }
}

/** The servers' pools behind a pool (for their connection counts): a ReadPool's members, or the pool itself. */
export function serversOf(pool: Pool): ServerPool[] {
  if (pool instanceof ReadPool) return pool.members
  if (pool instanceof pg.Pool) return [pool]
  // Stryker disable next-line StringLiteral: unreachable, every pool this service makes is one of the two
  throw new TypeError('a pool of neither kind')
}

/** The server's pool a connection taken from `pool` talks to (to cancel its query from a connection of its own). */
export function serverOf(pool: Pool, client: pg.PoolClient): ServerPool {
  if (pool instanceof ReadPool) return pool.serverOf(client)
  if (pool instanceof pg.Pool) return pool
  // Stryker disable next-line StringLiteral: unreachable, every pool this service makes is one of the two
  throw new TypeError('a pool of neither kind')
}

/**
 * The replicas' pools for reads, made like the primary's: the same size and bounds, failing fast when one does
 * not answer (a connection, or a query: a frozen standby cannot even cancel one).
 */
export function replicaPools(urls: readonly string[], bounds: DerivedLimits): ServerPool[] {
  return urls.map((url) =>
    createPool(url, {
      max: bounds.max,
      applicationName: bounds.applicationName,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      statementTimeoutMs: bounds.statementTimeoutMs,
      queryTimeoutMs: bounds.queryTimeoutMs,
    }),
  )
}

/**
 * Whether `after` is past the end of a log, by `last` (a query of its last position): asked of the pool the
 * page was read from, then, when that one is a replica behind, of the primary, which is never behind. A
 * cursor another instance handed out, past what this replica has replayed, is then not taken for one of a
 * log loaded again: the page is empty, as if nothing had happened yet.
 */
export async function pastEnd(
  pool: Pool,
  after: number,
  last: (pool: Pool) => Promise<number>,
): Promise<boolean> {
  if (after <= (await last(pool))) return false
  return pool instanceof ReadPool ? after > (await last(pool.primary)) : true
}
