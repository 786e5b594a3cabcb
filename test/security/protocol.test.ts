import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { issueToken } from '../../src/auth/tokens.js'
import { importRecords } from '../../src/import/importer.js'
import { buildTestApp, listen } from '../helpers/app.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { parseResponse, rawRequest } from '../helpers/http.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// Hardening, items 10 (answers raised before any route runs keep the path's envelope; two Authorization
// headers) and 11 (request and keep-alive timeouts).

describe('the HTTP protocol under hostile clients', () => {
  let db: TestDatabase
  let app: FastifyInstance
  let base = ''
  let token = ''
  let orderNumber = ''
  const records = demoRecords(
    { organizations: 1, orders: 3, contracts: 1, arps: 1, directContracts: 1, publicCalls: 1 },
    12,
  )
  const get = (path: string, headers: string[] = []) =>
    `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${headers.map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n`
  const ORDER_ENVELOPE = (message: string) => ({ message, data: [] })
  const PUBLIC_ENVELOPE = (message: string) => ({ success: false, message })

  before(async () => {
    db = await createTestDatabase()
    const result = await importRecords(db.pool, [source(ndjson(records))])
    assert.equal(result.ok, true)
    const order = first(records, 'order')
    orderNumber = order.number as string
    ;({ token } = await issueToken(db.pool, order.organization_uuid as string, null))
    app = await buildTestApp(db, { env: { REQUEST_TIMEOUT: '2', KEEP_ALIVE_TIMEOUT: '1' } })
    base = await listen(app)
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  const cases: [string, () => string, number, object][] = [
    [
      'a malformed header line under /external',
      () => get('/external/orders?order_number=1', ['sem dois pontos']),
      400,
      ORDER_ENVELOPE('Bad Request'),
    ],
    [
      'a malformed header line under /v1',
      () => get('/v1/transparency/contracts', ['sem dois pontos']),
      400,
      PUBLIC_ENVELOPE('Requisição malformada.'),
    ],
    [
      'a 17 KB header under /external',
      () => get('/external/orders?order_number=1', [`X-Grande: ${'a'.repeat(17 * 1024)}`]),
      431,
      ORDER_ENVELOPE('Request Header Fields Too Large'),
    ],
    [
      'a 17 KB header under /v1',
      () => get('/v1/transparency/contracts', [`X-Grande: ${'a'.repeat(17 * 1024)}`]),
      431,
      PUBLIC_ENVELOPE('Cabeçalhos grandes demais.'),
    ],
    [
      'a URL that does not decode under /external',
      () => get('/external/orders%E0%A4%A'),
      400,
      ORDER_ENVELOPE('Bad Request'),
    ],
    [
      'a URL that does not decode under /v1',
      () => get('/v1/transparency/contracts/%E0%A4%A'),
      400,
      PUBLIC_ENVELOPE('Requisição malformada.'),
    ],
  ]
  for (const [what, request, status, body] of cases) {
    it(`answers ${what} with ${status} in the path's envelope`, async () => {
      const response = parseResponse(await rawRequest(base, request()))
      assert.equal(response.status, status)
      assert.match(response.headers['content-type'] as string, /^application\/json/)
      assert.deepEqual(JSON.parse(response.body), body)
    })
  }

  it('answers 408 and closes when the headers do not arrive in time', async () => {
    // Node knows a request's path only once its headers are complete: before that, the answer is in the
    // transparency envelope, whatever the path (README, Security).
    for (const path of ['/external/orders?order_number=1', '/v1/transparency/contracts']) {
      const started = Date.now()
      const raw = await rawRequest(base, `GET ${path} HTTP/1.1\r\nHost: localhost\r\n`, 15_000)
      const response = parseResponse(raw)
      assert.equal(response.status, 408, raw)
      assert.deepEqual(JSON.parse(response.body), PUBLIC_ENVELOPE('A requisição não chegou a tempo.'))
      assert.ok(Date.now() - started < 10_000, 'closed long after REQUEST_TIMEOUT')
    }
  })

  it('closes a request whose body trickles in once it is answered, instead of draining it', async () => {
    const { hostname, port } = new URL(base)
    const socket = net.connect(Number(port), hostname)
    let received = ''
    socket.on('data', (chunk) => {
      received += chunk
    })
    socket.write(
      'GET /v1/transparency/helpers/bidding-statuses HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n',
    )
    const timer = setInterval(() => socket.writable && socket.write('x'), 500)
    const closed = await new Promise<boolean>((resolve) => {
      socket.on('error', () => {})
      socket.on('close', () => resolve(true))
      setTimeout(() => resolve(false), 20_000)
    })
    clearInterval(timer)
    socket.destroy()
    assert.ok(closed, 'still open after 20 s')
    assert.match(received, /^HTTP\/1\.1 200/)
    assert.match(received, /connection: close/i)
  })

  it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT', async () => {
    const { hostname, port } = new URL(base)
    const socket = net.connect(Number(port), hostname)
    let received = ''
    socket.on('data', (chunk) => {
      received += chunk
    })
    socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n')
    const closed = await new Promise<boolean>((resolve) => {
      socket.on('close', () => resolve(true))
      setTimeout(() => resolve(false), 10_000)
    })
    socket.destroy()
    assert.match(received, /^HTTP\/1\.1 200/)
    assert.ok(closed, 'the idle connection was still open after 10 s')
  })

  it('answers 401 to a request with two Authorization headers, whatever their order', async () => {
    const path = `/external/orders?order_number=${encodeURIComponent(orderNumber)}`
    for (const headers of [
      [`Authorization: ${token}`, `Authorization: ${'Z'.repeat(43)}`],
      [`authorization: ${'Z'.repeat(43)}`, `Authorization: ${token}`],
      [`Authorization: ${token}`, `AUTHORIZATION: ${token}`],
    ]) {
      const response = parseResponse(await rawRequest(base, get(path, headers)))
      assert.equal(response.status, 401)
      assert.deepEqual(JSON.parse(response.body), ORDER_ENVELOPE('Unauthorized'))
    }
    const once = parseResponse(await rawRequest(base, get(path, [`Authorization: ${token}`])))
    assert.equal(once.status, 200)
  })
})
