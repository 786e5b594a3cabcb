import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { gunzipSync } from 'node:zlib'
import { issueToken } from '../../src/auth/tokens.js'
import { importRecords } from '../../src/import/importer.js'
import { metricsPortOf } from '../../src/metrics.js'
import { serving } from '../helpers/app.js'
import { multiplyContracts, seededDatabase, type TestDatabase } from '../helpers/db.js'
import { parseResponse, rawRequest, request, startPaused, until } from '../helpers/http.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// Hardening, second round: what a hostile probe found in the portal, the proxies, the caches and the logs.

const CSP = /^default-src 'self'/

describe('the public limit, unrouted paths, shared caches and logs', () => {
  let db: TestDatabase
  const records = demoRecords(
    { organizations: 2, orders: 4, contracts: 12, arps: 2, directContracts: 3, publicCalls: 3 },
    48,
  )
  const contract = () => first(records, 'contract').id as string

  before(async () => {
    db = await seededDatabase(records)
  })
  after(() => db.drop())

  describe('the portal refuses cheaply and counts toward the per-address limit', () => {
    it('refuses a listing with thousands of unknown parameters for the first, and says which', async () => {
      const { base, close } = await serving(db, { env: { PUBLIC_RATE_LIMIT: '0' } })
      try {
        const names = Array.from({ length: 1700 }, (_, i) => `x${i}=1`)
        const got = await request(`${base}/contratos?${names.join('&')}`)
        assert.equal(got.status, 422)
        const page = Buffer.from(got.body, 'latin1').toString()
        assert.equal(page.match(/Parâmetro desconhecido/g)?.length, 1)
        assert.match(page, /Parâmetro desconhecido: x0\. Aceitos: page, per_page, organization_uuid/)
      } finally {
        await close()
      }
    })

    it('shares one budget per address between the pages and the API, files apart', async () => {
      const { base, close } = await serving(db, { env: { PUBLIC_RATE_LIMIT: '4' } })
      try {
        for (const path of ['/', '/contratos', `/v1/transparency/contracts/${contract()}`, '/atas'])
          assert.equal((await request(`${base}${path}`)).status, 200, path)
        // The page's own files are not counted.
        assert.equal((await request(`${base}/static/portal.css`)).status, 200)
        assert.equal((await request(`${base}/favicon.ico`)).status, 200)
        const page = await request(`${base}/`)
        assert.equal(page.status, 429)
        assert.match(page.headers['content-type'] as string, /^text\/html/)
        assert.match(page.headers['content-security-policy'] as string, CSP)
        assert.ok(Number(page.headers['retry-after']) >= 1)
        assert.match(
          Buffer.from(page.body, 'latin1').toString(),
          /Muitas requisições deste endereço\. Tente novamente em alguns segundos\./,
        )
        const api = await request(`${base}/v1/transparency/contracts`)
        assert.equal(api.status, 429)
        assert.equal(api.headers['x-ratelimit-remaining'], '0')
      } finally {
        await close()
      }
    })
  })

  describe('the organ menu', () => {
    it("renders a hostile organization's name as text, in a listing filtered by it and among a name's matches", async () => {
      const hostile = {
        type: 'organization',
        uuid: 'aaaaaaaa-0000-4000-8000-00000000e111',
        name: 'Prefeitura </option></select><a href=//evil.example>clique</a>',
        document: '11222333000181',
      }
      assert.equal((await importRecords(db.pool, [source(ndjson([hostile]))])).ok, true)
      const { base, close } = await serving(db, { env: { PUBLIC_RATE_LIMIT: '0' } })
      try {
        for (const path of [`/contratos?organization_uuid=${hostile.uuid}`, '/contratos?orgao=Prefeitura']) {
          const page = Buffer.from((await request(`${base}${path}`)).body, 'latin1').toString()
          assert.doesNotMatch(page, /<a href=\/\/evil\.example>/, path)
          assert.doesNotMatch(page, /<\/option><\/select><a/, path)
          assert.match(
            page,
            /Prefeitura &lt;\/option(>|&gt;)&lt;\/select(>|&gt;)&lt;a href=\/\/evil\.example/,
            path,
          )
        }
      } finally {
        await close()
      }
    })
  })

  describe('TRUST_PROXY never takes the address a client wrote', () => {
    // What an appending proxy (nginx's $proxy_add_x_forwarded_for) sends when a client sent its own header.
    const spoofed = (i: number) => ({ 'x-forwarded-for': `10.9.${i}.1, 198.51.100.7` })

    for (const setting of ['true', '1', '127.0.0.1', 'loopback, 10.0.0.0/8']) {
      it(`TRUST_PROXY=${setting}: the client is the right-most untrusted address, whatever it prepends`, async () => {
        const { base, close } = await serving(db, {
          env: {
            TRUST_PROXY: setting,
            PUBLIC_RATE_LIMIT: '20',
            AUTH_FAILURE_LIMIT: '5',
          },
        })
        try {
          const statuses: number[] = []
          for (let i = 0; i < 8; i++) {
            const got = await request(`${base}/external/orders?order_number=1`, {
              ...spoofed(i),
              authorization: 'A'.repeat(43),
            })
            statuses.push(got.status)
          }
          assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429])
          const seen: number[] = []
          for (let i = 0; i < 22; i++)
            seen.push((await request(`${base}/v1/transparency/contracts`, spoofed(i))).status)
          assert.deepEqual(seen.slice(19), [200, 429, 429])
        } finally {
          await close()
        }
      })
    }

    it('believes no header from a peer that is not a trusted proxy', async () => {
      const { base, close } = await serving(db, {
        env: { TRUST_PROXY: '10.0.0.0/8', PUBLIC_RATE_LIMIT: '3' },
      })
      try {
        const statuses: number[] = []
        for (let i = 0; i < 4; i++)
          statuses.push(
            (await request(`${base}/v1/transparency/contracts`, { 'x-forwarded-for': `198.51.100.${i}` }))
              .status,
          )
        assert.deepEqual(statuses, [200, 200, 200, 429])
      } finally {
        await close()
      }
    })
  })

  describe('any path no route takes', () => {
    let close: () => Promise<void>
    let base = ''
    before(async () => {
      ;({ close, base } = await serving(db, { env: { PUBLIC_RATE_LIMIT: '0' } }))
    })
    after(() => close())

    const raw = (line: string, host = 'Host: localhost\r\n') =>
      rawRequest(base, `${line} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`).then(parseResponse)

    for (const path of ['/<script>alert(1)</script>', '/contratos/a/b', '/%3Cb%3Eoi']) {
      it(`answers ${path} with the portal's 404 page, its security headers, and not the path`, async () => {
        const got = await raw(`GET ${path}`)
        assert.equal(got.status, 404)
        assert.match(got.headers['content-type'] as string, /^text\/html/)
        assert.match(got.headers['content-security-policy'] as string, CSP)
        assert.equal(got.headers['x-frame-options'], 'DENY')
        assert.equal(got.headers['x-content-type-options'], 'nosniff')
        assert.doesNotMatch(got.body, /script>alert|a\/b|<b>oi/)
        assert.match(got.body, /A página pedida não existe\./)
      })
    }

    it('answers TRACE on a route with the 404 page', async () => {
      const got = await raw('TRACE /health')
      assert.equal(got.status, 404)
      assert.match(got.headers['content-type'] as string, /^text\/html/)
    })

    it('answers paths that look like the API in its envelope, without the path', async () => {
      for (const path of ['//v1/transparency/contracts', '/V1/x', '/v1', '/v1/x']) {
        const got = await raw(`GET ${path}`)
        assert.equal(got.status, 404, path)
        assert.deepEqual(JSON.parse(got.body), { success: false, message: 'Rota não encontrada.' })
        assert.match(got.headers['content-type'] as string, /^application\/json/)
      }
      const orders = await raw('GET //external/orders')
      assert.equal(orders.status, 404)
      assert.deepEqual(JSON.parse(orders.body), { message: 'Not Found', data: [] })
      assert.equal(orders.headers['cache-control'], 'no-store')
    })

    it('answers a request without Host with a 400 in its envelope', async () => {
      const portal = await raw('GET /contratos', '')
      assert.equal(portal.status, 400)
      assert.deepEqual(JSON.parse(portal.body), { success: false, message: 'Requisição malformada.' })
      assert.equal(portal.headers['x-content-type-options'], 'nosniff')
      const orders = await raw('GET /external/orders?order_number=1', '')
      assert.equal(orders.status, 400)
      assert.deepEqual(JSON.parse(orders.body), { message: 'Bad Request', data: [] })
    })
  })

  describe('what a shared cache keeps', () => {
    let close: () => Promise<void>
    let base = ''
    before(async () => {
      ;({ close, base } = await serving(db, { env: { PUBLIC_RATE_LIMIT: '600' } }))
    })
    after(() => close())

    for (const path of ['/v1/transparency/contracts?per_page=10', '/contratos']) {
      it(`${path}: Vary on every answer, a tag per encoding, If-None-Match lists, no per-client headers`, async () => {
        const url = `${base}${path}`
        const identity = await request(url)
        const gzip = await request(url, { 'accept-encoding': 'gzip' })
        const br = await request(url, { 'accept-encoding': 'br' })
        assert.equal(gzip.headers['content-encoding'], 'gzip')
        assert.equal(br.headers['content-encoding'], 'br')
        const tags = [identity, gzip, br].map((a) => a.headers.etag)
        assert.equal(new Set(tags).size, 3, `one tag per encoding: ${tags.join(' ')}`)
        for (const answer of [identity, gzip, br]) {
          assert.equal(answer.headers.vary, 'accept-encoding')
          assert.equal(answer.headers['x-ratelimit-remaining'], undefined)
          assert.equal(answer.headers['x-ratelimit-limit'], undefined)
        }
        assert.equal(gunzipSync(Buffer.from(gzip.body, 'latin1')).toString('latin1'), identity.body)
        // A cache revalidating its gzip copy for a client that takes no gzip gets the identity bytes.
        const revalidated = await request(url, { 'if-none-match': gzip.headers.etag as string })
        assert.equal(revalidated.status, 200)
        assert.equal(revalidated.headers['content-encoding'], undefined)
        // A list holding the tag, weak or not, is a match; the 304 says Vary too.
        for (const list of [
          `"nope", ${identity.headers.etag}`,
          `W/${identity.headers.etag}`,
          `"a",W/"b" , ${identity.headers.etag}`,
          '*',
        ]) {
          const fresh = await request(url, { 'if-none-match': list })
          assert.equal(fresh.status, 304, list)
          assert.equal(fresh.headers.vary, 'accept-encoding')
          assert.equal(fresh.headers.etag, identity.headers.etag)
        }
        const fresh = await request(url, {
          'if-none-match': gzip.headers.etag as string,
          'accept-encoding': 'gzip',
        })
        assert.equal(fresh.status, 304)
      })
    }
  })

  describe('what is logged, and what is kept', () => {
    it('logs a client that leaves a compressed download at info, not as a server error', async () => {
      await multiplyContracts(db.pool, 60_000)
      const lines: { level: number; msg: string }[] = []
      const logStream = new Writable({
        write(chunk, _encoding, done) {
          for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
          done()
        },
      })
      const { base, close } = await serving(db, {
        env: { PUBLIC_RATE_LIMIT: '0', LOG_LEVEL: 'info' },
        logStream: logStream,
      })
      try {
        for (let i = 0; i < 3; i++) {
          const paused = await startPaused(`${base}/v1/transparency/export?resource=contracts&format=csv`, {
            'accept-encoding': 'gzip',
          })
          paused.response.destroy()
        }
        await until(
          () => lines.filter((l) => l.msg.includes('the client went away')).length === 3,
          10_000,
          'the cuts',
        )
      } finally {
        await close()
      }
      assert.deepEqual(
        lines.filter((l) => l.level >= 50),
        [],
      )
      assert.ok(lines.filter((l) => l.msg.includes('the client went away')).every((l) => l.level === 30))
    })

    it('tells every cache to keep no order answer', async () => {
      const order = first(records, 'order')
      const { token } = await issueToken(db.pool, order.organization_uuid as string, null)
      const { base, close } = await serving(db, { env: { PUBLIC_RATE_LIMIT: '0' } })
      try {
        const path = `/external/orders?order_number=${encodeURIComponent(order.number as string)}`
        for (const headers of [{ authorization: token }, {}, { authorization: 'x' }] as Record<
          string,
          string
        >[]) {
          const got = await request(`${base}${path}`, headers)
          assert.equal(got.headers['cache-control'], 'no-store', String(got.status))
        }
        assert.equal((await request(`${base}/external/nothing`)).headers['cache-control'], 'no-store')
      } finally {
        await close()
      }
    })

    it('serves the metrics on the loopback by default, and on METRICS_HOST when set', async () => {
      for (const [env, address] of [
        [{}, '127.0.0.1'],
        [{ METRICS_HOST: '::1' }, '::1'],
      ] as const) {
        const { app, close } = await serving(db, {
          env: { PUBLIC_RATE_LIMIT: '0', METRICS_PORT: '0', ...env },
        })
        try {
          const server = app.metricsServer as NonNullable<typeof app.metricsServer>
          assert.equal((server.address() as { address: string }).address, address)
          assert.ok(metricsPortOf(server) > 0)
        } finally {
          await close()
        }
      }
    })
  })
})
