import { readFileSync } from 'node:fs'
import type { ServerOptions } from 'node:http'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify'
import type { Config } from './config.js'
import { clientErrorHandler, frameworkErrors } from './plugins/client-errors.js'
import openapi from './plugins/openapi.js'
import requests from './plugins/requests.js'
import { requestValidator } from './query-validation.js'
import { requestId } from './request-id.js'
import health from './routes/health.js'
import orders from './routes/orders/order-routes.js'
import portal from './routes/portal/portal-routes.js'
import transparency from './routes/public/public-api.js'
import { type ServiceDeps, startServices } from './services.js'

export type AppDeps = ServiceDeps

export interface AppOptions {
  /** false in tests that want silence; defaults to pino at config.logLevel. */
  logger?: boolean
  /** Where the log lines go (standard output by default): tests read what would be logged. */
  logStream?: NodeJS.WritableStream
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The metrics endpoint's server, when METRICS_PORT is set. */
    metricsServer?: import('node:http').Server
  }
}

/**
 * TRUST_PROXY as Fastify takes it. Never `true`, which would take the left-most X-Forwarded-For address, the
 * one a client writes. A hop count trusts that many addresses from the right (the socket's peer first), as
 * proxy-addr counts them; Fastify's own number fails closed, so it is given as a function.
 */
function trustProxy(setting: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (setting === false) return false
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting
  return [...setting]
}

/** Fastify's options for this service: the server, its timeouts, logging, proxies and request ids. */
export function fastifyOptions(config: Config, options: AppOptions = {}): FastifyServerOptions {
  // Node checks the request timeout on this beat (30 s by default, which would let a slow request overstay).
  // A request without Host is answered by the request pipeline, in its path's envelope, not by Node's bare 400.
  const server: ServerOptions & { cert?: Buffer; key?: Buffer } = {
    connectionsCheckingInterval: 1000,
    requireHostHeader: false,
  }
  if (config.tls) {
    server.cert = readFileSync(config.tls.certFile)
    server.key = readFileSync(config.tls.keyFile)
  }
  return {
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            // Tokens travel in Authorization; never log them.
            redact: { paths: ['req.headers.authorization', 'headers.authorization'], remove: true },
            ...(options.logStream
              ? { stream: options.logStream }
              : // On a terminal the lines are for people; elsewhere JSON, for the log collector.
                process.stdout.isTTY
                ? {
                    transport: {
                      target: 'pino-pretty',
                      options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
                    },
                  }
                : {}),
          },
    // Fastify's types take https or http options; both are Node's server options, so one shape serves both.
    ...((config.tls ? { https: server } : { http: server }) as { http: ServerOptions }),
    // A GET-only API: a request arrives whole within requestTimeout or is answered 408 and closed; a
    // connection quiet both ways for idleTimeout (a reader that stopped reading) is dropped.
    requestTimeout: config.requestTimeoutSeconds * 1000,
    keepAliveTimeout: config.keepAliveTimeoutSeconds * 1000,
    connectionTimeout: config.idleTimeoutSeconds * 1000,
    // Never `true`: proxy-addr would take the left-most address, which the client writes (src/config.ts).
    trustProxy: trustProxy(config.trustProxy),
    clientErrorHandler,
    frameworkErrors,
    return503OnClosing: true,
    // Order queries are recorded in access_log and failures by the error handlers; LOG_REQUESTS adds a line each.
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: 'idle',
    // X-Request-Id: the client's or the proxy's when sane, else a new one; logged as reqId, sent back.
    requestIdHeader: false,
    genReqId: (request) => requestId(request.headers['x-request-id']),
  }
}

/** Builds the application: services, the request pipeline and the routes; no listening. */
export async function buildApp(
  config: Config,
  deps: AppDeps,
  options: AppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify(fastifyOptions(config, options)).withTypeProvider<TypeBoxTypeProvider>()
  const services = await startServices(config, deps, app.log)
  // Requests waiting for an import answer at once: the server stops without waiting out their wait.
  app.addHook('preClose', (done) => {
    services.imports.close()
    done()
  })
  app.addHook('onClose', () => services.close())
  if (services.metricsServer) app.decorate('metricsServer', services.metricsServer)
  // Query strings are validated without Ajv's coercion (src/query-validation.ts).
  app.setValidatorCompiler(requestValidator)

  await app.register(requests, {
    logRequests: config.logRequests,
    metrics: services.metrics,
    ipv6Prefix: config.ipv6Prefix,
  })
  await app.register(openapi)
  // Ready when the public reads can be served: their pool answers (a replica, or the primary).
  await app.register(health, { pool: services.reads, replicas: services.replicas })
  // Public reads (documents, pages, feeds, exports) go to services.reads: the replicas when there are some.
  await app.register(orders, {
    prefix: '/external',
    ...services,
    pool: services.reads,
    authFailureLimit: config.authFailureLimit,
    idleTimeoutMs: config.idleTimeoutSeconds * 1000,
  })
  await app.register(transparency, {
    prefix: '/v1',
    ...services,
    pool: services.reads,
    publicRateLimit: config.publicRateLimit,
    onExportRows: services.metrics && ((rows: number) => services.metrics?.exportRows.inc(rows)),
    publication: { config: config.ocds, publicUrl: config.publicUrl },
    downloads: {
      gate: services.exportGate,
      idleMs: config.idleTimeoutSeconds * 1000,
      minBytesPerSecond: config.downloadMinRateKb * 1024,
      timeoutMs: config.exportTimeoutSeconds * 1000,
    },
    idleTimeoutMs: config.idleTimeoutSeconds * 1000,
    snapshotDir: config.snapshotDir,
  })
  // The citizens' portal, at the root: pages over the same read path.
  await app.register(portal, {
    pool: services.reads,
    store: services.store,
    cursors: services.cursors,
    publicLimiter: services.publicLimiter,
    publicRateLimit: config.publicRateLimit,
    researches: services.researches,
  })
  return app as unknown as FastifyInstance
}
