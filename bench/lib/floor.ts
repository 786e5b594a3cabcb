import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { from as copyFrom, to as copyTo } from 'pg-copy-streams'
import type { Pool, PoolClient } from '../../src/db/pool.js'
import { WRITTEN_TABLES } from '../../src/import/write.js'
import { counts, log } from './options.js'

// The floor under a first load that is one transaction: how long PostgreSQL takes only to write the rows a
// load leaves behind (every table the import writes, and the read model's documents and releases), on one
// connection, in one transaction, with nothing parsed, checked or built. No import that stays one
// transaction on this server can be faster than this; the bulk-load goal is read against it. The rows are
// copied out of the loaded dataset first (not timed) in COPY's binary format, the cheapest for PostgreSQL
// to read, into empty copies of the tables (foreign keys left out: a first load checks those once at its
// end, src/import/bulk.ts), so the floor is if anything too low.

/** The read model's tables, which a load fills after the data tables (src/readmodel/build.ts, src/ocds). */
const READ_MODEL_TABLES = ['order_documents', 'detail_documents', 'ocds_releases'] as const

/** One way of writing the rows: the whole transaction's seconds, each table's COPY, the indexes built after. */
export interface FloorWay {
  seconds: number
  tables: Record<string, number>
  /** Building the indexes after the rows, in the same transaction (0 when they were kept as the rows went). */
  indexSeconds: number
}

export interface FloorFigures {
  /** Orders a second a load could reach at most, if writing were all it did: the faster way's. */
  ordersPerSecond: number
  /** Each table's rows in COPY's binary format. */
  megabytes: Record<string, number>
  /** Into tables with their indexes, kept as the rows go. */
  indexed: FloorWay
  /** Into tables without indexes, then every index built. */
  indexesAfter: FloorWay
}

const SCHEMA = 'bench_floor'

/**
 * Writes the rows both ways, with the indexes kept as they go and with the indexes built after them (as a
 * load could only do by dropping them, which locks out every reader until it commits), and reports the
 * faster as the floor.
 */
export async function measureLoadFloor(pool: Pool): Promise<FloorFigures> {
  const tables = [...WRITTEN_TABLES, ...READ_MODEL_TABLES]
  const client = await pool.connect()
  const folder = mkdtempSync(path.join(os.tmpdir(), 'compras-floor-'))
  try {
    const megabytes: Record<string, number> = {}
    for (const table of tables) {
      const file = path.join(folder, table)
      await pipeline(
        client.query(copyTo(`COPY public.${table} TO STDOUT (FORMAT binary)`)),
        createWriteStream(file),
      )
      megabytes[table] = Math.round(statSync(file).size / 1e5) / 10
    }
    const indexed = await writeAll(client, tables, folder, false)
    const indexesAfter = await writeAll(client, tables, folder, true)
    const floor: FloorFigures = {
      ordersPerSecond: Math.round(counts.orders / Math.min(indexed.seconds, indexesAfter.seconds)),
      megabytes,
      indexed,
      indexesAfter,
    }
    log(`load floor: ${describeFloor(floor)}`)
    return floor
  } finally {
    client.release()
    rmSync(folder, { recursive: true, force: true })
  }
}

/** The floor in one sentence, for the run's log and its report. */
export function describeFloor(floor: FloorFigures): string {
  const total = Math.round(Object.values(floor.megabytes).reduce((sum, mb) => sum + mb, 0))
  const { indexed, indexesAfter } = floor
  const perTable = Object.entries(indexed.tables).map(([table, seconds]) => `${table} ${seconds} s`)
  return (
    `the loaded rows (${total.toLocaleString('en')} MB in COPY's binary format) written again into empty copies ` +
    `of their tables in one transaction, and nothing else: ${indexed.seconds} s with their indexes ` +
    `(${perTable.join(', ')}), ${indexesAfter.seconds} s with the indexes built after the rows ` +
    `(${indexesAfter.indexSeconds} s of it): ${floor.ordersPerSecond.toLocaleString('en')} orders/s at most`
  )
}

async function writeAll(
  client: PoolClient,
  tables: readonly string[],
  folder: string,
  indexesAfter: boolean,
): Promise<FloorWay> {
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`)
    await client.query(`CREATE SCHEMA ${SCHEMA}`)
    // The empty copies exist before the timed transaction, as a load's tables do.
    for (const table of tables)
      await client.query(
        `CREATE TABLE ${SCHEMA}.${table} (LIKE public.${table} INCLUDING ALL${indexesAfter ? ' EXCLUDING INDEXES' : ''})`,
      )
    const indexes = indexesAfter
      ? (
          await client.query<{ definition: string }>(
            `SELECT replace(indexdef, ' ON public.', ' ON ${SCHEMA}.') AS definition FROM pg_indexes
             WHERE schemaname = 'public' AND tablename = ANY($1)`,
            [tables],
          )
        ).rows
      : []
    // What the copies out and the last way left dirty is written back now, not in the timed transaction.
    await client.query('CHECKPOINT').catch(() => {}) // only a superuser may; the floor is then a little noisier
    const started = performance.now()
    await client.query('BEGIN')
    const seconds: Record<string, number> = {}
    for (const table of tables) {
      const began = performance.now()
      await pipeline(
        createReadStream(path.join(folder, table), { highWaterMark: 1 << 20 }),
        client.query(copyFrom(`COPY ${SCHEMA}.${table} FROM STDIN (FORMAT binary)`)),
      )
      seconds[table] = since(began)
    }
    const indexing = performance.now()
    for (const { definition } of indexes) await client.query(definition)
    const indexSeconds = since(indexing)
    await client.query('COMMIT')
    return { seconds: since(started), tables: seconds, indexSeconds }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`).catch(() => {})
  }
}

/** Seconds since a performance.now() reading, to a tenth. */
const since = (start: number) => Math.round((performance.now() - start) / 100) / 10
