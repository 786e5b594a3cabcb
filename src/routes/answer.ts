import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Hit } from '../auth/rate-limit.js'
import type { Answer, Encoding } from '../readmodel/answer.js'

export const CACHE_CONTROL = 'public, max-age=60'
export const JSON_TYPE = 'application/json; charset=utf-8'

/** What every public answer carries besides its own headers: open to any site's scripts (CORS). */
export const PUBLIC_HEADERS: readonly (readonly [string, string])[] = [['access-control-allow-origin', '*']]

/** Whole seconds until a place of the limit frees (X-RateLimit-Reset, and Retry-After when refused). */
export const resetSeconds = (hit: Hit) => Math.max(1, Math.ceil(hit.resetMs / 1000))

/** A limit's headers, for the answer it admitted or refused. */
export function rateHeaders(hit: Hit): [string, number][] {
  return [
    ['x-ratelimit-limit', hit.limit],
    ['x-ratelimit-remaining', hit.remaining],
    ['x-ratelimit-reset', resetSeconds(hit)],
  ]
}

/**
 * The headers of an answer kept whole: its stored tag and Cache-Control, and unless the client's copy is
 * fresh (304) the type and the encoding chosen. Sent by sendAnswer and by the hits served below Fastify
 * (src/routes/hits.ts), so that both answer alike.
 */
export function answerHeaders(
  answer: Answer,
  fresh: boolean,
  encoding: Encoding | undefined,
  type: string,
): [string, string][] {
  const headers: [string, string][] = [
    ['etag', answer.etag],
    ['cache-control', CACHE_CONTROL],
  ]
  if (fresh) return headers
  headers.push(['content-type', type])
  if (encoding !== undefined) headers.push(['vary', 'accept-encoding'], ['content-encoding', encoding])
  return headers
}

/**
 * Sends an answer as it is kept: its stored tag (304 when If-None-Match names it, without touching the
 * body), and the bytes of the encoding the client accepts, compressed once per answer. What @fastify/etag,
 * @fastify/compress and the Cache-Control hook do for the other routes, without hashing, encoding or
 * compressing on the request's path.
 */
export function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: Answer, type = JSON_TYPE) {
  const fresh = answer.matches(request.headers['if-none-match'])
  const encoding = fresh ? undefined : answer.encodingFor(request.headers)
  for (const [name, value] of answerHeaders(answer, fresh, encoding, type)) reply.header(name, value)
  if (fresh) return reply.code(304).send()
  return reply.send(answer.bytesFor(encoding))
}
