import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { PoolClient } from '../db/pool.js'
import { releaseBody } from './mapping.js'
import { type ProcessKind, type ProcessSource, sourceQuery } from './source.js'

// The stored releases (migrations/0009_ocds.sql): built in the transaction that wrote the data, like the
// other documents of the read model, for the processes an import touched or for all of them.

const KINDS: readonly ProcessKind[] = ['bidding', 'contract', 'arp']

/**
 * The version of the releases: a hash of the SQL that reads a process and of the mapping's own code, so
 * that an upgrade that changes either rebuilds them (syncReadModel).
 */
export const RELEASES_VERSION: string = (() => {
  const hash = createHash('sha256')
  for (const kind of KINDS) hash.update(sourceQuery(kind, () => 'true'))
  for (const file of ['./mapping.js', './source.js']) {
    const url = new URL(file, import.meta.url)
    const path = fileURLToPath(url)
    // Run from the sources (tsx, the tests) the modules are .ts files.
    hash.update(readFileOr(path) ?? readFileOr(path.replace(/\.js$/, '.ts')) ?? '')
  }
  return hash.digest('hex').slice(0, 16)
})()

function readFileOr(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

/**
 * The processes an import touched (src/import/changes.ts lists the records whose documents it rebuilt):
 * biddings, contracts and ARPs it touched, and the biddings of the contracts and ARPs it touched. A
 * relinked contract's old bidding or ARP is among the touched records already, since its document showed it.
 */
const TOUCHED_PROCESSES = `CREATE TEMP TABLE touched_processes ON COMMIT DROP AS
  SELECT id FROM touched_records WHERE tbl IN ('biddings', 'contracts', 'arps')
  UNION SELECT c.bidding_id FROM contracts c JOIN touched_records t ON t.tbl = 'contracts' AND t.id = c.id
    WHERE c.bidding_id IS NOT NULL
  UNION SELECT a.bidding_id FROM arps a JOIN touched_records t ON t.tbl = 'arps' AND t.id = a.id
    WHERE a.bidding_id IS NOT NULL`

const BATCH = 1000

/**
 * Rebuilds the releases in scope: each process is read, mapped and hashed; a release whose content did
 * not change keeps its row (its id and date), a changed one gets a new id and `date` (the transaction's
 * time), and a process that no longer exists (withdrawn, or now part of another) loses its release.
 * Returns how many releases were written.
 */
export async function rebuildReleases(client: PoolClient, scope: 'all' | 'touched'): Promise<number> {
  if (scope === 'touched') await client.query(TOUCHED_PROCESSES)
  const inScope = (id: string) => (scope === 'all' ? 'true' : `${id} IN (SELECT id FROM touched_processes)`)
  await client.query(`CREATE TEMP TABLE built_releases (process_id uuid PRIMARY KEY, process_kind text,
    organization_id uuid, hash text, content text) ON COMMIT DROP`)
  for (const kind of KINDS) {
    // Read in batches through a cursor in this transaction, so memory stays flat at any scale.
    const cursor = `ocds_${kind}`
    await client.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${sourceQuery(kind, inScope)}`)
    for (;;) {
      const { rows } = await client.query<{ process_id: string; organization_id: string; source: string }>(
        `FETCH ${BATCH} FROM ${cursor}`,
      )
      if (rows.length === 0) break
      const ids: string[] = []
      const organizations: string[] = []
      const hashes: string[] = []
      const contents: string[] = []
      for (const row of rows) {
        const { hash, content } = releaseBody(JSON.parse(row.source) as ProcessSource)
        ids.push(row.process_id)
        organizations.push(row.organization_id)
        hashes.push(hash)
        contents.push(content)
      }
      await client.query(
        `INSERT INTO built_releases SELECT id, $1, organization_id, hash, content
         FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[]) AS u (id, organization_id, hash, content)`,
        [kind, ids, organizations, hashes, contents],
      )
    }
    await client.query(`CLOSE ${cursor}`)
  }
  // Gone: in scope, and no longer a process.
  await client.query(
    `DELETE FROM ocds_releases r WHERE ${inScope('r.process_id')}
     AND NOT EXISTS (SELECT 1 FROM built_releases b WHERE b.process_id = r.process_id)`,
  )
  // New or changed. The tail is assembled here, with the release id and the date it now has.
  const date = `to_char(transaction_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`
  const { rowCount } = await client.query(
    `INSERT INTO ocds_releases AS r (process_id, process_kind, organization_id, hash, date, tail)
     SELECT b.process_id, b.process_kind, b.organization_id, b.hash, date_trunc('second', transaction_timestamp()),
       '"id":"' || b.process_id || '-' || b.hash || '","date":"' || ${date} || '",' || substr(b.content, 2)
     FROM built_releases b
     WHERE NOT EXISTS (SELECT 1 FROM ocds_releases o WHERE o.process_id = b.process_id AND o.hash = b.hash)
     ON CONFLICT (process_id) DO UPDATE SET process_kind = excluded.process_kind,
       organization_id = excluded.organization_id, hash = excluded.hash, date = excluded.date, tail = excluded.tail`,
  )
  return rowCount ?? 0
}
