import type { Readable } from 'node:stream'
import QueryStream from 'pg-query-stream'
import { connectCancellable } from './cancel.js'
import type { Pool } from './pool.js'

/** The rows of a query read through a cursor, and how to tie its connection to the stream that writes them. */
export interface Cursor<Row> {
  rows: AsyncGenerator<Row>
  /** Releases the connection when `stream` closes or fails: to the pool if every row was read. */
  releaseWith(stream: Readable): void
}

/**
 * Rows as text a file streams, each row written as `line` gives it, gathered in chunks of about 64 kB: one
 * write per chunk, not per row.
 */
export async function* textChunks<Row>(
  rows: AsyncIterable<Row>,
  line: (row: Row) => string,
): AsyncGenerator<string> {
  let chunk = ''
  for await (const row of rows) {
    chunk += line(row)
    if (chunk.length >= 65_536) {
      yield chunk
      chunk = ''
    }
  }
  if (chunk.length > 0) yield chunk
}

/**
 * A query read in batches as its consumer asks for rows, so memory stays flat and the first rows leave
 * before the last is read (the exports, the OCDS bulk download). `batchSize` rows are fetched at a time,
 * and up to twice as many kept ahead of the consumer: fewer for large rows. The first batch is read before this
 * returns, so a query that fails at once (a timeout, a value PostgreSQL refuses) rejects here, while the
 * caller can still answer with an error instead of a file cut short. `onProgress` is told, now and then,
 * how many rows were read.
 */
export async function openCursor<Row>(
  pool: Pool,
  sql: string,
  values: readonly unknown[],
  options: {
    rowMode?: 'array'
    batchSize?: number
    onProgress?: (rows: number) => void
    /** Aborts when nobody will read the rows (the client went away): the query is cancelled in PostgreSQL. */
    signal?: AbortSignal | undefined
  } = {},
): Promise<Cursor<Row>> {
  const held = await connectCancellable(pool, options.signal)
  const { client } = held
  let released = false
  const release = (error?: Error) => {
    if (released) return
    released = true
    client.off('error', onClientError)
    client.off('end', onClientEnd)
    // A cancellation asked for must not land on the next user's query: the connection goes once it is sent.
    void held.settle().then(() =>
      // the pool puts its own error listener back on the client
      client.release(error ?? (held.cancelled ? new Error('cancelled') : undefined)),
    )
  }
  const query = client.query(
    new QueryStream(sql, values as unknown[], {
      batchSize: options.batchSize ?? 2000,
      highWaterMark: 2 * (options.batchSize ?? 2000),
      ...(options.rowMode ? { rowMode: options.rowMode } : {}),
    }),
  )
  // A connection lost mid-read must fail the consumer. pg-query-stream's destroy waits for the dead server
  // to confirm closing the cursor, so it never fails the reader; an 'error' event does, at once. (Racing
  // each read against a pending promise would also work, but piles one reaction per row onto that promise.)
  const fail = (error: Error) => query.emit('error', error)
  const onClientError = (error: Error) => fail(error)
  const onClientEnd = () => fail(new Error('the database connection ended during the read'))
  client.on('error', onClientError)
  client.once('end', onClientEnd)
  let completed = false
  let count = 0
  const cursor = (query as AsyncIterable<Row>)[Symbol.asyncIterator]()
  let first: IteratorResult<Row>
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
        if (++count % 1000 === 0) options.onProgress?.(count)
      }
      completed = true
      options.onProgress?.(count)
    } finally {
      query.destroy()
    }
  }
  return {
    rows: rows(),
    releaseWith(stream) {
      // A cursor left half-read leaves the connection in an unknown state: close it rather than reuse it.
      stream.once('close', () =>
        release(completed ? undefined : new Error('stream ended before its last row')),
      )
      stream.once('error', (error: Error) => release(error))
    },
  }
}
