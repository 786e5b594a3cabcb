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

/** One way of writing the rows: into tables with their indexes, or building the indexes after the rows. */
export interface FloorWay {
  seconds: number
  tables: { table: string; seconds: number; megabytes: number }[]
  /** Building the indexes, after the rows (inside the same transaction). */
  indexSeconds?: number
}

export interface FloorFigures {
  /** The faster of the two ways. */
  seconds: number
  /** Orders a second a load could reach at most, if writing were all it did. */
  ordersPerSecond: number
  /** The rows' size in COPY's binary format. */
  megabytes: number
  indexed: FloorWay
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
  const folder = mkdtempSync(path.join(os.tmpdir(), 'compras-floor-'))
  const client = await pool.connect()
  try {
    const sizes = new Map<string, number>()
    for (const table of tables) {
      const file = path.join(folder, table)
      await pipeline(
        client.query(copyTo(`COPY public.${table} TO STDOUT (FORMAT binary)`)),
        createWriteStream(file),
      )
      sizes.set(table, statSync(file).size / 1e6)
    }
    const write = (indexesAfter: boolean) => writeAll(client, tables, folder, sizes, indexesAfter)
    const indexed = await write(false)
    const indexesAfter = await write(true)
    const seconds = Math.min(indexed.seconds, indexesAfter.seconds)
    const floor: FloorFigures = {
      seconds,
      ordersPerSecond: Math.round(counts.orders / seconds),
      megabytes: Math.round([...sizes.values()].reduce((sum, mb) => sum + mb, 0)),
      indexed,
      indexesAfter,
    }
    log(
      `load floor: the loaded rows (${floor.megabytes.toLocaleString('en')} MB) written again in one transaction ` +
        `in ${indexed.seconds} s with their indexes (${indexed.tables.map((t) => `${t.table} ${t.seconds} s`).join(', ')}) ` +
        `and in ${indexesAfter.seconds} s with the indexes built after them (${indexesAfter.indexSeconds} s of it): ` +
        `${floor.ordersPerSecond.toLocaleString('en')} orders/s at most`,
    )
    return floor
  } finally {
    client.release()
    rmSync(folder, { recursive: true, force: true })
  }
}

async function writeAll(
  client: PoolClient,
  tables: readonly string[],
  folder: string,
  sizes: ReadonlyMap<string, number>,
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
    const { rows: indexes } = await client.query<{ definition: string }>(
      `SELECT replace(indexdef, ' ON public.', ' ON ${SCHEMA}.') AS definition FROM pg_indexes
       WHERE schemaname = 'public' AND tablename = ANY($1)`,
      [tables],
    )
    // What the copies out and the last way left dirty is written back now, not in the timed transaction.
    await client.query('CHECKPOINT').catch(() => {}) // only a superuser may; the floor is then a little noisier
    const started = performance.now()
    await client.query('BEGIN')
    const figures: FloorWay['tables'] = []
    for (const table of tables) {
      const began = performance.now()
      await copyFile(client, `COPY ${SCHEMA}.${table} FROM STDIN (FORMAT binary)`, path.join(folder, table))
      figures.push({
        table,
        seconds: round((performance.now() - began) / 1000),
        megabytes: Math.round(sizes.get(table) ?? 0),
      })
    }
    const indexing = performance.now()
    if (indexesAfter) for (const { definition } of indexes) await client.query(definition)
    const indexSeconds = round((performance.now() - indexing) / 1000)
    await client.query('COMMIT')
    return {
      seconds: round((performance.now() - started) / 1000),
      tables: figures,
      ...(indexesAfter ? { indexSeconds } : {}),
    }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`).catch(() => {})
  }
}

async function copyFile(client: PoolClient, sql: string, file: string): Promise<void> {
  await pipeline(createReadStream(file, { highWaterMark: 1 << 20 }), client.query(copyFrom(sql)))
}

const round = (seconds: number) => Math.round(seconds * 10) / 10
