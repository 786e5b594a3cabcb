import assert from 'node:assert/strict'
import type http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { importRecords } from '../../src/import/importer.js'
import { DocumentStore } from '../../src/readmodel/store.js'
import { MESSAGES } from '../../src/transparency/messages.js'
import { buildTestApp, listen } from '../helpers/app.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { comparable, request } from '../helpers/http.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// Issue 12: cached transparency answers, and details looked up first, are served before Fastify
// (src/routes/hits.ts). A client cannot tell: each answer served that way is compared, header by header,
// with the one Fastify gives for the same request (app.inject goes straight to Fastify), and everything the
// shortcut does not answer (a missing record, HEAD, a refused request) still reaches Fastify.

describe('cached answers served before Fastify', () => {
  let db: TestDatabase
  const records = demoRecords(
    { organizations: 1, orders: 4, contracts: 30, arps: 2, directContracts: 2, publicCalls: 2 },
    11,
  )
  const contract = () => first(records, 'contract').id as string

  before(async () => {
    db = await createTestDatabase()
    const result = await importRecords(db.pool, [source(ndjson(records))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
  })
  after(() => db.drop())

  /** The app listening, and how many requests Fastify answered. */
  async function serving(env: Record<string, string>) {
    const app = await buildTestApp(db, { env })
    let reached = 0
    app.addHook('onResponse', (_request, _reply, done) => {
      reached++
      done()
    })
    const base = await listen(app)
    return { app, base, reached: () => reached }
  }

  it('answers each cached detail, page and helper as Fastify does, without entering it', async () => {
    const { app, base, reached } = await serving({ PUBLIC_RATE_LIMIT: '1000' })
    try {
      const paths = [
        `/v1/transparency/contracts/${contract()}`,
        `/v1/transparency/contracts/${contract().toUpperCase()}`,
        '/v1/transparency/contracts?per_page=5',
        '/v1/transparency/arps',
        '/v1/transparency/helpers/bidding-statuses',
      ]
      const variants: Record<string, string>[] = [
        {},
        { 'accept-encoding': 'br' },
        { 'accept-encoding': 'gzip' },
        { 'accept-encoding': 'gzip', 'x-no-compression': '1' },
        { 'x-request-id': 'client-chosen.id-1' },
        { origin: 'https://example.org' },
      ]
      for (const path of paths) {
        const built = await request(`${base}${path}`)
        assert.equal(built.status, 200, path)
        for (const headers of [...variants, { 'if-none-match': built.headers.etag as string }]) {
          const before = reached()
          const hit = await request(`${base}${path}`, headers)
          assert.equal(reached(), before, `${path} ${JSON.stringify(headers)} was served before Fastify`)
          const fastify = await app.inject({ url: path, headers })
          assert.equal(hit.status, fastify.statusCode, `${path} ${JSON.stringify(headers)}`)
          assert.deepEqual(
            comparable(hit.headers),
            comparable(fastify.headers),
            `${path} ${JSON.stringify(headers)}`,
          )
          assert.equal(hit.body, fastify.rawPayload.toString('latin1'), `${path} ${JSON.stringify(headers)}`)
          assert.match(hit.headers['x-request-id'] as string, /^[\w.:@/+=-]+$/)
          if (headers['x-request-id']) assert.equal(hit.headers['x-request-id'], headers['x-request-id'])
          // The limit counted it: one fewer left than Fastify's answer just before it showed.
          assert.equal(
            Number(hit.headers['x-ratelimit-remaining']),
            Number(fastify.headers['x-ratelimit-remaining']) + 1,
          )
        }
      }
      // Not in the cache, or not a GET, or not one of these routes: Fastify answers.
      for (const [method, path, status] of [
        ['GET', '/v1/transparency/contracts/00000000-0000-4000-8000-000000000000', 404],
        ['GET', '/v1/transparency/contracts/not-a-uuid', 400],
        ['GET', '/v1/transparency/contracts?per_page=5&page=2', 200],
        ['GET', '/v1/transparency/nothing-here', 404],
        ['HEAD', `/v1/transparency/contracts/${contract()}`, 200],
        ['OPTIONS', `/v1/transparency/contracts/${contract()}`, 204],
      ] as const) {
        const before = reached()
        const got = await request(
          `${base}${path}`,
          { origin: 'https://example.org', 'access-control-request-method': 'GET' },
          method,
        )
        assert.equal(got.status, status, `${method} ${path}`)
        assert.equal(reached(), before + 1, `${method} ${path} reached Fastify`)
      }
    } finally {
      await app.close()
    }
  })

  it('counts hits against the per-address limit, and leaves the refusal to Fastify', async () => {
    const { app, base, reached } = await serving({ PUBLIC_RATE_LIMIT: '3' })
    try {
      const url = `${base}/v1/transparency/contracts/${contract()}`
      const seen: string[] = []
      for (let i = 0; i < 3; i++) seen.push((await request(url)).headers['x-ratelimit-remaining'] as string)
      assert.deepEqual(seen, ['2', '1', '0'])
      assert.equal(reached(), 0, 'the first was looked up before Fastify; the next two were hits')
      const refused = await request(url)
      assert.equal(refused.status, 429)
      assert.equal(
        Buffer.from(refused.body, 'latin1').toString(),
        JSON.stringify({ success: false, message: MESSAGES.tooManyRequests }),
      )
      assert.ok(Number(refused.headers['retry-after']) >= 1)
      assert.equal(refused.headers['x-ratelimit-remaining'], '0')
      assert.equal(reached(), 1)
    } finally {
      await app.close()
    }
  })

  it('looks a detail up before Fastify, and answers it as Fastify does', async () => {
    const store = new DocumentStore(db.pool, { cacheBytes: 1 << 20, onError: () => {} })
    await store.start()
    const app = await buildTestApp(db, { store, env: { PUBLIC_RATE_LIMIT: '1000' } })
    let reached = 0
    app.addHook('onResponse', (_request, _reply, done) => {
      reached++
      done()
    })
    try {
      const base = await listen(app)
      const contracts = records.filter((r) => r.type === 'contract').map((r) => r.id as string)
      const variants: Record<string, string>[] = [
        {},
        { 'accept-encoding': 'br' },
        { 'accept-encoding': 'gzip' },
      ]
      for (const [n, headers] of variants.entries()) {
        const path = `/v1/transparency/contracts/${contracts[n + 1]}`
        const misses = store.misses
        const looked = await request(`${base}${path}`, headers)
        assert.equal(store.misses, misses + 1, `${path} was not in the cache`)
        assert.equal(reached, 0, `${path} ${JSON.stringify(headers)} was answered before Fastify`)
        const fastify = await app.inject({ url: path, headers })
        assert.equal(looked.status, 200)
        assert.equal(looked.status, fastify.statusCode)
        assert.deepEqual(comparable(looked.headers), comparable(fastify.headers), JSON.stringify(headers))
        assert.equal(looked.body, fastify.rawPayload.toString('latin1'))
        assert.equal(
          Number(looked.headers['x-ratelimit-remaining']),
          Number(fastify.headers['x-ratelimit-remaining']) + 1,
        )
        reached = 0
      }

      // A missing record is looked up once and counted once: Fastify answers it, without either again.
      const missing = `${base}/v1/transparency/contracts/00000000-0000-4000-8000-000000000000`
      const remaining = Number(
        (await request(`${base}/v1/transparency/contracts/${contract()}`)).headers['x-ratelimit-remaining'],
      )
      const misses = store.misses
      const notFound = await request(missing)
      assert.equal(notFound.status, 404)
      assert.equal(JSON.parse(Buffer.from(notFound.body, 'latin1').toString()).message, MESSAGES.notFound)
      assert.equal(reached, 1, 'Fastify answered the missing record')
      assert.equal(store.misses, misses + 1, 'and did not look it up again')
      assert.equal(
        Number(notFound.headers['x-ratelimit-remaining']),
        remaining - 1,
        'the limit counted it once',
      )
      assert.equal(notFound.headers['access-control-allow-origin'], '*')

      // A failed lookup goes to Fastify, which answers the failure without trying again; counted once.
      const failing = `/v1/transparency/contracts/${contracts[5]}`
      const before = Number(
        (await app.inject({ url: `/v1/transparency/contracts/${contract()}` })).headers[
          'x-ratelimit-remaining'
        ],
      )
      const lookUp = store.detailAnswer.bind(store)
      let calls = 0
      store.detailAnswer = (...args: Parameters<typeof lookUp>) =>
        calls++ === 0 ? Promise.reject(new Error('a fault in the lookup')) : lookUp(...args)
      const failed = await request(`${base}${failing}`)
      assert.equal(calls, 1, 'the route answered the failure without looking the record up again')
      assert.equal(failed.status, 500)
      assert.deepEqual(JSON.parse(failed.body), { success: false, message: MESSAGES.internal })
      assert.equal(Number(failed.headers['x-ratelimit-remaining']), before - 1)
      assert.equal((await request(`${base}${failing}`)).status, 200, 'and the next lookup answers')
    } finally {
      await app.close()
      await store.close()
    }
  })

  it('counts hits in the metrics under their route, as Fastify counts the rest', async () => {
    const { app, base } = await serving({ PUBLIC_RATE_LIMIT: '0', METRICS_PORT: '0' })
    try {
      const url = `${base}/v1/transparency/contracts/${contract()}`
      for (let i = 0; i < 3; i++) assert.equal((await request(url)).status, 200)
      const server = (app as unknown as { metricsServer: http.Server }).metricsServer
      const metrics = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)
      const line = metrics.body
        .split('\n')
        .find(
          (l) =>
            l.startsWith('compras_http_requests_total{') &&
            l.includes('route="/v1/transparency/contracts/:id"') &&
            l.includes('status="200"'),
        )
      assert.ok(line, metrics.body)
      assert.match(line, / 3$/)
      const count = metrics.body
        .split('\n')
        .find(
          (l) =>
            l.startsWith('compras_http_request_duration_seconds_count{') &&
            l.includes('route="/v1/transparency/contracts/:id"'),
        )
      assert.match(count as string, / 3$/)
    } finally {
      await app.close()
    }
  })

  it('hands the request to Fastify, as it was, when serving a hit fails', async () => {
    const store = new DocumentStore(db.pool, { cacheBytes: 1 << 20, onError: () => {} })
    await store.start()
    const app = await buildTestApp(db, { store, env: { PUBLIC_RATE_LIMIT: '0' } })
    try {
      const base = await listen(app)
      const url = `${base}/v1/transparency/contracts/${contract()}`
      const built = await request(url, { 'accept-encoding': 'br' })
      const cached = store.cached.bind(store)
      let calls = 0
      store.cached = (key: string) => {
        if (calls++ === 0) throw new Error('a fault while serving a hit')
        return cached(key)
      }
      const got = await request(url, { 'accept-encoding': 'br' })
      assert.equal(calls, 2, 'the shortcut failed, then Fastify looked the answer up')
      assert.equal(got.status, 200)
      assert.deepEqual(comparable(got.headers), comparable(built.headers))
      assert.equal(got.body, built.body)
      assert.equal((await request(url)).status, 200, 'and the service still answers')

      // The same when answering a detail looked up first fails.
      const tenth = records.filter((r) => r.type === 'contract')[9]?.id as string
      const other = `${base}/v1/transparency/contracts/${tenth}`
      const lookUp = store.detailAnswer.bind(store)
      let lookups = 0
      store.detailAnswer = (...args: Parameters<typeof lookUp>) =>
        lookups++ === 0 ? Promise.resolve({} as Awaited<ReturnType<typeof lookUp>>) : lookUp(...args)
      const answered = await request(other)
      assert.equal(lookups, 2, 'the shortcut failed to answer, then the route looked the record up')
      assert.equal(answered.status, 200)
      assert.equal(JSON.parse(Buffer.from(answered.body, 'latin1').toString()).message, MESSAGES.success)
    } finally {
      await app.close()
      await store.close()
    }
  })

  it('lets Fastify answer everything, hits included, when each request is logged', async () => {
    const { app, base, reached } = await serving({ PUBLIC_RATE_LIMIT: '0', LOG_REQUESTS: 'true' })
    try {
      const url = `${base}/v1/transparency/contracts/${contract()}`
      await request(url)
      await request(url)
      assert.equal(reached(), 2)
    } finally {
      await app.close()
    }
  })
})
