import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { issueToken } from '../../src/auth/tokens.js'
import { buildTestApp, listen } from '../helpers/app.js'
import { multiplyContracts, seededDatabase, type TestDatabase } from '../helpers/db.js'
import { startPaused, until } from '../helpers/http.js'
import { demoRecords, first } from '../helpers/records.js'

// Hardening, item 1: an export can neither hang nor take the connections the API needs.

const EXPORT = '/v1/transparency/export?resource=contracts&format=csv'

describe('exports are bounded', () => {
  let db: TestDatabase
  let app: FastifyInstance
  let base = ''
  let token = ''
  let orderNumber = ''
  let contractId = ''
  const records = demoRecords(
    { organizations: 1, orders: 5, contracts: 2, arps: 1, directContracts: 1, publicCalls: 1 },
    4,
  )
  /** Requests seem to come from this address (TRUST_PROXY is on in these apps). */
  const from = (address: string) => ({ 'x-forwarded-for': address })
  /** The export connections in use, seen from PostgreSQL. */
  const exportConnections = async () =>
    (
      await db.pool.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = 'compras-export' AND state <> 'idle'`,
      )
    ).rows[0].n as number

  before(async () => {
    db = await seededDatabase(records)
    await multiplyContracts(db.pool, 60_000)
    const order = first(records, 'order')
    orderNumber = order.number as string
    contractId = first(records, 'contract').id as string
    ;({ token } = await issueToken(db.pool, order.organization_uuid as string, null))
    app = await buildTestApp(db, {
      env: { TRUST_PROXY: 'true', EXPORT_CONCURRENCY: '4', IDLE_TIMEOUT: '5', PUBLIC_RATE_LIMIT: '0' },
    })
    base = await listen(app)
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  for (const query of ['modality_id=Infinity', 'date_to=0000-01-01']) {
    for (const format of ['xlsx', 'csv']) {
      it(`answers ${format} with ${query} at once with a 422, not a file that never ends`, async () => {
        const response = await fetch(
          `${base}/v1/transparency/export?resource=contracts&format=${format}&${query}`,
          {
            signal: AbortSignal.timeout(20_000),
          },
        )
        assert.equal(response.status, 422)
        const body = (await response.json()) as { success: boolean; message: string }
        assert.equal(body.success, false)
        assert.match(body.message, /^Parâmetro inválido: (modality_id|date_to)\./)
      })
    }
  }

  it('keeps the order query, details and /ready answering while slow readers hold every export', async () => {
    // allSettled, so that one export failing to start never leaves the others holding their places for the
    // tests after this one.
    const started = await Promise.allSettled(
      ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4'].map((address) =>
        startPaused(`${base}${EXPORT}`, from(address)),
      ),
    )
    const held = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
    try {
      for (const s of started) if (s.status === 'rejected') throw s.reason
      assert.equal(await exportConnections(), 4)
      const answers = await Promise.all([
        fetch(`${base}/ready`, { signal: AbortSignal.timeout(20_000) }),
        fetch(`${base}/external/orders?order_number=${encodeURIComponent(orderNumber)}`, {
          headers: { authorization: token },
          signal: AbortSignal.timeout(20_000),
        }),
        fetch(`${base}/v1/transparency/contracts/${contractId}`, { signal: AbortSignal.timeout(20_000) }),
        fetch(`${base}/v1/transparency/contracts?per_page=3&sort=amount_total`, {
          signal: AbortSignal.timeout(20_000),
        }),
      ])
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 200, 200],
      )
      // A fifth export finds no place: 503 in the envelope, with Retry-After.
      const refused = await fetch(`${base}${EXPORT}`, { headers: from('198.51.100.5') })
      assert.equal(refused.status, 503)
      assert.equal(refused.headers.get('retry-after'), '30')
      assert.deepEqual(await refused.json(), {
        success: false,
        message: 'Exportações demais em andamento. Tente novamente em alguns instantes.',
      })
    } finally {
      for (const { response } of held) response.destroy()
    }
    await until(async () => (await exportConnections()) === 0, 10_000, 'export connections to be released')
  })

  it('runs one export at a time per address (429), and frees the place when it ends', async () => {
    const running = await startPaused(`${base}${EXPORT}`, from('198.51.100.20'))
    try {
      const second = await fetch(`${base}${EXPORT}`, { headers: from('198.51.100.20') })
      assert.equal(second.status, 429)
      // Every 429 says when to come back.
      assert.equal(second.headers.get('retry-after'), '30')
      assert.deepEqual(await second.json(), {
        success: false,
        message: 'Já há uma exportação deste endereço em andamento. Aguarde o fim dela.',
      })
    } finally {
      running.response.destroy()
    }
    await until(async () => {
      const again = await fetch(`${base}/v1/transparency/export?resource=arps&format=csv`, {
        headers: from('198.51.100.20'),
      })
      await again.arrayBuffer()
      return again.status === 200
    })
  })

  it('drops a reader that stops reading, and releases its connection', async () => {
    const paused = await startPaused(`${base}${EXPORT}`, from('198.51.100.30'))
    try {
      assert.equal(await exportConnections(), 1)
      // IDLE_TIMEOUT is 5 s: the server closes a connection on which nothing moved for that long, and its
      // cursor goes with it. (The paused client cannot see the close behind the bytes it has not read.)
      await until(
        async () => (await exportConnections()) === 0,
        15_000,
        'the export connection to be released',
      )
      paused.response.resume()
      assert.notEqual(await paused.outcome, 'end')
    } finally {
      paused.response.destroy()
    }
  })

  it('answers 503 in JSON when the query times out before its first row, and aborts a file cut short', async () => {
    const strict = await buildTestApp(db, { env: { EXPORT_TIMEOUT: '1', PUBLIC_RATE_LIMIT: '0' } })
    const strictBase = await listen(strict)
    const locker = await db.pool.connect()
    try {
      // The table is locked, so the query waits past its one-second statement timeout before any row.
      await locker.query('BEGIN')
      await locker.query('LOCK TABLE contracts IN ACCESS EXCLUSIVE MODE')
      const response = await fetch(`${strictBase}${EXPORT}`, { signal: AbortSignal.timeout(10_000) })
      assert.equal(response.status, 503)
      assert.match(response.headers.get('content-type') as string, /^application\/json/)
      assert.deepEqual(await response.json(), {
        success: false,
        message: 'A exportação demorou demais. Tente com filtros mais restritos.',
      })
      await locker.query('ROLLBACK')
      // A reader slower than the timeout gets a transfer cut short, never a file that looks complete.
      const slow = await startPaused(`${strictBase}${EXPORT}`)
      await new Promise((resolve) => setTimeout(resolve, 1500))
      slow.response.resume()
      assert.notEqual(await slow.outcome, 'end')
    } finally {
      await locker.query('ROLLBACK').catch(() => {})
      locker.release()
      await strict.close()
    }
  })
})
