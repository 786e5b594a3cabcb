import { type Pool, prepared } from '../db/pool.js'
import { PUBLIC_RESOURCES } from '../resources/index.js'
import { ParameterError } from './errors.js'

// The change feeds (migrations/0015_change_log.sql, src/readmodel/log.ts), without HTTP: pages of the public
// feed and of an organ's orders, and the public feed as lines, each entry as the JSON text it is served as.
// An entry's cursor is its place in its log; the next page starts after the last entry's cursor.

/** The kinds of the public feed: the public resources' paths. */
export const FEED_KINDS: readonly string[] = PUBLIC_RESOURCES.map((resource) => resource.path)

export const MAX_FEED_PAGE = 1000
export const DEFAULT_FEED_PAGE = 100

/**
 * An entry's cursor: opaque to clients, its log's sequence number inside, behind the log's mark (`c1`: the
 * change feeds; `o1`: the OCDS releases), so that a cursor of one log is refused by another.
 */
export function encodeCursor(seq: number | string, mark = 'c1'): string {
  return Buffer.from(`${mark}.${seq}`).toString('base64url')
}

/** The sequence number a cursor holds; a ParameterError (naming `parameter`) for one this service did not give. */
export function decodeCursor(text: string, parameter = 'after', mark = 'c1'): number {
  const decoded = /^[A-Za-z0-9_-]{1,40}$/.test(text) ? Buffer.from(text, 'base64url').toString('latin1') : ''
  const seq = new RegExp(`^${mark}\\.(0|[1-9][0-9]{0,17})$`).exec(decoded)?.[1]
  if (seq === undefined || !Number.isSafeInteger(Number(seq)))
    throw new ParameterError(
      parameter,
      `Cursor inválido: ${parameter}. Use o next_cursor (ou o cursor de uma entrada) de uma resposta anterior.`,
    )
  return Number(seq)
}

/** The kinds a `kinds` parameter names (comma-separated), each once, in the feed's own order. */
export function parseKinds(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined
  const names = raw.split(',').map((name) => name.trim())
  const unknown = names.filter((name) => !FEED_KINDS.includes(name))
  if (unknown.length > 0 || names.length === 0)
    throw new ParameterError(
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
 * then the page's limit when there is one).
 */
function publicSql(query: PublicFeedQuery, limit?: number): { text: string; values: unknown[] } {
  const values: unknown[] = [query.after]
  const conditions = ['c.seq > $1']
  if (query.kinds) conditions.push(`c.resource = ANY($${values.push(query.kinds)}::text[])`)
  if (query.organizationId) conditions.push(`c.organization_id = $${values.push(query.organizationId)}::uuid`)
  if (query.since) conditions.push(`c.changed_at >= $${values.push(query.since)}::timestamptz`)
  const record = query.withRecords
    ? `, d.body FROM public_changes c
       LEFT JOIN detail_documents d ON c.change <> 'withdrawn' AND d.resource = c.resource AND d.id = c.id`
    : ', NULL AS body FROM public_changes c'
  const limited = limit === undefined ? '' : ` LIMIT $${values.push(limit)}`
  return {
    text: `SELECT c.seq::text, c.resource, c.id, c.organization_id, c.change, ${CHANGED_AT} AS changed_at${record}
      WHERE ${conditions.join(' AND ')} ORDER BY c.seq${limited}`,
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
export function publicEntry(row: PublicRow, withRecords: boolean): string {
  const record = withRecords && row.change !== 'withdrawn' ? `,"record":${row.body ?? 'null'}` : ''
  return (
    `{"cursor":"${encodeCursor(row.seq)}","kind":"${row.resource}","id":"${row.id}",` +
    `"organization_uuid":"${row.organization_id}","change":"${row.change}","changed_at":"${row.changed_at}"${record}}`
  )
}

/** A page of the public feed: at most perPage entries after the cursor, in the log's order. */
export async function publicFeedPage(pool: Pool, query: PublicFeedQuery, perPage: number): Promise<FeedPage> {
  const { text, values } = publicSql(query, perPage + 1)
  const { rows } = await pool.query<PublicRow>(prepared(text, values))
  return page(rows.slice(0, perPage), rows.length > perPage, query.after, (row) =>
    publicEntry(row, query.withRecords),
  )
}

/** The public feed after the cursor, whole, for a stream: its statement and how each row is served. */
export function publicFeedLines(query: PublicFeedQuery) {
  const { text, values } = publicSql(query)
  return { text, values, line: (row: PublicRow) => `${publicEntry(row, query.withRecords)}\n` }
}

function page<R extends { seq: string }>(
  rows: R[],
  hasMore: boolean,
  after: number,
  entry: (row: R) => string,
): FeedPage {
  const last = rows.at(-1)
  return {
    entries: `[${rows.map(entry).join(',')}]`,
    count: rows.length,
    nextCursor: encodeCursor(last ? last.seq : after),
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

/**
 * A page of an organ's orders feed: at most perPage entries after the cursor, each created or updated one
 * with its order as the order query serves it now.
 */
export async function orderFeedPage(
  pool: Pool,
  organizationId: string,
  after: number,
  perPage: number,
): Promise<FeedPage> {
  const { rows } = await pool.query<OrderRow>(
    prepared(
      `SELECT c.seq::text, c.number, c.change, ${CHANGED_AT} AS changed_at, o.body FROM order_changes c
       LEFT JOIN order_documents o ON c.change <> 'withdrawn' AND o.organization_id = c.organization_id AND o.number = c.number
       WHERE c.organization_id = $1 AND c.seq > $2 ORDER BY c.seq LIMIT $3`,
      [organizationId, after, perPage + 1],
    ),
  )
  return page(rows.slice(0, perPage), rows.length > perPage, after, (row) => {
    const order = row.change !== 'withdrawn' ? `,"order":${row.body ?? 'null'}` : ''
    return (
      `{"cursor":"${encodeCursor(row.seq)}","number":${JSON.stringify(row.number)},"change":"${row.change}",` +
      `"changed_at":"${row.changed_at}"${order}}`
    )
  })
}
