import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { MESSAGES } from '../../src/messages.js'
import { metricsPortOf } from '../../src/metrics.js'
import { serving } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { comparable, request } from '../helpers/http.js'
import { demoRecords, first } from '../helpers/records.js'

// Cached transparency answers are served from inside Fastify's path, with their bytes kept ready: the same
// answer over a real socket as app.inject gives, whatever the client asks for, and each one goes through the
// limit, the headers and the metrics as any other request.

describe('cached transparency answers', () => {
  let db: TestDatabase
  const records = demoRecords(
    { organizations: 1, orders: 4, contracts: 30, arps: 2, directContracts: 2, publicCalls: 2 },
    11,
  )
  const contract = () => first(records, 'contract').id as string

  before(async () => {
    db = await seededDatabase(records)
  })
  after(() => db.drop())

  it('answers each cached detail, page and helper from memory, as app.inject does, for every kind of client', async () => {
    const { app, base, store, close } = await serving(db, { env: { PUBLIC_RATE_LIMIT: '1000' } })
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
          const misses = store.misses
          const hit = await request(`${base}${path}`, headers)
          assert.equal(store.misses, misses, `${path} ${JSON.stringify(headers)} was answered from memory`)
          const injected = await app.inject({ url: path, headers })
          assert.equal(hit.status, injected.statusCode, `${path} ${JSON.stringify(headers)}`)
          assert.deepEqual(
            comparable(hit.headers),
            comparable(injected.headers),
            `${path} ${JSON.stringify(headers)}`,
          )
          assert.equal(hit.body, injected.rawPayload.toString('latin1'), `${path} ${JSON.stringify(headers)}`)
          assert.match(hit.headers['x-request-id'] as string, /^[\w.:@/+=-]+$/)
          if (headers['x-request-id']) assert.equal(hit.headers['x-request-id'], headers['x-request-id'])
          assert.equal(hit.headers['access-control-allow-origin'], '*')
        }
      }
    } finally {
      await close()
    }
  })

  it('counts cached answers against the per-address limit, and refuses past it', async () => {
    const { base, close } = await serving(db, { env: { PUBLIC_RATE_LIMIT: '3' } })
    try {
      const url = `${base}/v1/transparency/contracts/${contract()}`
      for (let i = 0; i < 3; i++) assert.equal((await request(url)).status, 200)
      const refused = await request(url)
      assert.equal(refused.status, 429)
      assert.equal(refused.headers['x-ratelimit-remaining'], '0')
      assert.equal(
        Buffer.from(refused.body, 'latin1').toString(),
        JSON.stringify({ success: false, message: MESSAGES.tooManyRequests }),
      )
      assert.ok(Number(refused.headers['retry-after']) >= 1)
    } finally {
      await close()
    }
  })

  it('looks a missing record up once, and answers a failed lookup with 500 until the next succeeds', async () => {
    const { base, store, close } = await serving(db, { env: { PUBLIC_RATE_LIMIT: '0' } })
    try {
      const misses = store.misses
      const notFound = await request(`${base}/v1/transparency/contracts/00000000-0000-4000-8000-000000000000`)
      assert.equal(notFound.status, 404)
      assert.equal(JSON.parse(Buffer.from(notFound.body, 'latin1').toString()).message, MESSAGES.notFound)
      assert.equal(store.misses, misses + 1)
      assert.equal(notFound.headers['access-control-allow-origin'], '*')

      const failing = `${base}/v1/transparency/contracts/${records.filter((r) => r.type === 'contract')[5]?.id}`
      const lookUp = store.detail.bind(store)
      let calls = 0
      store.detail = (...args: Parameters<typeof lookUp>) =>
        calls++ === 0 ? Promise.reject(new Error('a fault in the lookup')) : lookUp(...args)
      const failed = await request(failing)
      assert.equal(failed.status, 500)
      assert.deepEqual(JSON.parse(failed.body), { success: false, message: MESSAGES.internal })
      assert.equal((await request(failing)).status, 200, 'and the next lookup answers')
    } finally {
      await close()
    }
  })

  it('counts cached answers in the metrics under their route', async () => {
    const { app, base, close } = await serving(db, { env: { PUBLIC_RATE_LIMIT: '0', METRICS_PORT: '0' } })
    try {
      const url = `${base}/v1/transparency/contracts/${contract()}`
      for (let i = 0; i < 3; i++) assert.equal((await request(url)).status, 200)
      const port = metricsPortOf(app.metricsServer as NonNullable<typeof app.metricsServer>)
      const metrics = (await request(`http://127.0.0.1:${port}/metrics`)).body.split('\n')
      const route = 'route="/v1/transparency/contracts/:id"'
      const requests = metrics.find(
        (l) =>
          l.startsWith('compras_http_requests_total{') && l.includes(route) && l.includes('status="200"'),
      )
      assert.match(requests ?? '', / 3$/)
      const durations = metrics.find(
        (l) => l.startsWith('compras_http_request_duration_seconds_count{') && l.includes(route),
      )
      assert.match(durations ?? '', / 3$/)
    } finally {
      await close()
    }
  })

  it('logs a line for every request, cached or not, when LOG_REQUESTS is on', async () => {
    let logged = ''
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logged += chunk
        done()
      },
    })
    const { base, close } = await serving(db, {
      env: { PUBLIC_RATE_LIMIT: '0', LOG_REQUESTS: 'true', LOG_LEVEL: 'info' },
      logStream,
    })
    try {
      const url = `${base}/v1/transparency/contracts/${contract()}`
      await request(url)
      await request(url, { 'x-request-id': 'logged-2' })
    } finally {
      await close()
    }
    const lines = logged
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg === 'request')
    assert.equal(lines.length, 2)
    assert.equal(lines[1].reqId, 'logged-2')
    assert.equal(lines[1].status, 200)
  })
})
