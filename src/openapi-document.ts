import { buildApp } from './app.js'
import { loadConfig } from './config.js'
import { createPool } from './db/pool.js'

/** The OpenAPI document of this build, from the route schemas; no database connection is made. */
export async function openapiDocument(): Promise<unknown> {
  const pool = createPool('postgres://unused@127.0.0.1:1/unused', { max: 1 })
  const app = await buildApp(loadConfig({}), { pool }, { logger: false })
  try {
    await app.ready()
    return app.swagger()
  } finally {
    await app.close()
    await pool.end()
  }
}
