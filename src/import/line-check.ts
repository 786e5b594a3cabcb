import type { Line } from './lines.js'
import { checkRecord } from './record-validation.js'
import { stageRows } from './stage.js'

// Checking lines is most of an import's work in Node: parsing each line, validating it against its
// record type's schema and writing its staging rows. It is done a batch of lines at a time, by the same
// function on the importing thread or in worker threads (src/import/check-pool.ts), so a large file is
// checked on every core while the importing thread reads it and feeds PostgreSQL.

/** Consecutive lines of one source; the first is the import's record number `firstSeq`. */
export interface LineBatch {
  file: number
  firstSeq: number
  lines: Line[]
}

/** A bad line of a batch: its line number in its file, the field, and why. */
export interface BatchProblem {
  line: number
  field: string
  reason: string
}

/** A checked batch: its bad lines in order, and its valid records' staging rows. */
export interface CheckedBatch {
  problems: BatchProblem[]
  stage: string
  orders: string
  items: string
}

/** Parses and checks every line of a batch, and builds the staging rows of the valid ones. */
export function checkBatch(batch: LineBatch): CheckedBatch {
  const problems: BatchProblem[] = []
  let stage = ''
  let orders = ''
  let items = ''
  for (const [i, line] of batch.lines.entries()) {
    if ('error' in line) {
      problems.push({ line: line.number, field: '(line)', reason: line.error })
      continue
    }
    let value: unknown
    try {
      value = JSON.parse(line.text)
    } catch (error) {
      problems.push({
        line: line.number,
        field: '(line)',
        reason: `invalid JSON: ${(error as Error).message}`,
      })
      continue
    }
    const problem = checkRecord(value, line.text)
    if (problem) {
      problems.push({ line: line.number, ...problem })
      continue
    }
    // Stryker disable next-line ConditionalExpression: rows after a problem are only wasted work, dropped by the importer
    if (problems.length > 0) continue
    const rows = stageRows(
      batch.firstSeq + i,
      batch.file,
      line.number,
      value as Record<string, unknown>,
      line.text,
    )
    stage += rows.stage
    orders += rows.orders
    items += rows.items
  }
  return { problems, stage, orders, items }
}
