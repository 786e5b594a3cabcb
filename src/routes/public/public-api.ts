import compress from '@fastify/compress'
import cors from '@fastify/cors'
import etag from '@fastify/etag'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { failure, RETRY_AFTER } from '../../answers/schemas.js'
import { MESSAGES } from '../../messages.js'
import { entityTag } from '../../readmodel/answer.js'
import { publicFailure } from '../../readmodel/envelopes.js'
import { PublicReads } from '../../reads/public-reads.js'
import { publicLimit } from '../http/public-limit.js'
import type { TransparencyOptions } from '../http/route-options.js'
import { CACHE_CONTROL } from '../http/send-answer.js'
import { changeLinesRoute, changesRoute } from './change-feed-routes.js'
import exportRoute from './export-route.js'
import { failureOf, type ValidationError } from './failures.js'
import { feedRoutes } from './feed-routes.js'
import { indicatorExportRoute, indicatorRoutes } from './indicator-routes.js'
import { ocdsBulkRoute, ocdsExtensionRoutes } from './ocds-files.js'
import { ocdsRoutes } from './ocds-routes.js'
import { partyRoutes } from './party-routes.js'
import { priceExportRoute } from './price-export-route.js'
import { recordRoutes } from './record-routes.js'
import { snapshotRoutes } from './snapshot-routes.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What each query parameter of the route accepts, in Portuguese, for its 422 messages. */
    accepts?: Readonly<Record<string, string>>
  }
}

/**
 * Operations 2–5 and the listings, helpers and export of section 4.1, under /v1/transparency: public,
 * cached by clients (ETag, Cache-Control), compressed on request, open to browsers (CORS).
 */
const transparency: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  // Every operation lists what any of them may answer besides its own statuses: 304 to an If-None-Match
  // that lists its ETag (not the files, which have none), 500, and 503 while the database is unreachable.
  app.addHook('onRoute', (route) => {
    const response = route.schema?.response as Record<string, unknown> | undefined
    if (response === undefined) return
    const content = (response[200] as { content?: Record<string, unknown> } | undefined)?.content
    const file =
      content !== undefined && Object.keys(content).some((type) => !type.startsWith('application/json'))
    if (!file)
      response[304] ??= {
        description: 'Not modified: the If-None-Match header lists the ETag this answer has now (no body)',
        type: 'null',
      }
    response[500] ??= failure(
      `\`${MESSAGES.internal}\`: a failure of the service, logged with the request id`,
    )
    response[503] ??= failure(
      `\`${MESSAGES.unavailable}\`: the database is unreachable; or \`${MESSAGES.queryTimeout}\`: the ` +
        'query ran past QUERY_TIMEOUT. Come back after Retry-After seconds',
      RETRY_AFTER,
    )
  })
  const { pool, store, publicRateLimit } = options
  const _reads = new PublicReads(options)
  // The children's options, without the parent's prefix (which they inherit anyway).
  const shared: TransparencyOptions = {
    pool,
    store,
    exportPool: options.exportPool,
    downloads: options.downloads,
    cursors: options.cursors,
    publicRateLimit,
    onExportRows: options.onExportRows,
    publication: options.publication,
    idleTimeoutMs: options.idleTimeoutMs,
    imports: options.imports,
    researches: options.researches,
    waits: options.waits,
    snapshotDir: options.snapshotDir,
  }
  // First: routes capture the handlers in force when they are built, and registering a child plugin
  // (the export, below) builds the routes declared before it.
  app.setNotFoundHandler(async (_request, reply) =>
    reply.code(404).send(publicFailure(MESSAGES.routeNotFound)),
  )

  app.setErrorHandler(async (error: ValidationError, request, reply) => {
    const failed = failureOf(error, request)
    return reply.code(failed.status).headers(failed.headers).send(publicFailure(failed.message))
  })

  if (options.publicLimiter)
    app.addHook(
      'onRequest',
      publicLimit(options.publicLimiter, publicRateLimit, (reply) =>
        reply.send(publicFailure(MESSAGES.tooManyRequests)),
      ),
    )
  await app.register(cors, { origin: '*', methods: ['GET', 'HEAD'] })
  // The details, listings and helpers send answers kept whole (sendAnswer); the export and the answers
  // built for one request (errors) get their tag, compression and Cache-Control from the plugins, in a
  // scope of their own so that the answers' path does not run their hooks.
  await app.register(async (scope) => {
    // Before compress: the tag is of the uncompressed body, hashed natively (entityTag).
    await scope.register(etag, { hashFn: entityTag })
    await scope.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 })
    scope.addHook('onSend', async (_request, reply, payload) => {
      if ((reply.statusCode === 200 || reply.statusCode === 304) && !reply.hasHeader('Cache-Control')) {
        reply.header('Cache-Control', CACHE_CONTROL)
      }
      return payload
    })
    await scope.register(exportRoute, shared)
    await scope.register(priceExportRoute, shared)
    await scope.register(indicatorExportRoute, shared)
    await scope.register(ocdsBulkRoute, shared)
    await scope.register(changeLinesRoute, shared)
  })
  await app.register(ocdsRoutes, shared)
  await app.register(snapshotRoutes, shared)
  await app.register(ocdsExtensionRoutes, shared)
  await app.register(changesRoute, shared)

  await app.register(recordRoutes, shared)
  await app.register(feedRoutes, shared)
  await app.register(partyRoutes, shared)
  await app.register(indicatorRoutes, shared)
}

export default transparency
