import { Type } from 'typebox'
import { type Pool, prepared } from '../db/pool.js'
import { pastEnd } from '../db/replicas.js'
import { ParameterError } from '../errors.js'
import type { Cursors } from '../queries/cursors.js'
import { LIST, type Parameter, parameters, type ValidQuery } from '../queries/parameters.js'
import { PUBLIC_RESOURCES } from '../resources/index.js'

// The change feeds (migrations/0015_change_log.sql, src/readmodel/log.ts), without HTTP: pages of the public
// feed and of an organ's orders, and the public feed as lines, each entry as the JSON text it is served as.
// An entry's cursor is its place in its log (src/queries/cursors.ts): the public log's number, or the
// organization's own for its orders; the next page starts after the last entry's cursor.

/** The kinds of the public feed: the public resources' paths. */
export const FEED_KINDS: readonly string[] = PUBLIC_RESOURCES.map((resource) => resource.path)

export const MAX_FEED_PAGE = 1000
export const DEFAULT_FEED_PAGE = 100

/** The kinds a `kinds` parameter names (comma-separated), each once, in the feed's own order. */
export function parseKinds(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined
  const names = raw.split(',').map((name) => name.trim())
  const unknown = names.filter((name) => !FEED_KINDS.includes(name))
  if (unknown.length > 0)
    throw new ParameterError(
      // Stryker disable next-line StringLiteral: the parameter's name is not served; the message names it
      'kinds',
      `Parâmetro inválido: kinds. Tipo desconhecido: ${unknown.join(', ') || '(vazio)'}. Aceita: ${FEED_KINDS.join(', ')}.`,
    )
  return FEED_KINDS.filter((kind) => names.includes(kind))
}

export interface PublicFeedQuery {
  /** Entries after this sequence number (0: from the start). */
  after: number
  kinds?: readonly string[]
  organizationId?: string
  /** Entries changed at this instant or later (ISO 8601). */
  since?: string
  /** Each created or updated entry with its record as its detail is served now. */
  withRecords: boolean
}

/** The longest a request may wait for the next import. */
export const MAX_WAIT_SECONDS = 30

export /** What the public feed's parameters take (its page, and its lines, which take neither per_page nor wait). */
const FEED_PARAMETERS: Readonly<Record<string, Parameter>> = {
  after: [
    Type.String({
      minLength: 1,
      maxLength: 80,
      description:
        "A cursor given by an earlier answer (an entry's, or next_cursor): the entries after it. None: from the start",
    }),
    'um cursor de uma resposta anterior',
  ],
  per_page: [
    Type.Integer({
      minimum: 1,
      maximum: MAX_FEED_PAGE,
      default: DEFAULT_FEED_PAGE,
      description: `Entries a page, 1 to ${MAX_FEED_PAGE}`,
    }),
    `um número inteiro de 1 a ${MAX_FEED_PAGE}`,
  ],
  kinds: [
    Type.String({
      description: `Comma-separated kinds: ${FEED_KINDS.join(', ')}. None: all`,
      [LIST]: FEED_KINDS,
    }),
    `uma lista separada por vírgulas de: ${FEED_KINDS.join(', ')}`,
  ],
  organization_uuid: [
    Type.String({ format: 'uuid', description: 'Only records of this organization' }),
    'um UUID',
  ],
  since: [
    Type.String({
      format: 'date-time',
      description:
        'Only entries changed at this instant or later (ISO 8601): a first sync that needs no history',
    }),
    'um instante ISO 8601, como 2026-01-31T12:00:00Z',
  ],
  with_records: [
    Type.Boolean({
      description: 'true: each created or updated entry carries its record as its detail serves it now',
    }),
    'true ou false',
  ],
  wait: [
    Type.Integer({
      minimum: 0,
      maximum: MAX_WAIT_SECONDS,
      default: 0,
      description:
        'Seconds to wait, when no entry follows the cursor, for the next import: the answer comes as soon as ' +
        `it commits, or empty when the time is up (at most ${MAX_WAIT_SECONDS})`,
    }),
    `um número inteiro de 0 a ${MAX_WAIT_SECONDS}`,
  ],
}

export const FEED_PAGE_PARAMETERS = parameters(Object.keys(FEED_PARAMETERS), FEED_PARAMETERS)
export const FEED_LINE_PARAMETERS = parameters(
  Object.keys(FEED_PARAMETERS).filter((name) => name !== 'per_page' && name !== 'wait'),
  FEED_PARAMETERS,
)

/** The public feed's query from its validated parameters (the page's and the lines'). */
export function publicFeedQuery(query: ValidQuery, cursors: Cursors): PublicFeedQuery {
  return {
    after: query.after === undefined ? 0 : cursors.read('changes', query.after as string, 'after'),
    kinds: parseKinds(query.kinds as string | undefined),
    organizationId: query.organization_uuid as string | undefined,
    since: query.since as string | undefined,
    withRecords: query.with_records === true,
  }
}

/** A page of a feed: its entries as a JSON array's text, where the next page starts, and whether it has entries. */
export interface FeedPage {
  entries: string
  count: number
  nextCursor: string
  hasMore: boolean
}

const CHANGED_AT = `to_char(c.changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

/**
 * The public feed's statement for the filters present (values in the order after, kinds, organization, since,
 * then the page's limit when there is one). `since` starts the read at the first entry dated at or after it,
 * found off its index: entries are dated in the order they are numbered (src/readmodel/log.ts). Filtered by
 * organization, the feed has the organization's entries and those of records that moved out of it: there, a
 * record that left is a tombstone and one that came in is created, so a mirror of one organization keeps
 * exactly its records. Each part is read off its own index, in order.
 */
export function publicFeedSql(query: PublicFeedQuery, limit?: number): { text: string; values: unknown[] } {
  const values: unknown[] = [query.after]
  const conditions = ['c.seq > $1']
  if (query.kinds) conditions.push(`c.resource = ANY($${values.push(query.kinds)}::text[])`)
  const organization = query.organizationId ? `$${values.push(query.organizationId)}::uuid` : undefined
  if (query.since) {
    const since = `$${values.push(query.since)}::timestamptz`
    conditions.push(
      `c.seq >= coalesce((SELECT s.seq FROM public_changes s WHERE s.changed_at >= ${since}
        ORDER BY s.changed_at, s.seq LIMIT 1), ${Number.MAX_SAFE_INTEGER})`,
      `c.changed_at >= ${since}`,
    )
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: LIMIT NULL reads to the end as no LIMIT does, and a page's rows past its limit are cut below
  const limited = limit === undefined ? '' : ` LIMIT $${values.push(limit)}`
  const where = conditions.join(' AND ')
  const source =
    organization === undefined
      ? 'public_changes c'
      : `((SELECT c.* FROM public_changes c WHERE c.organization_id = ${organization} AND ${where}
            ORDER BY c.seq${limited})
          UNION ALL
          (SELECT c.* FROM public_changes c WHERE c.previous_organization_id = ${organization}
            AND c.organization_id <> ${organization} AND ${where} ORDER BY c.seq${limited})) c`
  const change =
    organization === undefined
      ? 'c.change'
      : `CASE WHEN c.organization_id <> ${organization} THEN 'withdrawn'
          WHEN c.previous_organization_id IS NOT NULL THEN 'created' ELSE c.change END`
  const owner = organization === undefined ? 'c.organization_id' : `${organization}`
  const record = query.withRecords
    ? `, d.body FROM ${source}
       LEFT JOIN detail_documents d ON ${change} <> 'withdrawn' AND d.resource = c.resource AND d.id = c.id`
    : `, NULL AS body FROM ${source}`
  return {
    text: `SELECT c.seq::text, c.resource, c.id, ${owner} AS organization_id, ${change} AS change,
        ${CHANGED_AT} AS changed_at${record}
      ${
        // Stryker disable next-line ConditionalExpression: each part of the union already holds these conditions
        organization === undefined ? `WHERE ${where} ` : ''
      }ORDER BY c.seq${limited}`,
    values,
  }
}

export interface PublicRow {
  seq: string
  resource: string
  id: string
  organization_id: string
  change: string
  changed_at: string
  body: string | null
}

/** A public entry as served: its cursor, kind, key, organization, change and moment, and its record when asked. */
export function publicEntry(row: PublicRow, withRecords: boolean, cursors: Cursors): string {
  // Stryker disable next-line StringLiteral: a created or updated entry's record is there (a withdrawal deletes its earlier entries)
  const record = withRecords && row.change !== 'withdrawn' ? `,"record":${row.body ?? 'null'}` : ''
  return (
    `{"cursor":"${cursors.position('changes', row.seq)}","kind":"${row.resource}","id":"${row.id}",` +
    `"organization_uuid":"${row.organization_id}","change":"${row.change}","changed_at":"${row.changed_at}"${record}}`
  )
}

/**
 * A page of the public feed: at most perPage entries after the cursor, in the log's order. CursorGone when
 * the cursor is past the log's end (the log was loaded again from an older copy).
 */
export async function publicFeedPage(
  pool: Pool,
  cursors: Cursors,
  query: PublicFeedQuery,
  perPage: number,
): Promise<FeedPage> {
  await cursors.ready()
  const { text, values } = publicFeedSql(query, perPage + 1)
  const { rows } = await pool.query<PublicRow>(prepared(text, values))
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: where rows came back, or from the start, the cursor is not past the end: checking only costs
  if (rows.length === 0 && query.after > 0) {
    const last = async (on: Pool) =>
      // Stryker disable next-line OptionalChaining: an aggregate without GROUP BY gives one row
      (
        await on.query<{ last: number }>(
          `SELECT coalesce(pg_sequence_last_value(pg_get_serial_sequence('public_changes', 'seq')::regclass), 0) AS last`,
        )
      ).rows[0]?.last ?? 0
    if (await pastEnd(pool, query.after, last)) throw cursors.gone('after')
  }
  return page(
    rows.slice(0, perPage),
    rows.length > perPage,
    (seq) => cursors.position('changes', seq),
    query.after,
    (row) => publicEntry(row, query.withRecords, cursors),
  )
}

/** The public feed after the cursor, whole, for a stream: its statement and how each row is served. */
export function publicFeedLines(query: PublicFeedQuery, cursors: Cursors) {
  const { text, values } = publicFeedSql(query)
  return { text, values, line: (row: PublicRow) => `${publicEntry(row, query.withRecords, cursors)}\n` }
}

function page<R extends { seq: string }>(
  rows: R[],
  hasMore: boolean,
  cursor: (seq: string | number) => string,
  after: number,
  entry: (row: R) => string,
): FeedPage {
  const last = rows.at(-1)
  return {
    entries: `[${rows.map(entry).join(',')}]`,
    count: rows.length,
    nextCursor: cursor(last ? last.seq : after),
    hasMore,
  }
}

interface OrderRow {
  seq: string
  number: string
  change: string
  changed_at: string
  body: string | null
}

/** What an organ's orders feed is asked: after its own entry `after` (0: the start), optionally since an instant. */
export interface OrderFeedQuery {
  organizationId: string
  after: number
  since?: string
  perPage: number
}

/**
 * A page of an organ's orders feed: at most perPage entries after the cursor, each created or updated one
 * with its order as the order query serves it now. Its entries are numbered in the organization's own
 * sequence (org_seq). CursorGone when the cursor is past the organization's last entry.
 */
/** The statement of a page of an organ's orders feed (one past the page, to tell whether more follow). */
export function orderFeedSql(query: OrderFeedQuery): { text: string; values: unknown[] } {
  const { organizationId, after, since, perPage } = query
  const values: unknown[] = [organizationId, after, perPage + 1]
  const from =
    since === undefined
      ? ''
      : ` AND c.org_seq >= coalesce((SELECT s.org_seq FROM order_changes s WHERE s.organization_id = $1
          AND s.changed_at >= $4::timestamptz ORDER BY s.changed_at, s.org_seq LIMIT 1), ${Number.MAX_SAFE_INTEGER})
          AND c.changed_at >= $4::timestamptz`
  if (since !== undefined) values.push(since)
  return {
    text: `SELECT c.org_seq::text AS seq, c.number, c.change, ${CHANGED_AT} AS changed_at, o.body FROM order_changes c
       LEFT JOIN order_documents o ON c.change <> 'withdrawn' AND o.organization_id = c.organization_id AND o.number = c.number
       WHERE c.organization_id = $1 AND c.org_seq > $2${from} ORDER BY c.org_seq LIMIT $3`,
    values,
  }
}

export async function orderFeedPage(pool: Pool, cursors: Cursors, query: OrderFeedQuery): Promise<FeedPage> {
  await cursors.ready()
  const { organizationId, after, perPage } = query
  const { text, values } = orderFeedSql(query)
  const { rows } = await pool.query<OrderRow>(prepared(text, values))
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: where rows came back, or from the start, the cursor is not past the end: checking only costs
  if (rows.length === 0 && after > 0) {
    const last = async (on: Pool) =>
      (
        await on.query<{ last: number }>('SELECT last FROM order_feed_numbers WHERE organization_id = $1', [
          organizationId,
        ])
      ).rows[0]?.last ?? 0
    if (await pastEnd(pool, after, last)) throw cursors.gone('after')
  }
  const cursor = (seq: string | number) => cursors.position('orders', seq, organizationId)
  return page(rows.slice(0, perPage), rows.length > perPage, cursor, after, (row) => {
    // Stryker disable next-line StringLiteral: a created or updated entry's order is there (a withdrawal deletes its earlier entries)
    const order = row.change !== 'withdrawn' ? `,"order":${row.body ?? 'null'}` : ''
    return (
      `{"cursor":"${cursor(row.seq)}","number":${JSON.stringify(row.number)},"change":"${row.change}",` +
      `"changed_at":"${row.changed_at}"${order}}`
    )
  })
}
