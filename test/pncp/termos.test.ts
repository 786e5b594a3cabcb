import assert from 'node:assert/strict'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { describe, it } from 'node:test'
import { harvest } from '../../src/pncp/harvest.js'
import { importPncp } from '../../src/pncp/import.js'
import { runCli } from '../helpers/cli.js'
import { COUNTS } from '../helpers/fake-pncp.js'
import { checkRelease } from '../helpers/ocds.js'
import { contratacao, contrato, ORGAN, termo } from '../helpers/pncp.js'
import { pncpSuite } from '../helpers/pncp-suite.js'

// A contrato's termos from PNCP: its additive terms on every face (detail, portal, OCDS amendments), taken from
// the harvester's layout or named by their contrato, and refused with a reason when they cannot be.

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON, checked field by field
type Json = Record<string, any>
const json = (value: unknown) => JSON.stringify(value)
const contractControl = (sequence: number) => `${ORGAN.cnpj}-2-${String(sequence).padStart(6, '0')}/2025`

describe('PNCP termos', () => {
  const { suite, get, detail, file, harvestOptions } = pncpSuite('termos', { fake: true })
  const contract = (sequence: number) => detail('contracts', contractControl(sequence))

  it("takes a contrato's termos as its additive terms, on every face", async () => {
    await file('t/contratacoes.json', [contratacao(401)])
    await file('t/contratos.json', [contrato(401, 401)])
    await file(`t/termos/${ORGAN.cnpj}-2025-401/20250402110000/termos.json`, [
      termo(2, { valorAcrescido: -500, tipoTermoContratoNome: 'Termo de Supressão' }),
      termo(1),
    ])
    // A termo named by its contrato's number, anywhere.
    await file('t/soltos/termos.json', [termo(3, { numeroControlePNCPContrato: contractControl(401) })])
    const result = await runCli(['pncp', 'import', path.join(suite.dir, 't')], { DATABASE_URL: suite.db.url })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /read 1 contratacao, 1 contrato, 3 termo;/)
    const got = await contract(401)
    assert.deepEqual(
      got.terms.map((t: Json) => [t.number, t.kind, t.signature_date, t.date_end, t.value]),
      [
        ['1º Termo Aditivo', 'Termo Aditivo', '2025-06-01', '2026-03-31', '12000.00'],
        ['2º Termo Aditivo', 'Termo de Supressão', '2025-07-01', '2026-03-31', null],
        ['3º Termo Aditivo', 'Termo Aditivo', '2025-08-01', '2026-03-31', '12000.00'],
      ],
    )
    assert.match(got.terms[0].description, /^Acréscimo de quantitativos/)
    const page = await suite.app.inject({ method: 'GET', url: `/contratos/${got.id}` })
    assert.equal(page.statusCode, 200)
    assert.ok(page.body.includes('Termo de Supressão'), 'its page lists the terms')
    const record = await get(`/v1/ocds/records/ocds-xxxxxx-${got.bidding_uuid}`)
    assert.equal(record.status, 200, json(record.body))
    const release = record.body.records[0].compiledRelease as Json
    checkRelease(release, 'the compiled release of a contratação whose contrato has termos')
    assert.deepEqual(
      release.contracts[0].amendments.map((a: Json) => [a.id, a.rationale]),
      [
        ['1º Termo Aditivo', 'Termo Aditivo'],
        ['2º Termo Aditivo', 'Termo de Supressão'],
        ['3º Termo Aditivo', 'Termo Aditivo'],
      ],
    )
  })

  it('refuses a termo it cannot take, naming its file, record and field', async () => {
    const files = [
      await file('bad/contratacoes.json', [contratacao(402)]),
      await file('bad/contratos.json', [contrato(402, 402)]),
      await file(`bad/termos/${ORGAN.cnpj}-2025-402/termos.json`, [
        termo(1),
        termo(2, { dataAssinatura: null }),
      ]),
      await file('bad/orphan.json', [termo(1, { numeroControlePNCPContrato: contractControl(999) })]),
      await file('bad/nowhere.json', [termo(1)]),
    ]
    const result = await runCli(['pncp', 'import', ...files], { DATABASE_URL: suite.db.url })
    assert.equal(result.code, 1)
    const expect = [
      `${files[2]}:#2: dataAssinatura: is not a date`,
      `${files[3]}:#1: (record): belongs to ${contractControl(999)}, which this import does not hold: import its contrato`,
      `${files[4]}:#1: (record): names no contrato: no numeroControlePNCPContrato`,
    ]
    const lines = result.stderr.trim().split('\n')
    for (const [i, start] of expect.entries())
      assert.ok(lines[i]?.startsWith(start), `line ${i}: ${lines[i]} (expected ${start})`)
    const stored = await suite.db.pool.query('SELECT count(*)::int AS n FROM contracts WHERE pncp_id = $1', [
      contractControl(402),
    ])
    assert.equal(stored.rows[0].n, 0, 'nothing written')
  })

  it("harvests each contrato's termos, and the import takes them", async () => {
    const out = path.join(suite.dir, 'harvest')
    const options = harvestOptions(out, { kinds: ['contratacoes', 'contratos', 'termos'], modalities: [6] })
    const first = await harvest(options)
    assert.deepEqual(first.missing, [])
    const files = (await readdir(out, { recursive: true })).filter(
      (f) => f.startsWith('termos') && f.endsWith('.json'),
    )
    assert.equal(files.length, COUNTS[6], 'one file of termos a contrato')
    const imported = await importPncp(suite.db.pool, [out])
    assert.ok(imported.ok, json(imported.problems.slice(0, 3)))
    const terms = await suite.db.pool.query(
      `SELECT count(*)::int AS n FROM additive_terms t JOIN contracts c ON c.id = t.contract_id
       WHERE c.pncp_id LIKE '%-2-%'`,
    )
    assert.ok(terms.rows[0].n >= (COUNTS[6] as number), `${terms.rows[0].n} terms`)
    const bad = await runCli(
      ['pncp', 'harvest', '--from', '2025-03-01', '--to', '2025-03-31', '--kinds', 'termos'],
      {
        PNCP_URL: suite.fake.url,
      },
    )
    assert.equal(bad.code, 1, bad.stderr)
    assert.match(bad.stderr, /--kinds termos takes contratos too/)
  })
})
