import { type IncomingMessage, STATUS_CODES } from 'node:http'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { AccessLog } from '../auth/access-log.js'
import type { Hit, Limiter } from '../auth/rate-limit.js'
import type { TokenCache, TokenIdentity } from '../auth/tokens.js'
import type { ImportSignal } from '../channel.js'
import { isPossibleNumber, normalizeNumber } from '../checks.js'
import type { Pool } from '../db/pool.js'
import { CursorGone, ParameterError } from '../errors.js'
import { ORDER_MESSAGES } from '../messages.js'
import { ORDER_CHANGES, orderFailure } from '../readmodel/envelopes.js'
import type { DocumentStore } from '../readmodel/store.js'
import { orderRead } from '../reads/order-reads.js'
import { answerOf } from '../reads/read.js'
import { DEFAULT_FEED_PAGE, MAX_FEED_PAGE, orderFeedPage } from '../transparency/change-feeds.js'
import type { Cursors } from '../transparency/cursors.js'
import { type ParameterProblem, parameterError } from '../transparency/parameters.js'
import { rateHeaders, resetSeconds } from './answer.js'
import { longPoll, MAX_WAIT_SECONDS } from './changes.js'
import { feedPage, OrderChange, OrderSchema } from './schemas.js'

/** Spec 2.1: the fields of every order-query error. */
const ORDER_ERROR = {
  message: Type.String(),
  data: Type.Array(Type.Never(), { maxItems: 0, description: 'Always an empty array' }),
}

/** Spec section 8: requests per second per token on the order query. */
export const ORDER_RATE_LIMIT = 60

export interface OrdersOptions {
  pool: Pool
  store: DocumentStore
  tokens: TokenCache
  limiter: Limiter
  accessLog: AccessLog
  /** Failed authentications allowed per client address per minute. */
  authFailureLimit: number
  /** Requests waiting for the next import (the feed's long polling), and IDLE_TIMEOUT. */
  imports: ImportSignal
  idleTimeoutMs: number
  cursors: Cursors
}

declare module 'fastify' {
  interface FastifyRequest {
    identity: TokenIdentity | null
  }
  interface FastifyContextConfig {
    /** The orders' change feed: its bad parameters are answered 422 with a message of their own. */
    feed?: boolean
  }
}

/** The feed's query parameters, and in Portuguese what each accepts. */
const FEED_ACCEPTS: Readonly<Record<string, string>> = {
  after: 'um cursor de uma resposta anterior',
  per_page: `um número inteiro de 1 a ${MAX_FEED_PAGE}`,
  since: 'um instante ISO 8601, como 2026-01-31T12:00:00Z',
  wait: `um número inteiro de 0 a ${MAX_WAIT_SECONDS}`,
}

const RATE_HEADERS = {
  'X-RateLimit-Limit': { type: 'integer', description: 'Requests allowed in the window' },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in the window' },
  'X-RateLimit-Reset': { type: 'integer', description: 'Seconds until the window resets' },
}

const errorResponse = (description: string, extraHeaders: Record<string, unknown> = {}) =>
  Type.Object(ORDER_ERROR, { description, headers: { ...RATE_HEADERS, ...extraHeaders } })

function setRateHeaders(reply: FastifyReply, hit: Hit) {
  for (const [name, value] of rateHeaders(hit)) reply.header(name, value)
  return resetSeconds(hit)
}

const fail = (reply: FastifyReply, status: number, message: string) =>
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

/**
 * Operation 1 (getOrderByNumber): GET /external/orders?order_number=..., with the organ's raw token in
 * Authorization. Registered under the /external prefix, where every answer uses the order envelope.
 */
const orders: FastifyPluginAsyncTypebox<OrdersOptions> = async (app, options) => {
  const { pool, store, tokens, limiter, accessLog, authFailureLimit, imports, idleTimeoutMs, cursors } =
    options
  // Stryker disable next-line StringLiteral: declares the property up front (one object shape); assigning works without it
  app.decorateRequest('identity', null)
  // An organ's orders are for its token alone: no proxy or browser may keep a copy of any answer here.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('cache-control', 'no-store')
    done()
  })

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
            {
              'Retry-After': { type: 'integer', description: 'Seconds to wait' },
            },
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

  app.get(
    '/orders/changes',
    {
      onRequest: authenticate,
      onResponse: recordAccess,
      config: { feed: true },
      schema: {
        operationId: 'listOrderChanges',
        tags: ['orders'],
        summary: "What changed among the token's organ's orders: created, updated or withdrawn, in order",
        description:
          "A feed to keep an organ's system in sync with its orders, under the order query's authentication: the " +
          'same token, the same 60 requests a second (shared with the order query), the same 401, 429 and 500. ' +
          'Entries are in the order their imports committed, visible when the import commits; read from `after` ' +
          '(none: from the start) with `next_cursor`, and nothing is missed or seen twice. A created or updated ' +
          'entry carries the order as GET /external/orders answers it now; a withdrawn one is a tombstone, and ' +
          "the withdrawn order's earlier entries are gone. Only the token's organ's orders appear, numbered in the " +
          "organ's own sequence: a cursor tells nothing of other organs. With `wait`, an answer with no entry waits " +
          'for the next import. A bad parameter is answered 422 with a message that names it; a cursor of another ' +
          "log (the database was loaded again), of another organ or feed, or past the feed's end, 410: sync again " +
          'from the start. An order belongs to its organization for good (its key is the organization and the ' +
          'number), so it never moves to another feed.',
        security: [{ AccessToken: [] }],
        querystring: Type.Object(
          {
            after: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: 80,
                description: 'A cursor given by an earlier answer',
              }),
            ),
            per_page: Type.Optional(
              Type.Integer({
                minimum: 1,
                maximum: MAX_FEED_PAGE,
                default: DEFAULT_FEED_PAGE,
                description: 'Entries a page',
              }),
            ),
            since: Type.Optional(
              Type.String({
                format: 'date-time',
                description: 'Only entries changed at this instant or later (ISO 8601)',
              }),
            ),
            wait: Type.Optional(
              Type.Integer({
                minimum: 0,
                maximum: MAX_WAIT_SECONDS,
                default: 0,
                description:
                  'Seconds to wait, when no entry follows the cursor, for the next import: the answer comes as ' +
                  `soon as it commits, or empty when the time is up (at most ${MAX_WAIT_SECONDS})`,
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object(
            {
              message: Type.String({ examples: [ORDER_MESSAGES.changes] }),
              data: feedPage(OrderChange, 'OrderChangePage'),
            },
            { description: 'A page of the feed', headers: RATE_HEADERS },
          ),
          401: errorResponse('As the order query: `Unauthorized`'),
          410: errorResponse(
            '`Cursor desconhecido: after...`: a cursor of another log, of another organ or feed, or past the ' +
              "feed's end. Sync again from the start, without after",
          ),
          422: errorResponse(
            '`Cursor inválido: after...` (a cursor this service did not give), or an unknown or invalid parameter, named',
          ),
          429: errorResponse('As the order query: `Too Many Requests`', {
            'Retry-After': { type: 'integer', description: 'Seconds to wait' },
          }),
          500: errorResponse('`Erro interno do servidor`'),
        },
      },
    },
    async (request, reply) => {
      const { query } = request
      const identity = request.identity as TokenIdentity
      const organizationId = identity.organizationId
      await cursors.ready()
      const read = () =>
        orderFeedPage(pool, cursors, {
          organizationId,
          after: query.after === undefined ? 0 : cursors.read('orders', query.after, 'after', organizationId),
          since: query.since,
          perPage: query.per_page ?? DEFAULT_FEED_PAGE,
        })
      const waitMs = (query.wait ?? 0) * 1000
      const page =
        waitMs > 0 ? await longPoll(request.raw.socket, imports, waitMs, idleTimeoutMs, read) : await read()
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(ORDER_CHANGES.page(page))
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
}

export default orders
