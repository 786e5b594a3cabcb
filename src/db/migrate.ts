import { readdir, readFile } from 'node:fs/promises'
import { MIGRATE_LOCK } from './locks.js'
import { inTransaction, type Pool } from './pool.js'

// Both src/db/migrate.ts and dist/db/migrate.js sit two levels below the package root.
const MIGRATIONS_DIR = new URL('../../migrations/', import.meta.url)

export interface Migration {
  version: number
  name: string
  sql: string
}

/** The migrations of dir in version order; two files of one version are refused (one would never run). */
export async function loadMigrations(dir: URL = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file)).sort()
  const seen = new Map<number, string>()
  for (const file of files) {
    const version = Number(file.slice(0, 4))
    const other = seen.get(version)
    if (other !== undefined)
      throw new Error(`Migrations ${other} and ${file} have the same version ${file.slice(0, 4)}`)
    seen.set(version, file)
  }
  return Promise.all(
    files.map(async (file) => ({
      version: Number(file.slice(0, 4)),
      name: file.replace(/\.sql$/, ''),
      sql: await readFile(new URL(file, dir), 'utf8'),
    })),
  )
}

/**
 * Applies the forward-only migrations not yet applied, each in its own transaction. Returns their names.
 * The read model is brought up to date afterwards by its own step (src/readmodel/build.ts, syncReadModel).
 */
export async function migrate(pool: Pool): Promise<string[]> {
  const migrations = await loadMigrations()
  const client = await pool.connect()
  const applied: string[] = []
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK])
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations')
    const done = new Set(rows.map((row) => row.version))
    for (const migration of migrations) {
      if (done.has(migration.version)) continue
      await inTransaction(client, async () => {
        await client.query(migration.sql)
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          migration.version,
          migration.name,
        ])
      }).catch((error: Error) => {
        throw new Error(`Migration ${migration.name} failed: ${error.message}`)
      })
      applied.push(migration.name)
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK]).catch(() => {})
    client.release()
  }
  return applied
}
