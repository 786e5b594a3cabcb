import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before } from 'node:test'
import type { FastifyInstance } from 'fastify'
import type { HarvestOptions } from '../../src/pncp/harvest.js'
import { buildTestApp } from './app.js'
import { createTestDatabase, type TestDatabase } from './db.js'
import { type FakePncp, startFakePncp } from './fake-pncp.js'
import { writePncpFile } from './pncp.js'

// What a suite over PNCP's files works with: a database, the app over it, a directory for the files and, when
// asked, the fake PNCP; made before the suite's tests and taken down after them. And the reads its tests make.

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON, checked field by field
export type Json = Record<string, any>

export interface PncpSuite {
  db: TestDatabase
  app: FastifyInstance
  dir: string
  /** Only when the suite asked for it. */
  fake: FakePncp
}

/** Registers the suite's before and after; `suite`'s fields are there once `before` has run. */
export function pncpSuite(name: string, options: { fake?: boolean; env?: Record<string, string> } = {}) {
  const suite = {} as PncpSuite
  before(async () => {
    suite.db = await createTestDatabase()
    suite.app = await buildTestApp(suite.db, options.env ? { env: options.env } : {})
    suite.dir = await mkdtemp(path.join(tmpdir(), `compras-pncp-${name}-`))
    if (options.fake) suite.fake = await startFakePncp()
  })
  after(async () => {
    await suite.fake?.close()
    await suite.app?.close()
    await suite.db?.drop()
    if (suite.dir) await rm(suite.dir, { recursive: true, force: true })
  })

  /** A GET of the app: its status, its body as JSON (empty for another type), and its text. */
  const get = async (url: string) => {
    const response = await suite.app.inject({ method: 'GET', url })
    const isJson = String(response.headers['content-type']).startsWith('application/json')
    return { status: response.statusCode, body: (isJson ? response.json() : {}) as Json, text: response.body }
  }
  /** The one record of `resource` whose PNCP number is `pncpId`, as its listing gives it. */
  const listed = async (resource: string, pncpId: string): Promise<Json> => {
    const { status, body } = await get(`/v1/transparency/${resource}?pncp_id=${encodeURIComponent(pncpId)}`)
    assert.equal(status, 200, JSON.stringify(body))
    assert.equal(body.data.data.length, 1, `one ${resource} for ${pncpId}`)
    return body.data.data[0] as Json
  }
  /** The same record's detail, with its id. */
  const detail = async (resource: string, pncpId: string): Promise<Json> => {
    const { id } = await listed(resource, pncpId)
    return { id, ...(await get(`/v1/transparency/${resource}/${id}`)).body.data }
  }
  /** Writes a file of the suite's directory: PNCP's JSON, or text as it is. */
  const file = (name: string, value: unknown) => writePncpFile(suite.dir, name, value)
  /** A quick harvest of March 2025 from the fake PNCP into `out`, of these kinds and modalities. */
  const harvestOptions = (
    out: string,
    asked: Required<Pick<HarvestOptions, 'kinds' | 'modalities'>>,
  ): HarvestOptions => ({
    baseUrl: suite.fake.url,
    itemsUrl: `${suite.fake.url}/pncp`,
    rate: 1000,
    backoff: 5,
    timeout: 5,
    today: '2025-12-31',
    from: '2025-03-01',
    to: '2025-03-31',
    out,
    ...asked,
  })
  return { suite, get, listed, detail, file, harvestOptions }
}
