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

const COPY = 'COPY access_log (at, token_id, organization_id, order_number, status, request_id) FROM STDIN'

/** PostgreSQL refused the values themselves (SQLSTATE class 22, data exception), not the connection. */
const isDataError = (error: unknown) => String((error as { code?: unknown }).code ?? '').startsWith('22')

/**
 * The order query's access records, written in batches off the request path: a record per request
 * would double the database's work on the hottest route. Each is kept as its row of COPY's text format
 * from the moment it is recorded, and a batch goes in by COPY: 20,000 records as array parameters of an
 * INSERT cost PostgreSQL about 170 ms (90 of them the foreign key to access_tokens that migration 0012
 * drops), and about 50 ms by COPY. Flushed every intervalMs, when maxBatch records wait, and on close.
 * Batches of 1,000, not 5,000: PostgreSQL writes the same rows either way, but a batch of 5,000 held a
 * backend busy long enough, on a machine of two cores, to lengthen the order query's tail (the benchmark's
 * order scenarios, batch sizes alternated in one service: p99 5.3–12.1 ms against 9.7–14.5 ms with every
 * answer in memory, and 22.9–24.3 ms against 31.1–38.4 ms with every answer read from the database).
 * What a client sends is made storable before it is kept, a batch that the database still refuses is
 * written row by row so that one record cannot sink the others, and a batch that meets an unreachable
 * database waits for the next flush (up to maxPending records).
 */
export class AccessLog {
  /** Rows of COPY's text format, each with its newline. */
  private pending: string[] = []
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
    this.timer = setInterval(() => void this.flush(), intervalMs)
    this.timer.unref()
  }

  record(entry: AccessRecord): void {
    const orderNumber = entry.orderNumber === null ? null : storableText(entry.orderNumber, 200)
    this.pending.push(
      copyRow([
        entry.at.toISOString(),
        entry.tokenId,
        entry.organizationId,
        orderNumber,
        entry.status,
        entry.requestId,
      ]),
    )
    if (this.pending.length >= this.maxBatch) void this.flush()
  }

  /** Writes what is pending; resolves when it (and any flush before it) is written or given up. */
  flush(): Promise<void> {
    const batch = this.pending
    if (batch.length === 0) return this.flushing
    this.pending = []
    this.flushing = this.flushing.then(() => this.write(batch))
    return this.flushing
  }

  /** COPYs rows in; a connection that failed otherwise than by refusing the rows is not reused. */
  private async insert(rows: readonly string[]) {
    const client = await this.pool.connect()
    let broken: Error | undefined
    try {
      await copyIn(client, COPY, rows.join(''))
    } catch (error) {
      if (!isDataError(error)) broken = error as Error
      throw error
    } finally {
      client.release(broken)
    }
  }

  private async write(batch: string[]): Promise<void> {
    try {
      await this.insert(batch)
      this.away = false
    } catch (error) {
      if (!isDataError(error)) {
        // The database is away: keep the records for the next flush, the oldest dropped past maxPending.
        this.pending = [...batch, ...this.pending].slice(-this.maxPending)
        if (!this.away) this.onError(error as Error)
        this.away = true
        return
      }
      let refused = 0
      for (const record of batch) {
        try {
          await this.insert([record])
        } catch {
          refused++
        }
      }
      if (refused > 0)
        this.onError(new Error(`${refused} of ${batch.length} access records were refused by the database`))
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }
}
