import assert from 'node:assert/strict'
import type { Pool } from '../../src/db/pool.js'
import { rebuildDocuments } from '../../src/readmodel/build.js'

/** A detail's document is its body and its listing item, compared together. */
const DOCUMENTS = `SELECT 'order ' || organization_id || ' ' || number AS key, body FROM order_documents
  UNION ALL SELECT resource || ' ' || id, body || E'\\n' || coalesce(item, 'no item') FROM detail_documents`

/** Every stored document, by key: `order ORG NUMBER` and `RESOURCE ID`. */
export async function documents(pool: Pool): Promise<Map<string, string>> {
  const { rows } = await pool.query<{ key: string; body: string }>(DOCUMENTS)
  return new Map(rows.map((row) => [row.key, row.body]))
}

/** The keys whose documents differ between two readings (added, removed or changed). */
export function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()])
  return [...keys].filter((key) => before.get(key) !== after.get(key)).sort()
}

/**
 * Fails unless the stored documents, OCDS releases and price rows are exactly what a full rebuild builds now (none
 * stale, none missing).
 */
export async function assertFresh(pool: Pool): Promise<void> {
  const stored = await documents(pool)
  const releases =
    'SELECT process_id, process_kind, organization_id, hash FROM ocds_releases ORDER BY process_id'
  const storedReleases = (await pool.query(releases)).rows
  const prices =
    'SELECT p.*, d.description FROM price_items p JOIN item_descriptions d ON d.id = p.description_id ORDER BY order_id, position'
  const storedPrices = (await pool.query(prices)).rows
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const logged = `SELECT (SELECT count(*) FROM public_changes) + (SELECT count(*) FROM order_changes) AS n`
    const entries = (await client.query(logged)).rows[0].n
    await rebuildDocuments(client, 'all')
    // Documents that are fresh are rebuilt as they were: the change log hears of no change.
    assert.equal((await client.query(logged)).rows[0].n, entries, 'a full rebuild logged changes')
    assert.deepEqual(
      (await client.query(releases)).rows,
      storedReleases,
      'OCDS releases that a full rebuild builds otherwise',
    )
    assert.deepEqual(
      (await client.query(prices)).rows,
      storedPrices,
      'price rows that a full rebuild writes otherwise',
    )
    const { rows } = await client.query<{ key: string; body: string }>(DOCUMENTS)
    const rebuilt = new Map(rows.map((row) => [row.key, row.body]))
    assert.deepEqual(changed(stored, rebuilt), [], 'documents that a full rebuild builds otherwise')
  } finally {
    await client.query('ROLLBACK')
    client.release()
  }
}
