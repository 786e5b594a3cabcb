import { rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { issueToken } from '../../src/auth/tokens.js'
import { createPool, type Pool } from '../../src/db/pool.js'
import { counts, ITEMS_PER_ORDER, log, options } from './options.js'
import { BIN, run, withDatabase } from './processes.js'

// The benchmark's dataset: the demo generator's records at the chosen scale, loaded once into a database
// of its own (compras_bench_SCALE) and reused by later runs; and the requests the scenarios pick from.

/**
 * A public feed cursor as builds before log identities wrote them (`c1.<seq>`): every build since takes it
 * as its own log's, so one URL serves the service and a previous build alike (--compare).
 */
const legacyCursor = (seq: string) => Buffer.from(`c1.${seq}`).toString('base64url')

export interface LoadFigures {
  orders: number
  seconds: number
  ordersPerSecond: number
  reused: boolean
}

export async function prepareDataset(adminUrl: string): Promise<{ url: string; load: LoadFigures }> {
  const name = `compras_bench_${options.scale}`
  const url = withDatabase(adminUrl, name)
  const admin = createPool(adminUrl, { max: 1 })
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (exists.rowCount === 1 && !options.reload) {
      const pool = createPool(url, { max: 1 })
      try {
        // jsonb orders keys its own way: compare in SQL.
        const { rows } = await pool.query<{ seconds: string }>(
          'SELECT seconds FROM bench_dataset WHERE counts = $1::jsonb',
          [JSON.stringify(counts)],
        )
        const marker = rows[0]
        if (marker) {
          const seconds = Number(marker.seconds)
          log(`dataset: reusing ${name} (loaded earlier in ${seconds.toFixed(1)} s; --reload loads it again)`)
          // The schema and the read model brought up to date with this code, before the run reads them.
          await run(process.execPath, [BIN, 'migrate'], { DATABASE_URL: url })
          return {
            url,
            load: { orders: counts.orders, seconds, ordersPerSecond: counts.orders / seconds, reused: true },
          }
        }
      } catch {
        // No marker: a load that did not finish. Load again.
      } finally {
        await pool.end()
      }
    }
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }

  const env = { DATABASE_URL: url }
  await run(process.execPath, [BIN, 'migrate'], env)
  const file = path.join(os.tmpdir(), `compras-bench-${options.scale}-${process.pid}.ndjson`)
  log(`dataset: generating ${options.scale} (${JSON.stringify(counts)}, ${ITEMS_PER_ORDER} items per order)`)
  const generated = performance.now()
  await run(
    process.execPath,
    [BIN, 'demo', '--scale', options.scale, '--items', String(ITEMS_PER_ORDER), '--seed', '1', '--out', file],
    env,
  )
  log(`dataset: generated in ${((performance.now() - generated) / 1000).toFixed(1)} s; importing`)
  const started = performance.now()
  try {
    await run(process.execPath, [BIN, 'import', file], env)
  } finally {
    rmSync(file, { force: true })
  }
  const seconds = (performance.now() - started) / 1000
  const pool = createPool(url, { max: 1 })
  try {
    await pool.query('CREATE TABLE bench_dataset (counts jsonb NOT NULL, seconds numeric NOT NULL)')
    await pool.query('INSERT INTO bench_dataset VALUES ($1, $2)', [JSON.stringify(counts), seconds])
    await pool.query('VACUUM ANALYZE')
  } finally {
    await pool.end()
  }
  log(`dataset: imported in ${seconds.toFixed(1)} s (${Math.round(counts.orders / seconds)} orders/s)`)
  return {
    url,
    load: { orders: counts.orders, seconds, ordersPerSecond: counts.orders / seconds, reused: false },
  }
}

/** One request a scenario may send; token is the index of its token (-1: none, no limit to keep). */
export interface Entry {
  path: string
  authorization: string
  token: number
}

/** The requests the scenarios pick from, read off the dataset. */
export interface Samples {
  orders: Entry[]
  contracts: Entry[]
  filtered: Entry[]
  search: Entry[]
  /** Pages of 100 entries of the public change feed, with their records, from cursors across the log. */
  feed: Entry[]
  /** The histories of contracts that changed after they were published (any contract's when none did). */
  history: Entry[]
}

/** A request with no token. */
export const open = (path: string): Entry => ({ path, authorization: '', token: -1 })

/** Tokens the order scenarios share out: with each held to 30 a second, enough for 90,000 a second. */
const TOKENS = 3000

/** Each organization's tokens for the run, and their indexes. */
export type Tokens = Map<string, { token: string; index: number }[]>

/**
 * New tokens each run: deleting old ones would make PostgreSQL check access_log for each. Several per
 * organization, each order's requests always on one of them, so that no token's limit caps the load.
 */
export async function issueTokens(pool: Pool): Promise<Tokens> {
  const organizations = await pool.query<{ id: string }>('SELECT id FROM organizations ORDER BY id')
  const perOrganization = Math.max(4, Math.ceil(TOKENS / Math.max(1, organizations.rows.length)))
  const tokens: Tokens = new Map()
  let index = 0
  for (const { id } of organizations.rows) {
    const issued: { token: string; index: number }[] = []
    for (let i = 0; i < perOrganization; i++)
      issued.push({ token: (await issueToken(pool, id, 'bench')).token, index: index++ })
    tokens.set(id, issued)
  }
  return tokens
}

export async function loadSamples(pool: Pool, tokens: Tokens): Promise<Samples> {
  const orders = await pool.query<{ organization_id: string; number: string }>(
    'SELECT organization_id, number FROM orders',
  )
  const contracts = await pool.query<{ id: string }>('SELECT id FROM contracts')
  const pairs = await pool.query<{ organization_id: string; modality_id: number }>(
    'SELECT DISTINCT organization_id, modality_id FROM contracts',
  )
  const objects = await pool.query<{ object_details: string }>(
    'SELECT object_details FROM contracts TABLESAMPLE SYSTEM (10) LIMIT 500',
  )
  const log = await pool.query<{ seq: string }>(
    'SELECT seq::text FROM public_changes TABLESAMPLE SYSTEM (5) LIMIT 20000',
  )
  const changed = await pool.query<{ id: string }>(
    `SELECT DISTINCT id FROM public_changes
     WHERE resource = 'contracts' AND change = 'updated' AND restore IS NOT NULL LIMIT 5000`,
  )
  const words = [
    ...new Set(objects.rows.flatMap((row) => row.object_details.toLowerCase().match(/\p{L}{5,}/gu) ?? [])),
  ]
  return {
    orders: orders.rows.map((row, i) => {
      const issued = tokens.get(row.organization_id) as { token: string; index: number }[]
      const token = issued[i % issued.length] as { token: string; index: number }
      return {
        path: `/external/orders?order_number=${encodeURIComponent(row.number)}`,
        authorization: token.token,
        token: token.index,
      }
    }),
    contracts: contracts.rows.map((row) => open(`/v1/transparency/contracts/${row.id}`)),
    filtered: pairs.rows.map((row) =>
      open(
        `/v1/transparency/contracts?organization_uuid=${row.organization_id}&modality_id=${row.modality_id}`,
      ),
    ),
    search: (words.length > 0 ? words : ['material']).map((word) =>
      open(`/v1/transparency/contracts?q=${encodeURIComponent(word)}`),
    ),
    feed: (log.rows.length > 0 ? log.rows : [{ seq: '0' }]).map((row) =>
      open(`/v1/transparency/changes?per_page=100&with_records=true&after=${legacyCursor(row.seq)}`),
    ),
    history: (changed.rows.length > 0 ? changed.rows : contracts.rows.slice(0, 5000)).map((row) =>
      open(`/v1/transparency/contracts/${row.id}/history`),
    ),
  }
}

/** What the read scenarios read, read once before them, and what that took. */
export interface WarmFigures {
  tables: string[]
  megabytes: number
  seconds: number
}

/** The documents the random scenarios look up: one table for the order query, one for the details. */
const READ_MODEL = ['order_documents', 'detail_documents']

/**
 * Reads the read model's documents once, so that the operating system keeps their pages. Without it the
 * service, measured first in each scenario with a ceiling, met pages on disk that its own run then left in
 * memory for the bare server measured after it: in the run of 2026-11-25 23:14, whose page cache had lost
 * most of the detail documents, random contract details gave the service 4,697 req/s (p50 6.9 ms) and the
 * bare server right after 17,920 (p50 1.7 ms). Each table is scanned whole (`body IS NOT NULL` makes
 * PostgreSQL read every row's page rather than answer from an index); its pages go through a small ring of
 * PostgreSQL's buffers and stay in the operating system's cache.
 */
export async function readIntoPageCache(pool: Pool): Promise<WarmFigures> {
  const started = performance.now()
  for (const table of READ_MODEL) await pool.query(`SELECT count(*) FROM ${table} WHERE body IS NOT NULL`)
  const { rows } = await pool.query<{ bytes: string }>(
    'SELECT sum(pg_relation_size(t))::text AS bytes FROM unnest($1::text[]) t',
    [READ_MODEL],
  )
  const figures = {
    tables: READ_MODEL,
    megabytes: Math.round(Number(rows[0]?.bytes ?? 0) / 1e6),
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  }
  log(`before the scenarios, ${describeWarm(figures)}`)
  return figures
}

/** What was read before the scenarios, in one clause, for the run's log and its report. */
export function describeWarm(warmed: WarmFigures): string {
  return (
    `the read model's documents (${warmed.tables.join(', ')}, ${warmed.megabytes.toLocaleString('en')} MB) ` +
    `were read once into the page cache, in ${warmed.seconds} s`
  )
}
