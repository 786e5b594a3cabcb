import type { Readable } from 'node:stream'
import QueryStream from 'pg-query-stream'
import type { Pool } from '../db/pool.js'
import type { PublicResource } from '../resources/index.js'
import { listingSql } from '../transparency/listing.js'
import { columnSql, exportColumns } from './columns.js'
import { csvStream, type Separator } from './csv.js'
import { xlsxStream } from './xlsx.js'

export type ExportFormat = 'xlsx' | 'csv'

export interface ExportRequest {
  resource: PublicResource
  format: ExportFormat
  separator: Separator
  filters: Readonly<Record<string, string | number>>
  sort: string
  /** Called now and then with the number of rows written so far. */
  onProgress?: (rows: number) => void
}

export interface ExportFile {
  stream: Readable
  filename: string
  contentType: string
}

/** The sheet's name: the resource's noun, capitalized ("Contratos", "Atas de registro de preços"). */
const sheetName = (resource: PublicResource) =>
  resource.noun.plural.charAt(0).toUpperCase() + resource.noun.plural.slice(1)

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
}

/**
 * Every row of a listing's filter as a file, streamed: a cursor reads rows in batches as the writer
 * asks for them, so memory stays flat and the first bytes leave before the last row is read. The first
 * batch is read before the file is returned, so a query that fails at once (a timeout, a value PostgreSQL
 * refuses) rejects here, while the caller can still answer with an error instead of a file cut short.
 * The connection returns to the pool when the stream ends, fails or is abandoned. `pool` should be one of
 * the export's own (see app.ts): its statement timeout bounds how long an export may run.
 */
export async function openExport(pool: Pool, request: ExportRequest, now = new Date()): Promise<ExportFile> {
  const { resource, format } = request
  const columns = exportColumns(resource)
  const { from, where, orderBy, values } = listingSql(resource, request)
  const decimalComma = format === 'csv' && request.separator === ';'
  const select = columns.map((column) => columnSql(column, format, decimalComma)).join(', ')
  const client = await pool.connect()
  let released = false
  const release = (error?: Error) => {
    if (released) return
    released = true
    client.off('error', onClientError)
    client.off('end', onClientEnd)
    client.release(error) // the pool puts its own error listener back on the client
  }
  const query = client.query(
    new QueryStream(`SELECT ${select} FROM ${from} WHERE ${where} ORDER BY ${orderBy}`, values, {
      batchSize: 2000,
      highWaterMark: 4000,
      rowMode: 'array',
    }),
  )
  // A connection lost mid-export must fail the file. pg-query-stream's destroy waits for the dead server to
  // confirm closing the cursor, so it never fails the reader; an 'error' event does, at once. (Racing each
  // read against a pending promise would also work, but piles one reaction per row onto that promise.)
  const fail = (error: Error) => query.emit('error', error)
  const onClientError = (error: Error) => fail(error)
  const onClientEnd = () => fail(new Error('the database connection ended during the export'))
  client.on('error', onClientError)
  client.once('end', onClientEnd)
  let completed = false
  let count = 0
  const cursor = (query as AsyncIterable<(string | null)[]>)[Symbol.asyncIterator]()
  let first: IteratorResult<(string | null)[]>
  try {
    first = await cursor.next()
  } catch (error) {
    query.destroy()
    release(error as Error)
    throw error
  }
  async function* rows() {
    try {
      for (let next = first; !next.done; next = await cursor.next()) {
        yield next.value
        if (++count % 1000 === 0) request.onProgress?.(count)
      }
      completed = true
      request.onProgress?.(count)
    } finally {
      query.destroy()
    }
  }
  const stream =
    format === 'xlsx'
      ? xlsxStream(sheetName(resource), columns, rows())
      : csvStream(columns, rows(), request.separator)
  // A cursor left half-read leaves the connection in an unknown state: close it rather than reuse it.
  stream.once('close', () => release(completed ? undefined : new Error('export ended before its last row')))
  stream.once('error', (error: Error) => release(error))
  return {
    stream,
    filename: `${resource.path}-${now.toISOString().slice(0, 10)}.${format}`,
    contentType: CONTENT_TYPES[format],
  }
}
