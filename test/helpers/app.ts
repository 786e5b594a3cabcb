import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { type AppDeps, buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import type { ServerPool } from '../../src/db/pool.js'
import { metricsPortOf } from '../../src/metrics.js'
import { DocumentStore } from '../../src/readmodel/store.js'

export interface TestAppOptions extends Omit<AppDeps, 'pool'> {
  /** Environment variables for loadConfig, as an operator would set them. */
  env?: Record<string, string>
  /** Log to standard output (for debugging a test); silent by default. */
  logger?: boolean
  /** Log into this stream instead (implies logger). */
  logStream?: NodeJS.WritableStream
}

/** The application over a test database's pool, configured from env like the real one, not listening. */
export function buildTestApp(
  db: { pool: ServerPool },
  options: TestAppOptions = {},
): Promise<FastifyInstance> {
  const { env = {}, logger = false, logStream, ...deps } = options
  return buildApp(
    loadConfig({ LOG_LEVEL: 'warn', ...env }),
    { pool: db.pool, ...deps },
    logStream ? { logStream } : { logger },
  )
}

/** Listens on a free port of 127.0.0.1 and returns the base URL, for tests that need real sockets. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return `http://127.0.0.1:${port}`
}

/**
 * The app listening on a test database, over a store of its own that the test can read (its hits, its
 * misses, a lookup to fail), with the deps and environment given: what a test of real HTTP starts with.
 */
export async function serving(db: { pool: ServerPool }, options: TestAppOptions = {}) {
  const store = options.store ?? new DocumentStore(db.pool, { cacheBytes: 1 << 20, onError: () => {} })
  if (!options.store) await store.start()
  let app: FastifyInstance | undefined
  let base: string
  try {
    app = await buildTestApp(db, { ...options, store })
    base = await listen(app)
  } catch (error) {
    // An app that fails to build (a schema its serializer refuses) leaves nothing open to hold the file up.
    await app?.close()
    if (!options.store) await store.close()
    throw error
  }
  return {
    app,
    base,
    store,
    close: async () => {
      await app.close() // flushes the access records
      if (!options.store) await store.close()
    },
  }
}

/**
 * The places an app (built with METRICS_PORT) holds now for streamed downloads or price researches, as an operator
 * reads them (compras_exports_running, compras_researches_running).
 */
export async function placesHeld(app: FastifyInstance, what: 'exports' | 'researches'): Promise<number> {
  const server = app.metricsServer
  assert.ok(server, 'the app serves its metrics (METRICS_PORT)')
  const text = await (await fetch(`http://127.0.0.1:${metricsPortOf(server)}/metrics`)).text()
  const line = new RegExp(`^compras_${what}_running (\\S+)$`, 'm').exec(text)
  assert.ok(line, 'the metric is served')
  return Number(line[1])
}
