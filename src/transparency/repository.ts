import { createHash } from 'node:crypto'
import type { Pool } from '../db/pool.js'
import type { Resource } from './resources.js'
import { object } from './sql.js'

export interface ListQuery {
  page: number
  perPage: number
  /** Filter name → value, names already checked against resource.filters. */
  filters: Readonly<Record<string, string | number>>
  /** A name of resource.sorts, `-` first for descending. */
  sort: string
  /** Names of resource.relations. */
  relations: readonly string[]
}

/** A resource as built by SQL, already in its served shape. */
export type Json = Record<string, unknown>

export interface ListResult {
  total: number
  rows: Json[]
}

export async function organizationExists(pool: Pool, id: string): Promise<boolean> {
  const { rowCount } = await pool.query({
    name: 'organization-exists',
    text: 'SELECT 1 FROM organizations WHERE id = $1',
    values: [id],
  })
  return rowCount === 1
}

/** The WHERE and ORDER BY of a listing, with its parameter values. Values never enter the SQL text. */
export function listingSql(resource: Resource, query: Pick<ListQuery, 'filters' | 'sort'>) {
  const values: unknown[] = []
  const conditions = [resource.where]
  for (const [name, value] of Object.entries(query.filters)) {
    const build = resource.filters[name]
    if (!build) throw new Error(`unknown filter ${name}`)
    values.push(value)
    conditions.push(build(`$${values.length}`))
  }
  const column = resource.sorts[query.sort.replace(/^-/, '')]
  if (!column) throw new Error(`unknown sort ${query.sort}`)
  const direction = query.sort.startsWith('-') ? 'DESC' : 'ASC'
  return {
    where: conditions.join(' AND '),
    orderBy: `${column} ${direction} NULLS LAST, ${resource.alias}.id ${direction}`,
    values,
  }
}

/** Where counts are kept between requests (the read path's cache, dropped on every import). */
export interface CountCache {
  through(key: string, build: () => Promise<string>): Promise<string>
}

const statementNames = new Map<string, string>()

/** Prepared per connection under a name of its text, so a listing's SQL is planned once, not per request. */
function prepared(text: string, values: unknown[]) {
  let name = statementNames.get(text)
  if (name === undefined) {
    name = `listing-${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`
    statementNames.set(text, name)
  }
  return { name, text, values }
}

/**
 * A page of a listing and the total count of its filter. The page's ids come first, off the order's index;
 * only those rows are built into JSON. Counts are cached: a filter's total holds until the next import.
 */
export async function list(
  pool: Pool,
  resource: Resource,
  query: ListQuery,
  counts: CountCache,
): Promise<ListResult> {
  const { where, orderBy, values } = listingSql(resource, query)
  const fields = [
    ...resource.item,
    // In the resource's own order (the detail's), whatever order with_relations named them in.
    ...Object.entries(resource.relations).filter(([name]) => query.relations.includes(name)),
  ]
  const countSql = `SELECT count(*)::int AS total FROM ${resource.from} WHERE ${where}`
  const alias = resource.alias
  const [total, page] = await Promise.all([
    counts.through(`c\u0000${countSql}\u0000${JSON.stringify(values)}`, async () => {
      const { rows } = await pool.query<{ total: number }>(prepared(countSql, values))
      return String(rows[0]?.total ?? 0)
    }),
    pool.query<{ row: Json }>(
      prepared(
        `WITH page AS MATERIALIZED (
           SELECT ${alias}.id FROM ${resource.from} WHERE ${where} ORDER BY ${orderBy}
           LIMIT $${values.length + 1} OFFSET $${values.length + 2})
         SELECT ${object(fields)} AS row FROM ${resource.from}
         WHERE ${alias}.id IN (SELECT id FROM page) ORDER BY ${orderBy}`,
        [...values, query.perPage, (query.page - 1) * query.perPage],
      ),
    ),
  ])
  return { total: Number(total), rows: page.rows.map((r) => r.row) }
}

export interface LookupRow {
  id: number
  name: string
}

export async function lookup(
  pool: Pool,
  table: 'bidding_modalities' | 'bidding_statuses' | 'management_statuses',
): Promise<LookupRow[]> {
  const { rows } = await pool.query<LookupRow>(`SELECT id, name FROM ${table} ORDER BY id`)
  return rows
}
