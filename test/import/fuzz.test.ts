import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { dumpRecords } from '../../src/import/dump.js'
import { importRecords } from '../../src/import/importer.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, ndjson, source } from '../helpers/records.js'

// Random mutations of valid import records, seeded and bounded: each file either imports, or is refused
// with every problem named, and a refused file leaves the database as it was, byte for byte (the dump).
// Nothing crashes, and no line ever makes the importer throw.

const SEED = 20_261_122
const RUNS = Number(process.env.FUZZ_RUNS ?? 60)

const ODD_VALUES: readonly unknown[] = [
  null,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\t',
  '\ud800',
  'x'.repeat(5000),
  0,
  -1,
  1e308,
  Number.MAX_SAFE_INTEGER,
  1.5,
  true,
  [],
  {},
  [{}],
  '2025-02-30',
  '0000-01-01',
  '2025-01-01T00:00:00',
  '2025-01-01T25:00:00Z',
  'not-a-uuid',
  '00000000-0000-4000-8000-000000000000',
  '12345678901',
  '123',
  '1234.567',
  '-5.00',
  'Pregão',
  'Emitida',
  "'; DROP TABLE orders; --",
]

type Json = Record<string, unknown>

/** One mutation of a record: a field removed, replaced, added, or one of its array items changed. */
function mutation(record: Json): fc.Arbitrary<Json> {
  const keys = Object.keys(record)
  const value = fc.oneof(
    fc.constantFrom(...ODD_VALUES),
    fc.string({ maxLength: 20 }),
    fc.integer(),
    fc.double(),
  )
  const arrays = keys.filter((k) => Array.isArray(record[k]) && (record[k] as unknown[]).length > 0)
  const options: fc.Arbitrary<Json>[] = [
    fc.constantFrom(...keys).map((key) => {
      const { [key]: _, ...rest } = record
      return rest
    }),
    fc.tuple(fc.constantFrom(...keys), value).map(([key, v]) => ({ ...record, [key]: v })),
    fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), value).map(([key, v]) => ({ ...record, [key]: v })),
    fc
      .tuple(fc.constantFrom(...keys), fc.constantFrom(...keys))
      .map(([a, b]) => ({ ...record, [a]: record[b] })),
  ]
  if (arrays.length > 0)
    options.push(
      fc.tuple(fc.constantFrom(...arrays), value).map(([key, v]) => {
        const items = [...(record[key] as Json[])]
        const item = items[0] as Json
        const inner = Object.keys(item)
        items[0] = inner.length > 0 ? { ...item, [inner[0] as string]: v } : item
        return { ...record, [key]: items }
      }),
    )
  return fc.oneof(...options)
}

describe('import fuzz: mutated records import or are refused cleanly', () => {
  let db: TestDatabase
  const records = demoRecords()
  const dump = async () => {
    const lines: string[] = []
    for await (const record of dumpRecords(db.pool, 500)) lines.push(JSON.stringify(record))
    return lines.sort().join('\n')
  }
  const stored = async () => {
    const { rows } = await db.pool.query<{ body: string }>(
      `SELECT string_agg(body, '' ORDER BY organization_id, number) AS body FROM order_documents
       UNION ALL SELECT string_agg(body, '' ORDER BY resource, id) FROM detail_documents`,
    )
    return rows.map((row) => row.body).join('\n')
  }

  before(async () => {
    db = await createTestDatabase()
    assert.equal((await importRecords(db.pool, [source(ndjson(records))])).ok, true)
  })
  after(() => db.drop())

  it('never throws; a refused file names its problems and changes nothing', async () => {
    const withMutations = fc
      .array(fc.nat({ max: records.length - 1 }), { minLength: 1, maxLength: 3 })
      .chain((indexes) =>
        fc
          .tuple(...indexes.map((i) => mutation(records[i] as Json)))
          .map((mutated) => ({ indexes, mutated })),
      )
    let accepted = 0
    let refused = 0
    await fc.assert(
      fc.asyncProperty(withMutations, async ({ mutated }) => {
        const beforeDump = await dump()
        const beforeDocuments = await stored()
        const result = await importRecords(db.pool, [source(ndjson(mutated))])
        if (result.ok) {
          accepted++
          // What was taken reads back through the dump as the import format, the documents rebuilt.
          assert.equal(result.problemCount, 0)
          // Put the fixture back, so that the next mutation starts from the valid dataset.
          const restored = await importRecords(db.pool, [source(ndjson(records))])
          assert.equal(restored.ok, true, JSON.stringify(restored.problems))
          return
        }
        refused++
        assert.ok(result.problemCount > 0)
        for (const problem of result.problems) {
          assert.ok(problem.line >= 1 && problem.line <= mutated.length, JSON.stringify(problem))
          assert.ok(problem.field.length > 0 && problem.reason.length > 0, JSON.stringify(problem))
          assert.ok(
            !/\berror:|\bat \S+:\d+/.test(problem.reason),
            `an internal error leaked: ${problem.reason}`,
          )
        }
        assert.equal(await dump(), beforeDump, 'a refused import changed the data')
        assert.equal(await stored(), beforeDocuments, 'a refused import changed the documents')
      }),
      { seed: SEED, numRuns: RUNS },
    )
    // The mutations are not all harmless, nor all fatal: both paths ran.
    assert.ok(refused > 0, 'no mutation was refused')
    assert.ok(accepted + refused === RUNS)
  })
})
