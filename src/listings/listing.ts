import { type Pool, prepared } from '../db/pool.js'
import { ParameterError } from '../errors.js'
import type { JsonObject } from '../json.js'
import type { Cursors, ListCursor } from '../queries/cursors.js'
import { checkOrganization } from '../queries/organization.js'
import { DEFAULT_PER_PAGE, parseRelations, sortOf, type ValidQuery } from '../queries/parameters.js'
import { fieldSorts, sortBy } from '../queries/sorts.js'
import { CACHE_KEYS } from '../readmodel/cache-keys.js'
import { type ChoiceList, type FilterValues, filterSql, filterValues } from '../resources/filters.js'
import { listingItemFields, type PublicResource } from '../resources/index.js'
import { from, jsonObject } from '../resources/json.js'

// A page of a listing, as the API serves it: the page's rows built as JSON by PostgreSQL, the total of
// the filter, and the page envelope. No HTTP here: the API, the portal and OCDS read pages through it.

/** Where a listing keeps its counts between requests: the read path's cache, dropped on every import. */
export interface CountCache {
  /** The value kept under key, if any. */
  cached(key: string): unknown
  /** What keeps a value about to be read under key: it is dropped if an import comes in meanwhile. */
  keeper(key: string): (value: string) => void
}

export interface ListQuery {
  page: number
  perPage: number
  /** Read after this row (keyset), not at page's offset: pages hold still while imports add and change records. */
  after?: ListCursor
  /** Filter name → value, names already checked against resource.filters. */
  filters: FilterValues
  /** A name of resource.sorts, `-` first for descending. */
  sort: string
  /** Names of resource.offered. */
  relations: readonly string[]
}

/**
 * What a listing is asked, from its validated parameters: the one parser of a list query, for the API's
 * listings, the portal's, and the export (which takes its filters and sort). ParameterError for a sort the
 * resource does not have.
 */
export function listQuery(resource: PublicResource, query: ValidQuery): ListQuery {
  return {
    page: (query.page as number | undefined) ?? 1,
    perPage: (query.per_page as number | undefined) ?? DEFAULT_PER_PAGE,
    // In this order, which is the order a query's problems are reported in.
    relations: parseRelations(resource, query.with_relations as string | undefined),
    filters: filterValues(resource.filters, query),
    sort: sortOf(resource, query.sort),
  }
}

/** A page as PostgreSQL wrote it: the items as one compact JSON array, served as they are. */
export interface ListText {
  total: number
  /** Items on the page. */
  count: number
  /** The items, a JSON array in the served shape. */
  rows: string
  /** The page's last row: its sort key as text (null when empty) and id; undefined for an empty page. */
  last: { key: string | null; id: string } | undefined
}

export interface ListResult {
  total: number
  rows: JsonObject[]
}

/** A page's statement, without the filter's count and with it (the first time a filter is seen). */
interface PageStatements {
  page: string
  withTotal: string
}

/** A listing's SQL text, as listingSql gives it without the values. */
interface ListingText {
  /** The record's table with every join its fields read through: for selecting its fields. */
  from: string
  /** The table with only the joins the filter and the order read: for ids and counts (see joins). */
  rowsFrom: string
  where: string
  orderBy: string
  sortKey: string
  /** The sort key's SQL type, for a cursor's key; and whether it can be null. */
  sortType: string
  sortNullable: boolean
  direction: 'ASC' | 'DESC'
  /** The filter's count statement. */
  count: string
  /** The page's statements by the relations asked (as parseRelations orders them), made when first asked. */
  pages: Map<string, PageStatements>
}

/**
 * Listings' SQL texts by resource, filters' names and sort, made once each: a listing's text depends on
 * nothing else. At most LISTING_TEXTS are kept (the filters' names come in declared order, so there are as many
 * as combinations of filters and sorts, not orders of parameters); past it the map starts again.
 */
const listingTexts = new Map<string, ListingText>()
const LISTING_TEXTS = 1000

function listingText(
  resource: PublicResource,
  filters: { names: readonly string[]; conditions: readonly string[] },
  sort: string,
): ListingText {
  const key = `${resource.path}\u0000${filters.names.join(',')}\u0000${sort}`
  let text = listingTexts.get(key)
  if (text !== undefined) return text
  const a = resource.record.alias
  const conditions = [resource.where(a), ...filters.conditions]
  const order = sortBy(fieldSorts(resource.record.fields, resource.sorts), sort, a)
  const { key: sortKey, direction } = order
  const where = conditions.join(' AND ')
  const orderBy = `${sortKey} ${direction} NULLS LAST, ${a}.id ${direction}`
  const rowsFrom = from(resource.record, a, `${where} ${orderBy}`)
  const count = `SELECT count(*)::int FROM ${rowsFrom} WHERE ${where}`
  text = {
    from: from(resource.record, a),
    rowsFrom,
    where,
    orderBy,
    sortKey,
    sortType: order.type,
    sortNullable: order.nullable,
    direction,
    count,
    pages: new Map(),
  }
  if (listingTexts.size >= LISTING_TEXTS) listingTexts.clear()
  listingTexts.set(key, text)
  return text
}

/**
 * The WHERE and ORDER BY of a listing, with its parameter values (the filters in their declared order).
 * Values never enter the SQL text.
 */
export function listingSql(
  resource: PublicResource,
  query: Pick<ListQuery, 'filters' | 'sort'>,
): ListingText & { values: unknown[] } {
  const filters = filterSql(resource.filters, query.filters, resource.record.alias)
  return { ...listingText(resource, filters, query.sort), values: filters.values }
}

/** How a page is placed: by its offset, or after a cursor's row (whose key is a value, or null). */
type Placement = 'offset' | 'after' | 'after null'

/**
 * The rows after a cursor's row, in the listing's order (its key, NULLS LAST, then the id): `$k` is the
 * cursor's key (absent for a null key) and `$i` its id.
 */
function keyset(text: ListingText, a: string, placement: Placement, k: string, i: string): string {
  const { sortKey, sortType, sortNullable, direction } = text
  const past = direction === 'DESC' ? '<' : '>'
  if (placement === 'after null') return `${sortKey} IS NULL AND ${a}.id ${past} ${i}::uuid`
  // As a row comparison, an index on the key and id can start at the cursor.
  const after = `(${sortKey}, ${a}.id) ${past} (${k}::${sortType}, ${i}::uuid)`
  return sortNullable ? `(${after} OR ${sortKey} IS NULL)` : after
}

/**
 * A page's statements for a listing's text, the relations asked and how it is placed, kept in the text: at
 * most one for each set of the resource's offered relations (parseRelations gives each set in one order, the
 * resource's) and placement.
 */
function pageStatements(
  resource: PublicResource,
  text: ListingText,
  filters: number,
  relations: readonly string[],
  placement: Placement,
): PageStatements {
  // Stryker disable next-line StringLiteral: no relation's name ends as a placement begins
  const key = `${relations.join(',')}\u0000${placement}`
  let made = text.pages.get(key)
  // Stryker disable next-line ConditionalExpression: made again, the same statements
  if (made !== undefined) return made
  const { from: source, rowsFrom, where, orderBy, sortKey, direction } = text
  const a = resource.record.alias
  const limit = `$${filters + 1}`
  const placed =
    placement === 'offset'
      ? { where, limits: `LIMIT ${limit} OFFSET $${filters + 2}` }
      : {
          where: `${where} AND ${keyset(text, a, placement, `$${filters + 2}`, `$${filters + (placement === 'after' ? 3 : 2)}`)}`,
          limits: `LIMIT ${limit}`,
        }
  // Stryker disable next-line StringLiteral: an order without a direction is ascending
  const reverse = direction === 'DESC' ? 'ASC' : 'DESC'
  // The page's last row, where the next page starts.
  const last = `(SELECT json_build_array(l.sort_key::text, l.id) FROM page l
      ORDER BY l.sort_key ${reverse} NULLS FIRST, l.id ${reverse} LIMIT 1)::text AS last`
  let page: string
  if (relations.length === 0) {
    // The items as the read model keeps them (src/readmodel/build.ts), joined to the page's ids and
    // written as one array, in the page's order: as array_to_json would write the items built here.
    page = `WITH page AS MATERIALIZED (
        SELECT ${a}.id, ${sortKey} AS sort_key FROM ${rowsFrom} WHERE ${placed.where} ORDER BY ${orderBy} ${placed.limits})
      SELECT count(*)::int AS count,
        '[' || coalesce(string_agg(d.item, ',' ORDER BY p.sort_key ${direction} NULLS LAST, p.id ${direction}), '') || ']' AS rows,
        ${last}
      FROM page p JOIN detail_documents d ON d.resource = '${resource.path}' AND d.id = p.id`
  } else {
    const row = jsonObject(resource.record, listingItemFields(resource, relations), a, 'served')
    page = `WITH page AS MATERIALIZED (
        SELECT ${a}.id, ${sortKey} AS sort_key FROM ${rowsFrom} WHERE ${placed.where} ORDER BY ${orderBy} ${placed.limits})
      SELECT count(*)::int AS count, coalesce(array_to_json(array_agg(${row} ORDER BY ${orderBy})), '[]')::text AS rows,
        ${last}
      FROM ${source} WHERE ${a}.id IN (SELECT id FROM page)`
  }
  made = { page, withTotal: `SELECT p.*, (${text.count}) AS total FROM (${page}) p` }
  text.pages.set(key, made)
  return made
}

/**
 * A page of a listing and the total count of its filter, in one round trip to PostgreSQL: the page's ids
 * come first, off the order's index, and only those rows' items are read (as the read model keeps them) or,
 * with relations, built into JSON, as one array PostgreSQL writes and the API serves as it is (never parsed
 * and written again here). The total is kept through `counts` until the next import; while it is not
 * kept, the same statement counts too.
 */
export async function listText(
  pool: Pool,
  resource: PublicResource,
  query: ListQuery,
  counts: CountCache,
): Promise<ListText> {
  const text = listingSql(resource, query)
  const { values } = text
  const countKey = CACHE_KEYS.count(text.count, JSON.stringify(values))
  const kept = counts.cached(countKey)
  const keep = kept === undefined ? counts.keeper(countKey) : undefined
  const { after } = query
  const placement: Placement = after === undefined ? 'offset' : after.key === null ? 'after null' : 'after'
  const statements = pageStatements(resource, text, values.length, query.relations, placement)
  const sql = kept === undefined ? statements.withTotal : statements.page
  const placing =
    after === undefined
      ? [(query.page - 1) * query.perPage]
      : after.key === null
        ? [after.id]
        : [after.key, after.id]
  const { rows } = await pool.query<{ count: number; rows: string; last: string | null; total?: number }>(
    prepared(sql, [...values, query.perPage, ...placing]),
  )
  // Stryker disable next-line OptionalChaining: an aggregate always answers one row
  const page = rows[0] ?? { count: 0, rows: '[]', last: null }
  const lastRow = page.last === null ? undefined : (JSON.parse(page.last) as [string | null, string])
  const last = lastRow && { key: lastRow[0], id: lastRow[1] }
  if (keep === undefined) return { total: Number(kept), count: page.count, rows: page.rows, last }
  const total = page.total ?? 0
  keep(String(total))
  return { total, count: page.count, rows: page.rows, last }
}

/** A page of a listing as values (the portal renders its items), as listText reads it. */
export async function list(
  pool: Pool,
  resource: PublicResource,
  query: ListQuery,
  counts: CountCache,
): Promise<ListResult> {
  const page = await listText(pool, resource, query, counts)
  return { total: page.total, rows: JSON.parse(page.rows) as JsonObject[] }
}

/**
 * A listing page's data (the items and where they stand), as JSON text, from a validated query: page or cursor (not both),
 * per_page, the resource's filters, sort and with_relations. An organization filter that names none is
 * NotFoundError; a cursor not made by `cursors` for this sort, a ParameterError.
 */
export async function listingData(
  pool: Pool,
  counts: CountCache,
  cursors: Cursors,
  resource: PublicResource,
  query: Readonly<Record<string, unknown>>,
): Promise<string> {
  const { perPage, relations, filters, sort } = listQuery(resource, query)
  await cursors.ready()
  if (query.cursor !== undefined && query.page !== undefined)
    throw new ParameterError('cursor', 'Parâmetros em conflito: page e cursor. Use um ou outro.')
  const after = query.cursor === undefined ? undefined : cursors.readListing(query.cursor as string, sort)
  const page = after?.page ?? (query.page as number | undefined) ?? 1
  const result = await listText(
    pool,
    resource,
    { page, perPage, filters, sort, relations, after },
    counts,
  ).catch((error: { code?: unknown }) => {
    // A cursor's key that is not a value of its sort's type (a data exception): a cursor this service did not give.
    if (after !== undefined && String(error.code ?? '').startsWith('22')) throw cursors.refused()
    throw error
  })
  // Rows of the organization prove it exists; only an empty answer needs the check (404, not an empty page).
  // Stryker disable next-line ConditionalExpression: checking on a page with rows finds the organization too
  await checkOrganization(pool, filters.organization_uuid as string | undefined, result.total > 0)
  const offset = (page - 1) * perPage
  // A next page by cursor: after this page's last row, when rows follow it (by the count, or a full page).
  const more = after === undefined ? offset + result.count < result.total : result.count === perPage
  const next = more && result.last ? cursors.listing({ sort, ...result.last, page: page + 1 }) : null
  // As JSON.stringify would write it, around the items as PostgreSQL wrote them.
  const rest = JSON.stringify({
    current_page: page,
    per_page: perPage,
    total: result.total,
    last_page: Math.max(1, Math.ceil(result.total / perPage)),
    from: result.count > 0 ? offset + 1 : null,
    to: result.count > 0 ? offset + result.count : null,
    next_cursor: next,
  })
  return `{"data":${result.rows},${rest.slice(1)}`
}

export interface LookupRow {
  id: number
  name: string
}

/** The closed lists' tables, by their helper's path. */
export const LOOKUPS = {
  'bidding-modalities': 'bidding_modalities',
  'bidding-statuses': 'bidding_statuses',
  'management-statuses': 'management_statuses',
} as const satisfies Record<ChoiceList, string>

/** The ids and names of a closed vocabulary, as the filters take them. */
export async function lookup(pool: Pool, table: (typeof LOOKUPS)[ChoiceList]): Promise<LookupRow[]> {
  const { rows } = await pool.query<LookupRow>(`SELECT id, name FROM ${table} ORDER BY id`)
  return rows
}
