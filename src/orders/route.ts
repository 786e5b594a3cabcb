import { STATUS_CODES } from 'node:http'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { AccessLog } from '../auth/access-log.js'
import type { Hit, Limiter } from '../auth/rate-limit.js'
import type { TokenCache, TokenIdentity } from '../auth/tokens.js'
import type { DocumentStore } from '../readmodel/store.js'
import { MESSAGES, OrderError, OrderSuccess } from './schema.js'

/** Spec section 8: requests per second per token on the order query. */
export const ORDER_RATE_LIMIT = 60

export interface OrdersOptions {
  store: DocumentStore
  tokens: TokenCache
  limiter: Limiter
  accessLog: AccessLog
  /** Failed authentications allowed per client address per minute. */
  authFailureLimit: number
}

declare module 'fastify' {
  interface FastifyRequest {
    identity: TokenIdentity | null
  }
}

const RATE_HEADERS = {
  'X-RateLimit-Limit': { type: 'integer', description: 'Requests allowed in the window' },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in the window' },
  'X-RateLimit-Reset': { type: 'integer', description: 'Seconds until the window resets' },
}

const errorResponse = (description: string, extraHeaders: Record<string, unknown> = {}) =>
  Type.Object(OrderError.properties, { description, headers: { ...RATE_HEADERS, ...extraHeaders } })

function setRateHeaders(reply: FastifyReply, hit: Hit) {
  const reset = Math.max(1, Math.ceil(hit.resetMs / 1000))
  reply.header('X-RateLimit-Limit', hit.limit)
  reply.header('X-RateLimit-Remaining', hit.remaining)
  reply.header('X-RateLimit-Reset', reset)
  return reset
}

const fail = (reply: FastifyReply, status: number, message: string) =>
  reply.code(status).send({ message, data: [] })

/**
 * Operation 1 (getOrderByNumber): GET /external/orders?order_number=..., with the organ's raw token in
 * Authorization. Registered under the /external prefix, where every answer uses the order envelope.
 */
const orders: FastifyPluginAsyncTypebox<OrdersOptions> = async (app, options) => {
  const { store, tokens, limiter, accessLog, authFailureLimit } = options
  // The document is served as stored; only the envelope is put around it.
  const successPrefix = `{"message":${JSON.stringify(MESSAGES.success)},"data":`
  app.decorateRequest('identity', null)

  // Address limit on failed authentication first, so guessing tokens stays slow; then the token;
  // then the token's own limit. All before order_number is looked at (spec: auth before validation).
  async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    const failureKey = `auth-failures:${request.ip}`
    const failures = await limiter.peek(failureKey, authFailureLimit, 60_000)
    if (failures.remaining === 0) {
      reply.header('Retry-After', setRateHeaders(reply, failures))
      return fail(reply, 429, MESSAGES.tooManyRequests)
    }
    const header = request.headers.authorization
    const identity = header ? await tokens.verify(header) : undefined
    if (!identity) {
      setRateHeaders(reply, await limiter.hit(failureKey, authFailureLimit, 60_000))
      return fail(reply, 401, MESSAGES.unauthorized)
    }
    request.identity = identity
    const hit = await limiter.hit(`order:${identity.tokenId}`, ORDER_RATE_LIMIT, 1000)
    const reset = setRateHeaders(reply, hit)
    if (!hit.allowed) {
      reply.header('Retry-After', reset)
      return fail(reply, 429, MESSAGES.tooManyRequests)
    }
  }

  app.get(
    '/orders',
    {
      onRequest: authenticate,
      onResponse: async (request, reply) => {
        const query = request.query as { order_number?: unknown }
        accessLog.record({
          at: new Date(),
          tokenId: request.identity?.tokenId ?? null,
          organizationId: request.identity?.organizationId ?? null,
          orderNumber: typeof query?.order_number === 'string' ? query.order_number.slice(0, 200) : null,
          status: reply.statusCode,
        })
      },
      schema: {
        operationId: 'getOrderByNumber',
        tags: ['orders'],
        summary: 'The complete supply order with its items',
        description:
          'Looks the order up by its number among the orders of the organ that the token belongs to; another ' +
          "organ's order answers like a missing one. 60 requests per second per token.",
        security: [{ AccessToken: [] }],
        querystring: Type.Object({
          order_number: Type.Optional(Type.String({ description: 'Number of the order (required)' })),
        }),
        response: {
          200: Type.Object(OrderSuccess.properties, {
            description: 'The order with its items',
            headers: RATE_HEADERS,
          }),
          401: errorResponse('Token missing, malformed or invalid: `Unauthorized`'),
          429: errorResponse('Request limit exceeded: `Too Many Requests`', {
            'Retry-After': { type: 'integer', description: 'Seconds to wait' },
          }),
          500: errorResponse(
            '`Número da ordem é obrigatório` (order_number absent or blank), `Ordem não encontrada` (no such order ' +
              'for this organ) or `Erro interno do servidor`',
          ),
        },
      },
    },
    async (request, reply) => {
      const number = request.query.order_number
      if (number === undefined || number.trim() === '') return fail(reply, 500, MESSAGES.orderNumberRequired)
      const identity = request.identity as TokenIdentity
      const document = await store.order(identity.organizationId, number)
      if (document === undefined) return fail(reply, 500, MESSAGES.notFound)
      return (reply as FastifyReply)
        .type('application/json; charset=utf-8')
        .send(`${successPrefix}${document}}`)
    },
  )

  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/orders',
    schema: { hide: true },
    handler: async (_request, reply) => {
      reply.header('Allow', 'GET, HEAD')
      return fail(reply, 405, STATUS_CODES[405] as string)
    },
  })

  app.setNotFoundHandler(async (_request, reply) => fail(reply, 404, STATUS_CODES[404] as string))

  app.setErrorHandler(
    async (error: Error & { statusCode?: number; validation?: unknown }, request, reply) => {
      // A query string that fails its schema (order_number given twice) has no usable order number.
      if (error.validation) return fail(reply, 500, MESSAGES.orderNumberRequired)
      const status = error.statusCode ?? 500
      if (status < 500) return fail(reply, status, STATUS_CODES[status] ?? 'Error')
      request.log.error({ err: error }, 'order query failed')
      return fail(reply, 500, MESSAGES.internal)
    },
  )
}

export default orders
