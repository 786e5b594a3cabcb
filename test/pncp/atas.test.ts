import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, it } from 'node:test'
import ExcelJS from 'exceljs'
import { v5 as uuidv5 } from 'uuid'
import { importRecords } from '../../src/import/importer.js'
import { importPncp } from '../../src/pncp/import.js'
import { PNCP_NAMESPACE } from '../../src/pncp/mapping.js'
import { runCli } from '../helpers/cli.js'
import { checkRelease, type Json } from '../helpers/ocds.js'
import { ata, contratacao, ORGAN, rejected } from '../helpers/pncp.js'
import { pncpSuite } from '../helpers/pncp-suite.js'
import { demoRecords, ndjson, source } from '../helpers/records.js'

// PNCP's atas as ARPs: their management status from `cancelado` and their vigência, their contratação found in
// the same run or stored, refused with a reason when it is neither; and an ARP with no supplier and no value on
// every face that serves ARPs (the platform's import takes one too).

const json = (value: unknown) => JSON.stringify(value)
const ataControl = (compra: number, sequence = 1) =>
  `${ORGAN.cnpj}-1-${String(compra).padStart(6, '0')}/2025-${String(sequence).padStart(6, '0')}`

describe('PNCP atas', () => {
  const { suite, get, listed, file } = pncpSuite('atas', { env: { PUBLIC_RATE_LIMIT: '0' } })
  const arp = (control: string) => listed('arps', control)

  it('reads cancelado as Cancelado and an ata past its vigência as Encerrado', async () => {
    await file('a/contratacoes.json', [contratacao(501), contratacao(502), contratacao(503)])
    await file('a/atas.json', [
      ata(1, 501),
      ata(1, 502, { cancelado: true, dataCancelamento: '2025-05-01T10:00:00' }),
      // Its vigência ended before PNCP's last change to it.
      ata(1, 503, { vigenciaFim: '2025-06-30', dataAtualizacao: '2025-07-15T10:00:00' }),
      // A second ata of the same contratação, signed without a dataAssinatura.
      ata(2, 501, { dataAssinatura: null, vigenciaInicio: '2025-04-10' }),
    ])
    const run = await importPncp(suite.db.pool, [path.join(suite.dir, 'a')])
    assert.equal(run.ok, true, json(run.problems))
    assert.equal(run.result.counts.arp, 4)
    assert.equal((await arp(ataControl(501))).management_status, 'Vigente')
    assert.equal((await arp(ataControl(502))).management_status, 'Cancelado')
    assert.equal((await arp(ataControl(503))).management_status, 'Encerrado')
    const second = await arp(ataControl(501, 2))
    assert.equal(second.number, '501/2025-2')
    assert.equal(second.date_signature, '2025-04-10', 'vigenciaInicio when no dataAssinatura')
    const { body } = await get(
      `/v1/transparency/arps?organization_uuid=${uuidv5(ORGAN.cnpj, PNCP_NAMESPACE)}&management_status_id=6`,
    )
    assert.deepEqual(
      body.data.data.map((a: Json) => a.pncp_id),
      [ataControl(502)],
      'the status filters',
    )
  })

  it('takes an ata whose contratação an earlier import stored', async () => {
    await file('b/atas.json', [ata(3, 501, { objetoContratacao: 'Ata harvested a month later' })])
    const run = await importPncp(suite.db.pool, [path.join(suite.dir, 'b')])
    assert.equal(run.ok, true, json(run.problems))
    const later = await arp(ataControl(501, 3))
    assert.equal(later.bidding_uuid, uuidv5(`${ORGAN.cnpj}-1-000501/2025`, PNCP_NAMESPACE))
    assert.equal(later.bidding_modality, 'Pregão Eletrônico')
    const { body } = await get(`/v1/transparency/public-calls/${later.bidding_uuid}`)
    assert.ok(
      body.data.arps.some((a: Json) => a.id === later.id),
      'the contratação lists it among its ARPs',
    )
  })

  it('refuses an ata of a contratação it does not hold, or with a control number that is not one', async () => {
    const rejects = path.join(suite.dir, 'rejects.ndjson')
    await file('c/atas.json', [
      ata(1, 999),
      { ...ata(1, 501), numeroControlePNCPAta: `${ORGAN.cnpj}-1-000501/2025` },
      ata(4, 501),
    ])
    const strict = await runCli(['pncp', 'import', path.join(suite.dir, 'c')], { DATABASE_URL: suite.db.url })
    assert.equal(strict.code, 1)
    assert.match(
      strict.stderr,
      /atas\.json:#1: numeroControlePNCPCompra: names no contratação in this import or stored \(\d{14}-1-000999\/2025\): import it too/,
    )
    assert.match(
      strict.stderr,
      /atas\.json:#2: numeroControlePNCPAta: is not the PNCP control number of an ata/,
    )
    const result = await runCli(['pncp', 'import', '--rejects', rejects, path.join(suite.dir, 'c')], {
      DATABASE_URL: suite.db.url,
    })
    assert.equal(result.code, 0, result.stderr)
    const { where } = await rejected(rejects)
    assert.deepEqual(where, [
      ['atas.json', 1, 'numeroControlePNCPCompra'],
      ['atas.json', 2, 'numeroControlePNCPAta'],
    ])
    assert.equal((await arp(ataControl(501, 4))).number, '501/2025-4', 'the good one is imported')
  })

  it('serves an ARP without supplier or value on the portal, the exports and OCDS', async () => {
    const { id } = await arp(ataControl(501))
    const page = await suite.app.inject({ method: 'GET', url: `/atas/${id}` })
    assert.equal(page.statusCode, 200)
    const listing = await suite.app.inject({ method: 'GET', url: '/atas?q=medicamentos' })
    assert.equal(listing.statusCode, 200)
    assert.ok(listing.body.includes(`/atas/${id}`), 'listed on the portal')
    const csv = await suite.app.inject({
      method: 'GET',
      url: `/v1/transparency/export?resource=arps&format=csv&pncp_id=${encodeURIComponent(ataControl(501))}`,
    })
    assert.equal(csv.statusCode, 200, csv.body)
    const [header, row] = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    const columns = (header as string).split(',')
    const cells = (row as string).split(',')
    assert.equal(cells.length, columns.length, `${header}\n${row}`)
    assert.ok(columns.includes('Valor total (R$)'), header)
    assert.equal(cells[columns.indexOf('Valor total (R$)')], '', 'no value: an empty cell')
    assert.equal(cells[columns.indexOf('Fornecedor')], '', 'no supplier: an empty cell')
    const xlsx = await suite.app.inject({
      method: 'GET',
      url: `/v1/transparency/export?resource=arps&format=xlsx&pncp_id=${encodeURIComponent(ataControl(501))}`,
    })
    assert.equal(xlsx.statusCode, 200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer)
    const sheet = book.worksheets[0] as ExcelJS.Worksheet
    const titles = (sheet.getRow(1).values as unknown[]).map(String)
    const value = sheet.getRow(2).getCell(titles.indexOf('Valor total (R$)')).value
    assert.equal(value, null, 'no value: an empty cell')
    const record = await get(
      `/v1/ocds/records/ocds-xxxxxx-${uuidv5(`${ORGAN.cnpj}-1-000501/2025`, PNCP_NAMESPACE)}`,
    )
    assert.equal(record.status, 200, json(record.body))
    const release = record.body.records[0].compiledRelease as Json
    checkRelease(release, 'a contratação with atas of no supplier')
    const awards = release.awards.filter((a: Json) => a.title.startsWith('Ata de registro de preços'))
    assert.equal(awards.length, 4, json(release.awards))
    for (const award of awards) assert.ok(!('value' in award) && !('suppliers' in award), json(award))
  })

  it("takes the platform's own ARP with no supplier and no value, and still refuses half a supplier", async () => {
    const records = demoRecords()
    const organization = records.find((r) => r.type === 'organization') as Json
    const demoArp = records.find((r) => r.type === 'arp') as Json
    const without = {
      ...demoArp,
      id: '7b4c3c36-4a43-4c25-9d5f-5a1f3c0c9a01',
      number: 'SEM-FORNECEDOR/2025',
      amount_total: null,
      provider_company_name: null,
      provider_document: null,
      provider_representative_name: null,
      documents: [],
      terms: [],
    }
    const result = await importRecords(suite.db.pool, [source(ndjson([organization, without]))])
    assert.equal(result.ok, true, json(result.problems))
    const { body } = await get(`/v1/transparency/arps/${without.id}`)
    assert.equal(body.data.amount_total, null)
    assert.equal(body.data.provider_company_name, null)
    // A dump keeps it, as it was imported.
    const dump = await runCli(['dump'], { DATABASE_URL: suite.db.url })
    assert.equal(dump.code, 0, dump.stderr)
    const dumped = dump.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Json)
      .find((line) => line.id === without.id)
    assert.deepEqual(
      [dumped?.amount_total, dumped?.provider_company_name, dumped?.provider_document, dumped?.number],
      [null, null, null, without.number],
    )
    const half = {
      ...without,
      id: '7b4c3c36-4a43-4c25-9d5f-5a1f3c0c9a02',
      number: 'X/2025',
      provider_document: '11222333000181',
    }
    const refused = await importRecords(suite.db.pool, [source(ndjson([organization, half]))])
    assert.equal(refused.ok, false, 'a supplier with a tax id and no name')
    assert.match(json(refused.problems), /provider_company_name/)
  })
})
