import type { Pool } from '../db/pool.js'

export interface AccessRecord {
  at: Date
  tokenId: number | null
  organizationId: string | null
  orderNumber: string | null
  status: number
}

/**
 * The order query's access records, written in batches off the request path: a record per request
 * would double the database's work on the hottest route. Flushed every intervalMs, when maxBatch
 * records wait, and on close.
 */
export class AccessLog {
  private pending: AccessRecord[] = []
  private readonly timer: NodeJS.Timeout
  private flushing: Promise<void> = Promise.resolve()

  constructor(
    private readonly pool: Pool,
    private readonly onError: (error: Error) => void,
    intervalMs = 1000,
    private readonly maxBatch = 5000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs)
    this.timer.unref()
  }

  record(entry: AccessRecord): void {
    this.pending.push(entry)
    if (this.pending.length >= this.maxBatch) void this.flush()
  }

  /** Writes what is pending; resolves when it (and any flush before it) is written. */
  flush(): Promise<void> {
    const batch = this.pending
    if (batch.length === 0) return this.flushing
    this.pending = []
    this.flushing = this.flushing.then(() =>
      this.pool
        .query(
          `INSERT INTO access_log (at, token_id, organization_id, order_number, status)
           SELECT * FROM unnest($1::timestamptz[], $2::bigint[], $3::uuid[], $4::text[], $5::smallint[])`,
          [
            batch.map((r) => r.at.toISOString()),
            batch.map((r) => r.tokenId),
            batch.map((r) => r.organizationId),
            batch.map((r) => r.orderNumber),
            batch.map((r) => r.status),
          ],
        )
        .then(
          () => undefined,
          (error: Error) => this.onError(error),
        ),
    )
    return this.flushing
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }
}
