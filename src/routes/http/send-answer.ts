import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Hit } from '../../auth/rate-limit.js'
import type { Answer } from '../../readmodel/answer.js'
import type { PublicReads } from '../../reads/public-reads.js'
import type { Read } from '../../reads/read.js'

export const CACHE_CONTROL = 'public, max-age=60'
export const JSON_TYPE = 'application/json; charset=utf-8'

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
 * Sends an answer as the cache keeps it, in the encoding the client accepts (compressed once per answer):
 * that encoding's tag, Cache-Control, and Vary (the bytes depend on Accept-Encoding, 304s included); a 304
 * without a body when If-None-Match names the tag; else its type and bytes. What @fastify/etag,
 * @fastify/compress and the Cache-Control hook do for the other routes, without hashing or compressing on
 * the request's path.
 */
export function sendAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: Answer,
  type = JSON_TYPE,
  cacheControl = CACHE_CONTROL,
) {
  const encoding = answer.encodingFor(request.headers)
  reply
    .header('etag', answer.etag(encoding))
    .header('cache-control', cacheControl)
    .header('vary', 'accept-encoding')
  if (answer.matches(request.headers['if-none-match'], encoding)) return reply.code(304).send()
  reply.header('content-type', type)
  if (encoding !== undefined) reply.header('content-encoding', encoding)
  return reply.send(answer.bytesFor(encoding))
}

/** A read's answer, sent: for reads that always have one (what they lack is their NotFoundError). */
export async function sendRead(
  reads: PublicReads,
  request: FastifyRequest,
  reply: FastifyReply,
  read: Read,
): Promise<FastifyReply> {
  return sendAnswer(request, reply, (await reads.answer(read, () => request.signal)) as Answer)
}
