import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { issueToken } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { until } from '../helpers/http.js'
import { demoRecords, first } from '../helpers/records.js'

// The order query's edges that the main suite does not reach: the media type of an answer, errors raised
// by the framework before the handler, a failing database (answered and logged), and what the access log
// keeps of an order number that is not one string.

describe('order query: answers, framework errors and failures', () => {
  let db: TestDatabase
  let app: FastifyInstance
  let token = ''
  let number = ''
  const log: Record<string, unknown>[] = []
  const records = demoRecords()

  before(async () => {
    db = await seededDatabase(records)
    const order = first(records, 'order')
    number = order.number as string
    ;({ token } = await issueToken(db.pool, order.organization_uuid as string, null))
    const logStream = new PassThrough()
    logStream.on('data', (line: Buffer) => {
      for (const text of line.toString().split('\n')) if (text) log.push(JSON.parse(text))
    })
    app = await buildTestApp(db, { logStream })
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  const url = (n: string) => `/external/orders?order_number=${encodeURIComponent(n)}`

  it('answers the order as JSON in UTF-8', async () => {
    const response = await app.inject({ method: 'GET', url: url(number), headers: { authorization: token } })
    assert.equal(response.statusCode, 200)
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8')
  })

  it('answers a framework error below 500 with its own status and name, in the order envelope', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/external/orders',
      headers: { authorization: token, 'content-type': 'text/x-desconhecido' },
      payload: 'x',
    })
    assert.equal(response.statusCode, 415)
    assert.deepEqual(response.json(), { message: 'Unsupported Media Type', data: [] })
  })

  it('keeps no order number in the access log when order_number is not one string', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/external/orders?order_number=a-twice&order_number=b-twice',
      headers: { authorization: token },
    })
    assert.equal(response.statusCode, 500)
    assert.deepEqual(response.json(), { message: 'Número da ordem é obrigatório', data: [] })
    // The access log is written after the answer: wait for its row.
    let rows: { order_number: string | null; status: number }[] = []
    await until(async () => {
      ;({ rows } = await db.pool.query(
        `SELECT order_number, status FROM access_log WHERE status = 500 AND order_number IS DISTINCT FROM $1`,
        [number],
      ))
      return rows.length > 0
    }, 5000).catch(() => {}) // the assert says what was found
    assert.deepEqual(rows, [{ order_number: null, status: 500 }])
  })

  it('answers 500 "Erro interno do servidor" when the database fails, and logs why without the token', async () => {
    await db.pool.query('ALTER TABLE order_documents RENAME TO order_documents_away')
    try {
      const response = await app.inject({
        method: 'GET',
        url: url(`${number}-other`),
        headers: { authorization: token },
      })
      assert.equal(response.statusCode, 500)
      assert.deepEqual(response.json(), { message: 'Erro interno do servidor', data: [] })
      const line = log.find((entry) => entry.msg === 'order query failed')
      assert.ok(line, `logged: ${JSON.stringify(log.map((entry) => entry.msg))}`)
      assert.equal(line.level, 50)
      assert.match(String((line.err as { message?: string })?.message), /order_documents/)
      assert.ok(!JSON.stringify(log).includes(token), 'the token is never logged')
    } finally {
      await db.pool.query('ALTER TABLE order_documents_away RENAME TO order_documents')
    }
  })
})
