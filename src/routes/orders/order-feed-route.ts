import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { feedPage, OrderChange, RETRY_AFTER } from '../../answers/schemas.js'
import type { TokenIdentity } from '../../auth/tokens.js'
import type { ImportSignal } from '../../channel.js'
import type { Pool } from '../../db/pool.js'
import {
  DEFAULT_FEED_PAGE,
  MAX_FEED_PAGE,
  MAX_WAIT_SECONDS,
  orderFeedPage,
} from '../../feeds/change-feeds.js'
import { ORDER_MESSAGES } from '../../messages.js'
import type { Cursors } from '../../queries/cursors.js'
import { ORDER_CHANGES } from '../../readmodel/envelopes.js'
import { longPoll } from '../http/long-poll.js'
import { errorResponse, type orderAccess, RATE_HEADERS } from './order-access.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The orders' change feed: its bad parameters are answered 422 with a message of their own. */
    feed?: boolean
  }
}

/** The feed's query parameters, and in Portuguese what each accepts. */
export const FEED_ACCEPTS: Readonly<Record<string, string>> = {
  after: 'um cursor de uma resposta anterior',
  per_page: `um número inteiro de 1 a ${MAX_FEED_PAGE}`,
  since: 'um instante ISO 8601, como 2026-01-31T12:00:00Z',
  wait: `um número inteiro de 0 a ${MAX_WAIT_SECONDS}`,
}

export interface OrderFeedOptions {
  pool: Pool
  cursors: Cursors
  /** Requests waiting for the next import (the feed's long polling), and IDLE_TIMEOUT. */
  imports: ImportSignal
  idleTimeoutMs: number
  access: ReturnType<typeof orderAccess>
}

/** GET /external/orders/changes: an organ's orders feed, under the order query's token and limits. */
export const orderFeedRoute: FastifyPluginAsyncTypebox<OrderFeedOptions> = async (app, options) => {
  const { pool, cursors, imports, idleTimeoutMs } = options
  const { authenticate, recordAccess } = options.access
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
          429: errorResponse('As the order query: `Too Many Requests`', RETRY_AFTER),
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
        waitMs > 0
          ? await longPoll(request.raw.socket, imports, waitMs, idleTimeoutMs, read, (found) => found.count)
          : await read()
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(ORDER_CHANGES.page(page))
    },
  )
}
