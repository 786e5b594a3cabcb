import { STATUS_CODES } from 'node:http'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { OrderSchema, RETRY_AFTER } from '../../answers/schemas.js'
import type { TokenIdentity } from '../../auth/tokens.js'
import type { ImportSignal } from '../../channel.js'
import { isPossibleNumber, normalizeNumber } from '../../checks.js'
import type { Pool } from '../../db/pool.js'
import { CursorGone, ParameterError } from '../../errors.js'
import { ORDER_MESSAGES } from '../../messages.js'
import type { Cursors } from '../../queries/cursors.js'
import { type ParameterProblem, parameterError } from '../../queries/parameters.js'
import type { DocumentStore } from '../../readmodel/store.js'
import { orderRead } from '../../reads/order-reads.js'
import { answerOf } from '../../reads/read.js'
import { type AccessOptions, errorResponse, fail, orderAccess, RATE_HEADERS } from './order-access.js'
import { FEED_ACCEPTS, orderFeedRoute } from './order-feed-route.js'

export { ORDER_RATE_LIMIT, singleAuthorization } from './order-access.js'

export interface OrdersOptions extends AccessOptions {
  pool: Pool
  store: DocumentStore
  /** Requests waiting for the next import (the feed's long polling), and IDLE_TIMEOUT. */
  imports: ImportSignal
  idleTimeoutMs: number
  cursors: Cursors
}

/**
 * Operation 1 (getOrderByNumber): GET /external/orders?order_number=..., with the organ's raw token in
 * Authorization. Registered under the /external prefix, where every answer uses the order envelope.
 */
const orders: FastifyPluginAsyncTypebox<OrdersOptions> = async (app, options) => {
  const { pool, store, imports, idleTimeoutMs, cursors } = options
  // Stryker disable next-line StringLiteral: declares the property up front (one object shape); assigning works without it
  app.decorateRequest('identity', null)
  // An organ's orders are for its token alone: no proxy or browser may keep a copy of any answer here.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('cache-control', 'no-store')
    done()
  })
  app.setNotFoundHandler(async (_request, reply) => fail(reply, 404, STATUS_CODES[404] as string))

  app.setErrorHandler(
    async (error: Error & { statusCode?: number; validation?: unknown }, request, reply) => {
      if (error.validation && request.routeOptions.config.feed) {
        const problem = (error.validation as ParameterProblem[])[0]
        return fail(reply, 422, parameterError(problem, FEED_ACCEPTS).message)
      }
      if (error instanceof ParameterError) return fail(reply, 422, error.message)
      if (error instanceof CursorGone) return fail(reply, 410, error.message)
      // A query string that fails its schema (order_number absent or given twice) has no usable order number.
      if (error.validation) return fail(reply, 500, ORDER_MESSAGES.orderNumberRequired)
      const status = error.statusCode ?? 500
      // Stryker disable next-line LogicalOperator,StringLiteral: Fastify raises only statuses Node names
      if (status < 500) return fail(reply, status, STATUS_CODES[status] ?? 'Error')
      request.log.error({ err: error }, 'order query failed')
      return fail(reply, 500, ORDER_MESSAGES.internal)
    },
  )

  const access = orderAccess(options)
  const { authenticate, recordAccess } = access

  app.get(
    '/orders',
    {
      onRequest: authenticate,
      onResponse: recordAccess,
      schema: {
        operationId: 'getOrderByNumber',
        tags: ['orders'],
        summary: 'The complete supply order with its items',
        description:
          'Looks the order up by its number among the orders of the organ that the token belongs to; another ' +
          "organ's order answers like a missing one. 60 requests per second per token. As the spec says, a " +
          'missing or blank order_number is answered 500 `Número da ordem é obrigatório` (after the token is ' +
          'checked), not 400.',
        security: [{ AccessToken: [] }],
        querystring: Type.Object({
          order_number: Type.String({
            description:
              "Number of the order. Required: without it the answer is the spec's 500 `Número da ordem é obrigatório`.",
          }),
        }),
        response: {
          200: Type.Object(
            { message: Type.String({ examples: [ORDER_MESSAGES.success] }), data: OrderSchema },
            { description: 'The order with its items', headers: RATE_HEADERS },
          ),
          401: errorResponse(
            'Token missing, malformed or invalid, or Authorization sent more than once: `Unauthorized`',
          ),
          429: errorResponse(
            'Request limit exceeded (60 in any one second per token), or a failed token from an address past ' +
              'AUTH_FAILURE_LIMIT failures in the last minute: `Too Many Requests`',
            RETRY_AFTER,
          ),
          500: errorResponse(
            '`Número da ordem é obrigatório` (order_number absent or blank), `Ordem não encontrada` (no such order ' +
              'for this organ) or `Erro interno do servidor`',
          ),
        },
      },
    },
    async (request, reply) => {
      const asked = request.query.order_number
      if (asked.trim() === '') return fail(reply, 500, ORDER_MESSAGES.orderNumberRequired)
      // Numbers are stored trimmed; one that could not be stored is not looked up at all.
      const number = normalizeNumber(asked)
      if (!isPossibleNumber(number)) return fail(reply, 500, ORDER_MESSAGES.notFound)
      const identity = request.identity as TokenIdentity
      const answer = await answerOf(store, orderRead(store, identity.organizationId, number))
      if (answer === undefined) return fail(reply, 500, ORDER_MESSAGES.notFound)
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(answer.body)
    },
  )

  await app.register(orderFeedRoute, { pool, cursors, imports, idleTimeoutMs, access })

  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/orders',
    schema: { hide: true },
    handler: async (_request, reply) => {
      reply.header('Allow', 'GET, HEAD')
      return fail(reply, 405, STATUS_CODES[405] as string)
    },
  })
}

export default orders
