import compress from '@fastify/compress'
import cors from '@fastify/cors'
import etag from '@fastify/etag'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyError } from 'fastify'
import { Type } from 'typebox'
import { isUnavailable } from '../db/pool.js'
import { CursorGone, ExportRefused, NotFoundError, ParameterError } from '../errors.js'
import { MESSAGES } from '../messages.js'
import { type Answer, entityTag } from '../readmodel/answer.js'
import { publicFailure } from '../readmodel/envelopes.js'
import { PublicReads } from '../reads/public-reads.js'
import { PUBLIC_RESOURCES } from '../resources/index.js'
import { listingParameters, type ParameterProblem, parameterError } from '../transparency/parameters.js'
import { CACHE_CONTROL, sendAnswer } from './answer.js'
import { changeLinesRoute, changesRoute } from './changes.js'
import exportRoute from './export.js'
import { ocdsBulkRoute, ocdsRoutes } from './ocds.js'
import type { TransparencyOptions } from './options.js'
import { publicLimit } from './public-limit.js'
import {
  detailSchema,
  failure,
  History,
  Lookup,
  pageSchema,
  RecordVersion,
  Success,
  TOO_MANY,
} from './schemas.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What each query parameter of the route accepts, in Portuguese, for its 422 messages. */
    accepts?: Readonly<Record<string, string>>
  }
}

type ValidationError = FastifyError & {
  validation?: ParameterProblem[]
  validationContext?: string
}

/** The status of a library error, in the transparency envelope. */
function statusOf(error: Error): number | undefined {
  if (error instanceof ParameterError) return 422
  if (error instanceof CursorGone) return 410
  if (error instanceof NotFoundError) return 404
  if (error instanceof ExportRefused) return error.reason === 'address' ? 429 : 503
  return undefined
}

/** The helper routes under /transparency/helpers, and what each lists. */
export const HELPERS = [
  ['bidding-modalities', 'The 20 bidding modalities (spec 2.3)'],
  ['bidding-statuses', 'Statuses of direct contracts and public calls (status_id)'],
  ['management-statuses', 'Management statuses of contracts and ARPs (management_status_id)'],
] as const

/** What the history route takes, in Portuguese, for its 422s. */
const HISTORY_ACCEPTS = { version: 'um número inteiro a partir de 1' }

const operationId = (verb: string, path: string) =>
  verb + path.replace(/(^|-)([a-z])/g, (_, _dash, letter: string) => letter.toUpperCase())

/**
 * Operations 2–5 and the listings, helpers and export of section 4.1, under /v1/transparency: public,
 * cached by clients (ETag, Cache-Control), compressed on request, open to browsers (CORS).
 */
const transparency: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const { pool, store, publicRateLimit } = options
  const reads = new PublicReads(options)
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
  }
  // First: routes capture the handlers in force when they are built, and registering a child plugin
  // (the export, below) builds the routes declared before it.
  app.setNotFoundHandler(async (_request, reply) =>
    reply.code(404).send(publicFailure(MESSAGES.routeNotFound)),
  )

  app.setErrorHandler(async (error: ValidationError, request, reply) => {
    const status = statusOf(error)
    if (status !== undefined) {
      // Every 429 and 503 says when to come back: a place frees when an export ends.
      if (error instanceof ExportRefused && error.reason !== 'timeout') reply.header('Retry-After', 30)
      return reply.code(status).send(publicFailure(error.message))
    }
    if (error.validation) {
      if (error.validationContext === 'params') return reply.code(400).send(publicFailure(MESSAGES.invalidId))
      const accepts = request.routeOptions.config.accepts ?? {}
      return reply.code(422).send(publicFailure(parameterError(error.validation[0], accepts).message))
    }
    const code = error.statusCode ?? 500
    if (code < 500) return reply.code(code).send(publicFailure(error.message))
    if (isUnavailable(error)) {
      request.log.error({ err: error }, 'transparency query failed: the database is unreachable')
      return reply.code(503).header('Retry-After', 5).send(publicFailure(MESSAGES.unavailable))
    }
    request.log.error({ err: error }, 'transparency query failed')
    return reply.code(500).send(publicFailure(MESSAGES.internal))
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
    // Before compress: the tag is of the uncompressed body. FNV-1a: a validator, not a secret, at a
    // fraction of SHA-1's cost.
    await scope.register(etag, { hashFn: entityTag })
    await scope.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 })
    scope.addHook('onSend', async (_request, reply, payload) => {
      if ((reply.statusCode === 200 || reply.statusCode === 304) && !reply.hasHeader('Cache-Control')) {
        reply.header('Cache-Control', CACHE_CONTROL)
      }
      return payload
    })
    await scope.register(exportRoute, shared)
    await scope.register(ocdsBulkRoute, shared)
    await scope.register(changeLinesRoute, shared)
  })
  await app.register(ocdsRoutes, shared)
  await app.register(changesRoute, shared)

  for (const resource of PUBLIC_RESOURCES) {
    app.get(
      `/transparency/${resource.path}/:id`,
      {
        schema: {
          operationId: operationId('get', resource.path).replace(/s$/, ''),
          tags: ['transparency'],
          summary: `One ${resource.label} with all its relations`,
          security: [],
          params: Type.Object({
            id: Type.String({ format: 'uuid', description: `The ${resource.label}'s UUID` }),
          }),
          response: {
            200: Success(detailSchema(resource), `The ${resource.label}`),
            400: failure('`Identificador inválido.`: the id is not a UUID'),
            404: failure('`Registro não encontrado.`'),
            429: TOO_MANY,
          },
        },
      },
      async (request, reply) => {
        const answer = await reads.answer(reads.detail(resource, request.params.id.toLowerCase()))
        if (answer === undefined) throw new NotFoundError('record')
        return sendAnswer(request, reply, answer)
      },
    )

    app.get(
      `/transparency/${resource.path}/:id/history`,
      {
        config: { accepts: HISTORY_ACCEPTS },
        // Answers are sent as the text built for them; the schemas describe them.
        serializerCompiler: () => (data) => JSON.stringify(data),
        schema: {
          operationId: `${operationId('get', resource.path).replace(/s$/, '')}History`,
          tags: ['transparency'],
          summary: `Every version of a ${resource.label}, or one of them whole`,
          description:
            `The ${resource.label}'s versions, oldest first: each with when the import that made it ran, whether it ` +
            'created or updated the record, and what changed from the version before (field, label, before, ' +
            'after; elements of a relation named by their number, name or id). With `version`, that version ' +
            'whole, as its detail served it then. A record published before the change log has one version. A ' +
            'withdrawn record has no history (404): it was published by mistake.',
          security: [],
          params: Type.Object({
            id: Type.String({ format: 'uuid', description: `The ${resource.label}'s UUID` }),
          }),
          querystring: Type.Object(
            {
              version: Type.Optional(
                Type.Integer({ minimum: 1, description: 'A version, from 1: that version whole' }),
              ),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Success(
              Type.Union([History, RecordVersion(resource)]),
              `The history (History), or with version the ${resource.label} as it was (${resource.record.name}Version)`,
            ),
            400: failure('`Identificador inválido.`: the id is not a UUID'),
            404: failure(
              '`Registro não encontrado.`, or `Versão não encontrada.` for a version past the last',
            ),
            422: failure('An unknown or invalid parameter'),
            429: TOO_MANY,
          },
        },
      },
      async (request, reply) => {
        const id = request.params.id.toLowerCase()
        const answer = await reads.answer(reads.history(resource, id, request.query.version))
        if (answer === undefined) throw new NotFoundError('record')
        return sendAnswer(request, reply, answer)
      },
    )

    const parameters = listingParameters(resource)
    app.get(
      `/transparency/${resource.path}`,
      {
        config: { accepts: parameters.accepts },
        schema: {
          operationId: operationId('list', resource.path),
          tags: ['transparency'],
          summary: `List ${resource.label}s: filters, search, sort, pages`,
          description:
            `Newest first by default (${resource.defaultSort}), stable across pages. ` +
            `Relations for with_relations: ${resource.offered.join(', ')}.`,
          security: [],
          querystring: parameters.schema,
          response: {
            200: Success(pageSchema(resource), `A page of ${resource.label}s`),
            404: failure('`Organização não encontrada.`: organization_uuid'),
            422: failure('An unknown or invalid parameter; the message names it and what it accepts'),
            429: TOO_MANY,
          },
        },
      },
      async (request, reply) => {
        // Same URL, same page until the next import: pages are cached whole, keyed by the URL as sent, and
        // built once however many ask for one at the same time.
        const answer = await reads.answer(reads.listing(resource, request.url, request.query))
        return sendAnswer(request, reply, answer as Answer)
      },
    )
  }

  for (const [path, summary] of HELPERS) {
    app.get(
      `/transparency/helpers/${path}`,
      {
        schema: {
          operationId: operationId('list', path),
          tags: ['transparency'],
          summary,
          description: 'The ids are the ones the listing filters take.',
          security: [],
          response: { 200: Success(Type.Array(Lookup), summary), 429: TOO_MANY },
        },
      },
      async (request, reply) => {
        const answer = await reads.answer(reads.helper(path))
        return sendAnswer(request, reply, answer as Answer)
      },
    )
  }
}

export default transparency
