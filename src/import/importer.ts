import type { Readable } from 'node:stream'
import { copyIn } from '../db/copy.js'
import { IMPORT_LOCK } from '../db/locks.js'
import type { Pool, PoolClient } from '../db/pool.js'
import type { RecordType } from '../domain.js'
import { rebuildDocuments } from '../readmodel/build.js'
import { RECORD_KINDS } from '../resources/index.js'
import { checkReferences, deferReferenceChecks } from './bulk.js'
import { type CheckersOptions, checkLines } from './check-pool.js'
import type { Line } from './lines.js'
import { WITHDRAW_PROBLEMS } from './references.js'
import {
  COPY_ITEMS,
  COPY_ORDERS,
  COPY_STAGE,
  CREATE_STAGE,
  DROP_OLDER,
  DROP_SUPERSEDED,
  INDEX_STAGE,
  LINK_PROBLEMS,
} from './stage.js'
import { SNAPSHOT, TOUCHED } from './touched.js'
import { FIRST_LOAD_STEPS, SNAPSHOT_SUPPLIERS, WRITE_STEPS, WRITTEN_TABLES } from './write.js'

export { IMPORT_LOCK }
export const MAX_REPORTED_PROBLEMS = 100
// Stryker disable next-line ArithmeticOperator: the size sets only how many COPY statements carry the rows
const FLUSH_BYTES = 256 * 1024

/** NDJSON to read, or lines already made (the PNCP import's, numbered by the record they came from). */
export type LineSource = { stream: Readable } | { lines: AsyncIterable<Line> }

export type ImportSource = LineSource & {
  /** Shown in problem reports: the file name, or "-" for standard input. */
  name: string
  /** Its size in bytes, when known (a file): the progress line then shows a percent and the time left. */
  size?: number
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
  /** Records withdrawn per type; all zero when not ok. */
  withdrawn: Record<RecordType, number>
  lines: number
  /** The first MAX_REPORTED_PROBLEMS problems, in file and line order. */
  problems: ImportProblem[]
  problemCount: number
  seconds: number
}

/** Where an import is: reading the lines (with how far), then checking, writing, building documents. */
export interface ImportProgress {
  phase: 'reading' | 'checking' | 'writing' | 'documents'
  records: number
  bytes: number
  /** The sources' total size, when every one's is known. */
  totalBytes?: number
}

export interface ImportOptions extends CheckersOptions {
  /** Called now and then (every thousand records, and at each phase) with where the import is. */
  onProgress?: (progress: ImportProgress) => void
  /** How many problems the result lists (MAX_REPORTED_PROBLEMS by default). */
  maxProblems?: number
}

/**
 * Buffers COPY rows per staging table and sends each buffer as one COPY statement when it fills. One
 * COPY is in flight while the next lines are parsed, so PostgreSQL stores a buffer while Node reads on.
 */
class Stager {
  private readonly buffers = new Map<string, string>()
  private sending: Promise<void> = Promise.resolve()
  constructor(private readonly client: PoolClient) {}

  async add(copySql: string, rows: string): Promise<void> {
    if (rows === '') return
    const buffer = (this.buffers.get(copySql) ?? '') + rows
    this.buffers.set(copySql, buffer)
    // Stryker disable next-line ConditionalExpression,EqualityOperator: when to send sets only how many COPY statements carry the rows
    if (buffer.length >= FLUSH_BYTES) await this.flush(copySql)
  }

  async flush(copySql: string): Promise<void> {
    const buffer = this.buffers.get(copySql)
    // Stryker disable next-line ConditionalExpression: an empty COPY writes nothing
    if (!buffer) return
    this.buffers.set(copySql, '')
    await this.sending
    this.sending = copyIn(this.client, copySql, buffer)
    // Its failure is thrown where it is awaited (the next flush, or flushAll), not as an unhandled rejection.
    this.sending.catch(() => {})
  }

  async flushAll(): Promise<void> {
    for (const copySql of this.buffers.keys()) await this.flush(copySql)
    await this.sending
  }
}

function emptyCounts(): Record<RecordType, number> {
  return { organization: 0, order: 0, contract: 0, direct_contract: 0, public_call: 0, arp: 0 }
}

/**
 * Whether a run that stages `staged` rows of a table of `rows` rows (-1: never analyzed) changes a large
 * share of it: at least 1,000 rows and at least a tenth of the table. Such a run analyzes the table.
 */
export const largeShare = (staged: number, rows: number) =>
  staged >= 1000 && staged >= 0.1 * Math.max(rows, 0)

/**
 * Reads NDJSON records from the sources and writes them in one transaction: all of them, or, when any
 * line is bad or links to nothing, none of them. Lines stream through a COPY into a temporary table,
 * so memory stays flat; links and writes are then set-based SQL, and only the documents the run changed
 * are rebuilt (src/import/touched.ts).
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
  let bytes = 0
  const totalBytes = sources.every((s) => s.size !== undefined)
    ? sources.reduce((sum, s) => sum + (s.size as number), 0)
    : undefined
  const progress = (phase: ImportProgress['phase']) =>
    options.onProgress?.({ phase, records, bytes, totalBytes })
  const report = (problem: ImportProblem) => {
    problemCount++
    if (problems.length < (options.maxProblems ?? MAX_REPORTED_PROBLEMS)) problems.push(problem)
  }
  const result = (ok: boolean, counts = emptyCounts(), withdrawn = emptyCounts()): ImportResult => ({
    ok,
    counts,
    withdrawn,
    lines: records,
    problems,
    problemCount,
    seconds: (performance.now() - started) / 1000,
  })

  const refused = async () => {
    const run = result(false)
    await recordRun(client, run, 0)
    return run
  }
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    // JIT compiling pays off for long analytic queries, not for these: it spent seconds compiling the
    // withdrawal checks alone.
    // Stryker disable next-line StringLiteral: speed only
    await client.query('SET LOCAL jit = off')
    await client.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK])
    await client.query(CREATE_STAGE)
    const stager = new Stager(client)
    const lines = checkLines(sources, {
      ...options,
      onBytes: (n) => {
        bytes += n
      },
      onLine: (n) => {
        records = n
        if (records % 1000 === 0) progress('reading')
      },
    })
    for await (const { file, checked } of lines) {
      for (const problem of checked.problems)
        report({ file: (sources[file] as ImportSource).name, ...problem })
      // Stryker disable next-line ConditionalExpression: staging after a problem is only wasted work, rolled back with the rest
      if (problemCount > 0) continue // keep reading for the report; nothing more is staged
      await stager.add(COPY_STAGE, checked.stage)
      await stager.add(COPY_ORDERS, checked.orders)
      await stager.add(COPY_ITEMS, checked.items)
    }
    await stager.flushAll()
    progress('checking')

    if (problemCount > 0) {
      await client.query('ROLLBACK')
      return refused()
    }
    await client.query(DROP_SUPERSEDED)
    await client.query(DROP_OLDER)
    await client.query(INDEX_STAGE)
    type Problem = { file: number; line: number; field: string; reason: string }
    const found = [
      ...(await client.query<Problem>(LINK_PROBLEMS)).rows,
      ...(await client.query<Problem>(WITHDRAW_PROBLEMS)).rows,
    ].sort((a, b) => a.file - b.file || a.line - b.line)
    if (found.length > 0) {
      for (const row of found) {
        // Stryker disable next-line OptionalChaining,StringLiteral: every row's file is one of the sources
        report({ file: sources[row.file]?.name ?? '?', line: row.line, field: row.field, reason: row.reason })
      }
      await client.query('ROLLBACK')
      return refused()
    }
    const first = await noRecordsStored(client)
    // What the database refuses past the checks (a rule an operator added, say) is a problem of the line it
    // names, never a raw error: the writes are undone to here, and the line found.
    await client.query('SAVEPOINT writing')
    try {
      return await write(first)
    } catch (error) {
      if (!isRefusedData(error)) throw error
      await client.query('ROLLBACK TO SAVEPOINT writing')
      const { file, line, field } = await lineRefused(client, error as DatabaseError)
      report({ file: sources[file]?.name ?? '?', line, field, reason: refusal(error as DatabaseError) })
      await client.query('ROLLBACK')
      return refused()
    }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }

  async function write(first: boolean): Promise<ImportResult> {
    const { written, withdrawn, staged } = await countStaged(client)
    const rows = await tableRows(client)
    // Into empty tables (a first load) every record is new: all documents are built, without working out
    // which ones the run touched (that took half a minute of the large dataset's load), and the foreign
    // keys are checked once at the end instead of row by row (src/import/bulk.ts).
    // Stryker disable next-line UnaryOperator: every written table has statistics, analyzed or not (-1)
    const changesLargeShare = (table: string) => largeShare(staged(table), rows.get(table) ?? -1)
    const deferred = first && (await deferReferenceChecks(client))
    progress('writing')
    // Stryker disable next-line ConditionalExpression: on a first load the snapshot finds nothing to compare
    if (!first) {
      await client.query(SNAPSHOT_SUPPLIERS)
      for (const statement of SNAPSHOT) await client.query(statement)
    }
    for (const step of first ? FIRST_LOAD_STEPS : WRITE_STEPS) {
      if (typeof step === 'string') {
        await client.query(step)
        continue
      }
      // Statistics mid-run only help the next steps' plans, and the run's end analyzes the same tables:
      // Stryker disable next-line MethodExpression: see above
      const tables = step.analyze.filter(changesLargeShare)
      // Stryker disable next-line ConditionalExpression,StringLiteral: see above
      if (tables.length > 0) await client.query(`ANALYZE ${tables.join(', ')}`)
    }
    // Stryker disable next-line ConditionalExpression: the link report refused every broken link already; this is the safety net the key triggers were
    if (deferred) await checkReferences(client, WRITTEN_TABLES)
    if (!first) for (const statement of TOUCHED) await client.query(statement)
    // A run that changed a large share of a table changes its shape: the documents' joins, and the next
    // runs, need statistics that know it. A small run leaves that to autovacuum.
    const stale = WRITTEN_TABLES.filter(changesLargeShare)
    if (stale.length > 0) await client.query(`ANALYZE ${stale.join(', ')}`)
    progress('documents')
    const documents = await rebuildDocuments(client, first ? 'all' : 'touched', first)
    const done = result(true, written, withdrawn)
    await recordRun(client, done, documents)
    await client.query('COMMIT')
    return done
  }
}

/** An error of PostgreSQL's, with what it says of the values it refused. */
interface DatabaseError extends Error {
  code?: string
  detail?: string
  column?: string
  constraint?: string
}

/** Whether the database refused the data (a data exception or an integrity rule), not failed to run. */
const isRefusedData = (error: unknown) => /^2[23]/.test(String((error as DatabaseError).code ?? ''))

/** What the database refused, in the operator's words: its message and the rule it named. */
const refusal = (error: DatabaseError) =>
  `the database refused it: ${error.message}${error.detail ? ` (${error.detail})` : ''}`

/**
 * The staged line a refusal is about: the first whose key, number or links hold a value the database named
 * (`Key (...)=(...)`, or the refused row's), else the run's first line.
 */
async function lineRefused(
  client: PoolClient,
  error: DatabaseError,
): Promise<{ file: number; line: number; field: string }> {
  const detail = error.detail ?? ''
  const named = /Key \((.*)\)=\((.*)\)/.exec(detail)
  // A key's values, or the values of the row a rule refused (its key among them).
  const values = (named?.[2] ?? /^Failing row contains \((.*)\)/.exec(detail)?.[1])?.split(', ') ?? []
  const { rows } = await client.query<{ file: number; line: number }>(
    `SELECT file, line FROM import_stage
     WHERE key = ANY($1) OR number = ANY($1) OR arp_number = ANY($1) OR contract_number = ANY($1)
       OR bidding_uuid::text = ANY($1) OR cardinality($1::text[]) = 0
     ORDER BY seq LIMIT 1`,
    [values],
  )
  const found = rows[0] ?? { file: 0, line: 1 }
  return { ...found, field: named?.[1] ?? error.column ?? error.constraint ?? 'record' }
}

/** One row a run in import_runs, which every instance's metrics read (src/metrics.ts). */
async function recordRun(client: PoolClient | Pool, run: ImportResult, documents: number): Promise<void> {
  await client.query('INSERT INTO import_runs (ok, seconds, records, documents) VALUES ($1, $2, $3, $4)', [
    run.ok,
    run.seconds,
    run.lines,
    documents,
  ])
}

/** Whether no record of any kind but organizations is stored yet. */
async function noRecordsStored(client: PoolClient): Promise<boolean> {
  const tables = [
    // Stryker disable next-line all: no record is stored without its organization, so counting organizations too picks the same path
    ...new Set(RECORD_KINDS.filter((k) => k.placement.group !== 'organization').map((k) => k.table)),
  ]
  const { rows } = await client.query<{ empty: boolean }>(
    `SELECT ${tables.map((t) => `NOT EXISTS (SELECT 1 FROM ${t})`).join(' AND ')} AS empty`,
  )
  // Stryker disable next-line OptionalChaining: the query always gives one row
  return rows[0]?.empty === true
}

/** The tables' row counts as the planner knows them (-1: never analyzed). */
async function tableRows(client: PoolClient): Promise<Map<string, number>> {
  const { rows } = await client.query<{ relname: string; reltuples: number }>(
    `SELECT relname, reltuples::float8 AS reltuples FROM pg_class
     WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND relname = ANY($1)`,
    [WRITTEN_TABLES],
  )
  return new Map(rows.map((row) => [row.relname, Number(row.reltuples)]))
}

/** What the run writes and withdraws per type, and about how many rows it writes in each table. */
async function countStaged(client: PoolClient) {
  const written = emptyCounts()
  const withdrawn = emptyCounts()
  const { rows } = await client.query<{ type: RecordType; withdraw: boolean; n: number }>(
    'SELECT type, withdraw, count(*)::int AS n FROM import_stage GROUP BY type, withdraw',
  )
  for (const row of rows) (row.withdraw ? withdrawn : written)[row.type] += row.n
  const items =
    // Stryker disable next-line OptionalChaining: a count always gives one row
    (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM import_items')).rows[0]?.n ?? 0
  const perTable = stagedRows(written, items)
  return { written, withdrawn, staged: (table: string) => perTable[table] ?? 0 }
}

/**
 * About how many rows a run that writes `written` records (with `items` order items) writes in each
 * table: owned children (documents, terms, people...) come with their records, suppliers with any record.
 */
export function stagedRows(written: Record<RecordType, number>, items: number): Record<string, number> {
  const biddings = written.direct_contract + written.public_call
  return {
    organizations: written.organization,
    units: written.order,
    suppliers: written.order + written.contract + written.arp + biddings,
    biddings,
    bidding_providers: biddings,
    arps: written.arp,
    contracts: written.contract,
    contract_people: written.contract,
    contract_commitments: written.contract,
    additive_terms: written.contract + written.arp,
    documents: written.contract + written.arp + biddings,
    orders: written.order,
    order_items: items,
  }
}
