import type { Pool } from '../db/pool.js'
import type { RecordType } from '../domain.js'
import { RECORD_KINDS, type RecordKind } from '../resources/index.js'
import { from, inRecord, jsonFields } from '../resources/json.js'
import { object } from '../resources/sql.js'

// The inverse of the import: every stored record in the import format, so that data can be moved
// between instances (`compras dump`) and the import's round trip can be checked. Each record's JSON is
// built from its kind's definition (src/resources), field by field, as the import takes it.

/** For a record kind and one of its types: (key, record) of the rows after a key, in key order. */
function query(kind: RecordKind, type: RecordType, scoped = false): string {
  const a = kind.alias
  const names = Object.keys(kind.fields).filter((name) => inRecord(kind.fields[name]))
  const typeColumn = kind.placement.typeColumn
  // Rows are paged by their table's id: a bigint for orders, the record's uuid for every other kind.
  const key = `${a}.id`
  const cast = kind.placement.group === 'order' ? 'bigint' : 'uuid'
  return `
    SELECT ${key}::text AS key, ${object([['type', `'${type}'`], ...jsonFields(kind, names, a, 'record')])} AS record
    FROM ${from(kind, a)}
    WHERE ${typeColumn ? `${a}.${typeColumn} = '${type}' AND ` : ''}($1::text IS NULL OR ${key} > $1::${cast})
      ${scoped ? `AND ${a}.organization_id = $3::uuid` : ''}
    ORDER BY ${key} LIMIT $2`
}

/**
 * Fields a record may leave out: a dump leaves them out where they are null (or, owned children, none), as the
 * records it came from did.
 */
const OPTIONAL: ReadonlySet<string> = new Set(
  RECORD_KINDS.flatMap((kind) =>
    Object.entries(kind.fields)
      .filter(([, f]) => f.optional === true)
      .map(([name]) => name),
  ),
)

const empty = (value: unknown) => value === null || (Array.isArray(value) && value.length === 0)

function withoutEmptyOptional(record: Record<string, unknown>): Record<string, unknown> {
  for (const name of OPTIONAL) if (empty(record[name])) delete record[name]
  return record
}

/** Dependency order, so that the output imports as it is. */
const QUERIES: readonly string[] = RECORD_KINDS.flatMap((kind) => kind.types.map((type) => query(kind, type)))

/** Every stored record in the import format, in batches by key; memory stays flat. */
export async function* dumpRecords(pool: Pool, batch = 1000): AsyncGenerator<Record<string, unknown>> {
  for (const sql of QUERIES) {
    let after: string | null = null
    for (;;) {
      const result: { rows: { key: string; record: Record<string, unknown> }[] } = await pool.query(sql, [
        after,
        batch,
      ])
      const rows = result.rows
      for (const row of rows) yield withoutEmptyOptional(row.record)
      if (rows.length < batch) break
      after = (rows[rows.length - 1] as { key: string }).key
    }
  }
}

/** Up to `limit` stored records of one type in one organization, in the import format, in key order. */
export async function recordsOf(
  pool: Pool,
  type: Exclude<RecordType, 'organization'>,
  organizationId: string,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const kind = RECORD_KINDS.find((k) => k.types.includes(type)) as RecordKind
  const { rows } = await pool.query<{ record: Record<string, unknown> }>(query(kind, type, true), [
    null,
    limit,
    organizationId,
  ])
  return rows.map((row) => withoutEmptyOptional(row.record))
}
