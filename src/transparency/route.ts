import compress from '@fastify/compress'
import cors from '@fastify/cors'
import etag from '@fastify/etag'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyError } from 'fastify'
import { type TObject, type TSchema, Type } from 'typebox'
import type { Pool } from '../db/pool.js'
import { BIDDING_MODALITIES, BIDDING_STATUSES, MANAGEMENT_STATUSES } from '../domain.js'
import { findOne, list, lookup, organizationExists } from './repository.js'
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
}

/** An answer in the transparency error envelope. */
export class TransparencyError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message)
  }
}

export const MAX_PER_PAGE = 100
const DEFAULT_PER_PAGE = 20

const SHAPES: Record<Resource['path'], { detail: TObject; item: TObject }> = {
  contracts: { detail: Contract, item: ContractItem },
  'direct-contracts': { detail: Bidding, item: BiddingItem },
  'public-calls': { detail: Bidding, item: BiddingItem },
  arps: { detail: Arp, item: ArpItem },
}

/** The query parameters a listing accepts: the schema and, in Portuguese, what each accepts. */
function listingParameters(resource: Resource): { schema: TObject; accepts: Record<string, string> } {
  const sorts = Object.keys(resource.sorts).flatMap((name) => [name, `-${name}`])
  const relations = Object.keys(resource.relations)
  const all: Record<string, [TSchema, string]> = {
    page: [
      Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1' }),
      'um número inteiro a partir de 1',
    ],
    per_page: [
      Type.Integer({
        minimum: 1,
        maximum: MAX_PER_PAGE,
        default: DEFAULT_PER_PAGE,
        description: `Page size, 1 to ${MAX_PER_PAGE}`,
      }),
      `um número inteiro de 1 a ${MAX_PER_PAGE}`,
    ],
    organization_uuid: [
      Type.String({ format: 'uuid', description: 'Only records of this organization' }),
      'um UUID',
    ],
    number: [
      Type.String({ minLength: 1, maxLength: 100, description: 'Exact number' }),
      'um texto de até 100 caracteres',
    ],
    bidding_number: [
      Type.String({ minLength: 1, maxLength: 100, description: 'Exact bidding number' }),
      'um texto de até 100 caracteres',
    ],
    modality_id: [
      Type.Integer({
        minimum: 1,
        maximum: BIDDING_MODALITIES.length,
        description: 'An id of /helpers/bidding-modalities',
      }),
      'um id de /v1/transparency/helpers/bidding-modalities',
    ],
    status_id: [
      Type.Integer({
        minimum: 1,
        maximum: BIDDING_STATUSES.length,
        description: 'An id of /helpers/bidding-statuses',
      }),
      'um id de /v1/transparency/helpers/bidding-statuses',
    ],
    management_status_id: [
      Type.Integer({
        minimum: 1,
        maximum: MANAGEMENT_STATUSES.length,
        description: 'An id of /helpers/management-statuses',
      }),
      'um id de /v1/transparency/helpers/management-statuses',
    ],
    provider_document: [
      Type.String({
        pattern: '^([0-9]{11}|[0-9]{14})$',
        description: "The supplier's CPF or CNPJ, digits only",
      }),
      'um CPF ou CNPJ, só os dígitos (11 ou 14)',
    ],
    date_from: [
      Type.String({ format: 'date', description: 'From this day on (the main date of the kind)' }),
      'uma data AAAA-MM-DD',
    ],
    date_to: [
      Type.String({ format: 'date', description: 'Up to this day, inclusive' }),
      'uma data AAAA-MM-DD',
    ],
    q: [
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Full-text search over the object and names; accents and case do not matter',
      }),
      'um texto de 1 a 200 caracteres',
    ],
    sort: [
      Type.String({
        enum: sorts,
        default: resource.defaultSort,
        description: 'A field; a leading - sorts descending',
      }),
      `um destes valores: ${sorts.join(', ')}`,
    ],
    with_relations: [
      Type.String({ description: `Comma-separated relations to add to each item: ${relations.join(', ')}` }),
      `uma lista separada por vírgulas de: ${relations.join(', ')}`,
    ],
  }
  const names = ['page', 'per_page', ...Object.keys(resource.filters), 'sort', 'with_relations']
  const properties = Object.fromEntries(
    names.map((name) => [name, Type.Optional((all[name] as [TSchema, string])[0])]),
  )
  return {
    schema: Type.Object(properties, { additionalProperties: false }),
    accepts: Object.fromEntries(names.map((name) => [name, (all[name] as [TSchema, string])[1]])),
  }
}

function parseRelations(resource: Resource, raw: string | undefined): string[] {
  if (raw === undefined) return []
  const names = [
    ...new Set(
      raw
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ]
  const accepted = Object.keys(resource.relations)
  const unknown = names.filter((name) => !accepted.includes(name))
  if (unknown.length > 0) {
    throw new TransparencyError(
      422,
      `Parâmetro inválido: with_relations. Relação desconhecida: ${unknown.join(', ')}. Aceita: ${accepted.join(', ')}.`,
    )
  }
  return names
}

type ValidationError = FastifyError & {
  validation?: { keyword: string; instancePath: string; params: Record<string, unknown> }[]
  validationContext?: string
}

/**
 * Operations 2–5 and the listings and helpers of section 4.1, under /v1/transparency: public, cached by
 * clients (ETag, Cache-Control), compressed on request, open to browsers (CORS).
 */
const transparency: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, { pool }) => {
  await app.register(cors, { origin: '*', methods: ['GET', 'HEAD'] })
  await app.register(etag) // before compress: the tag is of the uncompressed body
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 })
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 200 || reply.statusCode === 304)
      reply.header('Cache-Control', 'public, max-age=60')
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
          },
        },
      },
      async (request) => {
        const data = await findOne(pool, resource, request.params.id.toLowerCase())
        if (data === undefined) throw new TransparencyError(404, MESSAGES.notFound)
        return { success: true as const, message: MESSAGES.success, data }
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
          },
        },
      },
      async (request) => {
        const query = request.query as Record<string, string | number | undefined>
        const {
          page = 1,
          per_page: perPage = DEFAULT_PER_PAGE,
          sort = resource.defaultSort,
          with_relations,
        } = query
        const relations = parseRelations(resource, with_relations as string | undefined)
        const filters: Record<string, string | number> = {}
        for (const name of Object.keys(resource.filters)) {
          const value = query[name]
          if (value !== undefined)
            filters[name] =
              typeof value === 'string' && name === 'organization_uuid' ? value.toLowerCase() : value
        }
        if (
          filters.organization_uuid &&
          !(await organizationExists(pool, filters.organization_uuid as string))
        ) {
          throw new TransparencyError(404, MESSAGES.organizationNotFound)
        }
        const result = await list(pool, resource, {
          page: page as number,
          perPage: perPage as number,
          filters,
          sort: sort as string,
          relations,
        })
        const offset = ((page as number) - 1) * (perPage as number)
        return {
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
        }
      },
    )
  }

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
          response: { 200: Success(Type.Array(Lookup), summary) },
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
      const [problem] = error.validation
      const message =
        problem?.keyword === 'additionalProperties'
          ? `Parâmetro desconhecido: ${String(problem.params.additionalProperty)}. Aceitos: ${Object.keys(accepts).join(', ')}.`
          : (() => {
              const name =
                problem?.instancePath.replace(/^\//, '') || String(problem?.params.missingProperty ?? '')
              return `Parâmetro inválido: ${name}. Aceita ${accepts[name] ?? 'outro valor'}.`
            })()
      return reply.code(422).send({ success: false, message })
    }
    const status = error.statusCode ?? 500
    if (status < 500) return reply.code(status).send({ success: false, message: error.message })
    request.log.error({ err: error }, 'transparency query failed')
    return reply.code(500).send({ success: false, message: MESSAGES.internal })
  })
}

export default transparency
