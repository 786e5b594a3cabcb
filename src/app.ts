import { readFileSync } from 'node:fs'
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type ServerOptions,
  type ServerResponse,
} from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
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
import { PUBLIC_RESOURCES } from './resources/index.js'
import type { Shortcut } from './routes/answer.js'
import health from './routes/health.js'
import { answerHits } from './routes/hits.js'
import { answerOrderHits } from './routes/order-hits.js'
import orders from './routes/orders.js'
import { Outbox } from './routes/outbox.js'
import portal from './routes/portal.js'
import transparency, { HELPERS } from './routes/transparency.js'
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
  // Node checks the request timeout on this beat (30 s by default, which would let a slow request overstay).
  const serverOptions: ServerOptions & { cert?: Buffer; key?: Buffer } = config.tls
    ? {
        cert: readFileSync(config.tls.certFile),
        key: readFileSync(config.tls.keyFile),
        connectionsCheckingInterval: 1000,
      }
    : { connectionsCheckingInterval: 1000 }
  // A GET-only API: a request arrives whole within requestTimeout or is answered 408 and closed; a
  // connection quiet both ways for idleTimeout (a reader that stopped reading an export) is dropped.
  const timeouts = {
    requestTimeout: config.requestTimeoutSeconds * 1000,
    keepAliveTimeout: config.keepAliveTimeoutSeconds * 1000,
    connectionTimeout: config.idleTimeoutSeconds * 1000,
  }
  /** Answers before Fastify, once the routes exist (src/routes/answer.ts's Shortcut). */
  let serveHit: Shortcut | undefined
  /**
   * After serveHit failed: the failure is logged and the request goes to Fastify as if nothing had been
   * tried (what it set is taken back, and false returned), or, had it begun to answer, the connection is
   * closed (true).
   */
  const takeBack = (error: unknown, response: ServerResponse): boolean => {
    app.log.error({ err: error }, 'serving a cached answer failed')
    if (response.headersSent) {
      response.destroy()
      return true
    }
    for (const name of response.getHeaderNames()) response.removeHeader(name)
    response.statusCode = 200
    return false
  }
  /**
   * Whether serveHit answered, or will (then Fastify answers later what it hands over). Never an exception
   * out of the request event, which would stop the process.
   */
  const servedFirst = (
    request: IncomingMessage,
    response: ServerResponse,
    handler: RequestListener,
  ): boolean => {
    if (serveHit === undefined) return false
    let served: boolean | Promise<boolean>
    try {
      served = serveHit(request, response)
    } catch (error) {
      return takeBack(error, response)
    }
    if (typeof served === 'boolean') return served
    served
      .then(
        (answered) => answered || handler(request, response),
        (error: unknown) => takeBack(error, response) || handler(request, response),
      )
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'answering a request failed')
        response.destroy()
      })
    return true
  }
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
    // Fastify's types take https or http options; both are Node's server options, so one shape serves both.
    ...((config.tls ? { https: serverOptions } : { http: serverOptions }) as { http: ServerOptions }),
    // The server is made here so that cached answers are served before Fastify (src/routes/hits.ts); it is
    // set up as Fastify sets up its own.
    serverFactory: (handler) => {
      const listener: RequestListener = (request, response) => {
        if (!servedFirst(request, response, handler)) handler(request, response)
      }
      const server = config.tls
        ? createHttpsServer(serverOptions, listener)
        : createHttpServer(serverOptions, listener)
      server.keepAliveTimeout = timeouts.keepAliveTimeout
      server.requestTimeout = timeouts.requestTimeout
      server.setTimeout(timeouts.connectionTimeout)
      return server
    },
    trustProxy: config.trustProxy,
    ...timeouts,
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
  const tokens = new TokenCache(deps.pool, { notifications })
  await notifications.start()
  // Exports run on connections of their own, so that however many run, the API's pool stays free; the
  // statement timeout bounds how long one may run, a slow reader included.
  const exportPool = derivePool(deps.pool, {
    max: config.exportConcurrency,
    applicationName: 'compras-export',
    statementTimeoutMs: config.exportTimeoutSeconds * 1000,
  })
  let exportRows: ((rows: number) => void) | undefined
  let metrics: Metrics | undefined
  if (config.metricsPort !== undefined) {
    metrics = new Metrics({ pool: deps.pool, exportPool, store, redisUp: () => redisUp })
    metrics.instrument(app)
    const counter = metrics.exportRows
    exportRows = (rows) => counter.inc(rows)
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

  // The public routes' per-address limit, shared by their Fastify hook and the hits served before Fastify.
  const publicLimiter = config.publicRateLimit > 0 ? new MemoryLimiter() : undefined
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
    publicLimiter,
    onExportRows: exportRows,
    publication: { config: config.ocds, publicUrl: config.publicUrl },
  })
  // The citizens' portal, at the root: pages over the same read path.
  await app.register(portal, { pool: deps.pool, store })
  // Details and order queries served before Fastify, from the cache or looked up first (the rest of the
  // transparency answers only from the cache), except where they could not be answered as Fastify would: with
  // a line logged per request; for the transparency routes, the per-address limit behind a proxy (the address
  // is then Fastify's to find); for the order query, a limit shared through Redis (it cannot be taken without
  // waiting). Off from the start of closing, so that Fastify answers 503 as it drains.
  const servers: Shortcut[] = []
  const outbox = new Outbox((error) => app.log.error({ err: error }, 'writing a cached answer failed'))
  if (!config.logRequests && limiter instanceof MemoryLimiter)
    servers.push(answerOrderHits({ store, tokens, limiter, accessLog, outbox, metrics }))
  if (!config.logRequests && !(publicLimiter && config.trustProxy))
    servers.push(
      answerHits({
        store,
        resources: PUBLIC_RESOURCES.map((resource) => resource.path),
        helpers: HELPERS.map(([path]) => path),
        limit: publicLimiter && { limiter: publicLimiter, perMinute: config.publicRateLimit },
        outbox,
        metrics,
      }),
    )
  if (servers.length > 0) {
    serveHit = (request, response) => {
      for (const serve of servers) {
        const served = serve(request, response)
        if (served !== false) return served
      }
      return false
    }
    app.addHook('preClose', (done) => {
      serveHit = undefined
      done()
    })
  }
  return app as unknown as FastifyInstance
}
