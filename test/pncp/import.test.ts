import assert from 'node:assert/strict'
import { readFile, utimes, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, it } from 'node:test'
import { v5 as uuidv5 } from 'uuid'
import { importPncp } from '../../src/pncp/import.js'
import { PNCP_NAMESPACE } from '../../src/pncp/mapping.js'
import { runCli } from '../helpers/cli.js'
import { checkRelease, type Json } from '../helpers/ocds.js'
import { ata, contratacao, contrato, ORGAN, page, rejected } from '../helpers/pncp.js'
import { pncpSuite } from '../helpers/pncp-suite.js'

// `compras pncp import` over files in PNCP's own shapes: what it stores, what every listing then serves,
// versions in any order, and bad input refused whole or, with --rejects, record by record.

const json = (value: unknown) => JSON.stringify(value)

describe('compras pncp import', () => {
  const { suite, get, listed: one, file } = pncpSuite('import')
  const count = async (table: string) =>
    Number((await suite.db.pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n)

  it('imports a harvested directory: contratações, and the contratos and atas of them', async () => {
    const calls = [
      contratacao(1),
      contratacao(2, { modalidadeId: 8, modalidadeNome: 'Dispensa de Licitação', modoDisputaId: 4 }),
      contratacao(3, {
        indicadorOrcamentoSigiloso: 'COMPRA_TOTALMENTE_SIGILOSA',
        modalidadeId: 9,
        modalidadeNome: 'Inexigibilidade',
        situacaoCompraId: 2,
        valorTotalEstimado: null,
        dataAberturaProposta: null,
      }),
      contratacao(4, { valorTotalHomologado: 99000.99, novoCampoDoPncp: 'x' }),
    ]
    await file('h/contratacoes/2025-03/pagina-001.json', page(calls))
    // A bare array of contracts, in a directory read after the contracts' contratações... or before.
    // The first contract was signed under the ata of the first contratação.
    const ataId = `${ORGAN.cnpj}-1-000001/2025-000001`
    await file('h/a-contratos/pagina-001.json', [
      contrato(1, 1, { numeroControlePncpAta: ataId }),
      contrato(2, 4),
    ])
    await file('h/atas/ata.json', ata(1, 1))
    const result = await runCli(['pncp', 'import', path.join(suite.dir, 'h')], { DATABASE_URL: suite.db.url })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /read 4 contratacao, 2 contrato, 1 ata;/)
    assert.match(
      result.stdout,
      /imported 1 organization, 2 contract, 2 direct_contract, 2 public_call, 1 arp/,
    )
    assert.match(result.stdout, /fields compras does not read: novoCampoDoPncp \(1\)/)

    const organization = uuidv5(ORGAN.cnpj, PNCP_NAMESPACE)
    const call = await one('public-calls', `${ORGAN.cnpj}-1-000001/2025`)
    assert.equal(call.number, '90001/2025')
    assert.equal(call.modality, 'Pregão Eletrônico')
    assert.equal(call.status, 'Publicado')
    assert.equal(call.register_price, true)
    assert.equal(call.opening_date, '2025-03-04T11:00:00.000000Z', 'Brasília time, UTC-3')
    assert.equal(call.sum_amount_total, '125000.50')
    assert.equal(call.company_name, ORGAN.razaoSocial)
    assert.equal(call.electronic_dispute_mode, 'Aberto')
    assert.equal(call.pncp_url, `https://pncp.gov.br/app/editais/${ORGAN.cnpj}/2025/1`)
    assert.equal(call.pncp_updated_at, '2025-03-03T13:15:02.000000Z')
    assert.deepEqual(
      [call.unit_code, call.unit_name, call.unit_city, call.unit_ibge_code, call.unit_uf],
      ['1', 'SECRETARIA MUNICIPAL DE SAUDE', 'Campinas', '3509502', 'SP'],
    )
    assert.equal(call.id, uuidv5(`${ORGAN.cnpj}-1-000001/2025`, PNCP_NAMESPACE))
    const { body: detail } = await get(`/v1/transparency/public-calls/${call.id}`)
    assert.equal((detail.data as Record<string, unknown>).pncp_id, `${ORGAN.cnpj}-1-000001/2025`)

    const dispensa = await one('direct-contracts', `${ORGAN.cnpj}-1-000002/2025`)
    assert.equal(dispensa.modality, 'Dispensa Eletrônica')
    const inexigibilidade = await one('direct-contracts', `${ORGAN.cnpj}-1-000003/2025`)
    assert.equal(inexigibilidade.modality, 'Inexigibilidade')
    assert.equal(inexigibilidade.status, 'Revogado')
    assert.equal(inexigibilidade.budget_secret, true)
    assert.equal(inexigibilidade.sum_amount_total, null, 'no estimate while the budget is secret')
    assert.equal(inexigibilidade.opening_date, null)
    const homologated = await one('public-calls', `${ORGAN.cnpj}-1-000004/2025`)
    assert.equal(homologated.status, 'Homologado')
    assert.equal(homologated.sum_amount_total_finish, '99000.99')

    const contract = await one('contracts', `${ORGAN.cnpj}-2-000001/2025`)
    assert.equal(contract.contract_number, '1/2025')
    assert.equal(contract.term_title, 'Contrato (termo inicial) nº 1/2025')
    assert.equal(contract.bidding_uuid, call.id)
    assert.equal(contract.bidding_modality, 'Pregão Eletrônico')
    assert.equal(contract.bidding_number, '90001/2025')
    assert.equal(contract.amount_total, '48000.00')
    assert.equal(contract.provider_company_name, 'DISTRIBUIDORA DE MEDICAMENTOS EXEMPLO LTDA')
    const supplier = await get('/v1/transparency/suppliers/11222333000181')
    assert.equal(supplier.status, 200, 'its supplier has a page')
    assert.equal(contract.management_status, 'Vigente')
    assert.equal(contract.pncp_url, `https://pncp.gov.br/app/contratos/${ORGAN.cnpj}/2025/1`)
    const { body: listed } = await get(`/v1/transparency/contracts?organization_uuid=${organization}`)
    assert.equal((listed.data as { data: unknown[] }).data.length, 2)

    // The ata: an ARP of its contratação, with neither supplier nor value (PNCP's ata names none).
    const arp = await one('arps', ataId)
    assert.equal(arp.id, uuidv5(ataId, PNCP_NAMESPACE))
    assert.equal(arp.number, '1/2025-1', "the contratação's sequence and year, and the ata's")
    assert.equal(arp.bidding_uuid, call.id)
    assert.equal(arp.bidding_modality, 'Pregão Eletrônico')
    assert.equal(arp.bidding_number, '90001/2025')
    assert.equal(arp.object_details, 'Registro de preços de medicamentos')
    assert.deepEqual(
      [arp.amount_total, arp.provider_company_name, arp.provider_representative_name],
      [null, null, null],
    )
    assert.deepEqual([arp.date_signature, arp.date_expiration], ['2025-04-01', '2026-03-31'])
    assert.equal(arp.management_status, 'Vigente')
    assert.equal(arp.pncp_url, `https://pncp.gov.br/app/atas/${ORGAN.cnpj}/2025/1/1`)
    assert.deepEqual(
      [arp.unit_code, arp.unit_name, arp.unit_city],
      ['1', 'SECRETARIA MUNICIPAL DE SAUDE', null],
    )
    const { body: arpDetail } = await get(`/v1/transparency/arps/${arp.id}`)
    const arpData = arpDetail.data as Record<string, unknown>
    assert.deepEqual(
      (arpData.contracts as { id: string }[]).map((c) => c.id),
      [contract.id],
      'the ARP lists the contract signed under it',
    )
    // The contracts' supplier holds no ARP: the ata names no supplier, and none is made up for it.
    const supplierPage = await get('/v1/transparency/suppliers/11222333000181')
    assert.equal(supplierPage.status, 200, json(supplierPage.body))
    assert.equal(supplierPage.body.data.totals.contracts.count, 2, 'its two contracts')
    assert.equal(supplierPage.body.data.totals.arps.count, 0, 'an ARP of no supplier')
    assert.equal(await count('arps WHERE supplier_id IS NULL'), 1)
  })

  it('serves the imported records on every face: portal, export, organ page, OCDS', async () => {
    const id = uuidv5(`${ORGAN.cnpj}-1-000001/2025`, PNCP_NAMESPACE)
    const page = await suite.app.inject({ method: 'GET', url: `/chamadas-publicas/${id}` })
    assert.equal(page.statusCode, 200)
    assert.ok(page.body.includes(`${ORGAN.cnpj}-1-000001/2025`), 'the PNCP number on its page')
    assert.ok(page.body.includes(`https://pncp.gov.br/app/editais/${ORGAN.cnpj}/2025/1`), 'its PNCP page')
    const csv = await suite.app.inject({
      method: 'GET',
      url: `/v1/transparency/export?resource=contracts&format=csv&pncp_id=${encodeURIComponent(`${ORGAN.cnpj}-2-000001/2025`)}`,
    })
    assert.equal(csv.statusCode, 200)
    const [header, row, none] = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    assert.ok(header?.includes('Número de controle PNCP'), header)
    assert.ok(row?.includes(`${ORGAN.cnpj}-2-000001/2025`), row)
    assert.equal(none, undefined, 'one contract')
    const found = await get('/v1/transparency/contracts?q=termo%20inicial')
    assert.equal(found.status, 200)
    assert.ok(
      (found.body.data as { data: unknown[] }).data.length >= 2,
      'q finds the contracts by their own number',
    )
    const feed = await get('/v1/transparency/changes?kinds=public-calls&per_page=1000')
    assert.equal(feed.status, 200, json(feed.body))
    assert.ok(json(feed.body).includes(id), 'the change feed has it')
    const organ = await get(`/v1/transparency/organizations/${uuidv5(ORGAN.cnpj, PNCP_NAMESPACE)}`)
    assert.equal(organ.status, 200, json(organ.body))
    const record = await get(`/v1/ocds/records/ocds-xxxxxx-${id}`)
    assert.equal(record.status, 200, json(record.body))
    const releases = (record.body.records as Json[])[0]?.compiledRelease as Json
    checkRelease(releases, 'the compiled release of a PNCP contratação')
    assert.equal(releases.tender.id, `${ORGAN.cnpj}-1-000001/2025`, "the tender is PNCP's number")
    assert.ok(json(releases).includes('Aquisição de medicamentos'), 'its object')
    assert.equal(releases.contracts?.length, 1, 'its contract')
    // The ata is the award of the contract signed under it, without value or suppliers it does not say.
    const arpId = uuidv5(`${ORGAN.cnpj}-1-000001/2025-000001`, PNCP_NAMESPACE)
    const award = (releases.awards as Json[]).find((a) => a.id === arpId)
    assert.ok(award, json(releases.awards))
    assert.equal(award.title, 'Ata de registro de preços 1/2025-1')
    assert.equal(award.value, undefined)
    assert.equal(award.suppliers, undefined)
    assert.equal(releases.contracts?.[0]?.awardID, arpId)
    const arpPage = await suite.app.inject({ method: 'GET', url: `/atas/${arpId}` })
    assert.equal(arpPage.statusCode, 200, arpPage.body.slice(0, 300))
    assert.ok(arpPage.body.includes('Registro de preços de medicamentos'), 'the ata on its page')
    assert.ok(arpPage.body.includes(`https://pncp.gov.br/app/atas/${ORGAN.cnpj}/2025/1/1`), 'its PNCP page')
  })

  it('changes nothing when the same files come again', async () => {
    const before = await get('/v1/transparency/changes?per_page=1000')
    assert.equal(before.status, 200, json(before.body))
    assert.ok((before.body.data as { data: unknown[] }).data.length > 0)
    const again = await importPncp(suite.db.pool, [path.join(suite.dir, 'h')])
    assert.equal(again.ok, true, json(again.problems))
    assert.equal(again.unchanged, 3, 'no file read again')
    assert.deepEqual(again.read, {})
    // A file written again is read again, and its records, the same versions, change nothing either.
    const ata = path.join(suite.dir, 'h/atas/ata.json')
    await writeFile(ata, await readFile(ata))
    await utimes(ata, new Date(), new Date(Date.now() + 5000))
    const touched = await importPncp(suite.db.pool, [path.join(suite.dir, 'h')])
    assert.equal(touched.unchanged, 2)
    assert.deepEqual(touched.read, { ata: 1 })
    const copied = await importPncp(suite.db.pool, [path.join(suite.dir, 'h/contratacoes')], {
      kind: 'contratacao',
    })
    assert.equal(copied.unchanged, 0, 'another mapping (--kind) reads the files again')
    assert.equal(copied.ok, true, json(copied.problems))
    const after = await get('/v1/transparency/changes?per_page=1000')
    assert.deepEqual(after.body.data, before.body.data, 'no feed entry')
  })

  it('keeps the newest version whatever order the files come in', async () => {
    const id = `${ORGAN.cnpj}-1-000001/2025`
    const newer = contratacao(1, {
      objetoCompra: 'Aquisição de medicamentos, retificada',
      dataAtualizacaoGlobal: '2025-05-10T09:00:00',
    })
    const older = contratacao(1, {
      objetoCompra: 'Aquisição de medicamentos, versão antiga',
      dataAtualizacaoGlobal: '2025-03-20T09:00:00',
    })
    // Both in one run, the newer first.
    const run = await importPncp(suite.db.pool, [await file('v/1.json', [newer, older])])
    assert.equal(run.ok, true, json(run.problems))
    assert.equal((await one('public-calls', id)).object_details, 'Aquisição de medicamentos, retificada')
    // An older file later: never put back.
    const late = await importPncp(suite.db.pool, [await file('v/2.json', older)])
    assert.equal(late.ok, true, json(late.problems))
    assert.equal((await one('public-calls', id)).object_details, 'Aquisição de medicamentos, retificada')
    const { body: history } = await get(`/v1/transparency/public-calls/${uuidv5(id, PNCP_NAMESPACE)}/history`)
    assert.ok(
      (history.data as { versions: unknown[] }).versions.length === 2,
      `the change is a version in its history: ${json(history).slice(0, 300)}`,
    )
  })

  it('refuses bad files whole, naming each file, record and field', async () => {
    const biddings = await count('biddings')
    const files = [
      await file('bad/1-truncated.json', json(page([contratacao(50)])).slice(0, 200)),
      await file('bad/2-html.json', '<!DOCTYPE html><html><body>429 Too Many Requests</body></html>'),
      await file('bad/3-records.json', [
        contratacao(51),
        contratacao(52, { numeroControlePNCP: undefined }),
        contratacao(53, { orgaoEntidade: { ...ORGAN, cnpj: '4639500000013' } }),
        contratacao(54, { valorTotalEstimado: -5 }),
        contrato(60, 999),
        contrato(61, 51, { niFornecedor: 'EX123' }),
      ]),
    ]
    const result = await runCli(['pncp', 'import', ...files], { DATABASE_URL: suite.db.url })
    assert.equal(result.code, 1)
    const lines = result.stderr.trim().split('\n')
    const expect = [
      `${files[0]}:#0: (file): invalid JSON (a truncated file?)`,
      `${files[1]}:#0: (file): the file is an HTML page, not JSON`,
      `${files[2]}:#2: numeroControlePNCP: is not a PNCP control number`,
      `${files[2]}:#3: orgaoEntidade.cnpj: is not a CNPJ of 14 digits`,
      `${files[2]}:#4: valorTotalEstimado: is negative`,
      `${files[2]}:#5: numeroControlePncpCompra: names no contratação in this import or stored`,
      `${files[2]}:#6: niFornecedor: is not a CNPJ (14 digits) or CPF (11 digits)`,
    ]
    for (const [i, start] of expect.entries())
      assert.ok(lines[i]?.startsWith(start), `line ${i}: ${lines[i]} (expected ${start})`)
    assert.match(result.stderr, /nothing was imported: 7 problem\(s\)/)
    assert.equal(await count('biddings'), biddings, 'nothing written, not even the good record')
  })

  it('with --rejects, imports the good records and writes the bad ones with their reasons', async () => {
    const rejects = path.join(suite.dir, 'rejects.ndjson')
    const files = [
      await file('rej/1.json', page([contratacao(70), contratacao(71, { modalidadeId: 99 })])),
      await file('rej/2.json', '<html>erro</html>'),
    ]
    const result = await runCli(['pncp', 'import', '--rejects', rejects, ...files], {
      DATABASE_URL: suite.db.url,
    })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /refused 2 record\(s\)/)
    await one('public-calls', `${ORGAN.cnpj}-1-000070/2025`)
    const { refused, where } = await rejected(rejects)
    assert.deepEqual(where, [
      ['1.json', 2, 'modalidadeId'],
      ['2.json', 0, '(file)'],
    ])
    assert.equal(refused[0]?.data.numeroControlePNCP, `${ORGAN.cnpj}-1-000071/2025`)
  })

  it("masks a person's CPF on every face, and no filter takes one", async () => {
    const cpf = '52998224725'
    const run = await importPncp(suite.db.pool, [
      await file('cpf.json', [
        contrato(80, 70, {
          tipoPessoa: 'PF',
          niFornecedor: cpf,
          nomeRazaoSocialFornecedor: 'MARIA DA SILVA',
        }),
      ]),
    ])
    assert.equal(run.ok, true, json(run.problems))
    const contract = await one('contracts', `${ORGAN.cnpj}-2-000080/2025`)
    assert.notEqual(contract.provider_document, cpf)
    assert.ok(!json(contract).includes(cpf), 'the whole CPF appears nowhere')
    const { status } = await get(`/v1/transparency/contracts?provider_document=${cpf}`)
    assert.equal(status, 422)
  })

  it('takes the kind from --kind when the fields do not tell', async () => {
    const bare = { numeroControlePNCP: `${ORGAN.cnpj}-1-000090/2025` }
    const unknown = await importPncp(suite.db.pool, [await file('kind.json', bare)])
    assert.equal(unknown.ok, false)
    assert.match(unknown.problems[0]?.reason ?? '', /--kind names one/)
    const forced = await importPncp(suite.db.pool, [await file('kind2.json', bare)], { kind: 'contratacao' })
    assert.equal(forced.ok, false)
    assert.deepEqual(forced.problems.map((p) => p.field).slice(0, 3), [
      'orgaoEntidade.cnpj',
      'orgaoEntidade.razaoSocial',
      'modalidadeId',
    ])
  })
})
