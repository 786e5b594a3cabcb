import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { listingSql } from '../../src/listings/listing.js'
import {
  exportedSql,
  field,
  importSchema,
  owned,
  rawSql,
  servedSchema,
  shape,
} from '../../src/resources/fields.js'
import { contracts } from '../../src/resources/index.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'

// The field vocabulary and the listing's SQL at the edges no resource reaches today, so that the next
// resource declared with them gets what they promise.

describe('field vocabulary', () => {
  let db: TestDatabase
  before(async () => {
    db = await createTestDatabase({ migrated: false })
  })
  after(() => db.drop())

  it('exports a whole CPF masked, as the API serves it', async () => {
    const people = shape({ name: 'P', table: 't', alias: 'a', fields: { cpf: field('cpf', 'CPF') } })
    const { rows } = await db.pool.query(
      `SELECT ${exportedSql(people.fields.cpf, 'a')} AS v FROM (SELECT '12345678901'::text AS cpf) a`,
    )
    assert.equal(rows[0].v, '***.456.789-**')
  })

  it('refuses to read a field that no shape gave a column', () => {
    assert.throws(
      () => rawSql(field('text', 'Solto'), 'a'),
      /a field read before shape\(\) gave it its column/,
    )
  })

  it('describes an enum declared without values as one that takes none', () => {
    const empty = field('enum', 'Vazio')
    assert.deepEqual(importSchema(empty), { type: 'string', enum: [] })
    assert.deepEqual(JSON.parse(JSON.stringify(servedSchema(empty))), { type: 'string', enum: [] })
  })

  it('finds owned children by every fixed column', () => {
    const child = shape({ name: 'C', table: 'children', alias: 'c', fields: { x: field('text', 'X') } })
    const relation = owned('Filhos', child, { column: 'owner_id', fixed: { kind: 'a', role: 'b' } })
    assert.deepEqual(relation.rows('o'), {
      where: "c.owner_id = o.id AND c.kind = 'a' AND c.role = 'b'",
      orderBy: 'c.position',
    })
  })
})

describe('listing SQL', () => {
  it('refuses a filter or a sort its resource does not declare', () => {
    assert.throws(
      () => listingSql(contracts, { filters: { nada: 1 }, sort: 'date_start' }),
      /^Error: unknown filter nada$/,
    )
    assert.throws(() => listingSql(contracts, { filters: {}, sort: '-nada' }), /^Error: unknown sort -nada$/)
  })
})
