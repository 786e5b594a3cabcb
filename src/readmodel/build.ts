import { DATA_CHANNEL } from '../channel.js'
import { IMPORT_LOCK, SYNC_LOCK } from '../db/locks.js'
import { inTransaction, type Pool, type PoolClient } from '../db/pool.js'
import { INDICATORS_VERSION } from '../indicators/indicators.js'
import { projectIndicators } from '../indicators/project.js'
import { completeRecords, projectReleases, RELEASES_VERSION, rebuildReleases } from '../ocds/releases.js'
import {
  DOCUMENT_KINDS,
  type DocumentKind,
  KIND_VERSIONS,
  projectDocuments,
  type RebuildScope,
  remove,
} from './documents.js'
import { writeLog } from './log.js'
import { projectPrices } from './prices.js'
import { completeHistories } from './versions.js'
import { eraseWithdrawn } from './withdrawals.js'

// What an import derives from the data it wrote, in its own transaction, as a list of projections run in
// order, each owning what it makes (its tables, and the temporary tables it keeps aside): the documents
// (src/readmodel/documents.ts), the change log with the histories (log.ts, withdrawals.ts), the OCDS
// releases (src/ocds/releases.ts), the price research's rows (prices.ts) and the integrity indicators' flags
// (src/indicators). Then every instance is told to drop what it cached.

/** One step of what an import derives: it projects the records in scope, and says how many rows it built. */
interface Projection {
  readonly name: string
  project(client: PoolClient, scope: RebuildScope, first: boolean): Promise<number>
}

/** The documents before (kept aside by the documents' projection) and after, compared into the change log. */
async function projectChangeLog(client: PoolClient, scope: RebuildScope, first: boolean): Promise<number> {
  const ofTable = (table: DocumentKind['table']) => DOCUMENT_KINDS.filter((k) => k.table === table)
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
  // A withdrawn record leaves its parents' histories too.
  if (!first) await eraseWithdrawn(client)
  return 0
}

const PROJECTIONS: readonly Projection[] = [
  { name: 'documents', project: projectDocuments },
  { name: 'change log', project: projectChangeLog },
  { name: 'OCDS releases', project: projectReleases },
  {
    name: 'prices',
    // Rows, not documents: not counted among what the import built.
    project: async (client, scope) => {
      await projectPrices(client, scope)
      return 0
    },
  },
  {
    name: 'indicators',
    project: async (client, scope) => {
      await projectIndicators(client, scope)
      return 0
    },
  },
]

/** The version of each kind of document, and of the releases: what syncReadModel compares. */
export const DOCUMENT_VERSIONS: Readonly<Record<string, string>> = {
  ...KIND_VERSIONS,
  ocds: RELEASES_VERSION,
  indicators: INDICATORS_VERSION,
}

/**
 * Runs every projection for the records in scope, inside the transaction that wrote the data (an import):
 * `first` when nothing was stored before. Returns how many documents and releases it built.
 */
export async function rebuildDocuments(
  client: PoolClient,
  scope: RebuildScope,
  first = false,
): Promise<number> {
  let built = 0
  for (const projection of PROJECTIONS) built += await projection.project(client, scope, first)
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
    for (const kind of DOCUMENT_KINDS) {
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
    /** Runs `rebuild` in a transaction of its own, and keeps `version` as the kind's, when `due`. */
    const versioned = async (
      kind: string,
      version: string,
      due: boolean,
      rebuild: () => Promise<unknown>,
    ) => {
      if (!due) return
      await inTransaction(client, async () => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK])
        await rebuild()
        await client.query(
          `INSERT INTO read_model_versions (kind, version) VALUES ($1, $2)
             ON CONFLICT (kind) DO UPDATE SET version = excluded.version`,
          [kind, version],
        )
        await markChanged(client)
      })
      rebuilt.push(kind)
    }
    // The OCDS releases (src/ocds): read from the tables and mapped in JavaScript, versioned alike.
    const { rows: check } = await client.query<{ missing: boolean }>(RELEASES_MISSING)
    const releasesVersion = versions.ocds as string
    await versioned(
      'ocds',
      releasesVersion,
      stored.get('ocds') !== releasesVersion || !!check[0]?.missing,
      () => rebuildReleases(client, 'all'),
    )
    // The integrity indicators' flags: computed again whole when their rules change, or on a database migrated
    // to them (no version stored yet).
    const indicatorsVersion = versions.indicators as string
    await versioned('indicators', indicatorsVersion, stored.get('indicators') !== indicatorsVersion, () =>
      projectIndicators(client, 'all'),
    )
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [SYNC_LOCK]).catch(() => {})
    client.release()
  }
  return rebuilt
}
