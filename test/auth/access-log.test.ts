import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { AccessLog, type AccessRecord } from '../../src/auth/access-log.js'
import { createPool } from '../../src/db/pool.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { until } from '../helpers/http.js'
import { startProxy, type TcpProxy, viaProxy } from '../helpers/proxy.js'

// The order query's access records: written in batches by COPY, in token order, and kept while the
// database is away.

describe('the access log', () => {
  let db: TestDatabase

  before(async () => {
    db = await createTestDatabase()
  })
  after(() => db.drop())

  /** An access record at `at` of an order number, with no organization, as the access log tests send. */
  const accessRecord = (
    at: Date,
    orderNumber: string,
    tokenId: number | null = null,
    status = 200,
  ): AccessRecord => ({
    at,
    tokenId,
    organizationId: null,
    orderNumber,
    status,
    requestId: 'r',
  })

  /** The order numbers recorded at `at`, in the order COPY wrote them (ctid: where each row landed). */
  async function writtenAt(at: Date): Promise<string[]> {
    const { rows } = await db.pool.query('SELECT order_number FROM access_log WHERE at = $1 ORDER BY ctid', [
      at,
    ])
    return rows.map((row) => row.order_number)
  }

  /**
   * Runs body with an access log (batches of maxBatch, at most maxPending kept while the database is away)
   * whose pool reaches the database through a proxy that body may cut, and the faults it reported; the log,
   * the pool and the proxy are closed after.
   */
  async function throughProxy(
    body: (proxy: TcpProxy, log: AccessLog, faults: Error[]) => Promise<void>,
    maxBatch?: number,
    maxPending?: number,
  ) {
    const address = new URL(db.url)
    const proxy = await startProxy(address.hostname, Number(address.port || 5432))
    const pool = createPool(viaProxy(db.url, proxy), { max: 2 })
    const faults: Error[] = []
    const log = new AccessLog(pool, (error) => faults.push(error), 60_000, maxBatch, maxPending)
    try {
      await body(proxy, log, faults)
    } finally {
      await log.close()
      await pool.end()
      await proxy.close()
    }
  }

  it('writes a batch as soon as 1,000 records wait, without waiting for the timer', async () => {
    const log = new AccessLog(db.pool, (error) => assert.fail(error), 60_000)
    const at = new Date('2031-01-01T00:00:00Z')
    const written = async () =>
      Number((await db.pool.query('SELECT count(*) FROM access_log WHERE at = $1', [at])).rows[0].count)
    const record = (n: number) => log.record(accessRecord(at, `b-${n}`, null, 404))
    try {
      for (let n = 0; n < 999; n++) record(n)
      // A flush would have been sent at once; nothing is, with the timer a minute away.
      await new Promise((resolve) => setTimeout(resolve, 200))
      assert.equal(await written(), 0)
      record(999)
      await until(async () => (await written()) === 1000)
    } finally {
      await log.close()
    }
  })

  it("writes a batch in its token index's order, each token's records in the order they came", async () => {
    const log = new AccessLog(db.pool, (error) => assert.fail(error), 60_000)
    const at = new Date('2031-02-01T00:00:00Z')
    const sent: [number | null, string][] = [
      [900_003, 'c1'],
      [900_001, 'a1'],
      [null, 'n1'],
      [900_002, 'b1'],
      [900_001, 'a2'],
      [900_003, 'c2'],
      [null, 'n2'],
      [900_001, 'a3'],
    ]
    for (const [tokenId, orderNumber] of sent) log.record(accessRecord(at, orderNumber, tokenId))
    await log.close()
    assert.deepEqual(await writtenAt(at), ['n1', 'n2', 'a1', 'a2', 'a3', 'b1', 'c1', 'c2'])
  })

  it('keeps the records, and the process, when the connection is lost during a COPY', () =>
    throughProxy(async (proxy, log, faults) => {
      const at = new Date('2032-01-01T00:00:00Z')
      const locker = await db.pool.connect()
      try {
        // The COPY waits for this lock, so that the connection can be cut while it is under way.
        await locker.query('BEGIN')
        await locker.query('LOCK TABLE access_log IN ACCESS EXCLUSIVE MODE')
        log.record(accessRecord(at, 'cut', null, 404))
        const flushed = log.flush()
        await until(
          async () =>
            (
              await db.pool.query(
                `SELECT count(*)::int AS n FROM pg_stat_activity
                 WHERE wait_event_type = 'Lock' AND query LIKE 'COPY access_log%'`,
              )
            ).rows[0].n === 1,
        )
        proxy.cut()
        await flushed
        assert.equal(faults.length, 1)
        await locker.query('COMMIT')
        proxy.restore()
        await log.close()
        const { rows } = await db.pool.query('SELECT order_number FROM access_log WHERE at = $1', [at])
        assert.deepEqual(
          rows.map((row) => row.order_number),
          ['cut'],
        )
      } finally {
        await locker.query('ROLLBACK').catch(() => undefined)
        locker.release()
      }
    }))

  // Batches of 2, and at most 4 records kept while the database is away.
  it('keeps the newest records while the database is unreachable, in batches up to maxPending', () =>
    throughProxy(
      async (proxy, log, faults) => {
        const at = new Date('2032-02-01T00:00:00Z')
        proxy.cut()
        for (let n = 1; n <= 7; n++) log.record(accessRecord(at, `away-${n}`))
        await log.flush()
        assert.equal(faults.length, 1, 'an outage is reported once')
        proxy.restore()
        await log.close()
        const { rows } = await db.pool.query(
          'SELECT order_number FROM access_log WHERE at = $1 ORDER BY order_number',
          [at],
        )
        // Batches [1,2] [3,4] [5,6] [7]: past 4 records the oldest batches went, whole.
        assert.deepEqual(
          rows.map((row) => row.order_number),
          ['away-5', 'away-6', 'away-7'],
        )
      },
      2,
      4,
    ))

  it("keeps a quiet outage's flushes as one batch, and writes them all once the database is back", () =>
    throughProxy(
      async (proxy, log) => {
        const at = new Date('2032-03-01T00:00:00Z')
        proxy.cut()
        for (const [n, tokenId] of [3, 1, 2].entries()) {
          log.record(accessRecord(at, `quiet-${n}`, tokenId))
          await log.flush()
        }
        proxy.restore()
        await log.close()
        // One batch: written in token order.
        assert.deepEqual(await writtenAt(at), ['quiet-1', 'quiet-2', 'quiet-0'])
      },
      10,
      100,
    ))

  it('writes the rest of a batch when the database refuses one record', async () => {
    const faults: Error[] = []
    const log = new AccessLog(db.pool, (error) => faults.push(error), 60_000)
    const at = new Date('2030-01-01T00:00:00Z')
    log.record({
      at,
      tokenId: null,
      organizationId: null,
      orderNumber: 'lote-1',
      status: 401,
      requestId: 'r',
    })
    // Not a UUID: PostgreSQL refuses the whole INSERT ... unnest at once.
    log.record({
      at,
      tokenId: null,
      organizationId: 'not-a-uuid',
      orderNumber: 'lote-2',
      status: 401,
      requestId: 'r',
    })
    log.record({
      at,
      tokenId: null,
      organizationId: null,
      orderNumber: 'lote-3',
      status: 401,
      requestId: 'r',
    })
    await log.close()
    const { rows } = await db.pool.query(
      `SELECT order_number FROM access_log WHERE at = $1 ORDER BY order_number`,
      [at.toISOString()],
    )
    assert.deepEqual(
      rows.map((r) => r.order_number),
      ['lote-1', 'lote-3'],
    )
    assert.equal(faults.length, 1)
    assert.match(faults[0]?.message as string, /^1 of 3 access records were refused/)
  })
})
