import { createHash } from 'node:crypto'
import { copyIn, copyRow } from '../db/copy.js'
import type { PoolClient } from '../db/pool.js'
import type { JsonObject } from '../json.js'
import {
  AWARD_STATUS,
  CONTRACT_STATUS,
  changeTags,
  contentOf,
  firstTags,
  MILESTONE_STATUS,
  PROCUREMENT_METHOD,
  release,
  releaseBody,
  TENDER_STATUS,
  type Withdrawn,
  withoutWithdrawn,
} from './mapping.js'
import { MAPPING_SOURCES } from './mapping-version.js'
import { compiledRelease, compileNext, type Release, versionedRelease, versionNext } from './merge.js'
import { type ProcessKind, type ProcessSource, sourceQuery } from './source.js'

// The stored releases (migrations/0009_ocds.sql): built in the transaction that wrote the data, like the
// other documents of the read model, for the processes an import touched or for all of them.

const PROCESS_KINDS: readonly ProcessKind[] = ['bidding', 'contract', 'arp']

/**
 * The version of the releases: a hash of the SQL that reads a process (it follows the resources), of the
 * mapping's tables, and of the mapping's own code (MAPPING_SOURCES). An upgrade that changes any of them
 * rebuilds the releases (syncReadModel); the same code gives the same version, run from the sources or
 * from the build.
 */
export const RELEASES_VERSION: string = (() => {
  const hash = createHash('sha256')
  for (const kind of PROCESS_KINDS) hash.update(sourceQuery(kind, () => 'true'))
  hash.update(
    JSON.stringify([TENDER_STATUS, PROCUREMENT_METHOD, CONTRACT_STATUS, AWARD_STATUS, MILESTONE_STATUS]),
  )
  hash.update(MAPPING_SOURCES)
  return hash.digest('hex').slice(0, 16)
})()

/**
 * The releases of the processes in scope, as an import's projection (src/readmodel/build.ts): built anew
 * where their content changed, and a withdrawn record taken out of every release that showed it.
 */
export async function projectReleases(
  client: PoolClient,
  scope: 'all' | 'touched',
  first: boolean,
): Promise<number> {
  const built = await rebuildReleases(client, scope)
  if (!first) await eraseWithdrawnReleases(client)
  return built
}

/**
 * The processes an import touched (src/import/touched.ts lists the records whose documents it rebuilt):
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
 * Rebuilds the releases in scope: each process is read, mapped and hashed. A release whose content did not
 * change keeps its row (its version, id and date). A changed one is published as the process's next version,
 * dated with the transaction's time and tagged from what changed, and the release it replaces is kept whole
 * among the process's versions: a published release never changes. A process that no longer exists
 * (withdrawn, or now part of another) loses its release and its versions. Returns the releases written.
 */
export async function rebuildReleases(client: PoolClient, scope: 'all' | 'touched'): Promise<number> {
  if (scope === 'touched') await client.query(TOUCHED_PROCESSES)
  const inScope = (id: string) => (scope === 'all' ? 'true' : `${id} IN (SELECT id FROM touched_processes)`)
  await client.query(`CREATE TEMP TABLE built_releases (process_id uuid PRIMARY KEY, process_kind text,
    organization_id uuid, hash text, tags text, content text) ON COMMIT DROP`)
  // Read once, soon after: compressing it here would be paid again when the tail is stored.
  // Stryker disable next-line StringLiteral: storage only; the content read back is the same
  await client.query('ALTER TABLE built_releases ALTER content SET STORAGE EXTERNAL')
  for (const kind of PROCESS_KINDS) {
    // Read in batches through a cursor in this transaction, so memory stays flat at any scale.
    const cursor = `ocds_${kind}`
    await client.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${sourceQuery(kind, inScope)}`)
    const fetch = () => {
      const batch = client.query<{ process_id: string; organization_id: string; source: string }>(
        `FETCH ${BATCH} FROM ${cursor}`,
      )
      batch.catch(() => {}) // a failure is thrown where the batch is awaited
      return batch
    }
    let next = fetch()
    for (;;) {
      const { rows } = await next
      if (rows.length === 0) break
      // PostgreSQL reads the next batch while this one is mapped here.
      next = fetch()
      let built = ''
      for (const row of rows) {
        const { hash, content, tags } = releaseBody(JSON.parse(row.source) as ProcessSource)
        built += copyRow([row.process_id, kind, row.organization_id, hash, tags, content])
      }
      await copyIn(client, 'COPY built_releases FROM STDIN', built)
    }
    // Stryker disable next-line StringLiteral: the transaction's end closes it anyway; closing frees it sooner
    await client.query(`CLOSE ${cursor}`)
  }
  // Gone: in scope, and no longer a process. Its versions go with it: it was published by mistake.
  await client.query(
    `WITH gone AS (DELETE FROM ocds_releases r WHERE ${inScope('r.process_id')}
       AND NOT EXISTS (SELECT 1 FROM built_releases b WHERE b.process_id = r.process_id) RETURNING process_id)
     DELETE FROM ocds_release_versions v USING gone WHERE v.process_id = gone.process_id`,
  )
  // Changed: tagged from what changed since the release it replaces, which is kept among the versions.
  const { rows: changed } = await client.query<{ process_id: string; tail: string; content: string }>(
    `SELECT b.process_id, r.tail, b.content FROM built_releases b JOIN ocds_releases r USING (process_id)
     WHERE r.hash <> b.hash`,
  )
  if (changed.length > 0) {
    await client.query(
      `UPDATE built_releases b SET tags = v.tags FROM unnest($1::uuid[], $2::text[]) v(process_id, tags)
       WHERE b.process_id = v.process_id`,
      [
        changed.map((row) => row.process_id),
        changed.map((row) => JSON.stringify(changeTags(contentOf(row.tail), JSON.parse(row.content)))),
      ],
    )
    await client.query(
      `INSERT INTO ocds_release_versions (process_id, version, organization_id, seq, date, tail)
       SELECT r.process_id, r.version, r.organization_id, r.seq, r.date, r.tail
       FROM ocds_releases r JOIN built_releases b USING (process_id) WHERE r.hash <> b.hash`,
    )
  }
  // New or changed: the tail is assembled here, with the date and tags the release now has.
  const date = `to_char(transaction_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`
  await client.query(`CREATE TEMP TABLE republished ON COMMIT DROP AS
    SELECT b.process_id FROM built_releases b
    WHERE NOT EXISTS (SELECT 1 FROM ocds_releases o WHERE o.process_id = b.process_id AND o.hash = b.hash)
      AND (length(b.content) > ${LARGE_RELEASE} OR EXISTS (SELECT 1 FROM ocds_releases o WHERE o.process_id = b.process_id))`)
  const { rowCount } = await client.query(
    `INSERT INTO ocds_releases AS r (process_id, process_kind, organization_id, hash, date, tail)
     SELECT b.process_id, b.process_kind, b.organization_id, b.hash, date_trunc('second', transaction_timestamp()),
       '"date":"' || ${date} || '","tag":' || b.tags || ',' || substr(b.content, 2)
     FROM built_releases b
     WHERE NOT EXISTS (SELECT 1 FROM ocds_releases o WHERE o.process_id = b.process_id AND o.hash = b.hash)
     ON CONFLICT (process_id) DO UPDATE SET process_kind = excluded.process_kind,
       organization_id = excluded.organization_id, hash = excluded.hash, date = excluded.date, tail = excluded.tail,
       version = r.version + 1, seq = nextval('ocds_release_seq')`,
  )
  await recordRepublished(client)
  return rowCount ?? 0
}

/** A release longer than this (in characters) keeps its versioned release though it is its process's only one. */
export const LARGE_RELEASE = 65_536

/** The whole release of a stored row, parsed. */
const parsed = (prefix: string, processId: string, version: number, tail: string) =>
  JSON.parse(release(prefix, processId, version, tail)) as Release

/** The ocid prefix the merge writes into the stored records: any; the routes put the publisher's in. */
export const STORED_PREFIX = 'ocds-stored'

/**
 * The compiled and versioned releases of the processes this rebuild published a release for (republished):
 * the ones before (kept, or made from the one release before) merged with the new release. A new process's
 * first release keeps them only when it is large. Stored with the ocid prefix STORED_PREFIX, which the routes
 * replace with the publisher's.
 */
async function recordRepublished(client: PoolClient): Promise<void> {
  const cursor = 'ocds_republished'
  await client.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR
    SELECT r.process_id, r.version, r.tail, r.compiled, r.versioned, v.version AS previous_version, v.tail AS previous
    FROM republished p JOIN ocds_releases r USING (process_id)
    LEFT JOIN LATERAL (SELECT version, tail FROM ocds_release_versions v WHERE v.process_id = r.process_id
      ORDER BY v.version DESC LIMIT 1) v ON true`)
  for (;;) {
    const { rows } = await client.query<{
      process_id: string
      version: number
      tail: string
      compiled: string | null
      versioned: string | null
      previous_version: number | null
      previous: string | null
    }>(`FETCH 200 FROM ${cursor}`)
    if (rows.length === 0) break
    const ids: string[] = []
    const compiled: string[] = []
    const versioned: string[] = []
    for (const row of rows) {
      const now = parsed(STORED_PREFIX, row.process_id, row.version, row.tail)
      const before =
        row.previous === null
          ? undefined
          : parsed(STORED_PREFIX, row.process_id, row.previous_version as number, row.previous)
      const compiledBefore =
        row.compiled !== null ? JSON.parse(row.compiled) : before && compileNext(undefined, before)
      const versionedBefore =
        row.versioned !== null ? JSON.parse(row.versioned) : before && versionNext(undefined, before)
      ids.push(row.process_id)
      compiled.push(JSON.stringify(compileNext(compiledBefore, now)))
      versioned.push(JSON.stringify(versionNext(versionedBefore, now)))
    }
    await client.query(
      `UPDATE ocds_releases r SET compiled = u.compiled, versioned = u.versioned
       FROM unnest($1::uuid[], $2::text[], $3::text[]) u(process_id, compiled, versioned)
       WHERE r.process_id = u.process_id`,
      [ids, compiled, versioned],
    )
  }
  // Stryker disable next-line StringLiteral: the transaction's end closes it anyway; closing frees it sooner
  await client.query(`CLOSE ${cursor}`)
}

/**
 * Makes again the compiled and versioned releases of processes from all their releases (after a withdrawal
 * rewrote them, or for records published before they were kept): kept when the process has more than one
 * release or a large one, cleared otherwise.
 */
export async function recompileRecords(client: PoolClient, processIds: readonly string[]): Promise<void> {
  for (let from = 0; from < processIds.length; from += 100) {
    const batch = processIds.slice(from, from + 100)
    const { rows } = await client.query<{ process_id: string; releases: [number, string][] }>(
      `SELECT x.process_id, json_agg(json_build_array(x.version, x.tail) ORDER BY x.version) AS releases
       FROM (SELECT process_id, version, tail FROM ocds_release_versions WHERE process_id = ANY($1::uuid[])
             UNION ALL SELECT process_id, version, tail FROM ocds_releases WHERE process_id = ANY($1::uuid[])) x
       GROUP BY x.process_id`,
      [batch],
    )
    const ids: string[] = []
    const compiled: (string | null)[] = []
    const versioned: (string | null)[] = []
    for (const row of rows) {
      const releases = row.releases.map(([version, tail]) =>
        parsed(STORED_PREFIX, row.process_id, version, tail),
      )
      // Stryker disable next-line all: a lone release's versioned release is served the same, kept or made per request
      const large = (row.releases.at(-1)?.[1].length ?? 0) > LARGE_RELEASE
      ids.push(row.process_id)
      compiled.push(releases.length > 1 ? JSON.stringify(compiledRelease(releases)) : null)
      versioned.push(releases.length > 1 || large ? JSON.stringify(versionedRelease(releases)) : null)
    }
    await client.query(
      `UPDATE ocds_releases r SET compiled = u.compiled, versioned = u.versioned
       FROM unnest($1::uuid[], $2::text[], $3::text[]) u(process_id, compiled, versioned)
       WHERE r.process_id = u.process_id`,
      [ids, compiled, versioned],
    )
  }
}

/** The processes whose records were published before they were kept whole: completed once (syncReadModel). */
export async function completeRecords(client: PoolClient): Promise<number> {
  const { rows } = await client.query<{ process_id: string }>(
    'SELECT process_id FROM ocds_releases WHERE version > 1 AND compiled IS NULL',
  )
  await recompileRecords(
    client,
    rows.map((row) => row.process_id),
  )
  return rows.length
}

/**
 * Erases the contracts, ARPs and supply orders this import withdrew (withdrawn_records, logged_orders) from
 * every stored release of the processes that showed them, now or before a relink (found by the withdrawn
 * one's OCDS id in their releases, in the organizations it was published under): each release made again as
 * the mapping would have made it without them (withoutWithdrawn), its tags from what then changed; an
 * earlier release left the same as the one before it goes. Their compiled and versioned releases are made
 * again. Returns the processes rewritten.
 */
export async function eraseWithdrawnReleases(client: PoolClient): Promise<number> {
  const { rows: records } = await client.query<{ resource: string; id: string; organizations: string[] }>(
    `SELECT resource, id::text, organizations::text[] FROM withdrawn_records WHERE resource IN ('contracts', 'arps')`,
  )
  const { rows: orders } = await client.query<{ organization_id: string; number: string }>(
    `SELECT organization_id::text, number FROM logged_orders WHERE change = 'withdrawn'`,
  )
  const gone: Withdrawn = {
    contracts: new Set(records.filter((r) => r.resource === 'contracts').map((r) => r.id)),
    arps: new Set(records.filter((r) => r.resource === 'arps').map((r) => r.id)),
    orders: new Set(orders.map((o) => o.number)),
  }
  const needles = [
    ...records.flatMap((r) => r.organizations.map((o) => [o, `"id":"${r.id}"`] as const)),
    ...orders.map((o) => [o.organization_id, `"id":${JSON.stringify(o.number)}`] as const),
  ]
  if (needles.length === 0) return 0
  const { rows: found } = await client.query<{ process_id: string }>(
    `SELECT DISTINCT x.process_id::text FROM unnest($1::uuid[], $2::text[]) w(organization_id, needle)
     JOIN (SELECT process_id, organization_id, tail FROM ocds_release_versions
           UNION ALL SELECT process_id, organization_id, tail FROM ocds_releases) x
       ON x.organization_id = w.organization_id AND strpos(x.tail, w.needle) > 0`,
    [needles.map((n) => n[0]), needles.map((n) => n[1])],
  )
  for (const { process_id: processId } of found) {
    const { rows } = await client.query<{ version: number; tail: string; current: boolean }>(
      `SELECT version, tail, false AS current FROM ocds_release_versions WHERE process_id = $1
       UNION ALL SELECT version, tail, true FROM ocds_releases WHERE process_id = $1 ORDER BY version`,
      [processId],
    )
    let before: JsonObject | undefined
    for (const row of rows) {
      const release = JSON.parse(`{${row.tail}`) as JsonObject
      const content = withoutWithdrawn(contentOf(row.tail), gone)
      const text = JSON.stringify(content)
      if (!row.current && before !== undefined && JSON.stringify(before) === text) {
        await client.query('DELETE FROM ocds_release_versions WHERE process_id = $1 AND version = $2', [
          processId,
          row.version,
        ])
        continue
      }
      const tags = before === undefined ? firstTags(content) : changeTags(before, content)
      const tail = `"date":${JSON.stringify(release.date)},"tag":${JSON.stringify(tags)},${text.slice(1)}`
      if (tail !== row.tail)
        await client.query(
          `UPDATE ${row.current ? 'ocds_releases' : 'ocds_release_versions'} SET tail = $3
           WHERE process_id = $1 AND version = $2`,
          [processId, row.version, tail],
        )
      before = content
    }
  }
  await recompileRecords(
    client,
    found.map((row) => row.process_id),
  )
  return found.length
}
