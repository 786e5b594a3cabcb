import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Answer } from '../readmodel/answer.js'

export const CACHE_CONTROL = 'public, max-age=60'

/**
 * Sends an answer as it is kept: its stored tag (304 when If-None-Match names it, without touching the
 * body), and the bytes of the encoding the client accepts, compressed once per answer. What @fastify/etag,
 * @fastify/compress and the Cache-Control hook do for the other routes, without hashing, encoding or
 * compressing on the request's path.
 */
export function sendAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: Answer,
  type = 'application/json; charset=utf-8',
) {
  reply.header('ETag', answer.etag).header('Cache-Control', CACHE_CONTROL)
  if (answer.matches(request.headers['if-none-match'])) return reply.code(304).send()
  const encoding = answer.encodingFor(request.headers)
  reply.type(type)
  if (encoding !== undefined) reply.header('Vary', 'accept-encoding').header('Content-Encoding', encoding)
  return reply.send(answer.bytesFor(encoding))
}
