import { createHash } from 'node:crypto'
import { DATA_CHANNEL } from '../channel.js'
import { IMPORT_LOCK, SYNC_LOCK } from '../db/locks.js'
import { inTransaction, type Pool, type PoolClient } from '../db/pool.js'
import {
  completeRecords,
  eraseWithdrawnReleases,
  RELEASES_VERSION,
  rebuildReleases,
} from '../ocds/releases.js'
import { listingItemFields, ORDER_DOCUMENT, Order, PUBLIC_RESOURCES } from '../resources/index.js'
import { from, jsonObject } from '../resources/json.js'
import { captureSql, PREPARE_LOG, writeLog } from './log.js'
import { completeHistories } from './versions.js'
import { eraseWithdrawn } from './withdrawals.js'

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

interface DocumentKind {
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

const remove = (kind: DocumentKind, scope: RebuildScope) =>
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

const KINDS: readonly DocumentKind[] = [
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
export const DOCUMENT_VERSIONS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    KINDS.map((k) => [k.kind, createHash('sha256').update(k.insert('all')).digest('hex').slice(0, 16)]),
  ),
  ocds: RELEASES_VERSION,
}

/**
 * Rebuilds the documents in scope; run inside the transaction that wrote the data (an import), which it
 * records in the change log (src/readmodel/log.ts): `first` when nothing was stored before. Returns how many
 * documents it built.
 */
export async function rebuildDocuments(
  client: PoolClient,
  scope: RebuildScope,
  first = false,
): Promise<number> {
  let built = 0
  for (const statement of PREPARE_LOG) await client.query(statement)
  for (const kind of KINDS) {
    await client.query(first ? remove(kind, scope) : captureSql(kind.table, kind.where(scope)))
    built += (await client.query(kind.insert(scope))).rowCount ?? 0
  }
  const ofTable = (table: DocumentKind['table']) => KINDS.filter((k) => k.table === table)
  const inScope = (table: DocumentKind['table']) =>
    ofTable(table)
      .map((k) => `(${k.where(scope)})`)
      .join(' OR ')
  const touched = (table: DocumentKind['table']) =>
    scope === 'touched'
      ? ofTable(table)
          .map((k) => k.touched)
          .join(' UNION ')
      : undefined
  await writeLog(
    client,
    { details: inScope('detail_documents'), orders: inScope('order_documents') },
    { details: touched('detail_documents'), orders: touched('order_documents') },
    first,
  )
  if (!first) await eraseWithdrawn(client)
  built += await rebuildReleases(client, scope)
  if (!first) await eraseWithdrawnReleases(client)
  await markChanged(client)
  return built
}

/** Bumps the data version and tells every instance (at commit) to drop what it cached. */
export async function markChanged(client: PoolClient): Promise<void> {
  await client.query('UPDATE data_version SET version = version + 1')
  await client.query(`SELECT pg_notify('${DATA_CHANNEL}', '')`)
}

const RELEASES_MISSING = `SELECT (EXISTS (SELECT 1 FROM biddings) OR EXISTS (SELECT 1 FROM contracts)
  OR EXISTS (SELECT 1 FROM arps)) AND NOT EXISTS (SELECT 1 FROM ocds_releases) AS missing`

/**
 * Rebuilds every kind of document whose stored version is not this code's (after an upgrade, or on a
 * database whose documents were never versioned), or whose records have no documents at all, each kind
 * in a transaction of its own. Run by `migrate`, `serve` and `import` after the migrations. Returns the
 * kinds it rebuilt.
 */
export async function syncReadModel(
  pool: Pool,
  versions: Readonly<Record<string, string>> = DOCUMENT_VERSIONS,
): Promise<string[]> {
  const client = await pool.connect()
  const rebuilt: string[] = []
  try {
    await client.query('SELECT pg_advisory_lock($1)', [SYNC_LOCK])
    const { rows } = await client.query<{ kind: string; version: string }>(
      'SELECT kind, version FROM read_model_versions',
    )
    const stored = new Map(rows.map((row) => [row.kind, row.version]))
    for (const kind of KINDS) {
      const version = versions[kind.kind] as string
      if (stored.get(kind.kind) === version) {
        const { rows: check } = await client.query<{ missing: boolean }>(kind.missing)
        if (!check[0]?.missing) continue
      }
      await inTransaction(client, async () => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK])
        await client.query(remove(kind, 'all'))
        await client.query(kind.insert('all'))
        await client.query(
          `INSERT INTO read_model_versions (kind, version) VALUES ($1, $2)
             ON CONFLICT (kind) DO UPDATE SET version = excluded.version`,
          [kind.kind, version],
        )
        await markChanged(client)
      })
      rebuilt.push(kind.kind)
    }
    // Histories written before their differences were kept get them, and their checkpoints, once.
    const { rows: incomplete } = await client.query<{ found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM public_changes WHERE change = 'updated' AND in_history AND changes IS NULL)
         AS found`,
    )
    const { rows: records } = await client.query<{ found: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM ocds_releases WHERE version > 1 AND compiled IS NULL) AS found',
    )
    if (incomplete[0]?.found || records[0]?.found) {
      await inTransaction(client, async () => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK])
        await completeHistories(client)
        await completeRecords(client)
        await markChanged(client)
      })
      rebuilt.push('history')
    }
    // The OCDS releases (src/ocds): read from the tables and mapped in JavaScript, versioned alike.
    const { rows: check } = await client.query<{ missing: boolean }>(RELEASES_MISSING)
    const releasesVersion = versions.ocds as string
    if (stored.get('ocds') !== releasesVersion || check[0]?.missing) {
      await inTransaction(client, async () => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK])
        await rebuildReleases(client, 'all')
        await client.query(
          `INSERT INTO read_model_versions (kind, version) VALUES ('ocds', $1)
             ON CONFLICT (kind) DO UPDATE SET version = excluded.version`,
          [releasesVersion],
        )
        await markChanged(client)
      })
      rebuilt.push('ocds')
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [SYNC_LOCK]).catch(() => {})
    client.release()
  }
  return rebuilt
}
