import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { MemoryLimiter } from '../../src/auth/rate-limit.js'
import { issueToken } from '../../src/auth/tokens.js'
import { CONNECT_TIMEOUT_MS, createPool, type ServerPool } from '../../src/db/pool.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { MESSAGES } from '../../src/messages.js'
import { buildTestApp, listen } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { turns, until } from '../helpers/http.js'
import { startProxy, type TcpProxy, viaProxy } from '../helpers/proxy.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// The database goes away under load and comes back: a TCP proxy between the instance and PostgreSQL cuts
// every connection and refuses new ones, so the machine's own server is never stopped. Meanwhile another
// instance (a pool straight to the database) imports a change, which must be seen once the link is back.

const CUT_MS = 10_000
// Generous bounds (a loaded machine is slow, not hung): what they catch is a request that waits on the cut link.
const ANSWER_WITHIN_MS = 5000
const BACK_WITHIN_MS = 15_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the database unreachable for 10 s under load', () => {
  let db: TestDatabase
  let proxy: TcpProxy
  let pool: ServerPool
  let app: FastifyInstance
  let base: string
  let token: string
  /** The load's own token: the load may reach the 60-a-second limit; the probes must not. */
  let loadToken: string
  const records = demoRecords()
  const organization = first(records, 'organization')
  const orders = records.filter((r) => r.type === 'order' && r.organization_uuid === organization.uuid)
  const contracts = records.filter((r) => r.type === 'contract')

  /** One request: its status, body and how long it took. */
  const timed = async (path: string, authorization?: string) => {
    const started = performance.now()
    const response = await fetch(`${base}${path}`, {
      headers: authorization ? { authorization } : {},
      signal: AbortSignal.timeout(15_000),
    })
    const body = await response.text()
    return { status: response.status, body, ms: performance.now() - started }
  }
  const orderPath = (order: DemoRecord) =>
    `/external/orders?order_number=${encodeURIComponent(order.number as string)}`

  before(async () => {
    db = await seededDatabase(records)
    ;({ token } = await issueToken(db.pool, organization.uuid as string, 'faults'))
    ;({ token: loadToken } = await issueToken(db.pool, organization.uuid as string, 'faults, load'))
    const url = new URL(db.url)
    proxy = await startProxy(url.hostname, Number(url.port || 5432))
    pool = createPool(viaProxy(db.url, proxy), { max: 10, connectTimeoutMs: CONNECT_TIMEOUT_MS })
    app = await buildTestApp({ pool }, { limiter: new MemoryLimiter(), env: { PUBLIC_RATE_LIMIT: '0' } })
    base = await listen(app)
  })
  after(async () => {
    await app.close()
    await pool.end()
    await proxy.close()
    await db.drop()
  })

  it('answers within seconds while cut, serves again soon after the return, nothing stale, no client leaked', async () => {
    const contract = contracts[0] as DemoRecord
    const detailPath = `/v1/transparency/contracts/${contract.id}`
    // Cached before the cut: once the link is back, this must not be what is served.
    assert.equal((await timed(detailPath)).status, 200)
    assert.equal((await timed(orderPath(orders[0] as DemoRecord), token)).status, 200)

    // Load: eight clients asking for orders, details and a listing, one after another, all along.
    let loading = true
    const seen: { status: number; ms: number; path: string }[] = []
    const loop = async (i: number) => {
      for (let n = i; loading; n += 8) {
        const order = orders[n % orders.length] as DemoRecord
        const path =
          n % 3 === 0
            ? orderPath(order)
            : n % 3 === 1
              ? `/v1/transparency/contracts/${(contracts[n % contracts.length] as DemoRecord).id}`
              : `/v1/transparency/contracts?per_page=5&page=${1 + (n % 3)}`
        const answer = await timed(path, n % 3 === 0 ? loadToken : undefined).catch((error: Error) => ({
          status: 0,
          ms: 0,
          body: error.message,
        }))
        seen.push({ status: answer.status, ms: answer.ms, path })
      }
    }
    const load = Promise.all(Array.from({ length: 8 }, (_, i) => loop(i)))
    try {
      await underLoad()
    } finally {
      // A failed assertion stops the load too: the test fails, its loops never outlive it.
      loading = false
      await load
    }
    const slowest = Math.max(...seen.map((s) => s.ms))
    assert.ok(slowest < ANSWER_WITHIN_MS + 1000, `a request under load took ${slowest} ms`)
    const statuses = new Set(seen.map((s) => s.status))
    // 429: the load's own token past its 60 a second.
    for (const status of statuses)
      assert.ok([200, 429, 500, 503].includes(status), `status ${status} under load`)
    assert.ok(seen.filter((s) => s.status === 200).length > 0)

    // Every client back in the pool, none waiting: nothing leaked by the failed requests. A leaked client
    // never returns; one still finishing its work on a busy machine returns within moments.
    const out = () => pool.totalCount - pool.idleCount
    await until(() => pool.waitingCount === 0 && out() <= 1, 5000).catch(() => {}) // the asserts say what is left
    assert.equal(pool.waitingCount, 0)
    // At most one client out: the cache's LISTEN connection, which stays checked out for good.
    assert.ok(out() <= 1, `${out()} clients still out`)
    assert.ok(pool.totalCount <= 10)

    /** The cut and the return, while the load runs. */
    async function underLoad() {
      await sleep(300)

      proxy.cut()
      const cutAt = performance.now()
      const changed = { ...contract, object_details: 'Objeto alterado durante o corte' }
      assert.equal((await importRecords(db.pool, [source(ndjson([changed]))])).ok, true)

      let probes = 0
      while (performance.now() - cutAt < CUT_MS) {
        const ready = await timed('/ready')
        assert.equal(ready.status, 503, ready.body)
        assert.ok(ready.ms < ANSWER_WITHIN_MS, `/ready took ${ready.ms} ms`)
        const order = await timed(orderPath(orders[probes % orders.length] as DemoRecord), token)
        assert.deepEqual(
          [order.status, order.body],
          [500, '{"message":"Erro interno do servidor","data":[]}'],
        )
        assert.ok(order.ms < ANSWER_WITHIN_MS, `the order query took ${order.ms} ms`)
        const detail = await timed(detailPath)
        assert.equal(detail.status, 503, detail.body)
        assert.deepEqual(JSON.parse(detail.body), { success: false, message: MESSAGES.unavailable })
        assert.ok(detail.ms < ANSWER_WITHIN_MS, `the detail took ${detail.ms} ms`)
        probes++
        await sleep(500)
      }
      assert.ok(probes >= 5)

      proxy.restore()
      const restoredAt = performance.now()
      for (const _turn of turns(1000, 'the service to come back')) {
        const [ready, order, detail] = await Promise.all([
          timed('/ready'),
          timed(orderPath(orders[1] as DemoRecord), token),
          timed(detailPath),
        ])
        if (ready.status === 200 && order.status === 200 && detail.status === 200) {
          assert.equal(
            JSON.parse(detail.body).data.object_details,
            changed.object_details,
            'a stale cached detail',
          )
          break
        }
        assert.ok(
          performance.now() - restoredAt < BACK_WITHIN_MS,
          `not back ${BACK_WITHIN_MS} ms after the return`,
        )
        await sleep(200)
      }
    }
  })
})
