import { createHash, randomBytes } from 'node:crypto'
import pg from 'pg'
import { loadMigrations, migrate } from '../../src/db/migrate.js'
import { createPool, type Pool, type ServerPool } from '../../src/db/pool.js'
import { importRecords } from '../../src/import/importer.js'
import { DOCUMENT_VERSIONS, syncReadModel } from '../../src/readmodel/build.js'
import { ndjson, source } from './records.js'

/** The server the tests use: set by test/run.ts (embedded) or by the caller (TEST_DATABASE_URL). */
export function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the tests with `npm test`')
  return url
}

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl())
  url.pathname = `/${name}`
  return url.toString()
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/**
 * A migrated template named after the migrations' contents and the read model's versions, so that a
 * changed migration or document SQL gets a new one.
 */
async function template(): Promise<string> {
  const hash = createHash('sha256')
  for (const migration of await loadMigrations()) hash.update(migration.sql)
  hash.update(JSON.stringify(DOCUMENT_VERSIONS))
  const name = `compras_template_${hash.digest('hex').slice(0, 12)}`
  await admin(async (client) => {
    await client.query('SELECT pg_advisory_lock(7310999)')
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
      if (rowCount) return
      const building = `${name}_building_${randomBytes(3).toString('hex')}`
      await client.query(`CREATE DATABASE ${building}`)
      const pool = createPool(databaseUrl(building), { max: 1 })
      try {
        await migrate(pool)
        await syncReadModel(pool)
      } finally {
        await pool.end()
      }
      await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`)
    } finally {
      await client.query('SELECT pg_advisory_unlock(7310999)')
    }
  })
  return name
}

export interface TestDatabase {
  name: string
  url: string
  pool: ServerPool
  drop(): Promise<void>
}

/** A fresh, migrated database of its own for one test file (or one test). */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const name = `compras_test_${randomBytes(6).toString('hex')}`
  const from = options.migrated === false ? 'template0' : await template()
  await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${from}`))
  const url = databaseUrl(name)
  const pool = createPool(url, { max: 5 })
  // A copy of the template would share its change log's identity: give it its own, as a database made by
  // its own migrations has (migrations/0018_cursor_identity.sql).
  if (options.migrated !== false)
    await pool.query(
      `UPDATE change_log_identity SET identity = gen_random_uuid(),
         secret = uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())`,
    )
  return {
    name,
    url,
    pool,
    async drop() {
      await pool.end()
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    },
  }
}

/**
 * Copies the first stored contract n times under new ids: far more rows than socket buffers hold, for
 * tests of long exports, in a fraction of the time an import of as many would take.
 */
export async function multiplyContracts(pool: Pool, n: number): Promise<void> {
  await pool.query(
    `INSERT INTO contracts (id, organization_id, contract_number, object_details, amount_total, supplier_id,
       contractor_company_name, modality_id, term_title, date_start, date_end, management_status_id)
     SELECT gen_random_uuid(), c.organization_id, c.contract_number || '-' || n, c.object_details,
       c.amount_total + n, c.supplier_id, c.contractor_company_name, c.modality_id, c.term_title,
       c.date_start - (n % 3000), c.date_end, c.management_status_id
     FROM (SELECT * FROM contracts ORDER BY id LIMIT 1) c, generate_series(1, $1::int) n`,
    [n],
  )
}

/** A fresh database of its own with these records imported, as most test files begin. */
export async function seededDatabase(records: readonly unknown[]): Promise<TestDatabase> {
  const db = await createTestDatabase()
  const result = await importRecords(db.pool, [source(ndjson(records))])
  if (!result.ok) {
    await db.drop()
    throw new Error(`the test records did not import: ${JSON.stringify(result.problems)}`)
  }
  return db
}
