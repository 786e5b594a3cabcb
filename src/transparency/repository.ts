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
  const { rowCount } = await pool.query('SELECT 1 FROM organizations WHERE id = $1', [id])
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

/** A page of a listing and the total count of its filter. */
export async function list(pool: Pool, resource: Resource, query: ListQuery): Promise<ListResult> {
  const { where, orderBy, values } = listingSql(resource, query)
  const fields = [
    ...resource.item,
    // In the resource's own order (the detail's), whatever order with_relations named them in.
    ...Object.entries(resource.relations).filter(([name]) => query.relations.includes(name)),
  ]
  const [count, page] = await Promise.all([
    pool.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM ${resource.from} WHERE ${where}`,
      values,
    ),
    pool.query<{ row: Json }>(
      `SELECT ${object(fields)} AS row FROM ${resource.from} WHERE ${where} ORDER BY ${orderBy}
       LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
      [...values, query.perPage, (query.page - 1) * query.perPage],
    ),
  ])
  return { total: count.rows[0]?.total ?? 0, rows: page.rows.map((r) => r.row) }
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
