import compress from '@fastify/compress'
import cors from '@fastify/cors'
import etag from '@fastify/etag'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyError, FastifyReply } from 'fastify'
import { type TObject, Type } from 'typebox'
import { MemoryLimiter } from '../auth/rate-limit.js'
import type { Pool } from '../db/pool.js'
import { CONTENT_TYPES, openExport } from '../export/export.js'
import type { ExportGate } from '../export/gate.js'
import { EXPORT_PARAMETERS, exportRequest } from '../export/request.js'
import type { DocumentStore } from '../readmodel/store.js'
import {
  DEFAULT_PER_PAGE,
  describeProblem,
  filterValues,
  listingParameters,
  parseRelations,
  TransparencyError,
} from './parameters.js'
import { list, lookup, organizationExists } from './repository.js'
import { RESOURCES, type Resource } from './resources.js'
import {
  Arp,
  ArpItem,
  Bidding,
  BiddingItem,
  Contract,
  ContractItem,
  Failure,
  Lookup,
  MESSAGES,
  Page,
  Success,
} from './schemas.js'

export interface TransparencyOptions {
  pool: Pool
  store: DocumentStore
  /** Exports' own connections (never the API's). */
  exportPool: Pool
  exportGate: ExportGate
  /** Requests per client address per minute; 0: no limit. */
  publicRateLimit: number
}

const SHAPES: Record<Resource['path'], { detail: TObject; item: TObject }> = {
  contracts: { detail: Contract, item: ContractItem },
  'direct-contracts': { detail: Bidding, item: BiddingItem },
  'public-calls': { detail: Bidding, item: BiddingItem },
  arps: { detail: Arp, item: ArpItem },
}

/** The public per-address limit's answer, declared on every route it guards. */
const TOO_MANY = Type.Object(Failure.properties, {
  description:
    '`Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address',
  headers: { 'Retry-After': { type: 'integer', description: 'Seconds to wait' } },
})

const SUCCESS_PREFIX = `{"success":true,"message":${JSON.stringify(MESSAGES.success)},"data":`

/** Sends JSON already serialized (documents of the read model, cached pages) as it is. */
const sendJson = (reply: FastifyReply, body: string) =>
  reply.type('application/json; charset=utf-8').send(body)

type ValidationError = FastifyError & {
  validation?: { keyword: string; instancePath: string; params: Record<string, unknown> }[]
  validationContext?: string
}

/**
 * Operations 2–5 and the listings and helpers of section 4.1, under /v1/transparency: public, cached by
 * clients (ETag, Cache-Control), compressed on request, open to browsers (CORS).
 */
const transparency: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const { pool, store, exportPool, exportGate, publicRateLimit } = options
  // Generous for browsing, a brake on scraping and guessing; per instance, in memory (docs: Security).
  if (publicRateLimit > 0) {
    const limiter = new MemoryLimiter()
    app.addHook('onRequest', async (request, reply) => {
      const hit = limiter.takeNow(request.ip, publicRateLimit, 60_000)
      const reset = Math.max(1, Math.ceil(hit.resetMs / 1000))
      reply.header('X-RateLimit-Limit', hit.limit)
      reply.header('X-RateLimit-Remaining', hit.remaining)
      reply.header('X-RateLimit-Reset', reset)
      if (!hit.allowed) {
        reply.header('Retry-After', reset)
        return reply.code(429).send({ success: false, message: MESSAGES.tooManyRequests })
      }
    })
  }
  await app.register(cors, { origin: '*', methods: ['GET', 'HEAD'] })
  // Before compress: the tag is of the uncompressed body. FNV-1a: a validator, not a secret, at a fraction
  // of SHA-1's cost on every response.
  await app.register(etag, { algorithm: 'fnv1a' })
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 })
  app.addHook('onSend', async (_request, reply, payload) => {
    if ((reply.statusCode === 200 || reply.statusCode === 304) && !reply.hasHeader('Cache-Control')) {
      reply.header('Cache-Control', 'public, max-age=60')
    }
    return payload
  })

  const acceptsByUrl = new Map<string, Record<string, string>>()

  for (const resource of RESOURCES) {
    const shapes = SHAPES[resource.path]
    app.get(
      `/transparency/${resource.path}/:id`,
      {
        schema: {
          tags: ['transparency'],
          summary: `One ${resource.label} with all its relations`,
          params: Type.Object({
            id: Type.String({ format: 'uuid', description: `The ${resource.label}'s UUID` }),
          }),
          response: {
            200: Success(shapes.detail, `The ${resource.label}`),
            400: Type.Object(Failure.properties, {
              description: '`Identificador inválido.`: the id is not a UUID',
            }),
            404: Type.Object(Failure.properties, { description: '`Registro não encontrado.`' }),
            429: TOO_MANY,
          },
        },
      },
      async (request, reply) => {
        const data = await store.detail(resource.path, request.params.id.toLowerCase())
        if (data === undefined) throw new TransparencyError(404, MESSAGES.notFound)
        return sendJson(reply, `${SUCCESS_PREFIX}${data}}`)
      },
    )

    const parameters = listingParameters(resource)
    const url = `/transparency/${resource.path}`
    acceptsByUrl.set(`/v1${url}`, parameters.accepts)
    app.get(
      url,
      {
        schema: {
          tags: ['transparency'],
          summary: `List ${resource.label}s: filters, search, sort, pages`,
          description:
            `Newest first by default (${resource.defaultSort}), stable across pages. ` +
            `Relations for with_relations: ${Object.keys(resource.relations).join(', ')}.`,
          querystring: parameters.schema,
          response: {
            200: Success(Page(shapes.item), `A page of ${resource.label}s`),
            404: Type.Object(Failure.properties, {
              description: '`Organização não encontrada.`: organization_uuid',
            }),
            422: Type.Object(Failure.properties, {
              description: 'An unknown or invalid parameter; the message names it and what it accepts',
            }),
            429: TOO_MANY,
          },
        },
      },
      async (request, reply) => {
        // Same URL, same page until the next import: pages are cached whole, keyed by the URL as sent, and
        // built once however many ask for one at the same time.
        const query = request.query as Record<string, string | number | undefined>
        return sendJson(reply, await store.through(`l\u0000${request.url}`, () => buildPage(query)))
      },
    )

    async function buildPage(query: Record<string, string | number | undefined>): Promise<string> {
      const {
        page = 1,
        per_page: perPage = DEFAULT_PER_PAGE,
        sort = resource.defaultSort,
        with_relations,
      } = query
      const relations = parseRelations(resource, with_relations as string | undefined)
      const filters = filterValues(resource, query)
      const result = await list(
        pool,
        resource,
        {
          page: page as number,
          perPage: perPage as number,
          filters,
          sort: sort as string,
          relations,
        },
        store,
      )
      // Rows of the organization prove it exists; only an empty answer needs the check (404, not an empty page).
      if (
        result.total === 0 &&
        filters.organization_uuid &&
        !(await organizationExists(pool, filters.organization_uuid as string))
      ) {
        throw new TransparencyError(404, MESSAGES.organizationNotFound)
      }
      const offset = ((page as number) - 1) * (perPage as number)
      return JSON.stringify({
        success: true as const,
        message: MESSAGES.success,
        data: {
          data: result.rows,
          current_page: page as number,
          per_page: perPage as number,
          total: result.total,
          last_page: Math.max(1, Math.ceil(result.total / (perPage as number))),
          from: result.rows.length > 0 ? offset + 1 : null,
          to: result.rows.length > 0 ? offset + result.rows.length : null,
        },
      })
    }
  }

  acceptsByUrl.set('/v1/transparency/export', EXPORT_PARAMETERS.accepts)
  app.get(
    '/transparency/export',
    {
      schema: {
        tags: ['transparency'],
        summary: 'Every record of a listing as an Excel (.xlsx) or CSV file',
        description:
          "Takes the resource, the format, and the filters and sort of that resource's listing with the same " +
          'meaning; returns every matching row, not one page, streamed as an attachment named after the ' +
          'resource and the date. Column titles in Portuguese; in XLSX money and numbers are numeric cells and ' +
          'dates date cells. CSV is RFC 4180, UTF-8 with a byte-order mark; separator=; suits Brazilian Excel. ' +
          'Problems with the parameters are answered in JSON before any byte of the file; a failure in the ' +
          'middle aborts the transfer, so a truncated file never looks complete.',
        querystring: EXPORT_PARAMETERS.schema,
        produces: [CONTENT_TYPES.xlsx, CONTENT_TYPES.csv],
        response: {
          200: Type.String({ description: 'The file', format: 'binary' }),
          404: Type.Object(Failure.properties, {
            description: '`Organização não encontrada.`: organization_uuid',
          }),
          422: Type.Object(Failure.properties, {
            description: 'An unknown or invalid parameter, named in the message',
          }),
          429: Type.Object(Failure.properties, {
            description:
              '`Já há uma exportação deste endereço em andamento...` (one export at a time per address), or ' +
              'over PUBLIC_RATE_LIMIT requests a minute from the address',
          }),
          503: Type.Object(Failure.properties, {
            description:
              '`Exportações demais em andamento...` (EXPORT_CONCURRENCY exports already running; Retry-After) or ' +
              '`A exportação demorou demais...` (EXPORT_TIMEOUT passed before the first row)',
            headers: { 'Retry-After': { type: 'integer', description: 'Seconds to wait' } },
          }),
        },
      },
    },
    async (request, reply) => {
      const what = await exportRequest(pool, request.query as Record<string, unknown>)
      const release = exportGate.enter(request.ip)
      if (release === 'busy') {
        reply.header('Retry-After', 30)
        throw new TransparencyError(503, MESSAGES.exportsBusy)
      }
      if (release === 'address') throw new TransparencyError(429, MESSAGES.exportRunning)
      let file: Awaited<ReturnType<typeof openExport>>
      try {
        file = await openExport(exportPool, what)
      } catch (error) {
        release()
        if ((error as { code?: string }).code === '57014')
          throw new TransparencyError(503, MESSAGES.exportTimeout)
        throw error
      }
      reply.raw.once('close', release)
      file.stream.once('error', (error) => {
        request.log.error({ err: error }, 'export failed in the middle: transfer aborted')
        reply.raw.destroy() // a file cut short must never look complete
      })
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Disposition', `attachment; filename="${file.filename}"`)
        .header('Cache-Control', 'no-store')
        .send(file.stream as never) // a stream is sent as it is, not serialized
    },
  )

  const helpers = [
    ['bidding-modalities', 'bidding_modalities', 'The 20 bidding modalities (spec 2.3)'],
    ['bidding-statuses', 'bidding_statuses', 'Statuses of direct contracts and public calls (status_id)'],
    [
      'management-statuses',
      'management_statuses',
      'Management statuses of contracts and ARPs (management_status_id)',
    ],
  ] as const
  for (const [path, table, summary] of helpers) {
    app.get(
      `/transparency/helpers/${path}`,
      {
        schema: {
          tags: ['transparency'],
          summary,
          description: 'The ids are the ones the listing filters take.',
          response: { 200: Success(Type.Array(Lookup), summary), 429: TOO_MANY },
        },
      },
      async () => ({ success: true as const, message: MESSAGES.success, data: await lookup(pool, table) }),
    )
  }

  app.setNotFoundHandler(async (_request, reply) =>
    reply.code(404).send({ success: false, message: MESSAGES.routeNotFound }),
  )

  app.setErrorHandler(async (error: ValidationError, request, reply) => {
    if (error instanceof TransparencyError) {
      return reply.code(error.statusCode).send({ success: false, message: error.message })
    }
    if (error.validation) {
      if (error.validationContext === 'params')
        return reply.code(400).send({ success: false, message: MESSAGES.invalidId })
      const accepts = acceptsByUrl.get(request.routeOptions.url ?? '') ?? {}
      return reply.code(422).send({ success: false, message: describeProblem(error.validation[0], accepts) })
    }
    const status = error.statusCode ?? 500
    if (status < 500) return reply.code(status).send({ success: false, message: error.message })
    request.log.error({ err: error }, 'transparency query failed')
    return reply.code(500).send({ success: false, message: MESSAGES.internal })
  })
}

export default transparency
