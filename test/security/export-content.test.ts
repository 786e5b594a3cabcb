import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import type { FastifyInstance } from 'fastify'
import { createPool } from '../../src/db/pool.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { openExport } from '../../src/export/export.js'
import { exportRequest } from '../../src/export/request.js'
import { buildTestApp } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, first } from '../helpers/records.js'

// Hardening, items 5 (CSV formula injection, quoting) and 6 (a listener left on the pooled client).

const HOSTILE = [
  '=HYPERLINK("http://evil.example","clique")',
  '+1+1',
  '-2+3',
  '@SUM(1,2)',
  '\tcom tabulação',
  '\rcom retorno',
  'x;=1+1',
  'vírgula, no meio',
]

describe('export content is data, never a formula', () => {
  let db: TestDatabase
  let app: FastifyInstance
  const demo = demoRecords(
    { organizations: 1, orders: 2, contracts: 2, arps: 1, directContracts: 1, publicCalls: 1 },
    8,
  )
  const base = first(demo, 'contract')
  const hostile: DemoRecord[] = HOSTILE.map((object, i) => ({
    ...base,
    id: `cccccccc-0000-4000-8000-00000000000${i}`,
    contract_number: `INJ-${i}`,
    object_details: object,
    bidding_uuid: null,
    arp_number: null,
  }))
  const exportCsv = async (separator: ',' | ';') => {
    const response = await app.inject({
      method: 'GET',
      url: `/v1/transparency/export?resource=contracts&format=csv&separator=${encodeURIComponent(separator)}&sort=contract_number`,
    })
    assert.equal(response.statusCode, 200)
    return response.body
  }

  before(async () => {
    db = await seededDatabase([...demo, ...hostile])
    app = await buildTestApp(db)
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  for (const separator of [',', ';'] as const) {
    it(`neutralizes formulas with a leading apostrophe and quotes either separator, with "${separator}"`, async () => {
      const text = await exportCsv(separator)
      const rows: string[][] = parse(text.replace(/^\uFEFF/, ''), {
        delimiter: separator,
        relax_quotes: false,
      })
      const header = rows[0] as string[]
      const objectColumn = header.indexOf('Objeto')
      const numberColumn = header.indexOf('Número do contrato')
      const valueColumn = header.indexOf('Valor total (R$)')
      for (const [i, object] of HOSTILE.entries()) {
        const row = rows.find((r) => r[numberColumn] === `INJ-${i}`) as string[]
        assert.ok(row, `INJ-${i} exported`)
        const dangerous = /^[=+\-@\t\r]/.test(object)
        assert.equal(row[objectColumn], dangerous ? `'${object}` : object, `INJ-${i}`)
        // Money is the service's number, never touched by the rule.
        assert.match(row[valueColumn] as string, separator === ';' ? /^\d+,\d{2}$/ : /^\d+\.\d{2}$/)
      }
      // Whatever the separator, a field holding either one is quoted: a reader that guesses the other
      // separator still cannot split it into a cell that starts a formula.
      assert.ok(text.includes('"x;=1+1"'), 'a field with ; is quoted')
      assert.ok(text.includes('"vírgula, no meio"'), 'a field with , is quoted')
    })
  }

  it('writes XLSX text as inline strings, never formulas, with the text unchanged', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/v1/transparency/export?resource=contracts&format=xlsx&sort=contract_number',
    })
    assert.equal(response.statusCode, 200)
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer)
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet
    const header = (sheet.getRow(1).values as string[]).slice(1)
    const objectColumn = header.indexOf('Objeto') + 1
    const numberColumn = header.indexOf('Número do contrato') + 1
    let seen = 0
    sheet.eachRow((row) => {
      const number = String(row.getCell(numberColumn).value)
      const i = Number(/^INJ-(\d)$/.exec(number)?.[1] ?? -1)
      if (i < 0) return
      const cell = row.getCell(objectColumn)
      assert.equal(cell.type, ExcelJS.ValueType.String, `INJ-${i} is a text cell`)
      assert.equal(cell.value, HOSTILE[i])
      seen++
    })
    assert.equal(seen, HOSTILE.length)
  })

  it('leaves no listener behind on the pooled connection, however many exports run', async () => {
    const pool = createPool(db.url, { max: 1 })
    try {
      const request = await exportRequest(pool, { resource: 'contracts', format: 'csv' })
      for (let i = 0; i < 25; i++) {
        const file = await openExport(pool, request)
        for await (const _ of file.stream);
      }
      const client = await pool.connect()
      try {
        // The pool's own idle listener, and nothing that grows with each export.
        assert.ok(client.listenerCount('error') <= 1, `${client.listenerCount('error')} error listeners`)
        assert.equal(client.listenerCount('end'), 0)
      } finally {
        client.release()
      }
    } finally {
      await pool.end()
    }
  })
})
