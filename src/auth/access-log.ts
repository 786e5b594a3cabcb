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

/** Records of one batch as rows of COPY's text format, with each row's token (-1 for none). */
class Batch {
  readonly rows: string[] = []
  readonly tokens: number[] = []

  get count(): number {
    return this.rows.length
  }

  add(row: string, token: number): void {
    this.rows.push(row)
    this.tokens.push(token)
  }

  /** Adds the rows of another batch after its own, as long as they fit in capacity; false if not. */
  take(other: Batch, capacity: number): boolean {
    if (this.count + other.count > capacity) return false
    this.rows.push(...other.rows)
    this.tokens.push(...other.tokens)
    return true
  }

  /** The rows in token order, each token's in the order they came (Array.prototype.sort is stable). */
  ordered(): string {
    const { tokens } = this
    return Array.from(this.rows.keys())
      .sort((a, b) => (tokens[a] as number) - (tokens[b] as number))
      .map((i) => this.rows[i])
      .join('')
  }
}

const COPY = 'COPY access_log (at, token_id, organization_id, order_number, status, request_id) FROM STDIN'

/** PostgreSQL refused the values themselves (SQLSTATE class 22, data exception), not the connection. */
const isDataError = (error: unknown) => String((error as { code?: unknown }).code ?? '').startsWith('22')

/**
 * The order query's access records, written in batches off the request path: a record per request would
 * double the database's work on the hottest route. A batch goes in by COPY, every intervalMs, when maxBatch
 * records wait, and on close; ordered by token, the order of the index that `compras token list` reads a
 * token's last use by, so that a batch lands on few of its leaves. What a client sends is made storable
 * before it is kept, a batch that the database refuses is written row by row so that one record cannot sink
 * the others, and a batch that meets an unreachable database waits for the next flush (up to maxPending
 * records).
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
    this.current = new Batch()
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
      this.current = new Batch()
    }
    if (batches.length === 0) return this.flushing
    this.flushing = this.flushing.then(() => this.write(batches))
    return this.flushing
  }

  /** COPYs rows in; a connection that failed otherwise than by refusing the rows is not reused. */
  private async insert(rows: string) {
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
    for (const batch of batches)
      if (!this.unwritten.at(-1)?.take(batch, this.maxBatch)) this.unwritten.push(batch)
    let kept = this.unwritten.reduce((sum, batch) => sum + batch.count, 0)
    while (kept > this.maxPending) kept -= (this.unwritten.shift() as Batch).count
  }

  /** Writes a batch the database refused row by row, so that one record cannot sink the others. */
  private async writeEach(batch: Batch) {
    let refused = 0
    for (let i = 0; i < batch.count; i++) {
      try {
        await this.insert(batch.rows[i] as string)
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
