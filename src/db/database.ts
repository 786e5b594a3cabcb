import type { Config } from '../config.js'
import { type EmbeddedOptions, type EmbeddedRole, openEmbedded } from './embedded.js'
import { CONNECT_TIMEOUT_MS, createPool, type ServerPool } from './pool.js'

export interface Database {
  readonly pool: ServerPool
  /** Where the data lives, for messages: the embedded data folder or the server's host. */
  readonly description: string
  readonly embedded: boolean
  close(): Promise<void>
}

export interface OpenDatabaseOptions {
  role: EmbeddedRole
  poolSize?: number
  onPoolError?: (error: Error) => void
  /** The embedded server's deaths and restarts (serve only; see EmbeddedOptions). */
  onHealth?: EmbeddedOptions['onHealth']
}

/** DATABASE_URL when set; otherwise the embedded server under DATA_DIR, started or attached to. */
export async function openDatabase(config: Config, options: OpenDatabaseOptions): Promise<Database> {
  // Serving fails fast when the database does not answer; a command (an import, a dump) waits for it.
  // Serving, this pool is not the public reads' (they have their own, named compras): it migrates, loads the
  // demo data, writes access records, reads tokens and listens.
  const poolOptions = {
    max: options.poolSize,
    onError: options.onPoolError,
    connectTimeoutMs: options.role === 'serve' ? CONNECT_TIMEOUT_MS : 0,
    applicationName: options.role === 'serve' ? 'compras-writes' : 'compras',
  }
  if (config.databaseUrl !== undefined) {
    const pool = createPool(config.databaseUrl, poolOptions)
    const url = new URL(config.databaseUrl)
    return {
      pool,
      description: `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`,
      embedded: false,
      close: () => pool.end(),
    }
  }
  const embedded = await openEmbedded(config.dataDir, options.role, { onHealth: options.onHealth })
  const pool = createPool(embedded.url, poolOptions)
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
