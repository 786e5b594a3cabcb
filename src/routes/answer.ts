import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Hit } from '../auth/rate-limit.js'
import type { Answer } from '../readmodel/answer.js'

export const CACHE_CONTROL = 'public, max-age=60'
export const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * Answers a request before Fastify sees it (src/routes/hits.ts, src/routes/order-hits.ts): true when it
 * answered, false having written nothing (Fastify answers), or a promise of either for an answer that is
 * looked up first.
 */
export type Shortcut = (request: IncomingMessage, response: ServerResponse) => boolean | Promise<boolean>

/**
 * What a shortcut did before it handed a request to Fastify after a lookup that gave no answer: the limit it
 * took, which the route does not take again, and the lookup itself, settled (the record missing, or the
 * lookup failed), which the route awaits instead of looking up again. So a missing record costs one lookup,
 * and an unreachable database one wait.
 */
export interface HandedOver {
  hit: Hit | undefined
  lookup: Promise<Answer | undefined>
}
export const handedOver = new WeakMap<IncomingMessage, HandedOver>()

/**
 * A shortcut's answer to what a lookup gives: `answer` writes it, or, missing or failed, the request is
 * handed to Fastify with the limit taken and the lookup.
 */
export function answerLookedUp(
  request: IncomingMessage,
  hit: Hit | undefined,
  lookup: Promise<Answer | undefined>,
  answer: (found: Answer) => boolean,
): Promise<boolean> {
  const handOver = () => {
    handedOver.set(request, { hit, lookup })
    return false
  }
  return lookup.then((found) => (found === undefined ? handOver() : answer(found)), handOver)
}

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

/** How an answer kept whole goes out: its headers, and its bytes (none for a 304). */
export interface Outgoing {
  headers: [string, string][]
  /** Undefined when the client's copy is fresh: the answer is a 304. */
  body: Buffer | undefined
}

/**
 * How an answer kept whole goes out for a request: its stored tag and Cache-Control; a 304 without a body
 * when If-None-Match names the tag (the body is not touched); else its type and the bytes of the encoding
 * the client accepts, compressed once per answer. Used by sendAnswer and by the hits served before Fastify
 * (src/routes/hits.ts), so that both answer alike.
 */
export function outgoing(answer: Answer, request: IncomingHttpHeaders, type: string): Outgoing {
  const headers: [string, string][] = [
    ['etag', answer.etag],
    ['cache-control', CACHE_CONTROL],
  ]
  if (answer.matches(request['if-none-match'])) return { headers, body: undefined }
  const encoding = answer.encodingFor(request)
  headers.push(['content-type', type])
  if (encoding !== undefined) headers.push(['vary', 'accept-encoding'], ['content-encoding', encoding])
  return { headers, body: answer.bytesFor(encoding) }
}

/**
 * Sends an answer as it is kept (`outgoing`). What @fastify/etag, @fastify/compress and the Cache-Control
 * hook do for the other routes, without hashing, encoding or compressing on the request's path.
 */
export function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: Answer, type = JSON_TYPE) {
  const { headers, body } = outgoing(answer, request.headers, type)
  for (const [name, value] of headers) reply.header(name, value)
  return body === undefined ? reply.code(304).send() : reply.send(body)
}
