import { storableText } from '../checks.js'
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

const INSERT = `INSERT INTO access_log (at, token_id, organization_id, order_number, status, request_id)
  SELECT * FROM unnest($1::timestamptz[], $2::bigint[], $3::uuid[], $4::text[], $5::smallint[], $6::text[])`

/** PostgreSQL refused the values themselves (SQLSTATE class 22, data exception), not the connection. */
const isDataError = (error: unknown) => String((error as { code?: unknown }).code ?? '').startsWith('22')

/**
 * The order query's access records, written in batches off the request path: a record per request
 * would double the database's work on the hottest route. Flushed every intervalMs, when maxBatch
 * records wait, and on close. What a client sends is made storable before it is kept, a batch that the
 * database still refuses is written row by row so that one record cannot sink the others, and a batch
 * that meets an unreachable database waits for the next flush (up to maxPending records).
 */
export class AccessLog {
  private pending: AccessRecord[] = []
  private readonly timer: NodeJS.Timeout
  private flushing: Promise<void> = Promise.resolve()
  /** The database was unreachable at the last write: reported once per outage. */
  private away = false

  constructor(
    private readonly pool: Pool,
    private readonly onError: (error: Error) => void,
    intervalMs = 1000,
    private readonly maxBatch = 5000,
    private readonly maxPending = 100_000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs)
    this.timer.unref()
  }

  record(entry: AccessRecord): void {
    const orderNumber = entry.orderNumber === null ? null : storableText(entry.orderNumber, 200)
    this.pending.push({ ...entry, orderNumber })
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

  private insert(batch: readonly AccessRecord[]) {
    return this.pool.query(INSERT, [
      batch.map((r) => r.at.toISOString()),
      batch.map((r) => r.tokenId),
      batch.map((r) => r.organizationId),
      batch.map((r) => r.orderNumber),
      batch.map((r) => r.status),
      batch.map((r) => r.requestId),
    ])
  }

  private async write(batch: AccessRecord[]): Promise<void> {
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
