import type http from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import { AccessLog } from './auth/access-log.js'
import { type Limiter, MemoryLimiter, RedisLimiter } from './auth/rate-limit.js'
import { TokenCache } from './auth/tokens.js'
import { DATA_CHANNEL, ImportSignal, Notifications } from './channel.js'
import type { Config } from './config.js'
import { type DerivedLimits, derivePool, type Pool, type ServerPool } from './db/pool.js'
import { ReadPool, Replicas, replicaPools } from './db/replicas.js'
import { Gate } from './gate.js'
import { Metrics, serveMetrics } from './metrics.js'
import type { ResearchLimits } from './prices/reads.js'
import { Cursors } from './queries/cursors.js'
import { DocumentStore } from './readmodel/store.js'
import { Destinations, parseCidrs } from './webhooks/addresses.js'
import { Dispatcher } from './webhooks/dispatcher.js'

// The services an instance's routes share, made once per app: the read path and its cache, tokens, rate
// limits, access records, the exports' connections and the metrics.

export interface ServiceDeps {
  pool: ServerPool
  /** Rate-limit counters; by default in Redis when REDIS_URL is set, else in the process. */
  limiter?: Limiter
  /** The read path; by default one over deps.pool with config.cacheMb of cache. */
  store?: DocumentStore
}

export interface Services {
  /** The primary's pool: imports, tokens, access records, listening. */
  pool: ServerPool
  /** Where public reads go: the replicas in good standing, or the primary (the same pool without replicas). */
  reads: Pool
  /** With DATABASE_REPLICA_URLS: their state. */
  replicas: Replicas | undefined
  store: DocumentStore
  tokens: TokenCache
  /** The order query's limits: per token, and failed authentications per address. */
  limiter: Limiter
  /** The public pages' and API's per-address limit; undefined when PUBLIC_RATE_LIMIT is 0. */
  publicLimiter: MemoryLimiter | undefined
  accessLog: AccessLog
  /** Where imports and token changes are heard, on one connection for the whole app. */
  notifications: Notifications
  /** Requests waiting for the next import (the change feeds' long polling). */
  imports: ImportSignal
  /** Exports' own connections, so that however many run the API's pool stays free. */
  exportPool: Pool
  exportGate: Gate
  /** Price researches' places and bound. */
  researches: ResearchLimits
  /** The change feed's waiting requests, a share per address. */
  waits: Gate
  /** The cursors clients resume from, made and read against the change log's identity. */
  cursors: Cursors
  /** With METRICS_PORT: the metrics, and the server that serves them. */
  metrics: Metrics | undefined
  metricsServer: http.Server | undefined
  /** The webhook deliveries this instance makes (src/webhooks). */
  webhooks: Dispatcher
  close(): Promise<void>
}

/**
 * The pool public reads go to, and how the exports' is made from it: without replicas, a pool of its own to the
 * primary; with them, a ReadPool over the primary and each replica. Every read's statement is bounded by
 * QUERY_TIMEOUT (PostgreSQL cancels it), and a server that stops answering fails the read a second later.
 */
function readPools(config: Config, pool: ServerPool, log: FastifyBaseLogger) {
  const bounds = {
    max: config.databasePoolSize,
    applicationName: 'compras',
    statementTimeoutMs: config.queryTimeoutSeconds * 1000,
    queryTimeoutMs: config.queryTimeoutSeconds * 1000 + QUERY_TIMEOUT_MARGIN_MS,
  }
  if (config.databaseReplicaUrls.length === 0) {
    const reads = derivePool(pool, bounds)
    return {
      pool: reads,
      replicas: undefined,
      derive: (limits: DerivedLimits) => derivePool(pool, limits),
      close: () => reads.end(),
    }
  }
  const replicas = new Replicas(pool, config.databaseReplicaUrls, {
    maxLagMs: config.replicaMaxLagSeconds * 1000,
    onState: (status, error) => {
      const fields = { replica: status.name, state: status.state, lag_seconds: status.lag_seconds }
      if (status.state === 'up') log.info(fields, 'replica serves reads')
      else log.warn({ ...fields, error: error?.message }, 'replica out of the rotation')
    },
  })
  const pools = replicaPools(config.databaseReplicaUrls, bounds)
  const reads = new ReadPool(derivePool(pool, bounds), pools, replicas, true)
  return {
    pool: reads,
    replicas,
    derive: (limits: DerivedLimits) =>
      new ReadPool(
        derivePool(pool, limits),
        pools.map((replica) => derivePool(replica, limits)),
        replicas,
        true,
      ),
    close: async () => {
      await replicas.close()
      await reads.end()
    },
  }
}

/**
 * Requests one client address may have waiting for the next import: a mirror needs one, a few browser tabs a few
 * more. Waiting holds no connection, but each waiter reads again when an import comes.
 */
export const WAITS_PER_ADDRESS = 20

/** How long an export waits for its connection before it fails (a database that does not answer). */
const EXPORT_CONNECT_TIMEOUT_MS = 10_000

/** How long past QUERY_TIMEOUT a read waits for a server that does not even cancel it (a frozen host). */
const QUERY_TIMEOUT_MARGIN_MS = 1000

/** Makes the services and starts what listens (notifications, the metrics port). */
export async function startServices(
  config: Config,
  deps: ServiceDeps,
  log: FastifyBaseLogger,
): Promise<Services> {
  const { pool } = deps
  let redisUp: boolean | undefined = config.redisUrl && !deps.limiter ? true : undefined
  const limiter =
    deps.limiter ??
    (config.redisUrl
      ? new RedisLimiter(config.redisUrl, {
          onFault: (error) => {
            redisUp = false
            log.error({ err: error }, 'Redis unreachable: rate limits are per process until it returns')
          },
          onRecover: () => {
            redisUp = true
            log.warn('Redis is back: rate limits are shared again')
          },
        })
      : new MemoryLimiter())
  const accessLog = new AccessLog(pool, (error) => log.error({ err: error }, 'writing access records failed'))
  const notifications = new Notifications(pool, (error) =>
    log.error(
      { err: error },
      'listening for changes failed: nothing is cached and tokens are checked every second until it is back',
    ),
  )
  // Replicas hear of imports first, so that what reads after a hearing (the cache refilled, feed readers
  // woken) goes to a server that has replayed the import.
  const read = readPools(config, pool, log)
  if (read.replicas) {
    const { replicas } = read
    notifications.subscribe(DATA_CHANNEL, () => replicas.heard())
  }
  const reads = read.pool
  const store =
    deps.store ??
    new DocumentStore(reads, {
      cacheBytes: config.cacheMb * 1024 * 1024,
      onError: (error, what) => log.error({ err: error }, what),
      notifications,
    })
  const tokens = new TokenCache(pool, { notifications })
  const imports = new ImportSignal(notifications)
  const cursors = new Cursors(reads)
  // Webhooks read the log where imports write it, each subscription's run on a connection of this pool.
  const webhookPool = derivePool(pool, {
    max: config.webhookConcurrency + 1,
    applicationName: 'compras-webhooks',
    statementTimeoutMs: config.queryTimeoutSeconds * 1000,
  })
  const counted: { metrics?: Metrics } = {}
  const webhooks = new Dispatcher({
    pool: webhookPool,
    cursors,
    destinations: new Destinations(parseCidrs(config.webhookAllowPrivate.join(','))),
    concurrency: config.webhookConcurrency,
    log,
    metrics: { delivered: (outcome) => counted.metrics?.webhookDeliveries.inc({ outcome }) },
  })
  notifications.subscribe(DATA_CHANNEL, () => webhooks.wake())
  await notifications.start()
  await read.replicas?.start()
  // The statement timeout bounds how long one export may run, a slow reader included.
  // An export takes its connection only once it holds a place of the export gate, which has as many places as
  // the pool has connections: a checkout waits only for a connection being given back (a cancelled query's).
  const exportPool = read.derive({
    max: config.exportConcurrency,
    applicationName: 'compras-export',
    statementTimeoutMs: config.exportTimeoutSeconds * 1000,
    connectTimeoutMs: EXPORT_CONNECT_TIMEOUT_MS,
  })
  const exportGate = new Gate(config.exportConcurrency)
  const researches = { gate: new Gate(config.researchConcurrency), maxItems: config.researchMaxItems }
  const waits = new Gate(Number.MAX_SAFE_INTEGER, WAITS_PER_ADDRESS)
  let metrics: Metrics | undefined
  let metricsServer: http.Server | undefined
  if (config.metricsPort !== undefined) {
    metrics = new Metrics({
      pool: reads,
      exportPool,
      store,
      exportGate,
      researchGate: researches.gate,
      replicas: read.replicas,
      redisUp: () => redisUp,
      webhooks,
    })
    counted.metrics = metrics
    metricsServer = await serveMetrics(metrics, config.metricsPort, config.metricsHost)
  }
  webhooks.start()
  return {
    pool,
    reads,
    replicas: read.replicas,
    store,
    tokens,
    limiter,
    publicLimiter: config.publicRateLimit > 0 ? new MemoryLimiter() : undefined,
    accessLog,
    notifications,
    imports,
    exportPool,
    exportGate,
    researches,
    waits,
    cursors,
    metrics,
    metricsServer,
    webhooks,
    async close() {
      await webhooks.close()
      await webhookPool.end()
      if (metricsServer) {
        const server = metricsServer
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        })
      }
      if (!deps.store) await store.close()
      await notifications.close()
      await accessLog.close()
      if (!deps.limiter) await limiter.close()
      await exportPool.end()
      await read.close()
    },
  }
}
