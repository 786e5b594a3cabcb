import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { NotFoundError } from '../errors.js'
import type { Answer } from '../readmodel/answer.js'
import {
  detailSchema,
  failure,
  History,
  Lookup,
  pageSchema,
  RecordVersion,
  Success,
  TOO_MANY,
} from '../reads/answer-schemas.js'
import { PublicReads } from '../reads/public-reads.js'
import { PUBLIC_RESOURCES } from '../resources/index.js'
import { listingParameters } from '../transparency/parameters.js'
import type { TransparencyOptions } from './route-options.js'
import { sendAnswer } from './send-answer.js'

// Operations 2–5 (a record by id), each record's history, the listings and the helpers, for every public
// resource: each route declares its read and sends its answer.

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

/** The routes of every public resource, and the helpers. */
export const recordRoutes: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const reads = new PublicReads(options)
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

    const historyId = `${operationId('get', resource.path).replace(/s$/, '')}History`
    app.get(
      `/transparency/${resource.path}/:id/history`,
      {
        config: { accepts: HISTORY_ACCEPTS },
        // Answers are sent as the text built for them; the schemas describe them.
        serializerCompiler: () => (data) => JSON.stringify(data),
        schema: {
          operationId: historyId,
          tags: ['transparency'],
          summary: `Every version of a ${resource.label}`,
          description:
            `The ${resource.label}'s versions, oldest first: each with when the import that made it ran, whether it ` +
            'created or updated the record, and what changed from the version before (field, label, before, ' +
            'after; elements of a relation named by their number, name or id). One version whole is at ' +
            `${resource.path}/{id}/history/{version}. A record published before the change log has one version. A ` +
            'withdrawn record has no history (404): it was published by mistake.',
          security: [],
          params: Type.Object({
            id: Type.String({ format: 'uuid', description: `The ${resource.label}'s UUID` }),
          }),
          querystring: Type.Object(
            {
              version: Type.Optional(
                Type.Integer({
                  minimum: 1,
                  deprecated: true,
                  description: 'Kept for links made before /history/{version}: answered 308 to that address',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Success(History, 'The history'),
            308: {
              description: 'With version: the address of that version (Location), where its answer is',
              type: 'null',
              headers: { Location: { type: 'string', description: "The version's own address" } },
            },
            400: failure('`Identificador inválido.`: the id is not a UUID'),
            404: failure('`Registro não encontrado.`'),
            422: failure('An unknown or invalid parameter'),
            429: TOO_MANY,
          },
        },
      },
      async (request, reply) => {
        const id = request.params.id.toLowerCase()
        const { version } = request.query
        if (version !== undefined) {
          const path = request.url.slice(0, request.url.indexOf('?'))
          return reply.redirect(`${path}/${version}`, 308)
        }
        const answer = await reads.answer(reads.history(resource, id, undefined))
        if (answer === undefined) throw new NotFoundError('record')
        return sendAnswer(request, reply, answer)
      },
    )

    app.get(
      `/transparency/${resource.path}/:id/history/:version`,
      {
        serializerCompiler: () => (data) => JSON.stringify(data),
        schema: {
          operationId: historyId.replace(/History$/, 'Version'),
          tags: ['transparency'],
          summary: `One version of a ${resource.label}, whole`,
          description:
            `The ${resource.label} as its detail served it at that version (from 1, the oldest), with the import ` +
            'that made it. Versions past the last answer 404, as does a version number that is not one (0, text).',
          security: [],
          params: Type.Object({
            id: Type.String({ format: 'uuid', description: `The ${resource.label}'s UUID` }),
            version: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'The version, from 1' }),
          }),
          response: {
            200: Success(RecordVersion(resource), `The ${resource.label} as it was`),
            400: failure('`Identificador inválido.`: the id is not a UUID'),
            404: failure(
              '`Registro não encontrado.`, or `Versão não encontrada.` for a version there is not',
            ),
            429: TOO_MANY,
          },
        },
      },
      async (request, reply) => {
        const id = request.params.id.toLowerCase()
        const answer = await reads.answer(reads.history(resource, id, request.params.version))
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
