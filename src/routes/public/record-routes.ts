import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import {
  DetailSuccess,
  detailSchema,
  failure,
  Lookup,
  pageSchema,
  Success,
  TOO_MANY,
} from '../../answers/schemas.js'
import { NotFoundError } from '../../errors.js'
import { listingParameters } from '../../queries/parameters.js'
import type { Answer } from '../../readmodel/answer.js'
import { PublicReads } from '../../reads/public-reads.js'
import { PUBLIC_RESOURCES } from '../../resources/index.js'
import { operationId, type TransparencyOptions } from '../http/route-options.js'
import { sendAnswer } from '../http/send-answer.js'
import { historyRoutes } from './history-routes.js'

// Operations 2–5 (a record by id), the listings and the helpers, for every public resource: each route
// declares its read and sends its answer. Each record's history routes are declared in history-routes.ts.

/** The helper routes under /transparency/helpers, and what each lists. */
export const HELPERS = [
  ['bidding-modalities', 'The 20 bidding modalities (spec 2.3)'],
  ['bidding-statuses', 'Statuses of direct contracts and public calls (status_id)'],
  ['management-statuses', 'Management statuses of contracts and ARPs (management_status_id)'],
] as const

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
            200: DetailSuccess(detailSchema(resource), `The ${resource.label}, and the flags that name it`),
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

    historyRoutes(app, reads, resource)

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
        // Same question, same page until the next import: pages are cached whole, keyed by the canonical query
        // (however it was spelled), and built once however many ask for one at the same time.
        const answer = await reads.answer(reads.listing(resource, request.query))
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
