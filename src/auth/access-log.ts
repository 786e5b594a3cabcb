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

/** A record waiting for its batch: its row of COPY's text format (with its newline), and its token. */
interface Pending {
  row: string
  /** The token's id, -1 for none (such records are not in the token index). */
  token: number
}

/** Token order; Array.prototype.sort is stable, so a token's records keep their order. */
const byToken = (a: Pending, b: Pending) => a.token - b.token

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
 * A batch goes in ordered by token (stable: each token's records stay in the order they came), the order
 * of the index that `compras token list` reads a token's last use by: in the order of arrival a batch's
 * thousand records land on as many leaves of that index, one after another at random. Ordered, they cost
 * PostgreSQL 8.2–8.9 µs of CPU a record against 11.1 (COPYs of 1,000 records ten times a second into an
 * access_log of 3 million rows, records spread over 3,000 tokens, 20 s each in turn); without that index
 * at all, 4.0. Ordering a batch costs the service 0.17–0.19 µs a record.
 * What a client sends is made storable before it is kept, a batch that the database still refuses is
 * written row by row so that one record cannot sink the others, and a batch that meets an unreachable
 * database waits for the next flush (up to maxPending records).
 */
export class AccessLog {
  private pending: Pending[] = []
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
    this.pending.push({
      row: copyRow([
        entry.at.toISOString(),
        entry.tokenId,
        entry.organizationId,
        orderNumber,
        entry.status,
        entry.requestId,
      ]),
      token: entry.tokenId ?? -1,
    })
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

  /**
   * COPYs records in, in token order (the batch itself stays in the order of arrival, which decides what
   * an unreachable database's overflow drops); a connection that failed otherwise than by refusing the
   * rows is not reused.
   */
  private async insert(records: readonly Pending[]) {
    let rows = ''
    for (const record of [...records].sort(byToken)) rows += record.row
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

  private async write(batch: Pending[]): Promise<void> {
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
