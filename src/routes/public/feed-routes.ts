import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { RETRY_AFTER, TOO_MANY } from '../../answers/schemas.js'
import { FEED_ENTRIES, feedParameters, xmlText } from '../../feeds/atom.js'
import type { Answer } from '../../readmodel/answer.js'
import { PublicReads } from '../../reads/public-reads.js'
import { PUBLIC_RESOURCES } from '../../resources/index.js'
import { operationId, type TransparencyOptions } from '../http/route-options.js'
import { sendAnswer } from '../http/send-answer.js'
import { failureOf, type ValidationError } from './failures.js'

// Atom feeds of any listing's question (src/feeds/atom.ts): /v1/transparency/{contracts,...}.atom takes the
// listing's filters and answers the newest records that match, for feed readers. Cached and conditional as every
// answer (ETag, 304); a failure answers the listing's status and message as XML, which a feed reader shows.

export const ATOM_TYPE = 'application/atom+xml; charset=utf-8'
const XML_TYPE = 'application/xml; charset=utf-8'

/** A failure as XML: the envelope's two fields, for readers that read no JSON. */
export const xmlFailure = (message: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<response><success>false</success><message>${xmlText(message)}</message></response>\n`

const XML_FAILURE = (description: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: {
    [XML_TYPE]: { schema: Type.String({ description: '<response><success>false</success><message>…' }) },
  },
})

export const feedRoutes: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const reads = new PublicReads(options)
  app.setErrorHandler(async (error: ValidationError, request, reply) => {
    const failed = failureOf(error, request)
    return reply.code(failed.status).headers(failed.headers).type(XML_TYPE).send(xmlFailure(failed.message))
  })
  for (const resource of PUBLIC_RESOURCES) {
    const parameters = feedParameters(resource)
    app.get(
      `/transparency/${resource.path}.atom`,
      {
        config: { accepts: parameters.accepts },
        schema: {
          operationId: operationId('feed', resource.path),
          tags: ['transparency'],
          summary: `An Atom feed of the ${resource.label}s a listing's filters find`,
          description:
            `The ${FEED_ENTRIES} ${resource.label}s last changed (by the change feed) among those the listing's ` +
            'filters find, newest first: an Atom 1.0 feed (RFC 4287) for feed readers. Each entry is a record: ' +
            "its id a tag: URI that never changes, its last change, its listing's fields in Portuguese, links " +
            'to its portal page and its detail, and its kind and status as categories. Cached until the next ' +
            'import, with an ETag. A failure is the listing’s status and message, as XML.',
          security: [],
          querystring: parameters.schema,
          response: {
            200: {
              description: 'The feed',
              content: {
                'application/atom+xml': { schema: Type.String({ description: 'An Atom 1.0 feed' }) },
              },
            },
            304: {
              description: 'Not modified: If-None-Match lists the ETag this feed has now (no body)',
              type: 'null',
            },
            404: XML_FAILURE('`Organização não encontrada.`: organization_uuid'),
            422: XML_FAILURE('An unknown or invalid parameter; the message names it and what it accepts'),
            429: TOO_MANY,
            500: XML_FAILURE('`Erro interno do servidor.`, logged with the request id'),
            503: XML_FAILURE('The database is unreachable, or the query ran past QUERY_TIMEOUT', RETRY_AFTER),
          },
        },
      },
      async (request, reply) => {
        const answer = await reads.answer(reads.atom(resource, request.query), () => request.signal)
        return sendAnswer(request, reply, answer as Answer, ATOM_TYPE)
      },
    )
  }
}
