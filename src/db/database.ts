import type { Config } from '../config.js'
import { type EmbeddedRole, openEmbedded } from './embedded.js'
import { createPool, type Pool } from './pool.js'

export interface Database {
  readonly pool: Pool
  /** Where the data lives, for messages: the embedded data folder or the server's host. */
  readonly description: string
  readonly embedded: boolean
  close(): Promise<void>
}

export interface OpenDatabaseOptions {
  role: EmbeddedRole
  poolSize?: number
  onPoolError?: (error: Error) => void
}

/** DATABASE_URL when set; otherwise the embedded server under DATA_DIR, started or attached to. */
export async function openDatabase(config: Config, options: OpenDatabaseOptions): Promise<Database> {
  if (config.databaseUrl !== undefined) {
    const pool = createPool(config.databaseUrl, { max: options.poolSize, onError: options.onPoolError })
    const url = new URL(config.databaseUrl)
    return {
      pool,
      description: `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`,
      embedded: false,
      close: () => pool.end(),
    }
  }
  const embedded = await openEmbedded(config.dataDir, options.role)
  const pool = createPool(embedded.url, { max: options.poolSize, onError: options.onPoolError })
  return {
    pool,
    description: `embedded PostgreSQL in ${config.dataDir}`,
    embedded: true,
    async close() {
      await pool.end()
      await embedded.release()
    },
  }
}
