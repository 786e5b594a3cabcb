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
 * What a shortcut did before it handed a request to Fastify after a lookup: the limit it took (the route
 * does not take it again), and what the lookup gave instead of an answer, which the route answers without
 * looking up again: a missing record, or the lookup's failure (so that an unreachable database costs a
 * request one wait, not two).
 */
export interface HandedOver {
  hit: Hit | undefined
  missing: boolean
  failure?: unknown
}
export const handedOver = new WeakMap<IncomingMessage, HandedOver>()

/**
 * A shortcut's answer to what a lookup gives: `answer` writes it, or the request is handed to Fastify
 * marked with the limit taken and the record missing, or the lookup's failure.
 */
export function answerLookedUp(
  request: IncomingMessage,
  hit: Hit | undefined,
  lookup: Promise<Answer | undefined>,
  answer: (found: Answer) => boolean,
): Promise<boolean> {
  const handOver = (why: Omit<HandedOver, 'hit'>) => {
    handedOver.set(request, { hit, ...why })
    return false
  }
  return lookup.then(
    (found) => (found === undefined ? handOver({ missing: true }) : answer(found)),
    (failure: unknown) => handOver({ missing: false, failure }),
  )
}

/**
 * What the shortcut's lookup gave a request it handed over: throws its failure, as the route's own lookup
 * would have; true when the record was found missing; false when there was no such lookup.
 */
export function foundMissing(request: IncomingMessage): boolean {
  const handed = handedOver.get(request)
  if (handed === undefined) return false
  if (handed.failure !== undefined) throw handed.failure
  return handed.missing
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
