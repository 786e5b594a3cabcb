import { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import {
  DOWNLOAD_REFUSALS,
  failure,
  feedPage,
  PublicChange,
  Success,
  TOO_MANY,
} from '../../answers/schemas.js'
import { openCursor, textChunks } from '../../db/cursor.js'
import { Refused } from '../../errors.js'
import {
  DEFAULT_FEED_PAGE,
  FEED_LINE_PARAMETERS,
  FEED_PAGE_PARAMETERS,
  type PublicRow,
  publicFeedLines,
  publicFeedQuery,
} from '../../feeds/change-feeds.js'
import { checkOrganization } from '../../queries/organization.js'
import type { Answer, FeedAnswer } from '../../readmodel/answer.js'
import { PublicReads } from '../../reads/public-reads.js'
import { longPoll } from '../http/long-poll.js'
import type { TransparencyOptions } from '../http/route-options.js'
import { JSON_TYPE, sendAnswer } from '../http/send-answer.js'
import { sendDownload } from '../http/send-download.js'

/**
 * The public change feed: GET /v1/transparency/changes (pages, with long polling) and
 * GET /v1/transparency/changes.jsonl (all of it, streamed). Registered in the /v1 plugin's scopes.
 */
export const changesRoute: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const { imports, idleTimeoutMs, cursors, waits } = options
  const reads = new PublicReads(options)

  app.get(
    '/transparency/changes',
    {
      config: { accepts: FEED_PAGE_PARAMETERS.accepts },
      // Pages are sent as the text built for them; the schema describes them (a record is one of three kinds).
      // Stryker disable next-line ArrowFunction: text is never serialized; this only spares compiling a serializer
      serializerCompiler: () => (data) => JSON.stringify(data),
      schema: {
        operationId: 'listChanges',
        tags: ['transparency'],
        summary: 'What changed: every record created, updated or withdrawn, in the order the imports made it',
        description:
          'A feed to keep a copy in sync. Entries are in the order their imports committed; an entry becomes ' +
          'visible when its import commits, never before nor partly. Read from `after` (none: from the start) ' +
          'with `next_cursor`, and nothing is missed or seen twice, however imports and reads interleave. A ' +
          'record rewritten with the same content adds no entry. A withdrawn record appears as a tombstone (its ' +
          'kind, key, organization and time, nothing of its content), and its earlier entries are gone: it was ' +
          'published by mistake. Rebuilding documents after an upgrade is not a change of the data and adds ' +
          'nothing. With `wait`, an answer with no entry waits for the next import. Supply orders never appear ' +
          'here (GET /external/orders/changes, with a token).',
        security: [],
        querystring: FEED_PAGE_PARAMETERS.schema,
        response: {
          200: Success(feedPage(PublicChange, 'PublicChangePage'), 'A page of the feed'),
          404: failure('`Organização não encontrada.`: organization_uuid'),
          410: failure(
            '`Cursor desconhecido: after...`: a cursor of another log (the database was loaded again), of another ' +
              "feed, or past the log's end. Sync again from the start, without after",
          ),
          422: failure(
            'An unknown or invalid parameter, or a cursor this service did not give (`Cursor inválido...`)',
          ),
          429: TOO_MANY,
        },
      },
    },
    async (request, reply) => {
      const { query } = request
      await cursors.ready()
      const feed = reads.changes(
        query,
        publicFeedQuery(query, cursors),
        (query.per_page as number | undefined) ?? DEFAULT_FEED_PAGE,
      )
      const waitMs = ((query.wait as number | undefined) ?? 0) * 1000
      // Without waiting, a page is kept like a listing's, until the next import.
      if (waitMs === 0) return sendAnswer(request, reply, (await reads.answer(feed)) as Answer)
      // Waiting: a place of the address's share, and the page read through the cache, so that every request
      // waiting on the same question shares one read when an import is heard.
      const leave = waits.enter(request.client)
      if (typeof leave === 'string') throw new Refused('wait', leave)
      try {
        const page = await longPoll(
          request.raw.socket,
          imports,
          waitMs,
          idleTimeoutMs,
          async () => (await reads.answer(feed, () => request.signal)) as FeedAnswer,
          (answer) => answer.count,
          options.store,
        )
        // Never kept by a cache on the way: the same URL waits again for what comes next.
        return sendAnswer(request, reply, page, JSON_TYPE, 'no-store')
      } finally {
        leave()
      }
    },
  )
}

/** GET /v1/transparency/changes.jsonl: the feed from a cursor to its end, one entry a line, streamed. */
export const changeLinesRoute: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const { pool, exportPool, downloads, cursors } = options
  app.get(
    '/transparency/changes.jsonl',
    {
      config: { accepts: FEED_LINE_PARAMETERS.accepts },
      schema: {
        operationId: 'listChangesAsLines',
        tags: ['transparency'],
        summary: 'The change feed from a cursor to its end, one entry a line (JSON Lines)',
        description:
          'The same entries as GET /v1/transparency/changes with the same parameters, all of them, streamed: a new ' +
          "copy catches up in one request, then follows the feed from the last line's cursor. It counts as an " +
          'export: EXPORT_CONCURRENCY at once per instance, one per address, EXPORT_TIMEOUT; gzip or br on request.',
        security: [],
        querystring: FEED_LINE_PARAMETERS.schema,
        response: {
          200: {
            description: 'The entries, one a line, in the order of the feed',
            content: { 'application/x-ndjson': { schema: Type.String() } },
          },
          404: failure('`Organização não encontrada.`: organization_uuid'),
          410: failure('`Cursor desconhecido: after...`, as GET /v1/transparency/changes'),
          422: failure('An unknown or invalid parameter, or a cursor this service did not give'),
          ...DOWNLOAD_REFUSALS,
        },
      },
    },
    async (request, reply) => {
      await cursors.ready()
      const feed = publicFeedQuery(request.query, cursors)
      await checkOrganization(pool, feed.organizationId)
      // Stryker disable next-line StringLiteral: the name in the log's lines
      return sendDownload(request, reply, downloads, 'change feed download', async (signal) => {
        const lines = publicFeedLines(feed, cursors)
        // Stryker disable next-line ObjectLiteral: the batch only sets how many rows a read fetches
        const cursor = await openCursor<PublicRow>(exportPool, lines.text, lines.values, {
          batchSize: 500,
          signal,
        })
        // Stryker disable next-line ObjectLiteral,BooleanLiteral: text flows alike in object mode; the mode only sets how its buffer is counted
        const stream = Readable.from(textChunks(cursor.rows, lines.line), { objectMode: false })
        cursor.releaseWith(stream)
        return { stream, headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8' } }
      })
    },
  )
}
