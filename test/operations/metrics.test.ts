import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { MemoryLimiter } from '../../src/auth/rate-limit.js'
import { issueToken } from '../../src/auth/tokens.js'
import { ConfigError, loadConfig } from '../../src/config.js'
import { importRecords } from '../../src/import/importer.js'
import { metricsPortOf } from '../../src/metrics.js'
import { buildTestApp, listen } from '../helpers/app.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'
import { NO_REDIS, testRedis } from '../helpers/redis.js'

// Prometheus metrics on their own port (METRICS_PORT), and request ids: what an operator scrapes and greps.

/** One sample's value from Prometheus text: `name{labels} value`; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const braces = /^[^{ ]+(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!braces) continue
    const have = Object.fromEntries(
      [...(braces[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1] as string, m[2] as string]),
    )
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(braces[2])
  }
  return undefined
}

describe('metrics and request ids', () => {
  let db: TestDatabase
  let app: FastifyInstance
  let base: string
  let metricsUrl: string
  let token: string
  const records = demoRecords()
  const organization = first(records, 'organization')
  const contract = first(records, 'contract')
  const order = first(records, 'order', (o) => o.organization_uuid === organization.uuid)
  const scrape = async () => {
    const response = await fetch(metricsUrl)
    assert.equal(response.status, 200)
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/)
    return response.text()
  }

  before(async () => {
    db = await createTestDatabase()
    assert.equal((await importRecords(db.pool, [source(ndjson(records))])).ok, true)
    ;({ token } = await issueToken(db.pool, organization.uuid as string, 'metrics'))
    app = await buildTestApp(db, {
      limiter: new MemoryLimiter(),
      env: { METRICS_PORT: '0', HOST: '127.0.0.1', PUBLIC_RATE_LIMIT: '0' },
    })
    base = await listen(app)
    metricsUrl = `http://127.0.0.1:${metricsPortOf(app.metricsServer as never)}/metrics`
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  it('counts requests by route pattern and status, never by the raw URL', async () => {
    const before = await scrape()
    const route = { route: '/v1/transparency/contracts/:id', method: 'GET', status: '200' }
    const was = sample(before, 'compras_http_requests_total', route) ?? 0
    for (let i = 0; i < 3; i++)
      assert.equal((await fetch(`${base}/v1/transparency/contracts/${contract.id}`)).status, 200)
    assert.equal((await fetch(`${base}/nao-existe/${'x'.repeat(20)}`)).status, 404)
    const text = await scrape()
    assert.equal(sample(text, 'compras_http_requests_total', route), was + 3)
    assert.ok((sample(text, 'compras_http_requests_total', { route: 'unmatched', status: '404' }) ?? 0) >= 1)
    assert.ok(!text.includes('nao-existe'), 'a client-chosen path never becomes a label')
    assert.equal(
      sample(text, 'compras_http_request_duration_seconds_count', { route: route.route, status: '200' }),
      was + 3,
    )
    // The same document asked three times: at least two answered from the cache.
    assert.ok((sample(text, 'compras_cache_hits_total') ?? 0) >= 2)
    assert.ok((sample(text, 'compras_cache_misses_total') ?? 0) >= 1)
    assert.ok((sample(text, 'compras_cache_bytes') ?? 0) > 0)
  })

  it('counts failed authentications and rate-limit rejections', async () => {
    const before = sample(await scrape(), 'compras_auth_failures_total') ?? 0
    const url = `${base}/external/orders?order_number=${encodeURIComponent(order.number as string)}`
    assert.equal((await fetch(url)).status, 401)
    assert.equal((await fetch(url, { headers: { authorization: 'Bearer nao-e-um-token' } })).status, 401)
    assert.equal((await fetch(url, { headers: { authorization: token } })).status, 200)
    const text = await scrape()
    assert.equal(sample(text, 'compras_auth_failures_total'), before + 2)
    // 61 queries in one second with one token: the 61st is refused.
    const answers = await Promise.all(
      Array.from({ length: 61 }, () =>
        fetch(url, { headers: { authorization: token } }).then((r) => r.status),
      ),
    )
    const refused = answers.filter((status) => status === 429).length
    assert.ok(refused >= 1)
    assert.equal(sample(await scrape(), 'compras_rate_limited_total', { route: '/external/orders' }), refused)
  })

  it('counts exported rows, pool connections, imports and rebuilt documents, and the database as up', async () => {
    const before = sample(await scrape(), 'compras_export_rows_total') ?? 0
    const csv = await (await fetch(`${base}/v1/transparency/export?resource=contracts&format=csv`)).text()
    const rows = csv.trimEnd().split('\r\n').length - 1
    assert.ok(rows > 0)
    const changed = {
      ...order,
      status_title: order.status_title === 'Emitida' ? 'Recebido total' : 'Emitida',
    }
    assert.equal((await importRecords(db.pool, [source(ndjson([changed]))])).ok, true)
    assert.equal((await importRecords(db.pool, [source('{"type":"order"}')])).ok, false)
    const text = await scrape()
    assert.equal(sample(text, 'compras_export_rows_total'), before + rows)
    assert.ok((sample(text, 'compras_db_pool_connections', { pool: 'api', state: 'total' }) ?? -1) >= 1)
    assert.equal(sample(text, 'compras_db_pool_connections', { pool: 'api', state: 'waiting' }), 0)
    assert.equal(sample(text, 'compras_database_up'), 1)
    // The fixture's load, and the change: two runs that took; one refused.
    assert.equal(sample(text, 'compras_import_runs_total', { result: 'ok' }), 2)
    assert.equal(sample(text, 'compras_import_runs_total', { result: 'refused' }), 1)
    assert.equal(sample(text, 'compras_import_records_total', { result: 'ok' }), records.length + 1)
    // The change rebuilt the order's document and those that show it, and its process's OCDS release, not
    // the whole read model.
    const rebuilt = sample(text, 'compras_document_rebuilds_total', { result: 'ok' }) ?? 0
    const { rows: all } = await db.pool.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM order_documents) + (SELECT count(*) FROM detail_documents)
        + (SELECT count(*) FROM ocds_releases) AS n`,
    )
    assert.ok(rebuilt > Number(all[0]?.n) && rebuilt <= Number(all[0]?.n) + 4, `${rebuilt}`)
    assert.ok((sample(text, 'compras_process_resident_memory_bytes') ?? 0) > 0, 'the process defaults')
    assert.equal(sample(text, 'compras_redis_up'), undefined, 'no Redis configured: no Redis gauge')
  })

  it('serves metrics only on their own port', async () => {
    assert.equal((await fetch(`${base}/metrics`)).status, 404)
    assert.equal((await fetch(metricsUrl.replace('/metrics', '/other'))).status, 404)
  })

  it("sends back the client's sane X-Request-Id, replaces any other, and records it with the access", async () => {
    const url = `${base}/external/orders?order_number=${encodeURIComponent(order.number as string)}`
    const sent = 'lb-7f3a:0001'
    const answer = await fetch(url, { headers: { authorization: token, 'x-request-id': sent } })
    assert.equal(answer.headers.get('x-request-id'), sent)
    for (const bad of ['com espaço', 'x'.repeat(129), 'a\u00e7\u00e3o']) {
      const response = await fetch(`${base}/health`, {
        headers: { 'x-request-id': encodeURI(bad) === bad ? bad : bad },
      }).catch(() => undefined)
      if (!response) continue // a header fetch itself refuses to send
      assert.match(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/)
    }
    const made = await fetch(`${base}/v1/transparency/contracts/${contract.id}`)
    assert.match(made.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/)
    const missing = await fetch(`${base}/nao-existe`)
    assert.match(missing.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/)
    await app.close() // flushes the access log
    const { rows } = await db.pool.query('SELECT status FROM access_log WHERE request_id = $1', [sent])
    assert.deepEqual(rows, [{ status: answer.status }]) // 200, or 429 if the test before left the window full
    app = await buildTestApp(db, { limiter: new MemoryLimiter() })
  })

  it('shows Redis as up when the instance shares its limits through Redis', async (t) => {
    const redis = await testRedis()
    if (!redis) return t.skip(NO_REDIS)
    const shared = await buildTestApp(db, {
      env: { METRICS_PORT: '0', HOST: '127.0.0.1', REDIS_URL: redis.url },
    })
    try {
      const port = metricsPortOf(shared.metricsServer as never)
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
      assert.equal(sample(text, 'compras_redis_up'), 1)
    } finally {
      await shared.close()
      await redis.stop()
    }
  })

  it('refuses a METRICS_PORT that is not a port, naming it', () => {
    assert.throws(
      () => loadConfig({ METRICS_PORT: 'noventa' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError)
        assert.match(error.message, /^METRICS_PORT must be an integer from 0 to 65535/)
        return true
      },
    )
    assert.equal(loadConfig({}).metricsPort, undefined)
  })
})
