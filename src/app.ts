import { readFileSync } from 'node:fs'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance } from 'fastify'
import type { Config } from './config.js'
import type { Pool } from './db/pool.js'
import openapi from './plugins/openapi.js'
import health from './routes/health.js'

export interface AppDeps {
  pool: Pool
}

export interface AppOptions {
  /** false in tests that want silence; defaults to pino at config.logLevel. */
  logger?: boolean
}

/** Builds the application: plugins and routes, no listening. Used by the server, the tests and docs:export. */
export async function buildApp(
  config: Config,
  deps: AppDeps,
  options: AppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            // Tokens travel in Authorization; never log them.
            redact: { paths: ['req.headers.authorization', 'headers.authorization'], remove: true },
          },
    https: config.tls
      ? { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) }
      : null,
    trustProxy: true,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>()

  await app.register(openapi)
  await app.register(health, { pool: deps.pool })
  return app as unknown as FastifyInstance
}
