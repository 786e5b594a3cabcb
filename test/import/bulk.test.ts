import assert from 'node:assert/strict'
import { randomBytes, randomUUID } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { createPool, type Pool } from '../../src/db/pool.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { checkReferences, deferReferenceChecks } from '../../src/import/bulk.js'
import { importRecords } from '../../src/import/importer.js'
import { WRITTEN_TABLES } from '../../src/import/write.js'
import { type AnyField, isRelation, type Relation, rawSql } from '../../src/resources/fields.js'
import { RECORD_KINDS, type RecordKind } from '../../src/resources/index.js'
import { from } from '../../src/resources/json.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { assertFresh, documents } from '../helpers/readmodel.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// A first load (src/import/bulk.ts) turns the foreign keys' row-by-row triggers off where the database
// user may, and checks every key once before it commits. Whether it could or not, the data, documents
// and releases are the same; and a key the load would break still fails it.

const records = demoRecords(
  { organizations: 2, orders: 40, contracts: 10, arps: 5, directContracts: 4, publicCalls: 5 },
  31,
)
// Text that COPY's format must escape, where an OCDS release shows it (tender.description).
const TRICKY = 'Aquisição de "tubos" 3\\4 pol.\tlote\núnico\r\\N {}'
const call = first(records, 'public_call')
const tricky = records.map((r) => (r.id === call.id ? { ...r, object_details: TRICKY } : r))

/** Every release as stored, its date left out (the date is the loading transaction's). */
async function releases(pool: Pool): Promise<unknown[]> {
  const { rows } = await pool.query<{ process_id: string; process_kind: string; tail: string }>(
    'SELECT process_id, process_kind, organization_id, hash, tail FROM ocds_releases ORDER BY process_id',
  )
  return rows.map((row) => {
    const release = JSON.parse(`{${row.tail}`) as Record<string, unknown>
    release.date = undefined
    return { ...row, tail: JSON.stringify(release) }
  })
}

/**
 * The search column's value (migrations/0003_search.sql) read back from a stored record, alias
 * `kind.alias`, and the rows it joins: what the import, which writes it from the staged record, must give.
 */
function storedSearch(kind: RecordKind): string | undefined {
  if (!kind.search) return undefined
  const a = kind.alias
  const parts = kind.search.map((name) => {
    const f = kind.fields[name] as AnyField | Relation
    if (!isRelation(f)) return rawSql(f, a)
    const { shape } = f
    const label = shape.fields.name as AnyField
    return `(SELECT string_agg(${rawSql(label, shape.alias)}, ' ' ORDER BY ${shape.alias}.position)
      FROM ${from(shape)} WHERE ${f.rows(a).where})`
  })
  return `to_tsvector('compras_pt', concat_ws(' ', ${parts.join(', ')}))`
}

/** Fails unless every record's search column is what its stored fields give (written with it, or after). */
async function assertSearchable(pool: Pool): Promise<void> {
  for (const kind of RECORD_KINDS) {
    const search = storedSearch(kind)
    if (search === undefined) continue
    const { rows } = await pool.query<{ n: number; stale: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE ${kind.alias}.search IS DISTINCT FROM ${search})::int AS stale
       FROM ${from(kind)}`,
    )
    assert.ok((rows[0]?.n ?? 0) > 0, `${kind.table}: no records to check`)
    assert.equal(rows[0]?.stale, 0, `${kind.table}: search columns that its fields do not give`)
  }
}

/** A database user that may write the tables but not turn triggers off (not a superuser). */
async function limitedUser(db: TestDatabase): Promise<{ pool: Pool; drop(): Promise<void> }> {
  const role = `compras_limited_${randomBytes(4).toString('hex')}`
  const password = randomBytes(12).toString('hex')
  await db.pool.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`)
  await db.pool.query(`GRANT USAGE ON SCHEMA public TO ${role}`)
  await db.pool.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`)
  await db.pool.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${role}`)
  const url = new URL(db.url)
  url.username = role
  url.password = password
  const pool = createPool(url.toString(), { max: 2 })
  return {
    pool,
    async drop() {
      await pool.end()
      await db.pool.query(`DROP OWNED BY ${role}`)
      await db.pool.query(`DROP ROLE ${role}`)
    },
  }
}

describe('a first load', () => {
  let owner: TestDatabase
  let other: TestDatabase

  before(async () => {
    owner = await createTestDatabase()
    other = await createTestDatabase()
  })
  after(async () => {
    await owner.drop()
    await other.drop()
  })

  it('gives the same data, documents and releases whether the user may defer the key checks or not', async () => {
    const limited = await limitedUser(other)
    try {
      const client = await limited.pool.connect()
      try {
        await client.query('BEGIN')
        assert.equal(await deferReferenceChecks(client), false, 'a plain user may not turn triggers off')
        // The refusal leaves the transaction usable.
        assert.deepEqual((await client.query('SELECT 1 AS one')).rows, [{ one: 1 }])
        await client.query('ROLLBACK')
      } finally {
        client.release()
      }
      const fast = await importRecords(owner.pool, [source(ndjson(tricky))])
      const slow = await importRecords(limited.pool, [source(ndjson(tricky))])
      assert.equal(fast.ok, true, JSON.stringify(fast.problems))
      assert.equal(slow.ok, true, JSON.stringify(slow.problems))
      assert.deepEqual(fast.counts, slow.counts)
    } finally {
      await limited.drop()
    }
    // A row-by-row key check locks the row it finds (FOR KEY SHARE), which marks it with the load's
    // transaction: the order statuses, stored before any load, show whether the checks ran.
    const marked = async (pool: Pool) =>
      (
        await pool.query<{ n: number }>(
          "SELECT count(*) FILTER (WHERE xmax::text <> '0')::int AS n FROM order_statuses",
        )
      ).rows[0]?.n
    assert.equal(await marked(owner.pool), 0, 'a deferred first load checks no key row by row')
    assert.ok(((await marked(other.pool)) ?? 0) > 0, 'the row-by-row checks ran for the plain user')
    assert.deepEqual(await documents(owner.pool), await documents(other.pool))
    assert.deepEqual(await releases(owner.pool), await releases(other.pool))
    await assertFresh(owner.pool)
    await assertSearchable(owner.pool)
    await assertSearchable(other.pool)
  })

  it('stores text that COPY escapes exactly, in the document and in the release', async () => {
    const { rows } = await owner.pool.query<{ body: string }>(
      `SELECT body FROM detail_documents WHERE resource = 'public-calls' AND id = $1`,
      [call.id],
    )
    assert.equal((JSON.parse(rows[0]?.body ?? '{}') as DemoRecord).object_details, TRICKY)
    const stored = await owner.pool.query<{ tail: string }>(
      'SELECT tail FROM ocds_releases WHERE process_id = $1',
      [call.id],
    )
    const release = JSON.parse(`{${stored.rows[0]?.tail}`) as { tender: { description: string } }
    assert.equal(release.tender.description, TRICKY)
    // A later import rebuilds it through the staged comparison: the same text again.
    const changed = `${TRICKY} (retificado)`
    const run = await importRecords(owner.pool, [source(ndjson([{ ...call, object_details: changed }]))])
    assert.equal(run.ok, true, JSON.stringify(run.problems))
    await assertSearchable(owner.pool)
    const again = await owner.pool.query<{ tail: string }>(
      'SELECT tail FROM ocds_releases WHERE process_id = $1',
      [call.id],
    )
    assert.equal(
      (JSON.parse(`{${again.rows[0]?.tail}`) as { tender: { description: string } }).tender.description,
      changed,
    )
  })

  it('checks every foreign key of the tables it wrote, and names the one a row breaks', async () => {
    const client = await owner.pool.connect()
    try {
      await client.query('BEGIN')
      assert.equal(await deferReferenceChecks(client), true)
      await checkReferences(client, WRITTEN_TABLES) // the loaded data breaks none
      await client.query('SET LOCAL session_replication_role = replica')
      // With the triggers off, a unit of an organization that does not exist is accepted...
      await client.query(
        `INSERT INTO units (organization_id, name, name_short) VALUES ($1, 'Unidade', 'U')`,
        [randomUUID()],
      )
      // ...and the check at the end finds it.
      await assert.rejects(
        checkReferences(client, WRITTEN_TABLES),
        /the load would leave 1 rows of units breaking units_organization_id_fkey/,
      )
    } finally {
      await client.query('ROLLBACK')
      client.release()
    }
  })
})
