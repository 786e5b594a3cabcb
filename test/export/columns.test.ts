import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type ColumnKind, columnSql, exportColumns } from '../../src/export/columns.js'
import { field, shape } from '../../src/resources/fields.js'
import { contracts, type PublicResource } from '../../src/resources/index.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'

// The export's columns one by one: the title and kind each field kind gets, and what the SQL of each kind
// writes for each file type, evaluated by PostgreSQL. The export tests check whole files of the demo data;
// these reach the kinds that no public resource exports today (integers, order amounts).

describe('export columns', () => {
  let db: TestDatabase
  before(async () => {
    db = await createTestDatabase()
  })
  after(() => db.drop())

  it('titles each column by its label and unit, and gives each field kind its column kind', () => {
    const fields = {
      n: field('integer', 'Quantidade'),
      a: field('amount', 'Valor da ordem'),
      m: field('money', 'Valor'),
      i: field('instant', 'Atualizado em'),
      d: field('date', 'Data'),
      b: field('boolean', 'Ativo'),
      t: field('text', 'Objeto'),
    }
    const resource = {
      ...contracts,
      exported: Object.keys(fields),
      record: shape({ ...contracts.record, fields }),
    } as unknown as PublicResource
    assert.deepEqual(
      exportColumns(resource).map((column) => [column.title, column.kind]),
      [
        ['Quantidade', 'integer'],
        ['Valor da ordem (R$)', 'money'],
        ['Valor (R$)', 'money'],
        ['Atualizado em (UTC)', 'datetime'],
        ['Data', 'date'],
        ['Ativo', 'boolean'],
        ['Objeto', 'text'],
      ],
    )
  })

  it('writes each kind as text in the form its file type reads', async () => {
    const written = async (kind: ColumnKind, sql: string, format: 'xlsx' | 'csv', comma?: boolean) => {
      const select = columnSql({ title: '', kind, sql }, format, ...(comma === undefined ? [] : [comma]))
      const { rows } = await db.pool.query<{ v: unknown }>(`SELECT ${select} AS v`)
      return rows[0]?.v
    }
    const cases: [ColumnKind, string, 'xlsx' | 'csv', boolean | undefined, string][] = [
      ['integer', '42', 'csv', undefined, '42'],
      ['integer', '42', 'xlsx', undefined, '42'],
      ['money', `'1234.5'::numeric`, 'csv', undefined, '1234.50'],
      ['money', `'1234.5'::numeric`, 'csv', true, '1234,50'],
      ['money', `'0.005'::numeric`, 'xlsx', undefined, '0.01'],
      ['boolean', 'true', 'csv', undefined, 'Sim'],
      ['boolean', 'false', 'xlsx', undefined, 'Não'],
      ['date', `DATE '2025-12-31'`, 'csv', undefined, '2025-12-31'],
      ['date', `DATE '2025-12-31'`, 'xlsx', undefined, '46022'],
      [
        'datetime',
        `TIMESTAMPTZ '2026-01-01 02:30:00.123456Z'`,
        'csv',
        undefined,
        '2026-01-01T02:30:00.123456Z',
      ],
      ['datetime', `TIMESTAMPTZ '2026-01-01 12:00:00Z'`, 'xlsx', undefined, '46023.5000000000'],
      ['text', `'=1+1'`, 'csv', undefined, '=1+1'],
    ]
    for (const [kind, sql, format, comma, expected] of cases)
      assert.strictEqual(await written(kind, sql, format, comma), expected, `${kind} ${format} ${sql}`)
  })
})
