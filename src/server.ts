import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import type { Config } from './config.js'
import { type Database, openDatabase } from './db/database.js'
import { migrate } from './db/migrate.js'
import { loadDemo } from './demo/load.js'
import { syncReadModel } from './readmodel/build.js'

export interface RunningServer {
  app: FastifyInstance
  db: Database
  url: string
  close(): Promise<void>
}

/** Connections `serve` keeps for what is not a public read: the listener, access records, tokens, replicas' checks. */
const PRIMARY_POOL_SIZE = 4

async function isEmpty(db: Database): Promise<boolean> {
  const { rowCount } = await db.pool.query('SELECT 1 FROM organizations LIMIT 1')
  return rowCount === 0
}

/** What a new user can type next. */
async function hints(db: Database, url: string): Promise<string[]> {
  const lines = [`compras is listening on ${url} (data: ${db.description})`]
  lines.push(`  Portal:         ${url}/`)
  lines.push(`  API reference:  ${url}/docs`)
  const { rows: contracts } = await db.pool.query<{ id: string }>(
    'SELECT id FROM contracts ORDER BY id LIMIT 1',
  )
  if (contracts[0]) lines.push(`  A contract:     curl ${url}/v1/transparency/contracts/${contracts[0].id}`)
  const { rows: organizations } = await db.pool.query<{ id: string }>(
    'SELECT id FROM organizations ORDER BY name LIMIT 1',
  )
  if (organizations[0])
    lines.push(`  A token:        npx compras token issue --organization ${organizations[0].id}`)
  return lines
}

/** `compras serve`: migrate, load the demo data into an empty embedded database, listen. */
export async function startServer(config: Config): Promise<RunningServer> {
  // The app's logger exists only once the database is open: until then, health events go to stderr.
  let health: (message: string, error?: Error) => void = (message, error) =>
    process.stderr.write(`${message}${error ? `: ${error.message}` : ''}\n`)
  const db = await openDatabase(config, {
    role: 'serve',
    // Migrations, imports, tokens, access records and the listener: the public reads have a pool of their own.
    poolSize: PRIMARY_POOL_SIZE,
    onHealth: (event, error) =>
      health(
        {
          died: 'the embedded PostgreSQL stopped: restarting it',
          restarted: 'the embedded PostgreSQL runs again',
          'restart failed': 'the embedded PostgreSQL could not be restarted',
        }[event],
        error,
      ),
  })
  try {
    await migrate(db.pool)
    await syncReadModel(db.pool)
    const app = await buildApp(config, { pool: db.pool })
    db.pool.on('error', (error) => app.log.error({ err: error }, 'idle database connection failed'))
    health = (message, error) => (error ? app.log.error({ err: error }, message) : app.log.warn(message))
    if (db.embedded && config.demoOnEmpty && (await isEmpty(db))) {
      app.log.info('empty database: loading the small demo dataset')
      const result = await loadDemo(db.pool)
      if (!result.ok)
        throw new Error(`demo data failed to import: ${JSON.stringify(result.problems.slice(0, 3))}`)
    }
    const address = await app.listen({ port: config.port, host: config.host })
    const port = new URL(address).port
    const url = `${config.tls ? 'https' : 'http'}://localhost:${port}`
    for (const line of await hints(db, url)) process.stdout.write(`${line}\n`)
    let closing: Promise<void> | undefined
    return {
      app,
      db,
      url,
      close() {
        closing ??= (async () => {
          await app.close() // in-flight requests finish first
          await db.close()
        })()
        return closing
      },
    }
  } catch (error) {
    await db.close().catch(() => {})
    throw error
  }
}
