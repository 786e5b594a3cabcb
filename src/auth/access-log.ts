import { storableText } from '../checks.js'
import { copyIn, copyRow } from '../db/copy.js'
import type { Pool } from '../db/pool.js'

export interface AccessRecord {
  at: Date
  tokenId: number | null
  organizationId: string | null
  /** As the client sent it; made storable (no NUL or control characters, at most 200 characters) here. */
  orderNumber: string | null
  status: number
  /** The request's id (src/request-id.ts: already sane). */
  requestId: string
}

/** Bytes a batch starts with, doubled as it fills (1,000 rows of a typical record take about 150 kB). */
const FIRST_BYTES = 16 * 1024
/**
 * Records of one batch as the bytes COPY reads, outside V8's heap: each row written there as it is
 * recorded, with where it ends and its token. Kept as strings (and a small object each), a batch's records
 * survived the young generation's collections and were promoted: a record, from its making to its COPY,
 * cost the service 10.1–10.7 µs of CPU so, and 6.0–6.5 µs as bytes (200,000 records made and written in
 * turn, each way four times); under the order query's load, with every answer in memory, V8's collections
 * took about 3.5 µs a request against 1.3 (its own --trace-gc times over two services in turn, 24 s each).
 */
class Batch {
  private bytes = Buffer.allocUnsafe(FIRST_BYTES)
  private length = 0
  private readonly ends: Uint32Array
  /** Each row's token id, -1 for none (such records are not in the token index). */
  private readonly tokens: Float64Array
  count = 0

  constructor(capacity: number) {
    this.ends = new Uint32Array(capacity)
    this.tokens = new Float64Array(capacity)
  }

  /** Adds a row of COPY's text format (with its newline); the log sends a batch on as it fills. */
  add(row: string, token: number): void {
    // A UTF-16 unit takes at most three bytes in UTF-8.
    this.reserve(row.length * 3)
    this.end(this.bytes.write(row, this.length), token)
  }

  /** Adds the rows of another batch after its own, as long as they fit in its capacity; false if not. */
  take(other: Batch): boolean {
    if (this.count + other.count > this.ends.length) return false
    this.reserve(other.length)
    for (let i = 0; i < other.count; i++)
      this.end(other.row(i).copy(this.bytes, this.length), other.tokens[i] as number)
    return true
  }

  private reserve(bytes: number) {
    if (this.length + bytes <= this.bytes.length) return
    const grown = Buffer.allocUnsafe(Math.max(this.length + bytes, this.bytes.length * 2))
    this.bytes.copy(grown, 0, 0, this.length)
    this.bytes = grown
  }

  private end(written: number, token: number) {
    this.length += written
    this.ends[this.count] = this.length
    this.tokens[this.count] = token
    this.count++
  }

  /** Row i's bytes. */
  row(i: number): Buffer {
    return this.bytes.subarray(i === 0 ? 0 : this.ends[i - 1], this.ends[i])
  }

  /** The rows in token order, each token's in the order they came (Array.prototype.sort is stable). */
  ordered(): Buffer {
    const { tokens } = this
    const order = Array.from({ length: this.count }, (_, i) => i).sort(
      (a, b) => (tokens[a] as number) - (tokens[b] as number),
    )
    const out = Buffer.allocUnsafe(this.length)
    let at = 0
    for (const i of order) at += this.row(i).copy(out, at)
    return out
  }
}

const COPY = 'COPY access_log (at, token_id, organization_id, order_number, status, request_id) FROM STDIN'

/** PostgreSQL refused the values themselves (SQLSTATE class 22, data exception), not the connection. */
const isDataError = (error: unknown) => String((error as { code?: unknown }).code ?? '').startsWith('22')

/**
 * The order query's access records, written in batches off the request path: a record per request would
 * double the database's work on the hottest route. Each is kept as the bytes of its row of COPY's text format
 * from the moment it is recorded (Batch), and a batch goes in by COPY: 20,000 records as array parameters of
 * an INSERT cost PostgreSQL about 170 ms (90 of them the foreign key to access_tokens that migration 0012
 * drops), and about 50 ms by COPY. Flushed every intervalMs, when maxBatch records wait, and on close.
 * Batches of 1,000, not 5,000: PostgreSQL writes the same rows either way, but a batch of 5,000 held a
 * backend busy long enough, on a machine of two cores, to lengthen the order query's tail (the benchmark's
 * order scenarios, batch sizes alternated in one service: p99 5.3–12.1 ms against 9.7–14.5 ms with every
 * answer in memory, and 22.9–24.3 ms against 31.1–38.4 ms with every answer read from the database).
 * A batch goes in ordered by token (stable: each token's records stay in the order they came), the order of
 * the index that `compras token list` reads a token's last use by: in the order of arrival a batch's thousand
 * records land on as many leaves of that index, one after another at random. Ordered, they cost PostgreSQL
 * 8.2–8.9 µs of CPU a record against 11.1 (COPYs of 1,000 records ten times a second into an access_log of 3
 * million rows, records spread over 3,000 tokens, 20 s each in turn); without that index at all, 4.0. The
 * ordering is part of what a record costs the service (Batch).
 * What a client sends is made storable before it is kept, a batch that the database still refuses is written
 * row by row so that one record cannot sink the others, and a batch that meets an unreachable database waits
 * for the next flush (up to maxPending records).
 */
export class AccessLog {
  /** The batch records go to. */
  private current: Batch
  /** Batches the database was unreachable for, oldest first: written again, first, at the next flush. */
  private unwritten: Batch[] = []
  private readonly timer: NodeJS.Timeout
  private flushing: Promise<void> = Promise.resolve()
  /** The database was unreachable at the last write: reported once per outage. */
  private away = false

  constructor(
    private readonly pool: Pool,
    private readonly onError: (error: Error) => void,
    intervalMs = 1000,
    private readonly maxBatch = 1000,
    private readonly maxPending = 100_000,
  ) {
    this.current = new Batch(maxBatch)
    this.timer = setInterval(() => void this.flush(), intervalMs)
    this.timer.unref()
  }

  record(entry: AccessRecord): void {
    const orderNumber = entry.orderNumber === null ? null : storableText(entry.orderNumber, 200)
    this.current.add(
      copyRow([
        entry.at.toISOString(),
        entry.tokenId,
        entry.organizationId,
        orderNumber,
        entry.status,
        entry.requestId,
      ]),
      entry.tokenId ?? -1,
    )
    if (this.current.count >= this.maxBatch) void this.flush()
  }

  /** Writes what is pending; resolves when it (and any flush before it) is written or given up. */
  flush(): Promise<void> {
    const batches = this.unwritten
    this.unwritten = []
    if (this.current.count > 0) {
      batches.push(this.current)
      this.current = new Batch(this.maxBatch)
    }
    if (batches.length === 0) return this.flushing
    this.flushing = this.flushing.then(() => this.write(batches))
    return this.flushing
  }

  /** COPYs rows in; a connection that failed otherwise than by refusing the rows is not reused. */
  private async insert(rows: Buffer) {
    const client = await this.pool.connect()
    let broken: Error | undefined
    try {
      await copyIn(client, COPY, rows)
    } catch (error) {
      if (!isDataError(error)) broken = error as Error
      throw error
    } finally {
      client.release(broken)
    }
  }

  private async write(batches: Batch[]): Promise<void> {
    for (const [n, batch] of batches.entries()) {
      try {
        await this.insert(batch.ordered())
        this.away = false
      } catch (error) {
        if (isDataError(error)) {
          await this.writeEach(batch)
          continue
        }
        this.keep(batches.slice(n))
        if (!this.away) this.onError(error as Error)
        this.away = true
        return
      }
    }
  }

  /**
   * Keeps batches the database was unreachable for until the next flush, after those kept by the writes
   * before (which are in order), the oldest dropped whole past maxPending records. Each is merged into the
   * one kept before it where it fits, so that what waits takes memory by its records, not by the flushes of
   * a quiet instance during a long outage.
   */
  private keep(batches: Batch[]) {
    for (const batch of batches) if (!this.unwritten.at(-1)?.take(batch)) this.unwritten.push(batch)
    let kept = this.unwritten.reduce((sum, batch) => sum + batch.count, 0)
    while (kept > this.maxPending) kept -= (this.unwritten.shift() as Batch).count
  }

  /** Writes a batch the database refused row by row, so that one record cannot sink the others. */
  private async writeEach(batch: Batch) {
    let refused = 0
    for (let i = 0; i < batch.count; i++) {
      try {
        await this.insert(batch.row(i))
      } catch {
        refused++
      }
    }
    if (refused > 0)
      this.onError(new Error(`${refused} of ${batch.count} access records were refused by the database`))
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }
}
