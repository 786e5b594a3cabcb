import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createPool, NAMED_STATEMENTS, namedStatements, type Pool } from '../../src/db/pool.js'
import { importRecords } from '../../src/import/importer.js'
import { type CountCache, listingData } from '../../src/listings/listing.js'
import { Cursors } from '../../src/queries/cursors.js'
import { contracts } from '../../src/resources/index.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, ndjson, source } from '../helpers/records.js'

// Prepared statements stay bounded however many shapes of listing are asked: each combination of filters,
// sort and relations is its own SQL text, and a named statement keeps its plan in every backend it ran on.

/** Each backend of the pool: its named statements and the memory it holds (PostgreSQL's own contexts). */
async function backends(pool: Pool, size: number): Promise<{ statements: number; bytes: number }[]> {
  const clients = await Promise.all(Array.from({ length: size }, () => pool.connect()))
  try {
    return await Promise.all(
      clients.map(async (client) => ({
        statements: (await client.query('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0].n,
        bytes: Number(
          (await client.query('SELECT sum(total_bytes)::bigint AS n FROM pg_backend_memory_contexts')).rows[0]
            .n,
        ),
      })),
    )
  } finally {
    for (const client of clients) client.release()
  }
}

const NO_CACHE: CountCache = { cached: () => undefined, keeper: () => () => {} }
const CURSORS = new Cursors({ identity: '00000000-0000-4000-8000-000000000000', secret: Buffer.alloc(32) })

describe('prepared statements', () => {
  let db: TestDatabase
  let pool: Pool
  let organization = ''

  before(async () => {
    db = await createTestDatabase()
    const records = demoRecords(
      { organizations: 1, orders: 4, contracts: 4, arps: 1, directContracts: 1, publicCalls: 1 },
      11,
    )
    const result = await importRecords(db.pool, [source(ndjson(records))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    organization = records.find((r) => r.type === 'organization')?.uuid as string
    pool = createPool(db.url, { max: 3 })
  })
  after(async () => {
    await pool.end()
    await db.drop()
  })

  /** The i-th shape of a contracts listing: a set of filters, a sort and a set of relations, each its own SQL. */
  const VALUES: Record<string, string | number> = {
    organization_uuid: '',
    number: '1/2025',
    bidding_number: '2/2025',
    modality_id: 2,
    management_status_id: 1,
    provider_document: '12345678000190',
    provider_name: 'empresa',
    date_from: '2020-01-01',
    date_to: '2030-12-31',
    updated_since: '2020-01-01T00:00:00Z',
    q: 'material',
  }
  const filters = Object.keys(VALUES)
  const sorts = Object.keys(contracts.sorts).flatMap((name) => [name, `-${name}`])
  const shape = (i: number) => {
    const query: Record<string, unknown> = { per_page: 5 }
    filters.forEach((name, bit) => {
      if ((i >> bit) & 1) query[name] = name === 'organization_uuid' ? organization : VALUES[name]
    })
    query.sort = sorts[Math.floor(i / 2 ** filters.length) % sorts.length]
    const relations = Math.floor(i / (2 ** filters.length * sorts.length))
    const offered = contracts.offered.filter((_, bit) => (relations >> bit) & 1)
    if (offered.length > 0) query.with_relations = offered.join(',')
    return query
  }
  const ask = async (from: number, to: number) => {
    // Three at a time, so that every connection of the pool runs its share.
    for (let i = from; i < to; i += 3)
      await Promise.all(
        [i, i + 1, i + 2]
          .filter((k) => k < to)
          .map((k) => listingData(pool, NO_CACHE, CURSORS, contracts, shape(k)).catch(() => '')),
      )
  }

  it('names no text asked once: shapes nobody asks again take no place of the bounded names', async () => {
    const before = namedStatements()
    await ask(20_000, 20_050)
    assert.equal(namedStatements(), before)
    // Asked again, a text is named.
    await ask(20_000, 20_001)
    assert.equal(namedStatements(), before + 1)
  })

  it('keeps each backend to a bounded number of plans, its memory flat, under 10,000 listing shapes', async () => {
    // The first shapes twice each: asked again, a text is named, until the bound.
    await ask(0, 400)
    await ask(0, 400)
    await ask(400, 1000)
    const early = await backends(pool, 3)
    await ask(1000, 10_000)
    const late = await backends(pool, 3)
    assert.equal(namedStatements(), NAMED_STATEMENTS)
    for (const backend of late)
      assert.ok(backend.statements <= NAMED_STATEMENTS, `${backend.statements} plans`)
    const grown = Math.max(...late.map((b, k) => b.bytes - (early[k] as { bytes: number }).bytes))
    // 9,000 more shapes, none of them kept: a few megabytes of caches at most, not a plan each.
    assert.ok(grown < 4 * 1024 * 1024, `a backend grew by ${grown} bytes`)
  })
})
