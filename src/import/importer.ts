import type { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { from as copyFrom } from 'pg-copy-streams'
import type { Pool, PoolClient } from '../db/pool.js'
import type { RecordType } from '../domain.js'
import { rebuildDocuments } from '../readmodel/documents.js'
import { readLines } from './lines.js'
import {
  AFFECTED_ORGANIZATIONS,
  ANALYZE_TABLES,
  COPY_ITEMS,
  COPY_ORDERS,
  COPY_STAGE,
  CREATE_STAGE,
  DROP_SUPERSEDED,
  INDEX_STAGE,
  LINK_PROBLEMS,
  SNAPSHOT_SUPPLIERS,
  WRITE_STEPS,
} from './sql.js'
import { checkRecord } from './validate.js'

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

const ORDER_COLUMNS = [
  'unity_name',
  'unity_name_short',
  'object',
  'process_number',
  'bidding_number',
  'modality_name',
  'status_title',
  'provider_name',
  'provider_document',
  'representative_name',
  'expense_classification_title',
  'expense_type_title',
  'location_delivery',
  'deadline_delivery',
  'invoice_number',
  'invoice_issue_date',
  'amount_total',
] as const
const ITEM_COLUMNS = [
  'number_item',
  'description',
  'brand',
  'unit_measurement',
  'quantity',
  'amount',
  'amount_total',
] as const

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
    const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : null)
    const org = lower(type === 'organization' ? record.uuid : record.organization_uuid) as string
    // key space, key, natural number, links (arp_number, contract_number, bidding_uuid)
    let staged: [string, string, unknown, unknown, unknown, unknown]
    switch (type) {
      case 'organization':
        staged = [type, org, null, null, null, null]
        break
      case 'order':
        staged = [
          type,
          `${org} ${record.number as string}`,
          record.number,
          record.arp_number,
          record.contract_number,
          null,
        ]
        break
      case 'contract':
        staged = [
          type,
          lower(record.id) as string,
          record.contract_number,
          record.arp_number,
          null,
          lower(record.bidding_uuid),
        ]
        break
      case 'arp':
        staged = [type, lower(record.id) as string, record.number, null, null, lower(record.bidding_uuid)]
        break
      default:
        staged = ['bidding', lower(record.id) as string, record.number, null, null, null]
    }
    const [grp, key, number, arpNumber, contractNumber, bidding] = staged
    const doc = type === 'order' ? null : raw
    await this.add(
      COPY_STAGE,
      row([seq, file, line, grp, type, org, key, number, arpNumber, contractNumber, bidding, doc]),
    )
    if (type !== 'order') return
    await this.add(COPY_ORDERS, row([seq, ...ORDER_COLUMNS.map((column) => record[column])]))
    const items = record.items as Record<string, unknown>[]
    await this.add(
      COPY_ITEMS,
      items.map((item, i) => row([seq, i + 1, ...ITEM_COLUMNS.map((column) => item[column])])).join(''),
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
