import type { FastifyReply, FastifyRequest } from 'fastify'
import { errorPage, notFoundPage } from '../../portal/pages.js'
import type { DocumentStore } from '../../readmodel/store.js'
import type { PagePlace } from '../../reads/portal-reads.js'
import { answerOf, type Read } from '../../reads/read.js'
import { sendAnswer } from '../http/send-answer.js'

// How the portal answers: a page built for one request (never kept by anyone), the 404 page, and a page
// kept in the cache like the API's answers.

export const HTML = 'text/html; charset=utf-8'

/** A page made for this request alone. */
export const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).type(HTML).header('Cache-Control', 'no-store').send(body)

export const notFound = (reply: FastifyReply, what = 'A página pedida não existe.') =>
  html(reply, 404, notFoundPage(what))

/**
 * What sends a page kept in the cache: by its path and the parameters it takes (`taken`), which are all a
 * request may carry, so that a URL made up of other parameters is neither answered nor a cache entry of its
 * own.
 */
export function pageSender(store: DocumentStore) {
  return async (
    request: FastifyRequest,
    reply: FastifyReply,
    read: (place: PagePlace) => Read,
    taken: readonly string[] = [],
  ) => {
    const query = (request.query ?? {}) as Record<string, unknown>
    const unknown = Object.keys(query).find((name) => !taken.includes(name))
    if (unknown !== undefined)
      return html(
        reply,
        422,
        errorPage(
          `Parâmetro desconhecido: ${unknown}. ${taken.length > 0 ? `Esta página aceita: ${taken.join(', ')}.` : 'Esta página não aceita parâmetros.'}`,
        ),
      )
    const path = request.url.split('?')[0] as string
    // A repeated parameter is an array: written so that it never reads as one value.
    const parameters = JSON.stringify(taken.map((name) => query[name] ?? null))
    const answer = await answerOf(store, read({ path, parameters }), () => request.signal)
    if (answer === undefined) return notFound(reply, 'Registro não encontrado.')
    return sendAnswer(request, reply, answer, HTML)
  }
}
