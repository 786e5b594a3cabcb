import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { after, before, beforeEach, describe, it } from 'node:test'
import { workersRunning } from '../../src/import/check-pool.js'
import { dumpRecords } from '../../src/import/dump.js'
import { type ImportResult, importRecords } from '../../src/import/importer.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { eventually } from '../helpers/http.js'
import { byKey, demoRecords, first, ndjson, source } from '../helpers/records.js'

// A large import checks its lines in worker threads (src/import/check-pool.ts). Here they start at once
// (parallelAfter 0) on a file of several batches, and the outcome must be the importing thread's.

const MANY = {
  organizations: 3,
  orders: 2300,
  contracts: 120,
  arps: 60,
  directContracts: 40,
  publicCalls: 40,
}
const PARALLEL = { workers: 2, parallelAfter: 0 }
const INLINE = { workers: 0 }

async function dump(db: TestDatabase) {
  const records = []
  for await (const record of dumpRecords(db.pool, 7)) records.push(record)
  return records
}

async function stored(db: TestDatabase): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    'SELECT (SELECT count(*) FROM organizations) + (SELECT count(*) FROM orders) AS n',
  )
  return Number(rows[0]?.n)
}

/** One worker running a fixture script of ./fixtures, from the first line. */
const fixtureWorker = (script: string) => ({
  workers: 1,
  parallelAfter: 0,
  workerUrl: new URL(`./fixtures/${script}`, import.meta.url),
})

/** Fails unless every worker thread an import started has stopped. */
const noWorkersLeft = () => eventually(async () => assert.equal(workersRunning(), 0))

/** What a run says, without its duration. */
const outcome = ({ seconds: _, ...rest }: ImportResult) => rest

describe('import in worker threads', () => {
  let db: TestDatabase
  const demo = demoRecords(MANY, 11)
  before(async () => {
    db = await createTestDatabase()
  })
  after(() => db.drop())
  beforeEach(() => db.pool.query('TRUNCATE organizations, suppliers CASCADE'))

  it('stores what the importing thread stores, from a file of several batches', async () => {
    assert.ok(demo.length > 2500, 'the file spans several batches')
    // Records of the first batch given again in the last, changed: the last line of a key wins.
    const organization = { ...first(demo, 'organization'), name: 'Prefeitura Municipal de Mariana' }
    const order = { ...first(demo, 'order'), object: 'Objeto corrigido' }
    const file = [...demo, organization, order]
    const parallel = await importRecords(db.pool, [source(ndjson(file))], PARALLEL)
    assert.equal(parallel.ok, true, JSON.stringify(parallel.problems))
    await noWorkersLeft()
    const out = await dump(db)
    assert.deepEqual(byKey(out), byKey(file))
    await db.pool.query('TRUNCATE organizations, suppliers CASCADE')
    const inline = await importRecords(db.pool, [source(ndjson(file))], INLINE)
    assert.deepEqual(outcome(parallel), outcome(inline))
    assert.deepEqual(await dump(db), out)
  })

  it('reports the bad lines of every batch in file and line order, as the importing thread does', async () => {
    const lines: unknown[] = [...demo]
    // Bad lines in the first batch, in a middle one and in the last, and an invalid line's own error.
    lines.splice(2400, 0, '{"type":"order"')
    lines.splice(1500, 0, { type: 'nothing' })
    lines.splice(3, 0, '[]')
    const content = Buffer.concat([Buffer.from(`${ndjson(lines)}\n`), Buffer.from([0xff, 0x0a])])
    const parallel = await importRecords(db.pool, [source(content, 'a.ndjson')], PARALLEL)
    const inline = await importRecords(db.pool, [source(content, 'a.ndjson')], INLINE)
    assert.equal(parallel.ok, false)
    assert.deepEqual(
      parallel.problems.map((p) => [p.line, p.field]),
      [
        [4, '(record)'],
        [1502, 'type'],
        [2403, '(line)'],
        [lines.length + 1, '(line)'],
      ],
    )
    assert.deepEqual(outcome(parallel), outcome(inline))
    assert.equal(await stored(db), 0)
  })

  it('fails, writing nothing and leaving no transaction open, when a worker fails', {
    timeout: 60_000,
  }, async () => {
    await assert.rejects(
      importRecords(db.pool, [source(ndjson(demo))], fixtureWorker('failing-worker.mjs')),
      /a worker checking lines failed: the worker broke/,
    )
    assert.equal(await stored(db), 0)
    const open = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
    )
    assert.equal(open.rows[0]?.n, 0)
    await noWorkersLeft()
  })

  it('fails, writing nothing, when a worker answers a batch with an error', { timeout: 60_000 }, async () => {
    await assert.rejects(
      importRecords(db.pool, [source(ndjson(demo))], fixtureWorker('erring-worker.mjs')),
      /checking lines failed in a worker: Error: checking broke/,
    )
    assert.equal(await stored(db), 0)
    await noWorkersLeft()
  })

  it('stops its workers when the source fails while it is read', async () => {
    const text = `${ndjson(demo)}\n`
    const failing = Readable.from(
      (async function* () {
        yield Buffer.from(text)
        throw new Error('the disk went away')
      })(),
    )
    await assert.rejects(
      importRecords(db.pool, [{ name: 'failing.ndjson', stream: failing }], PARALLEL),
      /the disk went away/,
    )
    assert.equal(await stored(db), 0)
    await noWorkersLeft()
  })
})
