import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import os, { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import type { FastifyInstance } from 'fastify'
import type { DemoRecord } from '../../src/demo/generator.js'
import { EXPORT_COLUMNS } from '../../src/export/columns.js'
import { importRecords } from '../../src/import/importer.js'
import { buildTestApp } from '../helpers/app.js'
import { runCli } from '../helpers/cli.js'
import { createTestDatabase, seededDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

type Item = Record<string, unknown>

async function readXlsx(buffer: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer)
  const sheet = workbook.worksheets[0] as ExcelJS.Worksheet
  const rows: unknown[][] = []
  sheet.eachRow({ includeEmpty: false }, (row) => {
    rows.push((row.values as unknown[]).slice(1))
  })
  return rows
}

const utcDay = (value: string) => new Date(`${value}T00:00:00Z`)

/** LibreOffice's command, when Debian's libreoffice-calc is installed (.ci/run installs it). */
function soffice(): string | undefined {
  for (const candidate of [process.env.SOFFICE_PATH, '/usr/bin/soffice', '/usr/bin/libreoffice'])
    if (candidate && existsSync(candidate)) return candidate
  return undefined
}

describe('export', () => {
  let db: TestDatabase
  let app: FastifyInstance
  const demo = demoRecords(
    { organizations: 3, orders: 30, contracts: 40, arps: 10, directContracts: 6, publicCalls: 8 },
    9,
  )
  const org = first(demo, 'organization')
  const leadingZeros: DemoRecord = {
    ...first(demo, 'contract', (c) => c.organization_uuid === org.uuid),
    id: 'bbbbbbbb-0000-4000-8000-000000000001',
    contract_number: '0042/2024',
    provider_company_name: 'Zero à Esquerda Ltda',
    provider_document: '00123456000195',
    object_details: 'Objeto com "aspas", vírgulas; ponto e vírgula\ne quebra de linha',
    bidding_uuid: null,
    arp_number: null,
  }
  const person: DemoRecord = {
    ...leadingZeros,
    id: 'bbbbbbbb-0000-4000-8000-000000000002',
    contract_number: '0043/2024',
    provider_company_name: 'João Pessoa Física',
    provider_document: '98765432100',
  }
  // Values whose formatting a break would show: cents ending in 0, a secret budget, microseconds.
  const roundAmount: DemoRecord = {
    ...leadingZeros,
    id: 'bbbbbbbb-0000-4000-8000-000000000003',
    contract_number: '0044/2024',
    amount_total: '1234.5',
  }
  const secretCall: DemoRecord = {
    ...first(demo, 'public_call', (c) => c.organization_uuid === org.uuid),
    id: 'bbbbbbbb-0000-4000-8000-000000000004',
    number: 'SIGILO 9/2025',
    budget_secret: true,
    sum_amount_total: '500000.10',
    sum_amount_total_finish: null,
    opening_date: '2025-03-10T14:30:15.123450Z',
  }
  const openCall: DemoRecord = {
    ...secretCall,
    id: 'bbbbbbbb-0000-4000-8000-000000000005',
    number: 'ABERTA 9/2025',
    budget_secret: false,
    sum_amount_total: '2500.5',
    sum_amount_total_finish: '2400',
    opening_date: '2025-03-11T09:00:00.000001Z',
  }
  const records = [...demo, leadingZeros, person, roundAmount, secretCall, openCall]

  const listing = async (query: string): Promise<Item[]> => {
    const response = await app.inject({
      method: 'GET',
      url: `/v1/transparency/contracts?per_page=100&${query}`,
    })
    return response.json().data.data
  }

  before(async () => {
    db = await seededDatabase(records)
    app = await buildTestApp(db)
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  it('writes an XLSX that a real reader opens: titles, every row of the filter, numeric, date and text cells', async () => {
    const query = `organization_uuid=${org.uuid}&sort=amount_total`
    const response = await app.inject({
      method: 'GET',
      url: `/v1/transparency/export?resource=contracts&format=xlsx&${query}`,
    })
    assert.equal(response.statusCode, 200)
    assert.equal(
      response.headers['content-type'],
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    )
    assert.match(
      response.headers['content-disposition'] as string,
      /^attachment; filename="contracts-\d{4}-\d\d-\d\d\.xlsx"$/,
    )
    const rows = await readXlsx(response.rawPayload)
    const [header, ...body] = rows
    assert.deepEqual(
      header,
      EXPORT_COLUMNS.contracts.map((c) => c.title),
    )
    const expected = await listing(query)
    assert.equal(body.length, expected.length)
    body.forEach((row, i) => {
      const item = expected[i] as Item
      assert.equal(row[0], item.id)
      assert.equal(row[2], item.contract_number)
      assert.equal(row[4], Number(item.amount_total))
      assert.equal(typeof row[4], 'number')
      assert.deepEqual(row[12], utcDay(item.date_start as string))
      assert.deepEqual(row[13], utcDay(item.date_end as string))
      assert.equal(row[14], item.management_status)
    })
    const zeros = body.find((row) => row[0] === leadingZeros.id) as unknown[]
    assert.equal(zeros[6], '00123456000195')
    assert.equal(zeros[2], '0042/2024')
    assert.equal(zeros[3], leadingZeros.object_details)
  })

  it('keeps XLSX money as numbers with their cents whatever the separator asked (separator=; is for CSV)', async () => {
    const query = `organization_uuid=${org.uuid}&sort=amount_total`
    const expected = await listing(query)
    for (const separator of [',', ';']) {
      const response = await app.inject({
        method: 'GET',
        url: `/v1/transparency/export?resource=contracts&format=xlsx&separator=${encodeURIComponent(separator)}&${query}`,
      })
      assert.equal(response.statusCode, 200)
      const [, ...body] = await readXlsx(response.rawPayload)
      assert.equal(body.length, expected.length)
      body.forEach((row, i) => {
        assert.equal(typeof row[4], 'number', `${separator}: row ${i}`)
        assert.equal(row[4], Number((expected[i] as Item).amount_total), `${separator}: row ${i}`)
      })
      // Some amount has cents, so a decimal comma would have shown.
      assert.ok(body.some((row) => !Number.isInteger(row[4])))
    }
  })

  it('writes an RFC 4180 CSV, UTF-8 with a byte-order mark, and ; when asked', async () => {
    for (const separator of [',', ';']) {
      const response = await app.inject({
        method: 'GET',
        url: `/v1/transparency/export?resource=contracts&format=csv&separator=${encodeURIComponent(separator)}&q=objeto`,
      })
      assert.equal(response.statusCode, 200)
      assert.equal(response.headers['content-type'], 'text/csv; charset=utf-8')
      assert.match(
        response.headers['content-disposition'] as string,
        /filename="contracts-\d{4}-\d\d-\d\d\.csv"/,
      )
      const bytes = response.rawPayload
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf])
      assert.ok(bytes.toString().includes('\r\n'))
      const rows: string[][] = parse(bytes, { bom: true, delimiter: separator, relax_column_count: false })
      assert.deepEqual(
        rows[0],
        EXPORT_COLUMNS.contracts.map((c) => c.title),
      )
      const expected = await listing('q=objeto')
      assert.deepEqual(
        rows.slice(1).map((r) => r[0]),
        expected.map((item) => item.id),
      )
      const zeros = rows.find((r) => r[0] === leadingZeros.id) as string[]
      assert.equal(zeros[3], leadingZeros.object_details)
      // With ; money has the decimal comma, which a spreadsheet in pt-BR reads as a number.
      const decimal = separator === ';' ? ',' : '.'
      assert.equal(zeros[4], Number(leadingZeros.amount_total).toFixed(2).replace('.', decimal))
      const moneyColumns = EXPORT_COLUMNS.contracts.flatMap((c, i) => (c.kind === 'money' ? [i] : []))
      assert.ok(moneyColumns.length > 0)
      const byId = new Map(expected.map((item) => [item.id, item]))
      for (const row of rows.slice(1)) {
        for (const i of moneyColumns) {
          const cell = row[i] as string
          if (cell === '') continue
          assert.match(cell, separator === ';' ? /^-?\d+,\d\d$/ : /^-?\d+\.\d\d$/)
        }
        // Read back as a pt-BR reader does: thousands without separator, the comma as the decimal point.
        const readBack = Number((row[4] as string).replace(',', '.'))
        assert.equal(readBack, Number(byId.get(row[0] as string)?.amount_total))
      }
      // With ; a CNPJ is written as people write it, which a pt-BR spreadsheet keeps as text.
      assert.equal(zeros[6], separator === ';' ? '00.123.456/0001-95' : '00123456000195')
      // With ; a date is written as a pt-BR spreadsheet reads one.
      const [year, month, day] = (leadingZeros.date_start as string).split('-')
      assert.equal(zeros[12], separator === ';' ? `${day}/${month}/${year}` : leadingZeros.date_start)
    }
  })

  it('keeps every CNPJ whole when LibreOffice in Portuguese (Brazil) opens the ; CSV', {
    skip: soffice() ? false : 'no LibreOffice (apt install libreoffice-calc)',
  }, async () => {
    const response = await app.inject({
      url: `/v1/transparency/export?resource=contracts&format=csv&separator=${encodeURIComponent(';')}`,
    })
    const dir = mkdtempSync(path.join(tmpdir(), 'compras-lo-'))
    try {
      writeFileSync(path.join(dir, 'contratos.csv'), response.rawPayload)
      // Opened as a spreadsheet in pt-BR opens it (separator ;, UTF-8, language 1046), then written back as
      // CSV with commas: what the spreadsheet holds, cell by cell.
      execFileSync(
        soffice() as string,
        [
          '--headless',
          '--infilter=CSV:59,34,76,1,,1046,false,true',
          '--convert-to',
          'csv:Text - txt - csv (StarCalc):44,34,76,1,,1046,false,true,true',
          '--outdir',
          path.join(dir, 'out'),
          path.join(dir, 'contratos.csv'),
        ],
        { env: { ...process.env, HOME: dir }, timeout: 120_000, stdio: 'ignore' },
      )
      const rows: string[][] = parse(readFileSync(path.join(dir, 'out', 'contratos.csv')), { bom: true })
      const column = EXPORT_COLUMNS.contracts.findIndex((c) => c.kind === 'taxId')
      const byId = new Map(rows.slice(1).map((row) => [row[0], row[column]]))
      const cnpjs = demo.filter(
        (r) => r.type === 'contract' && /^[0-9]{14}$/.test(r.provider_document as string),
      )
      assert.ok(cnpjs.length > 0)
      for (const contract of [...cnpjs, leadingZeros]) {
        const cell = byId.get(contract.id as string) as string
        assert.equal(cell.replace(/[./-]/g, ''), contract.provider_document, `${contract.id}: ${cell}`)
      }
      // And money stays a number: 1234,5 in the file is 1234.5 in the sheet.
      const money = EXPORT_COLUMNS.contracts.findIndex((c) => c.kind === 'money')
      assert.equal(
        Number(rows.find((r) => r[0] === leadingZeros.id)?.[money]),
        Number(leadingZeros.amount_total),
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  /** Money as the API writes it: two decimals, from the imported decimal text (no float on the way). */
  const money2 = (value: unknown) => {
    if (value === null) return null
    const [whole, cents = ''] = String(value).split('.')
    return `${whole}.${cents.padEnd(2, '0')}`
  }
  const masked = (document: string) =>
    document.length === 11 ? `***.${document.slice(3, 6)}.${document.slice(6, 9)}-**` : document
  const yesNo = (value: unknown) => (value ? 'Sim' : 'Não')
  type Kind = 'text' | 'money' | 'date' | 'datetime' | 'boolean'
  /** What every PNCP record adds, null on the demo's records (src/resources/pncp.ts). */
  const PNCP: [Kind, (r: DemoRecord) => unknown][] = [
    ['text', (r) => r.pncp_id],
    ['text', (r) => r.pncp_url],
    ['datetime', (r) => r.pncp_updated_at],
    ...(['unit_code', 'unit_name', 'unit_city', 'unit_ibge_code', 'unit_uf'] as const).map(
      (name): [Kind, (r: DemoRecord) => unknown] => ['text', (r) => (r as Record<string, unknown>)[name]],
    ),
  ]
  /** Each column's kind and expected CSV text (null: an empty cell), from the imported record. */
  const EXPECTED: Record<string, [Kind, (r: DemoRecord) => unknown][]> = {
    contracts: [
      ['text', (r) => r.id],
      ['text', (r) => r.organization_uuid],
      ['text', (r) => r.contract_number],
      ['text', (r) => r.object_details],
      ['money', (r) => money2(r.amount_total)],
      ['text', (r) => r.provider_company_name],
      ['text', (r) => masked(r.provider_document as string)],
      ['text', (r) => r.contractor_company_name],
      ['text', (r) => r.bidding_modality],
      ['text', (r) => r.term_title],
      ['text', (r) => r.bidding_number],
      ['text', (r) => r.bidding_uuid],
      ['date', (r) => r.date_start],
      ['date', (r) => r.date_end],
      ['text', (r) => r.management_status],
      ...PNCP,
    ],
    biddings: [
      ['text', (r) => r.id],
      ['text', (r) => r.organization_uuid],
      ['text', (r) => r.number],
      ['text', (r) => r.modality],
      ['boolean', (r) => yesNo(r.budget_secret)],
      ['text', (r) => r.status],
      ['boolean', (r) => yesNo(r.register_price)],
      ['datetime', (r) => r.opening_date],
      ['text', (r) => r.object_details],
      ['text', (r) => r.company_name],
      ['text', (r) => r.electronic_dispute_mode],
      ['text', (r) => r.adjudication_mode],
      ['text', (r) => r.judgment_criteria],
      ['text', (r) => r.competent_authority],
      ['text', (r) => r.agent],
      ['money', (r) => (r.budget_secret ? null : money2(r.sum_amount_total))],
      ['money', (r) => money2(r.sum_amount_total_finish)],
      ...PNCP,
      // What PNCP tells of a contratação (src/resources/pncp.ts), null on the demo's.
      ['text', (r) => (r as Record<string, unknown>).process],
      ['text', (r) => (r as Record<string, unknown>).legal_basis],
      ['datetime', (r) => (r as Record<string, unknown>).closing_date],
      ['text', (r) => (r as Record<string, unknown>).additional_info],
      ['text', (r) => (r as Record<string, unknown>).origin_url],
    ],
    arps: [
      ['text', (r) => r.id],
      ['text', (r) => r.organization_uuid],
      ['text', (r) => r.number],
      ['text', (r) => r.object_details],
      ['money', (r) => money2(r.amount_total)],
      ['text', (r) => r.company_name],
      ['text', (r) => r.provider_company_name],
      ['text', (r) => masked(r.provider_document as string)],
      ['text', (r) => r.provider_representative_name],
      ['text', (r) => r.bidding_modality],
      ['text', (r) => r.bidding_number],
      ['text', (r) => r.bidding_uuid],
      ['date', (r) => r.date_signature],
      ['date', (r) => r.date_expiration],
      ['text', (r) => r.management_status],
      ...PNCP,
    ],
  }
  /** The XLSX cell a reader gives for the expected CSV text of a column kind. */
  const asXlsx = (kind: Kind, text: unknown) => {
    if (text === null || text === undefined) return undefined
    if (kind === 'money') return Number(text)
    if (kind === 'date') return utcDay(text as string)
    if (kind === 'datetime') return new Date(Date.parse(text as string)) // a spreadsheet keeps milliseconds
    return text
  }

  for (const [resource, type, columns, sort] of [
    ['contracts', 'contract', 'contracts', '-amount_total'],
    ['direct-contracts', 'direct_contract', 'biddings', 'opening_date'],
    ['public-calls', 'public_call', 'biddings', '-sum_amount_total'],
    ['arps', 'arp', 'arps', '-date_expiration'],
  ] as const) {
    it(`exports ${resource} cell by cell, in the listing's order, as CSV and XLSX`, async () => {
      const query = `organization_uuid=${org.uuid}&sort=${sort}`
      const listed = await app.inject({
        method: 'GET',
        url: `/v1/transparency/${resource}?per_page=100&${query}`,
      })
      const order = (listed.json().data.data as Item[]).map((item) => item.id)
      const byId = new Map(records.filter((r) => r.type === type).map((r) => [r.id, r]))
      assert.equal(order.length, [...byId.values()].filter((r) => r.organization_uuid === org.uuid).length)
      const expected = order.map((id) =>
        EXPECTED[columns]?.map(([, value]) => value(byId.get(id) as DemoRecord)),
      )

      const csv = await app.inject({
        method: 'GET',
        url: `/v1/transparency/export?resource=${resource}&format=csv&${query}`,
      })
      assert.equal(csv.statusCode, 200, csv.body)
      const [csvHeader, ...csvRows] = parse(csv.rawPayload, { bom: true }) as string[][]
      assert.deepEqual(
        csvHeader,
        EXPORT_COLUMNS[resource].map((c) => c.title),
      )
      assert.deepEqual(
        csvRows,
        expected.map((row) => row?.map((cell) => (cell === null || cell === undefined ? '' : String(cell)))),
      )

      const xlsx = await app.inject({
        method: 'GET',
        url: `/v1/transparency/export?resource=${resource}&format=xlsx&${query}`,
      })
      const [, ...xlsxRows] = await readXlsx(xlsx.rawPayload)
      assert.equal(xlsxRows.length, expected.length)
      for (const [i, row] of xlsxRows.entries()) {
        const kinds = EXPECTED[columns] as [Kind, unknown][]
        for (const [c, [kind]] of kinds.entries()) {
          const want = asXlsx(kind, expected[i]?.[c])
          const got = row[c]
          if (kind === 'datetime' && want instanceof Date) {
            assert.ok(got instanceof Date, `row ${i} column ${c}: ${String(got)}`)
            assert.ok(Math.abs((got as Date).getTime() - want.getTime()) <= 1, `row ${i} column ${c}`)
          } else {
            assert.deepEqual(got, want, `row ${i} column ${c} (${kind})`)
          }
        }
      }
    })
  }

  it('keeps the estimate of a secret budget out of both files, and cents and microseconds in', async () => {
    const csv = await app.inject({
      method: 'GET',
      url: '/v1/transparency/export?resource=public-calls&format=csv',
    })
    const rows = parse(csv.rawPayload, { bom: true }) as string[][]
    const row = (number: string) => rows.find((r) => r[2] === number) as string[]
    assert.equal(row('SIGILO 9/2025')[15], '')
    assert.equal(row('SIGILO 9/2025')[7], '2025-03-10T14:30:15.123450Z')
    assert.equal(row('ABERTA 9/2025')[15], '2500.50')
    assert.equal(row('ABERTA 9/2025')[16], '2400.00')
    assert.ok(!csv.body.includes('500000.1'))
    const xlsx = await app.inject({
      method: 'GET',
      url: '/v1/transparency/export?resource=public-calls&format=xlsx',
    })
    const sheet = await readXlsx(xlsx.rawPayload)
    assert.equal((sheet.find((r) => r[2] === 'SIGILO 9/2025') as unknown[])[15], undefined)
  })

  it('masks a CPF as the API does', async () => {
    const csv = await app.inject({
      method: 'GET',
      url: '/v1/transparency/export?resource=contracts&format=csv',
    })
    const xlsx = await app.inject({
      method: 'GET',
      url: '/v1/transparency/export?resource=contracts&format=xlsx',
    })
    assert.ok(!csv.body.includes('98765432100'))
    assert.ok(csv.body.includes('***.654.321-**'))
    const rows = await readXlsx(xlsx.rawPayload)
    const row = rows.find((r) => r[0] === person.id) as unknown[]
    assert.equal(row[6], '***.654.321-**')
  })

  const bad: [string, number, string | RegExp][] = [
    [
      'resource=tenders&format=csv',
      422,
      /^Parâmetro inválido: resource\. Aceita um destes valores: contracts/,
    ],
    ['resource=contracts&format=pdf', 422, 'Parâmetro inválido: format. Aceita xlsx ou csv.'],
    ['format=csv', 422, /^Parâmetro obrigatório: resource\./],
    ['resource=contracts', 422, /^Parâmetro obrigatório: format\./],
    [
      'resource=contracts&format=csv&status_id=1',
      422,
      /^Parâmetro não se aplica a contracts: status_id\. Aceitos para contracts: resource, format, separator, organization_uuid/,
    ],
    ['resource=contracts&format=csv&page=2', 422, /^Parâmetro desconhecido: page\./],
    [
      'resource=contracts&format=csv&sort=opening_date',
      422,
      /^Parâmetro inválido: sort\. Aceita um destes valores: date_start/,
    ],
    ['resource=contracts&format=csv&separator=%7C', 422, /^Parâmetro inválido: separator\./],
    [
      'resource=contracts&format=xlsx&organization_uuid=00000000-0000-4000-8000-000000000000',
      404,
      'Organização não encontrada.',
    ],
  ]
  for (const [query, status, message] of bad) {
    it(`answers ${status} in JSON before any file byte for ${query}`, async () => {
      const response = await app.inject({ method: 'GET', url: `/v1/transparency/export?${query}` })
      assert.equal(response.statusCode, status)
      assert.match(response.headers['content-type'] as string, /^application\/json/)
      assert.equal(response.headers['content-disposition'], undefined)
      const body = response.json()
      assert.equal(body.success, false)
      if (typeof message === 'string') assert.equal(body.message, message)
      else assert.match(body.message, message)
    })
  }

  it('compras export on the command line writes the same file and refuses bad filters', async () => {
    const out = path.join(os.tmpdir(), `compras-export-${process.pid}.csv`)
    const result = await runCli(
      [
        'export',
        '--resource',
        'contracts',
        '--format',
        'csv',
        '--out',
        out,
        '--organization-uuid',
        org.uuid as string,
      ],
      { DATABASE_URL: db.url },
    )
    assert.equal(result.code, 0, result.stderr)
    const viaHttp = await app.inject({
      method: 'GET',
      url: `/v1/transparency/export?resource=contracts&format=csv&organization_uuid=${org.uuid}`,
    })
    assert.equal(readFileSync(out, 'utf8'), viaHttp.body)
    const refused = await runCli(
      ['export', '--resource', 'contracts', '--format', 'csv', '--out', out, '--status-id', '1'],
      {
        DATABASE_URL: db.url,
      },
    )
    assert.equal(refused.code, 1)
    assert.match(refused.stderr, /^compras: Parâmetro não se aplica a contracts: status_id\./)
    // --format is optional on the command line (ocds takes none), and required for a spreadsheet.
    const formatless = await runCli(['export', '--resource', 'contracts', '--out', out], {
      DATABASE_URL: db.url,
    })
    assert.equal(formatless.code, 1)
    assert.match(formatless.stderr, /^compras: .*format/)
    rmSync(out, { force: true })
  })
})

describe('export streaming', () => {
  let db: TestDatabase
  let app: FastifyInstance
  let base = ''
  before(async () => {
    db = await createTestDatabase()
    const few = demoRecords(
      { organizations: 1, orders: 0, contracts: 1, arps: 0, directContracts: 0, publicCalls: 0 },
      3,
    )
    const result = await importRecords(db.pool, [source(ndjson(few))])
    assert.equal(result.ok, true)
    // Far more rows than socket buffers hold (tens of MB of CSV), copied from the one imported contract.
    await db.pool.query(`
      INSERT INTO contracts (id, organization_id, contract_number, object_details, amount_total, supplier_id,
        contractor_company_name, modality_id, term_title, date_start, date_end, management_status_id)
      SELECT gen_random_uuid(), c.organization_id, c.contract_number || '-' || n, c.object_details, c.amount_total + n,
        c.supplier_id, c.contractor_company_name, c.modality_id, c.term_title, c.date_start - (n % 3000), c.date_end,
        c.management_status_id
      FROM contracts c, generate_series(1, 150000) n`)
    app = await buildTestApp(db)
    base = await app.listen({ port: 0, host: '127.0.0.1' })
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  /** Starts an export and pauses after its first bytes, so the server is mid-stream. */
  function startPaused(url: string): Promise<{ response: http.IncomingMessage; first: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(url, (response) => {
          response.once('data', (chunk: Buffer) => {
            response.pause()
            resolve({ response, first: chunk })
          })
        })
        .on('error', reject)
    })
  }

  it('sends the first bytes before the last row is read', async () => {
    const { response, first } = await startPaused(
      `${base}/v1/transparency/export?resource=contracts&format=csv`,
    )
    try {
      assert.equal(response.headers['transfer-encoding'], 'chunked')
      assert.ok(first.toString().startsWith('\uFEFFIdentificador'))
      // The export's cursor is still open (its transaction has not ended): rows remain unread.
      const { rows } = await db.pool.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND query LIKE 'SELECT c.id::text%' AND xact_start IS NOT NULL`,
      )
      assert.equal(rows[0].n, 1, 'the export query is still running while the client holds the first bytes')
    } finally {
      response.destroy()
    }
  })

  it('aborts the transfer when the database fails in the middle, so the file never looks complete', async () => {
    const { response } = await startPaused(`${base}/v1/transparency/export?resource=contracts&format=xlsx`)
    try {
      // A deadline: a transfer that neither ends nor breaks fails the test instead of hanging the suite.
      const outcome = new Promise<string>((resolve) => {
        response.on('end', () => resolve('end'))
        response.on('aborted', () => resolve('aborted'))
        response.on('error', () => resolve('error'))
        setTimeout(() => resolve('nothing within 60 s'), 60_000).unref()
      })
      const { rowCount } = await db.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND query LIKE 'SELECT c.id::text%' AND pid <> pg_backend_pid()`,
      )
      response.resume()
      const ended = await outcome
      assert.ok(
        ended === 'aborted' || ended === 'error',
        `${ended} (export backends terminated: ${rowCount})`,
      )
      // The service goes on answering.
      const health = await fetch(`${base}/v1/transparency/helpers/bidding-statuses`)
      assert.equal(health.status, 200)
    } finally {
      response.destroy()
    }
  })
})
