import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { failure, History, RecordVersion, Success, TOO_MANY } from '../../answers/schemas.js'
import { NotFoundError } from '../../errors.js'
import type { PublicReads } from '../../reads/public-reads.js'
import type { PublicResource } from '../../resources/index.js'
import { operationId, type TransparencyOptions } from '../http/route-options.js'
import { sendAnswer } from '../http/send-answer.js'

// Each public record's history (/history) and each of its versions whole (/history/{version}).

/** What the history route takes, in Portuguese, for its 422s. */
const HISTORY_ACCEPTS = { version: 'um número inteiro a partir de 1' }

type App = Parameters<FastifyPluginAsyncTypebox<TransparencyOptions>>[0]

/** A public resource's history routes, declared beside its detail (record-routes.ts). */
export function historyRoutes(app: App, reads: PublicReads, resource: PublicResource): void {
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
      // Built from the route, never from the URL as sent: the Location is always this service's own path.
      if (version !== undefined)
        return reply.redirect(`${request.routeOptions.url?.replace(':id', id)}/${version}`, 308)
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
          404: failure('`Registro não encontrado.`, or `Versão não encontrada.` for a version there is not'),
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
}
