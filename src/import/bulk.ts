import type { PoolClient } from '../db/pool.js'

// A first load (no records stored yet) writes millions of rows whose references the import has already
// checked in its staging tables (src/import/stage.ts) and whose ids come from joins to rows just written.
// PostgreSQL's foreign keys would check them again one row at a time, in triggers: on the benchmark's
// dataset, half of the writing. Such a load turns those triggers off for its transaction, as pg_restore's
// --disable-triggers does, and checks every foreign key of the tables it wrote once, set-based, before
// it commits: the same guarantee, at the cost of one anti-join per key.

/**
 * Turns off trigger-based checks (foreign keys) until the transaction ends, where the database user may
 * (a superuser, or one granted SET on session_replication_role). Returns whether it did.
 */
export async function deferReferenceChecks(client: PoolClient): Promise<boolean> {
  await client.query('SAVEPOINT defer_references')
  try {
    await client.query('SET LOCAL session_replication_role = replica')
    await client.query('RELEASE SAVEPOINT defer_references')
    return true
  } catch {
    // Not allowed: the row-by-row checks stay on, and the load is only slower.
    await client.query('ROLLBACK TO SAVEPOINT defer_references')
    await client.query('RELEASE SAVEPOINT defer_references')
    return false
  }
}

interface ForeignKey {
  name: string
  child: string
  parent: string
  columns: string[]
  targets: string[]
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

/** The row-by-row checks back on, and every foreign key of `tables` checked at once; throws on a broken one. */
export async function checkReferences(client: PoolClient, tables: readonly string[]): Promise<void> {
  await client.query('SET LOCAL session_replication_role = origin')
  const { rows } = await client.query<ForeignKey>(
    `SELECT c.conname AS name, c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
       array(SELECT attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
             JOIN pg_attribute ON attrelid = c.conrelid AND attnum = k.n ORDER BY k.i) AS columns,
       array(SELECT attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, i)
             JOIN pg_attribute ON attrelid = c.confrelid AND attnum = k.n ORDER BY k.i) AS targets
     FROM pg_constraint c
     WHERE c.contype = 'f' AND c.conrelid = ANY($1::regclass[])
     ORDER BY 2, 1`,
    [tables],
  )
  for (const key of rows) {
    // MATCH SIMPLE, PostgreSQL's default: a row with a null in the key points to nothing and is not checked.
    const present = key.columns.map((column) => `c.${quote(column)} IS NOT NULL`).join(' AND ')
    const match = key.columns
      .map((column, i) => `p.${quote(key.targets[i] as string)} = c.${quote(column)}`)
      .join(' AND ')
    const { rows: broken } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${key.child} c
       WHERE ${present} AND NOT EXISTS (SELECT 1 FROM ${key.parent} p WHERE ${match})`,
    )
    const n = broken[0]?.n ?? 0
    if (n > 0) throw new Error(`the load would leave ${n} rows of ${key.child} breaking ${key.name}`)
  }
}
