import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { createPool } from '../src/db/pool.js'
import { createTestDatabase, type TestDatabase } from './helpers/db.js'

describe('app: operations endpoints', () => {
  let db: TestDatabase
  let app: FastifyInstance
  before(async () => {
    db = await createTestDatabase()
    app = await buildApp(loadConfig({}), { pool: db.pool }, { logger: false })
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
    const lonely = await buildApp(loadConfig({}), { pool: dead }, { logger: false })
    try {
      const response = await lonely.inject({ method: 'GET', url: '/ready' })
      assert.equal(response.statusCode, 503)
      assert.deepEqual(response.json(), { status: 'database unreachable' })
    } finally {
      await lonely.close()
      await dead.end()
    }
  })

  it('GET /openapi.json is generated from the route schemas', async () => {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' })
    assert.equal(response.statusCode, 200)
    const document = response.json()
    assert.equal(document.openapi, '3.0.3')
    assert.ok(document.paths['/health'].get.responses['200'])
    assert.ok(document.paths['/ready'].get.responses['503'])
    for (const [path, methods] of Object.entries(
      document.paths as Record<string, Record<string, { responses?: object }>>,
    )) {
      for (const [method, operation] of Object.entries(methods)) {
        assert.ok(
          operation.responses && Object.keys(operation.responses).length > 0,
          `${method} ${path} has no responses`,
        )
      }
    }
  })

  it('GET /docs serves the interactive API reference', async () => {
    const response = await app.inject({ method: 'GET', url: '/docs/' })
    assert.equal(response.statusCode, 200)
    assert.match(response.headers['content-type'] as string, /text\/html/)
  })
})
