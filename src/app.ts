import { readFileSync } from 'node:fs'
import type { ServerOptions } from 'node:http'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance, LogController } from 'fastify'
import { AccessLog } from './auth/access-log.js'
import { type Limiter, MemoryLimiter, RedisLimiter } from './auth/rate-limit.js'
import { TokenCache } from './auth/tokens.js'
import { Notifications } from './channel.js'
import type { Config } from './config.js'
import { derivePool, type Pool } from './db/pool.js'
import { ExportGate } from './export/gate.js'
import { Metrics, serveMetrics } from './metrics.js'
import { clientErrorHandler, frameworkErrors } from './plugins/client-errors.js'
import openapi from './plugins/openapi.js'
import { DocumentStore } from './readmodel/store.js'
import { requestId } from './request-id.js'
import health from './routes/health.js'
import orders from './routes/orders.js'
import portal from './routes/portal.js'
import transparency from './routes/transparency.js'
import { requestValidator } from './validation.js'

export interface AppDeps {
  pool: Pool
  /** Rate-limit counters; by default in Redis when REDIS_URL is set, else in the process. */
  limiter?: Limiter
  /** The read path; by default one over deps.pool with config.cacheMb of cache. */
  store?: DocumentStore
}

export interface AppOptions {
  /** false in tests that want silence; defaults to pino at config.logLevel. */
  logger?: boolean
  /** Where the log lines go (standard output by default): tests read what would be logged. */
  logStream?: NodeJS.WritableStream
}

/** Builds the application: plugins and routes, no listening. Used by the server, the tests and docs:export. */
export async function buildApp(
  config: Config,
  deps: AppDeps,
  options: AppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            // Tokens travel in Authorization; never log them.
            redact: { paths: ['req.headers.authorization', 'headers.authorization'], remove: true },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    // Node checks the request timeout on this beat (30 s by default, which would let a slow request overstay).
    // Fastify's types take https or http options; both are Node's server options, so one shape serves both.
    ...((config.tls
      ? {
          https: {
            cert: readFileSync(config.tls.certFile),
            key: readFileSync(config.tls.keyFile),
            connectionsCheckingInterval: 1000,
          },
        }
      : { http: { connectionsCheckingInterval: 1000 } }) as { http: ServerOptions }),
    trustProxy: config.trustProxy,
    // A GET-only API: a request arrives whole within requestTimeout or is answered 408 and closed; a
    // connection quiet both ways for idleTimeout (a reader that stopped reading an export) is dropped.
    requestTimeout: config.requestTimeoutSeconds * 1000,
    keepAliveTimeout: config.keepAliveTimeoutSeconds * 1000,
    connectionTimeout: config.idleTimeoutSeconds * 1000,
    clientErrorHandler,
    frameworkErrors,
    return503OnClosing: true,
    // Fastify's two lines per request halve the throughput of a fast route. Order queries are recorded in
    // access_log anyway; failures are logged by the error handlers; LOG_REQUESTS=true adds one line each.
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: 'idle',
    // X-Request-Id: the client's or the proxy's when sane, else a new one; logged as reqId, sent back.
    requestIdHeader: false,
    genReqId: (request) => requestId(request.headers['x-request-id']),
  }).withTypeProvider<TypeBoxTypeProvider>()

  let redisUp: boolean | undefined = config.redisUrl && !deps.limiter ? true : undefined
  const limiter =
    deps.limiter ??
    (config.redisUrl
      ? new RedisLimiter(config.redisUrl, {
          onFault: (error) => {
            redisUp = false
            app.log.error({ err: error }, 'Redis unreachable: rate limits are per process until it returns')
          },
          onRecover: () => {
            redisUp = true
            app.log.warn('Redis is back: rate limits are shared again')
          },
        })
      : new MemoryLimiter())
  const accessLog = new AccessLog(deps.pool, (error) =>
    app.log.error({ err: error }, 'writing access records failed'),
  )
  // One connection hears imports (the cache) and token changes (the token cache) for the whole app.
  const notifications = new Notifications(deps.pool, (error) =>
    app.log.error(
      { err: error },
      'listening for changes failed: nothing is cached and tokens are checked every second until it is back',
    ),
  )
  const store =
    deps.store ??
    new DocumentStore(deps.pool, {
      cacheBytes: config.cacheMb * 1024 * 1024,
      onError: (error, what) => app.log.error({ err: error }, what),
      notifications,
    })
  const tokens = new TokenCache(deps.pool, undefined, undefined, notifications)
  await notifications.start()
  // Exports run on connections of their own, so that however many run, the API's pool stays free; the
  // statement timeout bounds how long one may run, a slow reader included.
  const exportPool = derivePool(deps.pool, {
    max: config.exportConcurrency,
    applicationName: 'compras-export',
    statementTimeoutMs: config.exportTimeoutSeconds * 1000,
  })
  let exportRows: ((rows: number) => void) | undefined
  if (config.metricsPort !== undefined) {
    const metrics = new Metrics({ pool: deps.pool, exportPool, store, redisUp: () => redisUp })
    metrics.instrument(app)
    exportRows = (rows) => metrics.exportRows.inc(rows)
    const server = await serveMetrics(metrics, config.metricsPort, config.host)
    app.decorate('metricsServer', server)
    app.addHook('onClose', (_, done) => {
      server.close(() => done())
      server.closeAllConnections()
    })
  }
  app.addHook('onClose', async () => {
    if (!deps.store) await store.close()
    await notifications.close()
    await accessLog.close()
    if (!deps.limiter) await limiter.close()
    await exportPool.end()
  })
  // A GET-only API reads no request body; a connection that brought one is closed once answered, so a body
  // trickled in a byte at a time cannot hold it (Node would keep it open to drain the body for keep-alive).
  app.server.prependListener('request', (request, response) => {
    const { headers } = request
    if (
      (headers['content-length'] !== undefined && headers['content-length'] !== '0') ||
      headers['transfer-encoding']
    )
      response.shouldKeepAlive = false
  })
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    done()
  })
  // Query strings are validated without Ajv's coercion (src/validation.ts).
  app.setValidatorCompiler(requestValidator)

  if (config.logRequests)
    app.addHook('onResponse', async (request, reply) => {
      request.log.info(
        {
          method: request.method,
          url: request.url,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        'request',
      )
    })

  await app.register(openapi)
  await app.register(health, { pool: deps.pool })
  await app.register(orders, {
    prefix: '/external',
    store,
    tokens,
    limiter,
    accessLog,
    authFailureLimit: config.authFailureLimit,
  })
  await app.register(transparency, {
    prefix: '/v1',
    pool: deps.pool,
    store,
    exportPool,
    exportGate: new ExportGate(config.exportConcurrency),
    publicRateLimit: config.publicRateLimit,
    onExportRows: exportRows,
    publication: { config: config.ocds, publicUrl: config.publicUrl },
  })
  // The citizens' portal, at the root: pages over the same read path.
  await app.register(portal, { pool: deps.pool, store })
  return app as unknown as FastifyInstance
}
