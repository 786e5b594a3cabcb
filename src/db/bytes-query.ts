import type { Duplex } from 'node:stream'
import pg from 'pg'

/** A row as PostgreSQL sent it (text format): each value's bytes, null for NULL. */
export type ByteRow = (Buffer | null)[]

/** Message types of the protocol met here (PostgreSQL's protocol, "Message Formats"). */
const DATA_ROW = 0x44 // 'D'
const READY_FOR_QUERY = 0x5a // 'Z'
/** A message's type byte and its length (which counts itself, not the type). */
const HEADER = 5

/** The values of a DataRow message whose body (after its header) starts at start. */
function valuesOf(bytes: Buffer, start: number): ByteRow {
  const count = bytes.readUInt16BE(start)
  const row: ByteRow = new Array(count)
  let at = start + 2
  for (let i = 0; i < count; i++) {
    const length = bytes.readInt32BE(at)
    at += 4
    if (length < 0) {
      row[i] = null
    } else {
      row[i] = bytes.subarray(at, at + length)
      at += length
    }
  }
  return row
}

/**
 * Takes the rows of one query off a connection's stream until its ReadyForQuery, passing every other
 * message on to node-postgres's own reader, unchanged and in order; then gives the stream back to it. As
 * pg-copy-streams takes a COPY's data (the reader is the stream's one 'data' listener).
 */
function takeRows(stream: Duplex, onRow: (row: ByteRow) => void): Error | (() => void) {
  const listeners = stream.listeners('data')
  if (listeners.length !== 1)
    return new Error(`expected one reader on the connection, found ${listeners.length}`)
  const reader = listeners[0] as (chunk: Buffer) => void
  const giveBack = () => {
    stream.removeListener('data', onData)
    stream.on('data', reader)
  }
  /** A message not yet whole: its pieces so far, their length, and the length it needs to be read on. */
  let pieces: Buffer[] = []
  let held = 0
  let needed = 0
  const onData = (chunk: Buffer) => {
    let bytes = chunk
    if (held > 0) {
      // Joined once it is whole (a value of megabytes comes in many reads), not again at every read.
      pieces.push(chunk)
      held += chunk.length
      if (held < needed) return
      bytes = Buffer.concat(pieces, held)
      pieces = []
      held = 0
    }
    let at = 0
    /** Where the messages not yet passed on start. */
    let from = 0
    while (at + HEADER <= bytes.length) {
      const type = bytes[at]
      if (type === READY_FOR_QUERY) {
        // The query is over: the reader gets the stream back first, so that what it starts on reading this
        // (the next query) finds it in place, then everything from here on.
        giveBack()
        reader(bytes.subarray(from))
        return
      }
      const end = at + 1 + bytes.readUInt32BE(at + 1)
      if (end > bytes.length) break
      if (type === DATA_ROW) {
        if (from < at) reader(bytes.subarray(from, at))
        onRow(valuesOf(bytes, at + HEADER))
        from = end
      }
      at = end
    }
    if (from < at) reader(bytes.subarray(from, at))
    if (at < bytes.length) {
      pieces = [bytes.subarray(at)]
      held = bytes.length - at
      needed = held < HEADER ? HEADER : 1 + bytes.readUInt32BE(at + 1)
    }
  }
  stream.removeListener('data', reader)
  stream.on('data', onData)
  return giveBack
}

/**
 * A query whose rows are kept as the bytes PostgreSQL sent (`received`), where node-postgres decodes every
 * value into a string. Everything else is node-postgres's own: the statement prepared once per connection
 * under its name, the parameters, errors, the pool's queue. Given to `pool.query`, whose promise settles
 * when the query is over; its rows are then on the query.
 *
 * Why: a document of the read model goes from PostgreSQL into an answer's bytes. Decoded into a string and
 * encoded back, a 2.8 kB contract detail with accented letters took 4.2 and 2 µs of the service's one thread
 * (200,000 times each); copied as bytes, 0.1. (docs/performance.md, *Documents read as bytes*.)
 */
export class BytesQuery extends pg.Query {
  /**
   * The rows, as received. Not `rows`: node-postgres reads a query's `rows` as how many rows to fetch at a
   * time, and any value there makes it ask for them in pages, sending its Sync in a write of its own once
   * they are in: two writes and two round trips a query instead of one.
   */
  readonly received: ByteRow[] = []

  constructor(config: pg.QueryConfig) {
    super(config)
    const submit = this.submit
    // Query declares submit as a property in its types (a method at run time): replaced the same way.
    // An Error returned (not thrown) fails the query alone, as node-postgres's own submit does.
    this.submit = (connection: pg.Connection) => {
      const taken = takeRows(connection.stream, (row) => this.received.push(row))
      if (taken instanceof Error) return taken
      const refused = (submit as (connection: pg.Connection) => Error | null).call(this, connection)
      // Nothing was sent: nothing will come back.
      if (refused) taken()
      return refused
    }
  }
}
