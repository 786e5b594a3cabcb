import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import pg from 'pg'
import { BytesQuery } from '../../src/db/bytes-query.js'
import { createPool } from '../../src/db/pool.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { startProxy, viaProxy } from '../helpers/proxy.js'

/** Rows of several shapes: a number, text repeated to any length, and a NULL every third row. */
const ROWS = `SELECT i, repeat($2::text, i * $3::int) AS text, CASE WHEN i % 3 = 0 THEN NULL ELSE i::text END AS maybe
  FROM generate_series(1, $1::int) i`
/** Text of every width UTF-8 has, and the characters the protocol could be confused by. */
const TEXT = 'ação Ü ✓ 😀 "\\\t\n\u0001 '

/** Runs a query object on a client or a pool (whose promise, unlike a client's, a query object does not get). */
function run(client: pg.Pool | pg.Client, query: BytesQuery): Promise<void> {
  return new Promise((resolve, reject) => {
    ;(client as pg.Client).query(
      query as never,
      ((error: Error | undefined) => (error ? reject(error) : resolve())) as never,
    )
  })
}

/** The rows as node-postgres reads them, as text. */
async function asText(client: pg.Pool | pg.Client, values: unknown[]) {
  const { rows } = await client.query<{ i: number; text: string; maybe: string | null }>(ROWS, values)
  return rows.map((row) => [String(row.i), row.text, row.maybe])
}

/** BytesQuery's rows, decoded, to compare with asText's. */
async function asBytes(client: pg.Pool | pg.Client, values: unknown[], name?: string) {
  const query = new BytesQuery({ text: ROWS, values, ...(name ? { name } : {}) })
  await run(client, query)
  return query.received.map((row) => row.map((value) => (value === null ? null : value.toString())))
}

/** Runs fn with a client of its own, connected to url, and ends it after. */
async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

// A message lost or held back would leave a query waiting for ever: failed after this long instead.
describe('BytesQuery', { timeout: 20_000 }, () => {
  let db: TestDatabase
  before(async () => {
    db = await createTestDatabase({ migrated: false })
  })
  after(() => db.drop())

  it('gives each value as the bytes node-postgres would have decoded into text, NULL as null', async () => {
    for (const [count, times] of [
      [0, 1],
      [1, 1],
      [50, 3],
      [5, 40_000], // values of up to 4 MB: many socket reads each
    ] as const) {
      const values = [count, TEXT, times]
      assert.deepEqual(await asBytes(db.pool, values), await asText(db.pool, values))
    }
  })

  it('reads messages cut anywhere, across any number of reads', async () => {
    const pieces = fc.sample(fc.integer({ min: 1, max: 700 }), { numRuns: 500, seed: 21 })
    const url = new URL(db.url)
    const proxy = await startProxy(url.hostname, Number(url.port || 5432), { pieces })
    try {
      await withClient(viaProxy(db.url, proxy), async (client) => {
        for (const values of [
          [30, TEXT, 1],
          [3, TEXT, 2000],
          [200, 'x', 1],
        ]) {
          assert.deepEqual(await asBytes(client, values), await asText(db.pool, values))
        }
      })
    } finally {
      await proxy.close()
    }
  })

  it('gives the connection back: plain queries and prepared ones go on after it, on the same connection', async () => {
    const pool = createPool(db.url, { max: 1 })
    try {
      const values = [7, TEXT, 2]
      const expected = await asText(pool, values)
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(await asBytes(pool, values, 'rows-by-name'), expected)
        assert.deepEqual(await asText(pool, values), expected)
      }
      // Prepared once on the connection, and used again.
      const { rows } = await pool.query<{ name: string }>(
        `SELECT name FROM pg_prepared_statements WHERE name = 'rows-by-name'`,
      )
      assert.equal(rows.length, 1)
    } finally {
      await pool.end()
    }
  })

  it('costs the connection the writes node-postgres would make for the same query: one round trip', async () => {
    await withClient(db.url, async (client) => {
      const stream = (client as unknown as { connection: pg.Connection }).connection.stream
      const write = stream.write
      let writes = 0
      stream.write = ((...args: Parameters<typeof write>) => {
        writes++
        return write.apply(stream, args)
      }) as typeof write
      const config = { name: 'round-trip', text: ROWS, values: [3, TEXT, 1] }
      const writesOf = async (submit: () => Promise<unknown>) => {
        writes = 0
        await submit()
        return writes
      }
      await client.query(config)
      const plain = await writesOf(() => client.query(config))
      const bytes = await writesOf(() => run(client, new BytesQuery(config)))
      assert.ok(plain > 0)
      assert.equal(bytes, plain)
    })
  })

  it("fails with PostgreSQL's error, and the connection goes on", async () => {
    const pool = createPool(db.url, { max: 1 })
    try {
      const query = new BytesQuery({ text: 'SELECT 1 / (i - 3) FROM generate_series(1, 5) i' })
      await assert.rejects(run(pool, query), { code: '22012' })
      assert.deepEqual(await asBytes(pool, [2, TEXT, 1]), await asText(pool, [2, TEXT, 1]))
    } finally {
      await pool.end()
    }
  })

  it('passes the notices sent among the rows on to node-postgres', async () => {
    await withClient(db.url, async (client) => {
      const notices: string[] = []
      client.on('notice', (notice) => notices.push(notice.message ?? ''))
      await client.query(`CREATE FUNCTION pg_temp.noisy(i int) RETURNS int LANGUAGE plpgsql AS $$
        BEGIN RAISE NOTICE 'linha %', i; RETURN i; END $$`)
      const query = new BytesQuery({ text: 'SELECT pg_temp.noisy(i) FROM generate_series(1, 4) i' })
      await run(client, query)
      assert.deepEqual(
        query.received.map(([value]) => value?.toString()),
        ['1', '2', '3', '4'],
      )
      assert.deepEqual(notices, ['linha 1', 'linha 2', 'linha 3', 'linha 4'])
    })
  })

  it('fails without sending when node-postgres refuses the query, or another reader shares the connection', async () => {
    await withClient(db.url, async (client) => {
      const refused = new BytesQuery({ text: 'SELECT $1::int', values: 'not an array' as never })
      await assert.rejects(run(client, refused), /values must be an array/)
      const stream = (client as unknown as { connection: pg.Connection }).connection.stream
      const other = () => {}
      stream.on('data', other)
      const shared = new BytesQuery({ text: 'SELECT 1' })
      await assert.rejects(run(client, shared), /expected one reader/)
      stream.removeListener('data', other)
      assert.deepEqual(await asBytes(client, [2, TEXT, 1]), await asText(client, [2, TEXT, 1]))
    })
  })
})
