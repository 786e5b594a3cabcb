import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { pathToFileURL } from 'node:url'
import { loadMigrations, migrate } from '../../src/db/migrate.js'
import {
  BIDDING_MODALITIES,
  BIDDING_STATUSES,
  MANAGEMENT_STATUSES,
  ORDER_STATUSES,
} from '../../src/domain.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'

describe('migrations', () => {
  let db: TestDatabase
  before(async () => {
    db = await createTestDatabase({ migrated: false })
  })
  after(() => db.drop())

  it('apply to an empty database, then find nothing left to do', async () => {
    const applied = await migrate(db.pool)
    assert.ok(applied.length >= 1)
    assert.equal(applied[0], '0001_data_model')
    assert.deepEqual(await migrate(db.pool), [])
  })

  it('run safely from several processes at once', async () => {
    const results = await Promise.all([migrate(db.pool), migrate(db.pool), migrate(db.pool)])
    assert.deepEqual(results, [[], [], []])
  })

  it('create every table of the data model', async () => {
    const { rows } = await db.pool.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    )
    const tables = rows.map((row) => row.table_name)
    for (const table of [
      'organizations',
      'units',
      'suppliers',
      'biddings',
      'bidding_providers',
      'contracts',
      'contract_people',
      'contract_commitments',
      'arps',
      'orders',
      'order_items',
      'documents',
      'additive_terms',
      'bidding_modalities',
      'bidding_statuses',
      'management_statuses',
      'order_statuses',
    ]) {
      assert.ok(tables.includes(table), `missing table ${table}`)
    }
  })

  const lookups: [string, readonly string[]][] = [
    ['bidding_modalities', BIDDING_MODALITIES],
    ['bidding_statuses', BIDDING_STATUSES],
    ['management_statuses', MANAGEMENT_STATUSES],
    ['order_statuses', ORDER_STATUSES],
  ]
  for (const [table, values] of lookups) {
    it(`seed ${table} with stable ids in the order of src/domain.ts`, async () => {
      const { rows } = await db.pool.query<{ id: number; name: string }>(
        `SELECT id, name FROM ${table} ORDER BY id`,
      )
      assert.deepEqual(
        rows,
        values.map((name, index) => ({ id: index + 1, name })),
      )
    })
  }

  it('has exactly the 20 modality strings of spec 2.3, in its order, and the 4 order statuses of spec 3', () => {
    // Copied here by hand from shared/spec/interface.md, so that a change to either list shows.
    const spec23 =
      'Adesão; Pregão Eletrônico; Pregão Presencial; Tomada de Preço; Concorrência - Presencial; Chamamento Público; ' +
      'Carta Convite; Dispensa sem Disputa; Inexigibilidade; Leilão Presencial; Regime Diferenciado de Contratação; ' +
      'Dispensa Eletrônica; Diálogo Competitivo; Procedimento da Lei 13.393/2016; Concurso; Concorrência - Eletrônica; ' +
      'Manifestação de Interesse; Pré-Qualificação; Credenciamento; Leilão Eletrônico'
    assert.deepEqual([...BIDDING_MODALITIES], spec23.split('; '))
    assert.deepEqual(
      [...ORDER_STATUSES],
      ['Emitida', 'Recebido total', 'Recebido parcialmente', 'Recebido provisoriamente'],
    )
  })

  it('stores money as numeric and timestamps with microseconds', async () => {
    const { rows } = await db.pool.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns
       WHERE table_name = 'orders' AND column_name IN ('amount_total', 'deadline_delivery')`,
    )
    const types = Object.fromEntries(rows.map((row) => [row.column_name, row.data_type]))
    assert.equal(types.amount_total, 'numeric')
    assert.equal(types.deadline_delivery, 'timestamp with time zone')
  })

  it('refuses two migrations of one version, naming both', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'compras-migrations-'))
    try {
      for (const file of ['0001_first.sql', '0002_second.sql', '0002_again.sql'])
        writeFileSync(path.join(dir, file), 'SELECT 1')
      await assert.rejects(
        loadMigrations(pathToFileURL(`${dir}/`)),
        /^Error: Migrations 0002_again\.sql and 0002_second\.sql have the same version 0002$/,
      )
      rmSync(path.join(dir, '0002_again.sql'))
      assert.deepEqual(
        (await loadMigrations(pathToFileURL(`${dir}/`))).map((m) => m.name),
        ['0001_first', '0002_second'],
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('ships migrations of distinct versions', async () => {
    const versions = (await loadMigrations()).map((m) => m.version)
    assert.equal(new Set(versions).size, versions.length)
  })
})
