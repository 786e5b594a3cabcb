import assert from 'node:assert/strict'
import { readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, it } from 'node:test'
import { harvest } from '../../src/pncp/harvest.js'
import { importPncp } from '../../src/pncp/import.js'
import { mapContratacao } from '../../src/pncp/mapping.js'
import { runCli } from '../helpers/cli.js'
import { checkRelease, type Json as Release } from '../helpers/ocds.js'
import { contratacao, item, ORGAN, page, rejected, resultado } from '../helpers/pncp.js'
import { pncpSuite } from '../helpers/pncp-suite.js'

// A contratação's items and results from PNCP: inside its record on every face, and its homologated prices in
// the price research beside the orders' (source result), compared in normalized units.

type Json = Record<string, unknown>
const json = (value: unknown) => JSON.stringify(value)
const control = (sequence: number) => `${ORGAN.cnpj}-1-${String(sequence).padStart(6, '0')}/2025`
/** The harvester's directory of a contratação's children. */
const folder = (sequence: number) => `${ORGAN.cnpj}-2025-${sequence}/20250320160000`

describe('PNCP items and results', () => {
  const { suite, get, detail: one, file, harvestOptions } = pncpSuite('items', { fake: true })
  const prices = async (query: string) => {
    const { status, body } = await get(`/v1/transparency/prices?${query}`)
    assert.equal(status, 200, json(body))
    return body.data as { summary: Json[]; items: { data: Json[] } }
  }
  const count = async (table: string) =>
    Number((await suite.db.pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n)

  it('takes items and results from the harvester layout into their contratação and the price research', async () => {
    await file(
      'h/contratacoes/2025-03/pagina-0001.json',
      page([
        contratacao(101),
        contratacao(102, {
          modalidadeId: 8,
          modalidadeNome: 'Dispensa de Licitação',
          modoDisputaId: 4,
          valorTotalHomologado: 2000,
        }),
      ]),
    )
    await file(`h/itens/${folder(101)}/pagina-0001.json`, [
      item(1),
      item(2, {
        descricao: 'Seringa descartável 10 ml',
        unidadeMedida: 'und.',
        quantidade: 2.5,
        valorUnitarioEstimado: 1.1,
      }),
    ])
    await file(`h/resultados/${folder(101)}/item-00001.json`, [
      resultado(1),
      // A cancelled result is no price.
      resultado(1, { sequencialResultado: 2, situacaoCompraItemResultadoId: 2, valorUnitarioHomologado: 9 }),
    ])
    await file(`h/resultados/${folder(101)}/item-00002.json`, [
      resultado(2, {
        niFornecedor: '22333444000172',
        nomeRazaoSocialFornecedor: 'HOSPITALAR SUL LTDA',
        quantidadeHomologada: 2.5,
        valorUnitarioHomologado: 0.9,
        valorTotalHomologado: 2.25,
      }),
    ])
    // Items named by their contratação's number, in a file of no particular place.
    await file('h/soltos/itens.json', [
      item(1, { numeroControlePNCPCompra: control(102), unidadeMedida: 'UNID' }),
    ])
    await file('h/soltos/resultados.json', [
      resultado(1, {
        numeroControlePNCPCompra: control(102),
        valorUnitarioHomologado: 0.31,
        valorTotalHomologado: 3100,
      }),
    ])
    const result = await runCli(['pncp', 'import', path.join(suite.dir, 'h')], { DATABASE_URL: suite.db.url })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /read 2 contratacao, 3 item, 4 resultado;/)

    const call = await one('public-calls', control(101))
    assert.deepEqual(
      (call.items as Json[]).map((i) => [i.number_item, i.unit_measurement, i.quantity, i.estimated_amount]),
      [
        [1, 'Unidade', 10000, 0.35],
        [2, 'und.', 2.5, 1.1],
      ],
    )
    assert.deepEqual(
      (call.results as Json[]).map((r) => [r.number_item, r.document, r.quantity, r.amount, r.result_date]),
      [
        [1, '11222333000181', 10000, 0.2875, '2025-03-20'],
        [2, '22333444000172', 2.5, 0.9, '2025-03-20'],
      ],
    )
    assert.deepEqual(
      (call.providers as Json[]).map((p) => p.document),
      ['11222333000181', '22333444000172'],
      'its providers are its results’ suppliers',
    )
    assert.equal(call.process, '101/2025')
    assert.equal(call.legal_basis, 'Lei 14.133/2021, Art. 28, I')
    assert.equal(call.closing_date, '2025-03-18T12:00:00.000000Z')
    assert.equal(call.origin_url, 'https://compras.example/edital/1')
    assert.equal(call.additional_info, null)

    // Three spellings of one unit: compared as UN, each kept as published.
    const dipirona = await prices('q=dipirona')
    assert.deepEqual(
      dipirona.summary.map((s) => [s.unit, s.items, s.min, s.max]),
      [['UN', 2, '0.29', '0.31']],
    )
    const first = dipirona.items.data[0] as Json
    assert.equal(first.source, 'result')
    assert.equal(first.unit_measurement, 'Unidade')
    assert.equal(first.unit, 'UN')
    assert.equal(first.quantity, 10000)
    assert.equal(first.date, '2025-03-20')
    assert.equal(first.bidding_id, call.id)
    assert.equal(first.bidding_type, 'public_call')
    assert.equal(first.bidding_number, call.number)
    assert.equal(first.order_number, null)
    assert.equal(first.brand, null)
    assert.equal((await prices('q=seringa&unit=Unidades')).summary.length, 1, 'the filter is normalized too')
    assert.equal((await prices('q=dipirona&source=order')).summary.length, 0)
    assert.equal((await prices('q=dipirona&source=result')).items.data.length, 2)
    const wrong = await get('/v1/transparency/prices?q=dipirona&source=ordem')
    assert.equal(wrong.status, 422)
    assert.match(String(wrong.body.message), /^Parâmetro inválido: source\./)

    // The portal's research links a result to its contratação; the CSV says where each price came from.
    const portal = await suite.app.inject({ method: 'GET', url: '/precos?q=dipirona' })
    assert.equal(portal.statusCode, 200)
    assert.match(
      portal.body,
      new RegExp(`href="/chamadas-publicas/${call.id}"[^>]*>Resultado da contratação`),
    )
    const chosen = await suite.app.inject({ method: 'GET', url: '/precos?q=dipirona&source=result' })
    assert.match(
      chosen.body,
      /<option value="result" selected[^>]*>Resultados de contratações \(PNCP\)<\/option>/,
    )
    const csv = await get('/v1/transparency/prices/export?format=csv&q=dipirona')
    assert.equal(csv.status, 200)
    assert.match(csv.text, /,result,2025-03-20,/)

    // Its page shows its items and results, and the fields PNCP gives.
    const detail = await suite.app.inject({ method: 'GET', url: `/chamadas-publicas/${call.id}` })
    assert.equal(detail.statusCode, 200)
    for (const text of [
      '>Itens</h2>',
      '>Resultados</h2>',
      'HOSPITALAR SUL LTDA',
      '<dt>Amparo legal</dt>',
      'und.',
    ])
      assert.ok(detail.body.includes(text), text)

    // OCDS: the tender's items at their estimate, an award per supplier at the prices homologated.
    const record = await get(`/v1/ocds/records/ocds-xxxxxx-${call.id}`)
    assert.equal(record.status, 200, json(record.body))
    const release = ((record.body.records as Release[])[0] as Release).compiledRelease as Release
    checkRelease(release, 'the compiled release of a contratação with items and results')
    assert.deepEqual(release.tender.items[1], {
      id: '2',
      description: 'Seringa descartável 10 ml',
      quantity: 2.5,
      unit: { name: 'und.', value: { amount: 1.1, currency: 'BRL' } },
    })
    assert.equal(release.tender.tenderPeriod.endDate, '2025-03-18T12:00:00.000000Z')
    assert.deepEqual(
      release.awards.map((a: Release) => [
        a.id,
        a.value.amount,
        a.items.map((i: Release) => i.unit.value.amount),
      ]),
      [
        [`${call.id}-result-1`, 2875, [0.2875]],
        [`${call.id}-result-2`, 2.25, [0.9]],
      ],
    )

    // The supplier's page counts the public call it took part in.
    const supplier = await get('/v1/transparency/suppliers/22333444000172')
    assert.equal(supplier.status, 200, json(supplier.body))
  })

  it('replaces a contratação’s items and prices with a newer version, and keeps them for an older one', async () => {
    const newer = '2025-04-01T10:00:00'
    await file('v/contratacoes.json', [contratacao(101, { dataAtualizacaoGlobal: newer })])
    await file(`v/itens/${ORGAN.cnpj}-2025-101/20250401100000/pagina-0001.json`, [item(1)])
    await file(`v/resultados/${ORGAN.cnpj}-2025-101/20250401100000/item-00001.json`, [
      resultado(1, { valorUnitarioHomologado: 0.25, valorTotalHomologado: 2500 }),
    ])
    assert.ok((await importPncp(suite.db.pool, [path.join(suite.dir, 'v')])).ok)
    const call = await one('public-calls', control(101))
    assert.equal((call.items as Json[]).length, 1)
    assert.deepEqual(
      (await prices('q=dipirona&source=result')).items.data.map((i) => [i.bidding_number, i.amount]),
      [
        [call.number, '0.25'],
        [(await one('direct-contracts', control(102))).number, '0.31'],
      ],
    )
    assert.equal((await prices('q=seringa')).summary.length, 0, 'the item the new version dropped is gone')
    // The old files again change nothing: their version is older.
    assert.ok((await importPncp(suite.db.pool, [path.join(suite.dir, 'h')])).ok)
    assert.equal((await prices('q=seringa')).summary.length, 0)
  })

  it('reads a contratação an earlier import took again when new items name it', async () => {
    const calls = await file('late/contratacoes.json', [contratacao(501)])
    assert.ok((await importPncp(suite.db.pool, [path.join(suite.dir, 'late')])).ok)
    // The same directory, the contratação's file unchanged, with its items and results now.
    await file(`late/itens/${ORGAN.cnpj}-2025-501/pagina-0001.json`, [item(1)])
    await file(`late/resultados/${ORGAN.cnpj}-2025-501/item-00001.json`, [resultado(1)])
    const again = await importPncp(suite.db.pool, [path.join(suite.dir, 'late')])
    assert.ok(again.ok, json(again.problems))
    assert.equal(again.unchanged, 0, `${calls} is read again`)
    // Imported once more, nothing is read: every file was taken whole.
    assert.equal((await importPncp(suite.db.pool, [path.join(suite.dir, 'late')])).unchanged, 3)
    // The same version without its items, from elsewhere, leaves the stored ones alone.
    assert.ok(
      (await importPncp(suite.db.pool, [await file('bare/contratacoes.json', [contratacao(501)])])).ok,
    )
    const still = await one('public-calls', control(501))
    assert.deepEqual([(still.items as Json[]).length, (still.results as Json[]).length], [1, 1])
    const call = await one('public-calls', control(501))
    assert.deepEqual([(call.items as Json[]).length, (call.results as Json[]).length], [1, 1])
  })

  it('leaves the items of a refused contratação to be read again with it', async () => {
    const rejects = path.join(suite.dir, 'refused.ndjson')
    await file('gone/contratacoes.json', [contratacao(502, { modalidadeId: 99 }), contratacao(503)])
    const items = await file(`gone/itens/${ORGAN.cnpj}-2025-502/pagina-0001.json`, [item(1)])
    const kept = await file(`gone/itens/${ORGAN.cnpj}-2025-503/pagina-0001.json`, [item(1)])
    const result = await importPncp(suite.db.pool, [path.join(suite.dir, 'gone')], { rejects })
    assert.ok(result.ok, json(result.problems))
    assert.equal(result.rejected, 1)
    const ledger = await suite.db.pool.query<{ path: string }>(
      'SELECT path FROM pncp_files WHERE path = ANY($1)',
      [[items, kept]],
    )
    assert.deepEqual(
      ledger.rows.map((r) => r.path),
      [kept],
      'the refused contratação’s items are not recorded as taken',
    )
  })

  it('refuses bad items and results whole, naming each file, record and field', async () => {
    const before = await count('bidding_results')
    const files = [
      await file('bad/contratacoes.json', [contratacao(201)]),
      await file(`bad/itens/${ORGAN.cnpj}-2025-201/pagina-0001.json`, [item(1), item(2, { quantidade: -1 })]),
      await file(`bad/resultados/${ORGAN.cnpj}-2025-201/item-00001.json`, [
        resultado(1, { quantidadeHomologada: -3 }),
        resultado(7, { sequencialResultado: 2 }),
      ]),
      await file('bad/orphan.json', [item(1, { numeroControlePNCPCompra: control(999) })]),
      await file('bad/nowhere.json', [item(1)]),
    ]
    const result = await runCli(['pncp', 'import', ...files], { DATABASE_URL: suite.db.url })
    assert.equal(result.code, 1)
    const expect = [
      `${files[1]}:#2: quantidade: is negative`,
      `${files[2]}:#1: quantidadeHomologada: is negative`,
      `${files[2]}:#2: numeroItem: names item 7, which this import does not hold for ${control(201)}`,
      `${files[3]}:#1: (record): belongs to ${control(999)}, which this import does not hold`,
      `${files[4]}:#1: (record): names no contratação`,
    ]
    const lines = result.stderr.trim().split('\n')
    for (const [i, start] of expect.entries())
      assert.ok(lines[i]?.startsWith(start), `line ${i}: ${lines[i]} (expected ${start})`)
    assert.equal(await count('bidding_results'), before, 'nothing written')

    // With --rejects, the contratação comes with its good item; the bad records are listed with their reasons.
    const rejects = path.join(suite.dir, 'rejects.ndjson')
    const partial = await runCli(['pncp', 'import', '--rejects', rejects, ...files.slice(0, 3)], {
      DATABASE_URL: suite.db.url,
    })
    assert.equal(partial.code, 0, partial.stderr)
    const call = await one('public-calls', control(201))
    assert.deepEqual(
      (call.items as Json[]).map((i) => i.number_item),
      [1],
    )
    assert.deepEqual(call.results, [])
    const { where } = await rejected(rejects)
    assert.deepEqual(where, [
      ['pagina-0001.json', 2, 'quantidade'],
      ['item-00001.json', 1, 'quantidadeHomologada'],
      ['item-00001.json', 2, 'numeroItem'],
    ])
  })

  it('refuses, in the platform import, a result that names no item of its record, and a repeated item', async () => {
    const mapped = mapContratacao(contratacao(301), {
      items: [
        {
          number_item: 1,
          description: 'Luva',
          unit_measurement: 'CX',
          quantity: 1,
          estimated_amount: null,
          estimated_total: null,
        },
      ],
      results: [
        {
          number_item: 9,
          name: 'X LTDA',
          document: '11222333000181',
          quantity: 1,
          amount: 1,
          amount_total: '1.00',
          discount: null,
          result_date: null,
        },
      ],
    })
    const at = await file('ndjson/records.ndjson', `${mapped.lines.map((l) => json(l)).join('\n')}\n`)
    const result = await runCli(['import', at], { DATABASE_URL: suite.db.url })
    assert.equal(result.code, 1)
    assert.match(
      result.stderr,
      /records\.ndjson:2: results\[0\]\.number_item: names no item of this record \(9\)/,
    )
    const bidding = mapped.lines[1] as unknown as Json & { items: Json[] }
    const twice = { ...bidding, items: [...bidding.items, bidding.items[0]], results: [] }
    await writeFile(at, `${json(mapped.lines[0])}\n${json(twice)}\n`)
    const repeated = await runCli(['import', at], { DATABASE_URL: suite.db.url })
    assert.equal(repeated.code, 1)
    assert.match(
      repeated.stderr,
      /records\.ndjson:2: items\[1\]\.number_item: repeats another item's number \(1\)/,
    )
  })

  it('harvests each contratação’s items and results, and the import takes them', async () => {
    const out = path.join(suite.dir, 'harvest')
    const options = harvestOptions(out, { kinds: ['contratacoes', 'itens', 'resultados'], modalities: [8] })
    const first = await harvest(options)
    assert.deepEqual(first.missing, [])
    const files = (await readdir(out, { recursive: true })).filter((f) => f.endsWith('.json')).sort()
    const calls = files.filter((f) => f.startsWith('contratacoes'))
    const items = files.filter((f) => f.startsWith('itens'))
    const results = files.filter((f) => f.startsWith('resultados'))
    assert.equal(calls.length, 1)
    assert.equal(items.length, 30, 'one page of items a contratação')
    assert.equal(results.length, 60, 'one file of results an item')
    assert.match(results[0] as string, /^resultados\/\d{14}-2025-\d+\/\d{14}\/item-00001\.json$/)
    // Started again, it fetches nothing: every file is there.
    const requests = suite.fake.log.length
    const again = await harvest(options)
    assert.equal(again.fetched, 0)
    assert.equal(suite.fake.log.length, requests)
    const imported = await importPncp(suite.db.pool, [out])
    assert.ok(imported.ok, json(imported.problems.slice(0, 3)))
    const seringa = await prices('q=seringa&source=result')
    assert.equal(seringa.summary[0]?.items, 30)
    const bad = await runCli(
      ['pncp', 'harvest', '--from', '2025-03-01', '--to', '2025-03-31', '--kinds', 'resultados'],
      {
        PNCP_URL: suite.fake.url,
      },
    )
    assert.equal(bad.code, 1, bad.stderr)
    assert.match(bad.stderr, /--kinds resultados takes itens too/)
  })
})
