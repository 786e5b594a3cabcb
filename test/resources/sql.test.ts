import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { importRecords } from '../../src/import/importer.js'
import { array, jsNumber, object } from '../../src/resources/sql.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, ndjson, source } from '../helpers/records.js'

// The read model stores each document as the bytes it is served as (src/readmodel/store.ts sends them as
// read): compact, and with numbers as JavaScript writes them, which is what the service served when it
// parsed and re-serialized each document.

/** What JSON.parse and JSON.stringify make of a number as a file may write it. */
const javascript = (text: string) => JSON.stringify(JSON.parse(text))

describe('JSON built in SQL', () => {
  let db: TestDatabase
  before(async () => {
    db = await createTestDatabase()
  })
  after(async () => {
    await db.drop()
  })

  /** jsNumber of each decimal text, in one query. */
  async function written(texts: readonly string[]): Promise<string[]> {
    const { rows } = await db.pool.query<{ n: string }>(
      `SELECT ${jsNumber('t.x::numeric')}::text AS n FROM unnest($1::text[]) WITH ORDINALITY t(x, i) ORDER BY i`,
      [texts],
    )
    return rows.map((row) => row.n)
  }

  it('writes a number as JavaScript does, exponents and rounding included', async () => {
    const edges = [
      '0',
      '0.00',
      '-0',
      '12.50',
      '5.000',
      '1E2',
      '1e15',
      '999999999999999.99',
      '0.0001',
      '0.00009999',
      '0.0000123',
      '0.000001',
      '0.000000999',
      '1e-7',
      '1.5e-10',
      '5e-324',
      '0.1000000000000000055511151231257827',
      '-0.0000123',
      '-1e15',
    ]
    assert.deepEqual(await written(edges), edges.map(javascript))
  })

  // The import takes amounts from 0 to 1e15 (src/resources/fields.ts), written with any number of digits.
  it('agrees with JavaScript on thousands of random doubles and decimals of the range the import takes', async () => {
    const decimal = fc
      .tuple(
        fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }),
        fc.stringMatching(/^[0-9]{0,20}$/),
        fc.integer({ min: -30, max: 0 }),
      )
      .map(([whole, fraction, exponent]) => `${whole}${fraction ? `.${fraction}` : ''}e${exponent}`)
    const texts = [
      ...fc.sample(fc.double({ min: 0, max: 1e15, noNaN: true }), { numRuns: 3000, seed: 11 }),
      ...fc.sample(fc.double({ min: 0, max: 1e-3, noNaN: true }), { numRuns: 1000, seed: 12 }),
    ]
      .map((n) => String(n))
      .concat(fc.sample(decimal, { numRuns: 3000, seed: 13 }))
    const got = await written(texts)
    const wrong = texts.filter((text, i) => got[i] !== javascript(text))
    assert.deepEqual(wrong, [])
  })

  it('writes null as null', async () => {
    const { rows } = await db.pool.query(`SELECT ${jsNumber('NULL::numeric')} AS n`)
    assert.equal(rows[0]?.n, null)
  })

  it('builds objects and arrays compact, in the given order, strings escaped as JavaScript does', async () => {
    const element = object([
      ['n', 'g'],
      ['text', `'a "b" \\ ' || chr(10) || chr(1) || ' : , [ ] { }'`],
    ])
    const sql = object([
      ['z', `'último'`],
      ['a', jsNumber('12.50')],
      ['list', array(element, 'FROM generate_series(1, 3) g', 'g DESC')],
      ['none', array(element, 'FROM generate_series(1, 0) g', 'g')],
      ['nothing', 'NULL'],
    ])
    const { rows } = await db.pool.query<{ body: string }>(`SELECT ${sql}::text AS body`)
    const body = rows[0]?.body as string
    const text = 'a "b" \\ \n\u0001 : , [ ] { }'
    assert.equal(
      body,
      JSON.stringify({
        z: 'último',
        a: 12.5,
        list: [3, 2, 1].map((n) => ({ n, text })),
        none: [],
        nothing: null,
      }),
    )
  })

  it('stores every document of an import exactly as JSON.stringify would write it', async () => {
    const result = await importRecords(db.pool, [source(ndjson(demoRecords()))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    const { rows } = await db.pool.query<{ body: string }>(
      'SELECT body FROM order_documents UNION ALL SELECT body FROM detail_documents',
    )
    assert.ok(rows.length > 20)
    for (const { body } of rows) assert.equal(body, JSON.stringify(JSON.parse(body)))
  })
})
