import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { MemoryLimiter } from '../../src/auth/rate-limit.js'
import { issueToken, revokeToken } from '../../src/auth/tokens.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { buildTestApp } from '../helpers/app.js'
import { manualClock } from '../helpers/clock.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, source } from '../helpers/records.js'

const ORDER_FIELDS = [
  'number',
  'unity_name',
  'unity_name_short',
  'object',
  'process_number',
  'bidding_number',
  'modality_name',
  'status_title',
  'provider_name',
  'provider_document',
  'representative_name',
  'arp_number',
  'arp_amount_total',
  'contract_number',
  'contract_amount_total',
  'expense_classification_title',
  'expense_type_title',
  'location_delivery',
  'deadline_delivery',
  'invoice_number',
  'invoice_issue_date',
  'amount_total',
  'items',
]
const ITEM_FIELDS = [
  'number_item',
  'description',
  'brand',
  'unit_measurement',
  'quantity',
  'amount',
  'amount_total',
]
const MICROS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/

describe('GET /external/orders', () => {
  let db: TestDatabase
  let app: FastifyInstance
  const clock = manualClock()
  const records = demoRecords(
    { organizations: 2, orders: 30, contracts: 8, arps: 6, directContracts: 3, publicCalls: 4 },
    21,
  )
  const orgs = records.filter((r) => r.type === 'organization')
  const orgA = orgs[0] as DemoRecord
  const orgB = orgs[1] as DemoRecord
  const ordersOf = (org: DemoRecord) =>
    records.filter((r) => r.type === 'order' && r.organization_uuid === org.uuid)
  // An order of A whose number B does not have, and one with every nullable field null.
  const orderA = ordersOf(orgA).find((o) => o.contract_number !== null) as DemoRecord
  const bare: DemoRecord = {
    ...(ordersOf(orgA)[0] as DemoRecord),
    number: 'NULOS/2025',
    process_number: null,
    bidding_number: null,
    arp_number: null,
    contract_number: null,
    invoice_number: null,
    invoice_issue_date: null,
    deadline_delivery: '2025-03-10T14:30:15.000001Z',
  }
  const shared = { ...bare, number: 'COMUM/2025', object: 'Objeto da organização A' }
  // Exists only in organization A.
  const onlyA = { ...bare, number: 'SO-A/2025', object: 'Só da organização A' }
  const sharedB = {
    ...(ordersOf(orgB)[0] as DemoRecord),
    number: 'COMUM/2025',
    object: 'Objeto da organização B',
  }
  let tokenA = ''
  let tokenB = ''
  let tokenAId = 0

  const get = (url: string, authorization?: string) =>
    app.inject({ method: 'GET', url, headers: authorization === undefined ? {} : { authorization } })
  const orderUrl = (number: string) => `/external/orders?order_number=${encodeURIComponent(number)}`

  before(async () => {
    db = await seededDatabase([...records, bare, shared, sharedB, onlyA])
    ;({ token: tokenA, id: tokenAId } = await issueToken(db.pool, orgA.uuid as string, 'A'))
    ;({ token: tokenB } = await issueToken(db.pool, orgB.uuid as string, null))
    app = await buildTestApp(db, { limiter: new MemoryLimiter(clock.now) })
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  it('answers 200 with the whole order: every field of 2.2 and 2.4, in order, with its type', async () => {
    const response = await get(orderUrl(orderA.number as string), tokenA)
    assert.equal(response.statusCode, 200)
    const body = response.json()
    assert.deepEqual(Object.keys(body), ['message', 'data'])
    assert.equal(body.message, 'Ordem recuperada com sucesso')
    const order = body.data
    assert.deepEqual(Object.keys(order), ORDER_FIELDS)
    const contract = records.find(
      (r) =>
        r.type === 'contract' &&
        r.organization_uuid === orgA.uuid &&
        r.contract_number === orderA.contract_number,
    ) as DemoRecord
    const arp = records.find(
      (r) => r.type === 'arp' && r.organization_uuid === orgA.uuid && r.number === orderA.arp_number,
    )
    for (const item of order.items) {
      assert.deepEqual(Object.keys(item), ITEM_FIELDS)
      assert.ok(Number.isInteger(item.quantity))
      assert.equal(typeof item.amount, 'number')
      assert.equal(typeof item.amount_total, 'number')
    }
    assert.equal(typeof order.amount_total, 'number')
    assert.equal(typeof order.contract_amount_total, 'number')
    assert.match(order.provider_document, /^\d{11}(\d{3})?$/)
    assert.match(order.expense_classification_title, /^\S+ - \S/)
    assert.match(order.expense_type_title, /^\S+ - \S/)
    assert.match(order.deadline_delivery, MICROS)
    assert.ok(order.invoice_issue_date === null || MICROS.test(order.invoice_issue_date))
    // Last: deepEqual narrows the type of order.
    const { type: _t, organization_uuid: _o, ...expected } = orderA
    assert.deepEqual(order, {
      ...expected,
      arp_amount_total: arp ? Number(arp.amount_total) : null,
      contract_amount_total: Number(contract.amount_total),
      items: order.items,
    })
    assert.deepEqual(order.items, orderA.items)
  })

  it('gives nullable fields as null, never omitted, and keeps microseconds', async () => {
    const response = await get(orderUrl(bare.number as string), tokenA)
    assert.equal(response.statusCode, 200)
    const order = response.json().data
    assert.deepEqual(Object.keys(order), ORDER_FIELDS)
    for (const field of [
      'process_number',
      'bidding_number',
      'arp_number',
      'arp_amount_total',
      'contract_number',
      'contract_amount_total',
      'invoice_number',
      'invoice_issue_date',
    ]) {
      assert.equal(order[field], null, field)
    }
    assert.equal(order.deadline_delivery, '2025-03-10T14:30:15.000001Z')
    assert.match(response.body, /"process_number":null/)
  })

  /** The order query's document of an imported order: its fields in order, amounts from its links. */
  const expectedOrder = (order: DemoRecord) => {
    const linked = (type: string, number: unknown) =>
      records.find(
        (r) =>
          r.type === type &&
          r.organization_uuid === order.organization_uuid &&
          (type === 'arp' ? r.number : r.contract_number) === number,
      )
    const arp = order.arp_number === null ? undefined : linked('arp', order.arp_number)
    const contract = order.contract_number === null ? undefined : linked('contract', order.contract_number)
    const values: Record<string, unknown> = {
      ...order,
      arp_amount_total: arp ? Number(arp.amount_total) : null,
      contract_amount_total: contract ? Number(contract.amount_total) : null,
    }
    return Object.fromEntries(ORDER_FIELDS.map((field) => [field, values[field]]))
  }

  it("looks orders up only inside the token's organization", async () => {
    const a = await get(orderUrl('COMUM/2025'), tokenA)
    const b = await get(orderUrl('COMUM/2025'), tokenB)
    assert.deepEqual(a.json(), { message: 'Ordem recuperada com sucesso', data: expectedOrder(shared) })
    assert.deepEqual(b.json(), { message: 'Ordem recuperada com sucesso', data: expectedOrder(sharedB) })
    // An order of A asked with B's token answers exactly like one that exists nowhere.
    assert.equal((await get(orderUrl('SO-A/2025'), tokenA)).statusCode, 200)
    const foreign = await get(orderUrl('SO-A/2025'), tokenB)
    const missing = await get(orderUrl('NAO-EXISTE/1900'), tokenB)
    assert.deepEqual(
      [foreign.statusCode, foreign.body],
      [500, '{"message":"Ordem não encontrada","data":[]}'],
    )
    assert.deepEqual([missing.statusCode, missing.body], [foreign.statusCode, foreign.body])
    assert.equal(foreign.headers['content-type'], missing.headers['content-type'])
  })

  it('writes amounts as JavaScript writes numbers, whatever digits the import file gave them', async () => {
    // A file written by another program: trailing zeros, exponents, more digits than a double holds.
    const written = [
      '12.50',
      '1E2',
      '0.0000123',
      '1e-7',
      '999999999999999.99',
      '0.1000000000000000055511151231257827',
    ]
    const item = (bare.items as Record<string, unknown>[])[0] as Record<string, unknown>
    const items = written.map((_, n) => ({ ...item, number_item: String(n + 1), amount: 1000 + n }))
    let line = JSON.stringify({ ...bare, number: 'DIGITOS/2025', amount_total: 999, items })
    line = line.replace('"amount_total":999,', `"amount_total":${written[0]},`)
    for (const [n, text] of written.entries())
      line = line.replace(`"amount":${1000 + n},`, `"amount":${text},`)
    const imported = await importRecords(db.pool, [source(line)])
    assert.equal(imported.ok, true, JSON.stringify(imported.problems))
    const response = await get(orderUrl('DIGITOS/2025'), tokenA)
    assert.equal(response.statusCode, 200)
    const served = ['12.5', '100', '0.0000123', '1e-7', '1000000000000000', '0.1']
    assert.deepEqual(
      served,
      written.map((text) => JSON.stringify(JSON.parse(text))),
    )
    assert.ok(response.body.includes('"amount_total":12.5,"items"'), response.body)
    for (const text of served) assert.ok(response.body.includes(`"amount":${text},`), text)
    assert.equal(response.body, JSON.stringify(response.json()))
  })

  const refused: [string, () => string | undefined][] = [
    ['no Authorization header', () => undefined],
    ['an empty header', () => ''],
    ['a Bearer prefix', () => `Bearer ${tokenA}`],
    ['a Token prefix', () => `Token ${tokenA}`],
    ['a trailing space', () => `${tokenA} `],
    ['an unknown token of the right form', () => 'A'.repeat(43)],
    ['a malformed token', () => 'not-a-token'],
  ]
  for (const [what, header] of refused) {
    it(`answers 401 {"message":"Unauthorized","data":[]} for ${what}`, async () => {
      const response = await get(orderUrl(orderA.number as string), header())
      assert.equal(response.statusCode, 401)
      assert.equal(response.body, '{"message":"Unauthorized","data":[]}')
    })
  }

  it('checks authentication before order_number', async () => {
    const response = await get('/external/orders')
    assert.equal(response.statusCode, 401)
    assert.deepEqual(response.json(), { message: 'Unauthorized', data: [] })
  })

  for (const [what, url] of [
    ['absent', '/external/orders'],
    ['empty', '/external/orders?order_number='],
    ['blank', '/external/orders?order_number=%20%20'],
    ['given twice', '/external/orders?order_number=1&order_number=2'],
  ]) {
    it(`answers 500 "Número da ordem é obrigatório" when order_number is ${what}`, async () => {
      const response = await get(url as string, tokenA)
      assert.equal(response.statusCode, 500)
      assert.equal(response.body, '{"message":"Número da ordem é obrigatório","data":[]}')
    })
  }

  it('answers unknown paths and other methods in the order envelope', async () => {
    const unknown = await get('/external/pedidos', tokenA)
    assert.equal(unknown.statusCode, 404)
    assert.deepEqual(unknown.json(), { message: 'Not Found', data: [] })
    const post = await app.inject({
      method: 'POST',
      url: '/external/orders',
      headers: { authorization: tokenA },
    })
    assert.equal(post.statusCode, 405)
    assert.equal(post.headers.allow, 'GET, HEAD')
    assert.deepEqual(post.json(), { message: 'Method Not Allowed', data: [] })
  })

  it('refuses a revoked token within a second', async () => {
    const { id, token } = await issueToken(db.pool, orgA.uuid as string, 'to revoke')
    assert.equal((await get(orderUrl(orderA.number as string), token)).statusCode, 200)
    assert.equal(await revokeToken(db.pool, id), true)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const response = await get(orderUrl(orderA.number as string), token)
    assert.equal(response.statusCode, 401)
    assert.deepEqual(response.json(), { message: 'Unauthorized', data: [] })
  })

  it('allows 60 requests a second per token: the 61st gets 429, the next second passes again', async () => {
    clock.advance(1000 - (clock.now() % 1000))
    const url = orderUrl(orderA.number as string)
    for (let i = 1; i <= 60; i++) {
      const response = await get(url, tokenA)
      assert.equal(response.statusCode, 200, `request ${i}`)
      assert.equal(response.headers['x-ratelimit-limit'], '60')
      assert.equal(response.headers['x-ratelimit-remaining'], String(60 - i))
      assert.equal(response.headers['x-ratelimit-reset'], '1')
    }
    const limited = await get(url, tokenA)
    assert.equal(limited.statusCode, 429)
    assert.equal(limited.body, '{"message":"Too Many Requests","data":[]}')
    assert.equal(limited.headers['retry-after'], '1')
    assert.equal(limited.headers['x-ratelimit-remaining'], '0')
    // Another token has its own 60.
    assert.equal((await get(orderUrl('COMUM/2025'), tokenB)).statusCode, 200)
    clock.advance(1000)
    const next = await get(url, tokenA)
    assert.equal(next.statusCode, 200)
    assert.equal(next.headers['x-ratelimit-remaining'], '59')
  })

  it('counts the limit per token: another token of the same organization has its own 60', async () => {
    const { token: secondA } = await issueToken(db.pool, orgA.uuid as string, 'second')
    clock.advance(1000 - (clock.now() % 1000) + 5000)
    const url = orderUrl(orderA.number as string)
    for (let i = 0; i < 60; i++) assert.equal((await get(url, tokenA)).statusCode, 200)
    assert.equal((await get(url, tokenA)).statusCode, 429)
    const other = await get(url, secondA)
    assert.equal(other.statusCode, 200)
    assert.equal(other.headers['x-ratelimit-remaining'], '59')
  })

  it('limits failed authentications per client address, and lets a valid token through', async () => {
    const strict = await buildTestApp(db, {
      limiter: new MemoryLimiter(clock.now),
      env: { AUTH_FAILURE_LIMIT: '3' },
    })
    try {
      const ask = (authorization: string, remoteAddress = '203.0.113.9') =>
        strict.inject({
          method: 'GET',
          url: orderUrl(orderA.number as string),
          headers: { authorization },
          remoteAddress,
        })
      for (let i = 0; i < 3; i++) assert.equal((await ask('B'.repeat(43))).statusCode, 401)
      const blocked = await ask('B'.repeat(43))
      assert.equal(blocked.statusCode, 429)
      assert.deepEqual(blocked.json(), { message: 'Too Many Requests', data: [] })
      // The window is a minute long and its oldest failure is less than a second old.
      assert.equal(blocked.headers['retry-after'], '60')
      assert.equal(blocked.headers['x-ratelimit-remaining'], '0')
      // Behind a shared address, one client's failures do not lock out another's valid token.
      assert.equal((await ask(tokenA)).statusCode, 200)
      assert.equal((await ask('B'.repeat(43), '203.0.113.10')).statusCode, 401)
      clock.advance(60_000)
      assert.equal((await ask('B'.repeat(43))).statusCode, 401)
    } finally {
      await strict.close()
    }
  })

  it('leaves an access record per query with the token id, never the token', async () => {
    clock.advance(1000)
    await get(orderUrl('NAO-EXISTE/1900'), tokenA)
    await get(orderUrl(orderA.number as string), tokenA)
    const fresh = await buildTestApp(db)
    await fresh.inject({
      method: 'GET',
      url: orderUrl(orderA.number as string),
      headers: { authorization: tokenA },
    })
    await fresh.close() // flushes its records
    const { rows } = await db.pool.query(
      `SELECT token_id, organization_id, order_number, status FROM access_log
       WHERE token_id = $1 ORDER BY at DESC LIMIT 1`,
      [tokenAId],
    )
    assert.deepEqual(rows[0], {
      token_id: tokenAId,
      organization_id: orgA.uuid,
      order_number: orderA.number,
      status: 200,
    })
    const leaked = await db.pool.query(
      'SELECT count(*)::int AS n FROM access_log WHERE order_number = $1 OR organization_id::text = $1',
      [tokenA],
    )
    assert.equal(leaked.rows[0].n, 0)
  })

  it('answers any other failure with 500 and a generic message', async () => {
    const { createPool } = await import('../../src/db/pool.js')
    const broken = createPool(db.url, { max: 1 })
    await broken.end()
    const lonely = await buildTestApp({ pool: broken })
    try {
      const response = await lonely.inject({
        method: 'GET',
        url: orderUrl('1'),
        headers: { authorization: 'C'.repeat(43) },
      })
      assert.equal(response.statusCode, 500)
      assert.equal(response.body, '{"message":"Erro interno do servidor","data":[]}')
    } finally {
      await lonely.close().catch(() => {})
    }
  })

  it('is described in the OpenAPI document as getOrderByNumber with its security scheme and responses', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
    const operation = document.paths['/external/orders'].get
    assert.equal(operation.operationId, 'getOrderByNumber')
    assert.deepEqual(operation.security, [{ AccessToken: [] }])
    assert.deepEqual(document.components.securitySchemes.AccessToken, {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: document.components.securitySchemes.AccessToken.description,
    })
    assert.deepEqual(Object.keys(operation.responses).sort(), ['200', '401', '429', '500'])
    assert.ok(operation.responses['429'].headers['Retry-After'])
    assert.ok(operation.responses['200'].headers['X-RateLimit-Remaining'])
    assert.equal(operation.parameters[0].name, 'order_number')
  })
})
