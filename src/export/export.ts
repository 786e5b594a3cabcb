import type { Readable } from 'node:stream'
import { openCursor } from '../db/cursor.js'
import type { Pool } from '../db/pool.js'
import { capitalized } from '../format.js'
import { listingSql } from '../listings/listing.js'
import type { FilterValues } from '../resources/filters.js'
import type { PublicResource } from '../resources/index.js'
import { columnSql, exportColumns } from './columns.js'
import { csvStream, type Separator } from './csv.js'
import { xlsxStream } from './xlsx.js'

export type ExportFormat = 'xlsx' | 'csv'

export interface ExportRequest {
  resource: PublicResource
  format: ExportFormat
  separator: Separator
  filters: FilterValues
  sort: string
  /** Called now and then with the number of rows written so far. */
  onProgress?: (rows: number) => void
  /** Aborts when nobody will read the file (its client went away): its query is cancelled. */
  signal?: AbortSignal
}

export interface ExportFile {
  stream: Readable
  filename: string
  contentType: string
}

/** The sheet's name: the resource's noun, capitalized ("Contratos", "Atas de registro de preços"). */
const sheetName = (resource: PublicResource) => capitalized(resource.noun.plural)

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
}

/**
 * Every row of a listing's filter as a file, streamed: a cursor reads rows in batches as the writer
 * asks for them, so memory stays flat and the first bytes leave before the last row is read. The first
 * batch is read before the file is returned (src/db/cursor.ts), so a query that fails at once rejects here.
 * The connection returns to the pool when the stream ends, fails or is abandoned. `pool` should be one of
 * the export's own (see app.ts): its statement timeout bounds how long an export may run.
 */
export async function openExport(pool: Pool, request: ExportRequest, now = new Date()): Promise<ExportFile> {
  const { resource, format } = request
  const columns = exportColumns(resource)
  const { from, where, orderBy, values } = listingSql(resource, request)
  const ptBr = format === 'csv' && request.separator === ';'
  const select = columns.map((column) => columnSql(column, format, ptBr)).join(', ')
  const cursor = await openCursor<(string | null)[]>(
    pool,
    `SELECT ${select} FROM ${from} WHERE ${where} ORDER BY ${orderBy}`,
    values,
    { rowMode: 'array', onProgress: request.onProgress, signal: request.signal },
  )
  const stream =
    format === 'xlsx'
      ? xlsxStream(sheetName(resource), columns, cursor.rows)
      : csvStream(columns, cursor.rows, request.separator)
  cursor.releaseWith(stream)
  return {
    stream,
    filename: `${resource.path}-${now.toISOString().slice(0, 10)}.${format}`,
    contentType: CONTENT_TYPES[format],
  }
}
