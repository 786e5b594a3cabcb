import type { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { from as copyFrom } from 'pg-copy-streams'
import type { Pool, PoolClient } from '../db/pool.js'
import type { RecordType } from '../domain.js'
import { rebuildDocuments } from '../readmodel/build.js'
import { RECORD_KINDS, type RecordKind } from '../resources/index.js'
import { readLines } from './lines.js'
import {
  COPY_ITEMS,
  COPY_ORDERS,
  COPY_STAGE,
  CREATE_STAGE,
  DROP_SUPERSEDED,
  INDEX_STAGE,
  ITEM_COLUMNS,
  LINK_PROBLEMS,
  ORDER_COLUMNS,
} from './stage.js'
import { checkRecord } from './validate.js'
import { AFFECTED_ORGANIZATIONS, ANALYZE_TABLES, SNAPSHOT_SUPPLIERS, WRITE_STEPS } from './write.js'

export const MAX_REPORTED_PROBLEMS = 100
const IMPORT_LOCK = 7_310_002 // one import at a time: keeps the key-clash checks true until commit
const FLUSH_BYTES = 256 * 1024

export interface ImportSource {
  /** Shown in problem reports: the file name, or "-" for standard input. */
  name: string
  stream: Readable
}

export interface ImportProblem {
  file: string
  line: number
  field: string
  reason: string
}

export interface ImportResult {
  ok: boolean
  /** Records written per type (after dropping superseded duplicates); all zero when not ok. */
  counts: Record<RecordType, number>
  lines: number
  /** The first MAX_REPORTED_PROBLEMS problems, in file and line order. */
  problems: ImportProblem[]
  problemCount: number
  seconds: number
}

export interface ImportOptions {
  /** Called now and then with the number of records read so far. */
  onProgress?: (records: number) => void
}

/** COPY text format: backslash, tab, newline and carriage return are escaped; null is \N. */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N'
  const text = String(value)
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/[\\\t\n\r]/g, (c) =>
        c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
      )
    : text
}

const row = (values: readonly unknown[]) => `${values.map(copyText).join('\t')}\n`

/** The record kind of each import type. */
const KIND_OF: ReadonlyMap<string, RecordKind> = new Map(
  RECORD_KINDS.flatMap((kind) => kind.types.map((type) => [type, kind] as const)),
)

/** Buffers COPY rows per staging table and sends each buffer as one COPY statement when it fills. */
class Stager {
  private readonly buffers = new Map<string, string>()
  constructor(private readonly client: PoolClient) {}

  async add(copySql: string, rows: string): Promise<void> {
    const buffer = (this.buffers.get(copySql) ?? '') + rows
    this.buffers.set(copySql, buffer)
    if (buffer.length >= FLUSH_BYTES) await this.flush(copySql)
  }

  async flush(copySql: string): Promise<void> {
    const buffer = this.buffers.get(copySql)
    if (!buffer) return
    this.buffers.set(copySql, '')
    const copy = this.client.query(copyFrom(copySql))
    copy.end(buffer)
    await finished(copy)
  }

  async flushAll(): Promise<void> {
    for (const copySql of this.buffers.keys()) await this.flush(copySql)
  }

  /** Stages one valid record: its key and links, and its body (typed columns for orders, jsonb otherwise). */
  async stage(
    seq: number,
    file: number,
    line: number,
    record: Record<string, unknown>,
    raw: string,
  ): Promise<void> {
    const type = record.type as RecordType
    const kind = KIND_OF.get(type) as RecordKind
    const { group, key, number, arp, contract, bidding } = kind.placement
    const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : null)
    const value = (name: string | undefined) => (name === undefined ? null : record[name])
    const org = lower(group === 'organization' ? record[key] : record.organization_uuid) as string
    // An order is keyed by its organization and number; every other record by its own id.
    const id = group === 'order' ? `${org} ${record[key] as string}` : (lower(record[key]) as string)
    const links = [value(number), value(arp), value(contract), lower(value(bidding))]
    const doc = group === 'order' ? null : raw
    await this.add(COPY_STAGE, row([seq, file, line, group, type, org, id, ...links, doc]))
    if (group !== 'order') return
    await this.add(COPY_ORDERS, row([seq, ...ORDER_COLUMNS.map(([column]) => record[column])]))
    const items = record.items as Record<string, unknown>[]
    await this.add(
      COPY_ITEMS,
      items.map((item, i) => row([seq, i + 1, ...ITEM_COLUMNS.map(([column]) => item[column])])).join(''),
    )
  }
}

function emptyCounts(): Record<RecordType, number> {
  return { organization: 0, order: 0, contract: 0, direct_contract: 0, public_call: 0, arp: 0 }
}

/**
 * Reads NDJSON records from the sources and writes them in one transaction: all of them, or, when any
 * line is bad or links to nothing, none of them. Lines stream through a COPY into a temporary table,
 * so memory stays flat; links and writes are then set-based SQL.
 */
export async function importRecords(
  pool: Pool,
  sources: readonly ImportSource[],
  options: ImportOptions = {},
): Promise<ImportResult> {
  const started = performance.now()
  const problems: ImportProblem[] = []
  let problemCount = 0
  let records = 0
  const report = (problem: ImportProblem) => {
    problemCount++
    if (problems.length < MAX_REPORTED_PROBLEMS) problems.push(problem)
  }
  const result = (ok: boolean, counts = emptyCounts()): ImportResult => ({
    ok,
    counts,
    lines: records,
    problems,
    problemCount,
    seconds: (performance.now() - started) / 1000,
  })

  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK])
    await client.query(CREATE_STAGE)
    const stager = new Stager(client)
    for (const [fileIndex, source] of sources.entries()) {
      for await (const line of readLines(source.stream)) {
        records++
        if (records % 100_000 === 0) options.onProgress?.(records)
        if ('error' in line) {
          report({ file: source.name, line: line.number, field: '(line)', reason: line.error })
          continue
        }
        let value: unknown
        try {
          value = JSON.parse(line.text)
        } catch (error) {
          report({
            file: source.name,
            line: line.number,
            field: '(line)',
            reason: `invalid JSON: ${(error as Error).message}`,
          })
          continue
        }
        const problem = checkRecord(value, line.text)
        if (problem) {
          report({ file: source.name, line: line.number, ...problem })
          continue
        }
        if (problemCount > 0) continue // keep reading for the report; nothing more is staged
        await stager.stage(records, fileIndex, line.number, value as Record<string, unknown>, line.text)
      }
    }
    await stager.flushAll()
    options.onProgress?.(records)

    if (problemCount > 0) {
      await client.query('ROLLBACK')
      return result(false)
    }
    await client.query(DROP_SUPERSEDED)
    await client.query(INDEX_STAGE)
    const links = await client.query<{ file: number; line: number; field: string; reason: string }>(
      LINK_PROBLEMS,
    )
    if (links.rows.length > 0) {
      for (const row of links.rows) {
        report({ file: sources[row.file]?.name ?? '?', line: row.line, field: row.field, reason: row.reason })
      }
      await client.query('ROLLBACK')
      return result(false)
    }
    const counts = await countStaged(client)
    await client.query(SNAPSHOT_SUPPLIERS)
    for (const statement of WRITE_STEPS) await client.query(statement)
    await client.query(AFFECTED_ORGANIZATIONS)
    // A large run changes the tables' shape; the documents' joins need statistics that know it.
    if (Object.values(counts).reduce((a, b) => a + b, 0) >= 10_000) await client.query(ANALYZE_TABLES)
    await rebuildDocuments(client, 'listed')
    await client.query('COMMIT')
    return result(true, counts)
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

async function countStaged(client: PoolClient): Promise<Record<RecordType, number>> {
  const counts = emptyCounts()
  const { rows } = await client.query<{ type: RecordType; n: number }>(
    'SELECT type, count(*)::int AS n FROM import_stage GROUP BY type',
  )
  for (const row of rows) counts[row.type] = row.n
  return counts
}
