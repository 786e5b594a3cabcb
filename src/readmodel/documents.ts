import { createHash } from 'node:crypto'
import type { PoolClient } from '../db/pool.js'
import { listingItemFields, ORDER_DOCUMENT, Order, PUBLIC_RESOURCES } from '../resources/index.js'
import { from, jsonObject } from '../resources/json.js'

// The read model (migrations/0004_read_model.sql): each order (spec 2.2) and each transparency detail
// (2.7-2.9) as the JSON text PostgreSQL builds for it, in the served field order, from the resources'
// definitions (src/resources), and beside each detail its listing item without relations (listings join
// their pages' ids to these). Each kind of document carries the version of the SQL that built it.

/**
 * Which documents to build: all of them, or those an import listed in the temporary tables
 * `touched_orders (organization_id, number)` and `touched_records (tbl, id)` (src/import/touched.ts), in
 * the same transaction. A listed record that no longer exists (withdrawn) loses its document.
 */
export type RebuildScope = 'all' | 'touched'

export interface DocumentKind {
  /** The kind's name in read_model_versions: `order`, or the path of a public resource. */
  kind: string
  table: 'order_documents' | 'detail_documents'
  /** True when records exist but none has a document (tables dropped or emptied by hand). */
  missing: string
  /** The kind's documents in scope, a condition on its table (alias d, or o for orders). */
  where(scope: RebuildScope): string
  /**
   * The keys of the documents an import touched, as a query (resource and id, or organization_id and
   * number): what the change log compares, read by key rather than by scanning the table for `where`.
   */
  touched: string
  /** Builds the kind's documents in scope. */
  insert(scope: RebuildScope): string
}

export const remove = (kind: DocumentKind, scope: RebuildScope) =>
  `DELETE FROM ${kind.table} ${kind.table === 'order_documents' ? 'o' : 'd'} WHERE ${kind.where(scope)}`

/** An order document in scope, by its organization and number columns. */
const orderInScope = (scope: RebuildScope, organization: string, number: string) =>
  scope === 'all'
    ? 'true'
    : `(${organization}, ${number}) IN (SELECT organization_id, number FROM touched_orders)`

/** A detail document in scope, by its record's table and id column. */
const recordInScope = (scope: RebuildScope, table: string, id: string) =>
  scope === 'all' ? 'true' : `${id} IN (SELECT id FROM touched_records WHERE tbl = '${table}')`

const ORDER_BODY = `${jsonObject(Order, ORDER_DOCUMENT, 'o', 'served')}::text`

export const DOCUMENT_KINDS: readonly DocumentKind[] = [
  {
    kind: 'order',
    table: 'order_documents',
    missing: 'SELECT EXISTS (SELECT 1 FROM orders) AND NOT EXISTS (SELECT 1 FROM order_documents) AS missing',
    where: (scope) => orderInScope(scope, 'o.organization_id', 'o.number'),
    touched: 'SELECT organization_id, number FROM touched_orders',
    insert: (scope) => `INSERT INTO order_documents (organization_id, number, body)
      SELECT o.organization_id, o.number, ${ORDER_BODY} FROM ${from(Order, 'o')}
      WHERE ${orderInScope(scope, 'o.organization_id', 'o.number')}`,
  },
  ...PUBLIC_RESOURCES.map((resource): DocumentKind => {
    const { record } = resource
    const a = record.alias
    const body = `${jsonObject(record, resource.detail, a, 'served')}::text`
    const item = `${jsonObject(record, listingItemFields(resource), a, 'served')}::text`
    return {
      kind: resource.path,
      table: 'detail_documents',
      missing: `SELECT EXISTS (SELECT 1 FROM ${record.table} ${a} WHERE ${resource.where(a)})
        AND NOT EXISTS (SELECT 1 FROM detail_documents WHERE resource = '${resource.path}') AS missing`,
      where: (scope) => `d.resource = '${resource.path}' AND ${recordInScope(scope, record.table, 'd.id')}`,
      touched: `SELECT '${resource.path}'::text AS resource, id FROM touched_records WHERE tbl = '${record.table}'`,
      insert: (scope) => `INSERT INTO detail_documents (resource, id, organization_id, body, item)
        SELECT '${resource.path}', ${a}.id, ${a}.organization_id, ${body}, ${item} FROM ${from(record, a)}
        WHERE ${resource.where(a)} AND ${recordInScope(scope, record.table, `${a}.id`)}`,
    }
  }),
]

/** The version of each kind of document: a hash of the SQL that builds it, so any change to it shows. */
export const KIND_VERSIONS: Readonly<Record<string, string>> = Object.fromEntries(
  DOCUMENT_KINDS.map((k) => [
    k.kind,
    createHash('sha256').update(k.insert('all')).digest('hex').slice(0, 16),
  ]),
)

/**
 * Where the rebuild keeps the documents it replaces, until the transaction ends: what the change log
 * (src/readmodel/log.ts) compares the new ones with.
 */
export const PREVIOUS_DETAILS = 'previous_details'
export const PREVIOUS_ORDERS = 'previous_orders'

/** The statement that deletes a kind's documents in scope and keeps them aside. */
function captureSql(kind: DocumentKind, scope: RebuildScope): string {
  const where = kind.where(scope)
  return kind.table === 'order_documents'
    ? `WITH gone AS (DELETE FROM order_documents o WHERE ${where} RETURNING organization_id, number, body)
       INSERT INTO ${PREVIOUS_ORDERS} SELECT organization_id, number, body FROM gone`
    : `WITH gone AS (DELETE FROM detail_documents d WHERE ${where} RETURNING resource, id, organization_id, body)
       INSERT INTO ${PREVIOUS_DETAILS} SELECT resource, id, organization_id, body FROM gone`
}

/**
 * Builds the documents in scope, keeping the ones it replaces aside (none on a first import, whose log
 * takes every record as created). Returns how many it built.
 */
export async function projectDocuments(
  client: PoolClient,
  scope: RebuildScope,
  first: boolean,
): Promise<number> {
  await client.query(
    `CREATE TEMP TABLE ${PREVIOUS_DETAILS} (resource text, id uuid, organization_id uuid, body text) ON COMMIT DROP`,
  )
  await client.query(
    `CREATE TEMP TABLE ${PREVIOUS_ORDERS} (organization_id uuid, number text, body text) ON COMMIT DROP`,
  )
  let built = 0
  for (const kind of DOCUMENT_KINDS) {
    await client.query(first ? remove(kind, scope) : captureSql(kind, scope))
    built += (await client.query(kind.insert(scope))).rowCount ?? 0
  }
  return built
}
