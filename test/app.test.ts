import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { createPool } from '../src/db/pool.js'
import { buildTestApp } from './helpers/app.js'
import { createTestDatabase, type TestDatabase } from './helpers/db.js'

describe('app: operations endpoints', () => {
  let db: TestDatabase
  let app: FastifyInstance
  before(async () => {
    db = await createTestDatabase()
    app = await buildTestApp(db)
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  it('GET /health answers while the process lives', async () => {
    const response = await app.inject({ method: 'GET', url: '/health' })
    assert.equal(response.statusCode, 200)
    assert.deepEqual(response.json(), { status: 'ok' })
  })

  it('GET /ready answers 200 when the database does', async () => {
    const response = await app.inject({ method: 'GET', url: '/ready' })
    assert.equal(response.statusCode, 200)
    assert.deepEqual(response.json(), { status: 'ok' })
  })

  it('GET /ready answers 503 when the database does not', async () => {
    const dead = createPool('postgres://nobody@127.0.0.1:1/none', { max: 1 })
    const lonely = await buildTestApp({ pool: dead })
    try {
      const response = await lonely.inject({ method: 'GET', url: '/ready' })
      assert.equal(response.statusCode, 503)
      assert.deepEqual(response.json(), { status: 'database unreachable' })
    } finally {
      await lonely.close()
      await dead.end()
    }
  })

  it('GET /openapi.json is generated from the route schemas, with every answer each route gives', async () => {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' })
    assert.equal(response.statusCode, 200)
    const document = response.json()
    assert.equal(document.openapi, '3.0.3')
    const responses = (path: string) => Object.keys(document.paths[path].get.responses).sort()
    assert.deepEqual(responses('/health'), ['200', '400'])
    assert.deepEqual(responses('/ready'), ['200', '400', '503'])
    assert.deepEqual(responses('/external/orders'), ['200', '401', '429', '500'])
    assert.deepEqual(responses('/openapi.json'), ['200', '400'])
    // Every public answer may be 500 or 503 (the database unreachable); one with an ETag, 304; a file has none.
    assert.deepEqual(responses('/v1/transparency/contracts/{id}'), [
      '200',
      '304',
      '400',
      '404',
      '429',
      '500',
      '503',
    ])
    assert.deepEqual(responses('/v1/transparency/arps'), ['200', '304', '404', '422', '429', '500', '503'])
    assert.deepEqual(responses('/v1/transparency/export'), ['200', '404', '422', '429', '500', '503'])
    // The detail's 200 is the envelope around the contract of spec 2.7, field by field, and beside it the flags
    // that name it (docs/indicators.md): no part of the record.
    const detail =
      document.paths['/v1/transparency/contracts/{id}'].get.responses['200'].content['application/json']
        .schema
    assert.deepEqual(Object.keys(detail.properties), ['success', 'message', 'data', 'indicators'])
    const contract = resolve(document, detail.properties.data)
    assert.deepEqual(Object.keys(contract.properties).slice(0, 3), [
      'bidding_uuid',
      'contract_number',
      'object_details',
    ])
    assert.equal(resolve(document, contract.properties.amount_total).type, 'string')
  })

  it('GET /docs serves the interactive API reference over this document', async () => {
    const page = await app.inject({ method: 'GET', url: '/docs/' })
    assert.equal(page.statusCode, 200)
    assert.match(page.headers['content-type'] as string, /text\/html/)
    assert.match(page.body, /<title>Swagger UI<\/title>/)
    assert.match(page.body, /<script src="\.\/static\/swagger-initializer\.js"/)
    const initializer = await app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' })
    assert.match(initializer.body, /url: resolveUrl\('\.\/json'\)/)
    const json = await app.inject({ method: 'GET', url: '/docs/json' })
    const served = await app.inject({ method: 'GET', url: '/openapi.json' })
    assert.deepEqual(json.json(), served.json())
    const bundle = await app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' })
    assert.equal(bundle.statusCode, 200)
  })
})

type Schema = { $ref?: string; type?: string; properties: Record<string, Schema> }

/** Follows a local $ref of the document (#/components/schemas/X). */
function resolve(
  document: { components?: { schemas?: Record<string, Schema> } },
  schema: Schema | undefined,
): Schema {
  if (!schema?.$ref) return schema as Schema
  return document.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')] as Schema
}
