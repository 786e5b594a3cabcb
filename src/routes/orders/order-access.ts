import type { IncomingMessage } from 'node:http'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { AccessLog } from '../../auth/access-log.js'
import type { Hit, Limiter } from '../../auth/rate-limit.js'
import type { TokenCache, TokenIdentity } from '../../auth/tokens.js'
import { ORDER_MESSAGES } from '../../messages.js'
import { orderFailure } from '../../readmodel/envelopes.js'
import { rateHeaders, resetSeconds } from '../http/send-answer.js'

// Who may read an organ's orders, and the trace each read leaves: the token, the per-token limit, the
// failed-authentication limit, the access record, and the order envelope's errors with their headers.

/** Spec 2.1: the fields of every order-query error. */
const ORDER_ERROR = {
  message: Type.String(),
  data: Type.Array(Type.Never(), { maxItems: 0, description: 'Always an empty array' }),
}

/** Spec section 8: requests per second per token on the order query. */
export const ORDER_RATE_LIMIT = 60

declare module 'fastify' {
  interface FastifyRequest {
    identity: TokenIdentity | null
  }
}

export const RATE_HEADERS = {
  'X-RateLimit-Limit': { type: 'integer', description: 'Requests allowed in the window' },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in the window' },
  'X-RateLimit-Reset': { type: 'integer', description: 'Seconds until the window resets' },
}

export const errorResponse = (description: string, extraHeaders: Record<string, unknown> = {}) =>
  Type.Object(ORDER_ERROR, { description, headers: { ...RATE_HEADERS, ...extraHeaders } })

function setRateHeaders(reply: FastifyReply, hit: Hit) {
  for (const [name, value] of rateHeaders(hit)) reply.header(name, value)
  return resetSeconds(hit)
}

export const fail = (reply: FastifyReply, status: number, message: string) =>
  reply.code(status).send(orderFailure(message))

/** The order number a query string asked for, as the access record keeps it; null when it has none. */
function orderNumberOf(query: unknown): string | null {
  if (typeof query !== 'object' || query === null || !('order_number' in query)) return null
  return typeof query.order_number === 'string' ? query.order_number : null
}

/**
 * The Authorization header when it was sent exactly once. Node keeps only the first of repeated
 * Authorization headers; a request with two is ambiguous, so it is treated as having none.
 */
export function singleAuthorization(request: IncomingMessage): string | undefined {
  const raw = request.rawHeaders
  let seen = 0
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string
    // Stryker disable next-line ConditionalExpression: the length only spares lower-casing the other headers' names
    if (name.length !== 13) continue
    if (name.toLowerCase() === 'authorization' && ++seen > 1) return undefined
  }
  return request.headers.authorization
}

export interface AccessOptions {
  tokens: TokenCache
  limiter: Limiter
  accessLog: AccessLog
  /** Failed authentications allowed per client address per minute. */
  authFailureLimit: number
}

/** The hooks of every route under the order query's authentication. */
export function orderAccess({ tokens, limiter, accessLog, authFailureLimit }: AccessOptions) {
  // The token first: a valid one passes whatever its address did before, so one bad client behind a shared
  // address (NAT) does not lock out the others. Each failure counts against the address, check and count in
  // one step; past the limit, failures answer 429 instead of 401. All before order_number is looked at
  // (spec: authentication before validation).
  async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    const header = singleAuthorization(request.raw)
    const identity = header ? await tokens.verify(header) : undefined
    if (!identity) {
      const failures = await limiter.take(`auth-failures:${request.client}`, authFailureLimit, 60_000)
      const reset = setRateHeaders(reply, failures)
      if (failures.allowed) return fail(reply, 401, ORDER_MESSAGES.unauthorized)
      reply.header('Retry-After', reset)
      return fail(reply, 429, ORDER_MESSAGES.tooManyRequests)
    }
    request.identity = identity
    const hit = await limiter.take(`order:${identity.tokenId}`, ORDER_RATE_LIMIT, 1000)
    const reset = setRateHeaders(reply, hit)
    if (!hit.allowed) {
      reply.header('Retry-After', reset)
      return fail(reply, 429, ORDER_MESSAGES.tooManyRequests)
    }
  }

  /** Every order query and feed page leaves an access record, under the id the answer carried. */
  function recordAccess(request: FastifyRequest, reply: FastifyReply, done: () => void) {
    const query: unknown = request.query
    accessLog.record({
      at: new Date(),
      tokenId: request.identity?.tokenId ?? null,
      organizationId: request.identity?.organizationId ?? null,
      // Stryker disable next-line OptionalChaining: Fastify always parses a query object, empty or not
      orderNumber: orderNumberOf(query),
      status: reply.statusCode,
      requestId: request.id,
    })
    done()
  }

  return { authenticate, recordAccess }
}
