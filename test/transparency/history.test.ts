import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import type { DemoRecord } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { buildTestApp, listen } from '../helpers/app.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, ndjson, source } from '../helpers/records.js'

// A record's history as an auditor meets it, over HTTP on a real database: a contract imported, then changed
// twice (an additive term that raises its value, then its term extended), another withdrawn. The history
// endpoint, the portal's section and the OCDS record tell the same story; each version is the detail as it
// was served then; a release once published keeps its bytes; a withdrawn record has no history; and no
// version shows a whole CPF.

type Json = Record<string, unknown>
interface Difference {
  field: string
  label: string
  before: unknown
  after: unknown
}
interface HistoryVersion {
  version: number
  changed_at: string
  change: string
  changes: Difference[]
}

const PREFIX = 'ocds-hist01'

describe('the history of a record', () => {
  let db: TestDatabase
  let app: FastifyInstance
  let base = ''
  const texts: string[] = [] // every body read, for the CPF check
  const records = demoRecords(
    { organizations: 2, orders: 12, contracts: 8, arps: 3, directContracts: 3, publicCalls: 3 },
    50,
  )
  const contract = records.find(
    (r) => r.type === 'contract' && r.bidding_uuid && (r.terms as unknown[]).length > 0,
  ) as DemoRecord
  const withdrawn = records.find(
    (r) =>
      r.type === 'contract' &&
      r.id !== contract.id &&
      r.bidding_uuid !== contract.bidding_uuid &&
      !records.some(
        (o) =>
          o.type === 'order' &&
          o.organization_uuid === r.organization_uuid &&
          o.contract_number === r.contract_number,
      ),
  ) as DemoRecord
  const ocid = `${PREFIX}-${contract.bidding_uuid}`
  const term = {
    number: '7º Termo Aditivo',
    kind: 'Aditivo de valor',
    description: 'Acréscimo de 25% no quantitativo',
    signature_date: '2026-11-20',
    date_start: null,
    date_end: null,
    value: '5000.00',
    documents: [],
  }
  const second = {
    ...contract,
    amount_total: (Number(contract.amount_total) + 5000).toFixed(2),
    terms: [...(contract.terms as Json[]), term],
  }
  const extended = `${Number((contract.date_end as string).slice(0, 4)) + 1}${(contract.date_end as string).slice(4)}`
  const third = { ...second, date_end: extended }
  /** The detail of the contract as served after each import: version 1, 2 and 3. */
  const served: string[] = []
  /** The OCDS record after each change, for the bytes of its releases. */
  const packages: Json[] = []

  const get = async (url: string) => {
    const response = await fetch(`${base}${url}`)
    const text = await response.text()
    texts.push(text)
    return { status: response.status, text, json: () => JSON.parse(text) }
  }
  /**
   * A record package with its linked releases fetched where they link (each a package of one release, whose
   * date, tags and id are the link's): the releases as their own addresses serve them.
   */
  const withReleases = async (pkg: Json): Promise<Json> => {
    const record = (pkg.records as Json[])[0] as Json
    const releases: Json[] = []
    for (const link of record.releases as { url: string; date: string; tag: string[] }[]) {
      const url = new URL(link.url)
      const one = (await get(url.pathname)).json().releases[0] as Json
      assert.equal(one.id, decodeURIComponent(url.hash.slice(1)))
      assert.equal(one.date, link.date)
      assert.deepEqual(one.tag, link.tag)
      releases.push(one)
    }
    return { ...pkg, records: [{ ...record, releases }] }
  }
  const importLines = async (lines: readonly unknown[]) => {
    const result = await importRecords(db.pool, [source(ndjson(lines))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
  }
  /** What an import changed, once every instance dropped its cache (within a second, by NOTIFY). */
  async function waitFor(url: string, changed: (body: string) => boolean): Promise<string> {
    for (let tries = 0; tries < 40; tries++) {
      const { text } = await get(url)
      if (changed(text)) return text
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    assert.fail(`${url} did not change`)
  }
  const detail = `/v1/transparency/contracts/${contract.id}`

  before(async () => {
    db = await createTestDatabase()
    await importLines(records)
    app = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '0', OCDS_PREFIX: PREFIX } })
    base = await listen(app)
    served.push((await get(detail)).text)
    packages.push(await withReleases((await get(`/v1/ocds/records/${ocid}`)).json()))
    // A second apart, for releases dated apart.
    for (const change of [second, third]) {
      await new Promise((resolve) => setTimeout(resolve, 1100))
      await importLines([change])
      served.push(await waitFor(detail, (text) => text !== served.at(-1)))
      packages.push(
        await withReleases(
          JSON.parse(
            await waitFor(
              `/v1/ocds/records/${ocid}`,
              (text) => JSON.parse(text).records[0].releases.length === packages.length + 1,
            ),
          ),
        ),
      )
    }
    // Another contract changes once, then is withdrawn: published by mistake.
    await importLines([{ ...withdrawn, object_details: `${withdrawn.object_details} (retificado)` }])
    await importLines([
      {
        type: 'withdraw',
        record: 'contract',
        organization_uuid: withdrawn.organization_uuid,
        id: withdrawn.id,
      },
    ])
  })
  after(async () => {
    await app?.close()
    await db?.drop()
  })

  it('lists every version, oldest first, with what changed, named so that a person can read it', async () => {
    const { status, json } = await get(`${detail}/history`)
    assert.equal(status, 200)
    const body = json()
    assert.equal(body.success, true)
    assert.equal(body.data.kind, 'contracts')
    assert.equal(body.data.id, contract.id)
    const versions = body.data.versions as HistoryVersion[]
    assert.deepEqual(
      versions.map((v) => [v.version, v.change]),
      [
        [1, 'created'],
        [2, 'updated'],
        [3, 'updated'],
      ],
    )
    const moments = versions.map((v) => v.changed_at)
    assert.deepEqual(moments, [...moments].sort())
    assert.deepEqual(versions[0]?.changes, [])
    assert.deepEqual(versions[1]?.changes, [
      {
        field: 'amount_total',
        label: 'Valor total',
        before: contract.amount_total,
        after: second.amount_total,
      },
      {
        field: 'terms[7º Termo Aditivo]',
        label: 'Termos aditivos › 7º Termo Aditivo',
        before: null,
        after: JSON.parse(served[1] as string).data.terms.at(-1),
      },
    ])
    assert.deepEqual(versions[2]?.changes, [
      { field: 'date_end', label: 'Fim da vigência', before: contract.date_end, after: extended },
    ])
  })

  it('gives each version whole, as its detail was served then, at its own address', async () => {
    for (const [k, text] of served.entries()) {
      const { status, json } = await get(`${detail}/history/${k + 1}`)
      assert.equal(status, 200)
      const body = json()
      assert.equal(body.data.version, k + 1)
      assert.equal(JSON.stringify(body.data.record), JSON.stringify(JSON.parse(text).data))
    }
    for (const url of [`${detail}/history/4`, `${detail}/history/0`, `${detail}/history/x`]) {
      const past = await get(url)
      assert.equal(past.status, 404, url)
      assert.deepEqual(past.json(), { success: false, message: 'Versão não encontrada.' }, url)
    }
    for (const [url, status] of [
      [`${detail}/history?version=0`, 422],
      [`${detail}/history?version=x`, 422],
      [`${detail}/history?versao=1`, 422],
      ['/v1/transparency/contracts/not-a-uuid/history', 400],
      ['/v1/transparency/contracts/not-a-uuid/history/1', 400],
      ['/v1/transparency/contracts/00000000-0000-4000-8000-000000000000/history', 404],
      ['/v1/transparency/contracts/00000000-0000-4000-8000-000000000000/history/1', 404],
    ] as const) {
      const answer = await get(url)
      assert.equal(answer.status, status, url)
      assert.equal(answer.json().success, false, url)
    }
  })

  it("sends a link made with ?version= on to the version's own address", async () => {
    const moved = await fetch(`${base}${detail}/history?version=2`, { redirect: 'manual' })
    assert.equal(moved.status, 308)
    assert.equal(moved.headers.get('location'), `${detail}/history/2`)
    // Followed, as fetch and browsers do: the version; and past the last, the version's 404.
    assert.equal((await get(`${detail}/history?version=2`)).json().data.version, 2)
    assert.equal((await get(`${detail}/history?version=99`)).status, 404)
  })

  it('shows the same story on the portal, with each earlier version at its own address', async () => {
    const page = (await get(`/contratos/${contract.id}`)).text
    const section = page.slice(page.indexOf('Histórico de alterações'))
    assert.ok(section.length < page.length, 'the page has the section')
    for (const n of [1, 2])
      assert.ok(section.includes(`href="/contratos/${contract.id}/versoes/${n}"`), `${n}`)
    assert.ok(!section.includes(`/versoes/3"`), 'the current version is the page itself')
    const money = (value: string) =>
      `R$ ${Number(value).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`
    const day = (value: string) => value.split('-').reverse().join('/')
    // Newest first; each row a label, then antes and depois.
    const rows = [
      ...section.matchAll(/<tr><th scope="row">(.*?)<\/th><td>(.*?)<\/td><td>(.*?)<\/td><\/tr>/g),
    ].map((m) => [m[1], m[2], m[3]])
    assert.deepEqual(rows[0], ['Fim da vigência', day(contract.date_end as string), day(extended)])
    assert.deepEqual(rows[1], [
      'Valor total',
      money(contract.amount_total as string),
      money(second.amount_total),
    ])
    assert.equal(rows[2]?.[0], 'Termos aditivos › 7º Termo Aditivo')
    assert.equal(rows[2]?.[1], '—')
    assert.match(rows[2]?.[2] as string, /Número: 7º Termo Aditivo · Tipo: Aditivo de valor/)
    assert.match(rows[2]?.[2] as string, /Valor: R\$ 5\.000,00/)
    // Version 1: its value then, under a banner.
    const first = await get(`/contratos/${contract.id}/versoes/1`)
    assert.equal(first.status, 200)
    assert.match(first.text, /Versão 1 de 3/)
    assert.ok(first.text.includes(money(contract.amount_total as string)))
    assert.ok(!first.text.includes('7º Termo Aditivo'))
    for (const [url, message] of [
      [`/contratos/${contract.id}/versoes/4`, 'Versão não encontrada.'],
      [`/contratos/${contract.id}/versoes/0`, 'Versão inválida'],
      [`/contratos/${contract.id}/versoes/um`, 'Versão inválida'],
      [`/contratos/${withdrawn.id}/versoes/1`, 'Registro não encontrado.'],
    ]) {
      const answer = await get(url as string)
      assert.equal(answer.status, 404, url)
      assert.ok(answer.text.includes(message as string), url)
    }
  })

  it('publishes each change as an OCDS release, and a release once published keeps its bytes', async () => {
    const history = (await get(`${detail}/history`)).json().data.versions as HistoryVersion[]
    const record = packages.at(-1)?.records as Json[]
    const releases = record[0]?.releases as Json[]
    assert.deepEqual(
      releases.map((r) => r.id),
      [1, 2, 3].map((n) => `${ocid}-${n}`),
    )
    // Each release is dated when its import ran, as the history says.
    assert.deepEqual(
      releases.map((r) => r.date),
      history.map((v) => `${v.changed_at.slice(0, 19)}Z`),
    )
    assert.deepEqual(
      releases.map((r) => r.tag),
      [
        ['tender', 'award', 'contract'],
        // The contract's award (it has no ARP) follows its value and its period.
        ['awardUpdate', 'contractUpdate', 'contractAmendment'],
        ['awardUpdate', 'contractUpdate'],
      ],
    )
    // The amendment: the new additive term, with its date and description.
    const amendments = (releases[1] as { contracts: Json[] }).contracts.find((c) => c.id === contract.id)
      ?.amendments as Json[]
    assert.deepEqual(amendments.at(-1), {
      id: '7º Termo Aditivo',
      date: '2026-11-20T00:00:00-03:00',
      rationale: 'Aditivo de valor',
      description: 'Acréscimo de 25% no quantitativo',
    })
    // The versions of the contract's value, and of its end.
    const versioned = (await get(`/v1/ocds/records/${ocid}?versioned=true`)).json().records[0]
      .versionedRelease
    const ocdsContract = versioned.contracts.find((c: Json) => c.id === contract.id)
    assert.deepEqual(
      ocdsContract.value.amount.map((v: Json) => [v.releaseID, v.value]),
      [
        [`${ocid}-1`, Number(contract.amount_total)],
        [`${ocid}-2`, Number(second.amount_total)],
      ],
    )
    assert.deepEqual(
      ocdsContract.period.endDate.map((v: Json) => v.releaseID),
      [`${ocid}-1`, `${ocid}-3`],
    )
    // Later imports left the earlier releases as they were published, byte for byte.
    for (const [k, earlier] of packages.entries()) {
      const then = (earlier.records as { releases: Json[] }[])[0]?.releases as Json[]
      assert.equal(then.length, k + 1)
      for (const [n, release] of then.entries())
        assert.equal(
          JSON.stringify(release),
          JSON.stringify(releases[n]),
          `release ${n + 1} after change ${k}`,
        )
    }
  })

  it('keeps no history of a withdrawn record: only its tombstone in the feed', async () => {
    const history = await get(`/v1/transparency/contracts/${withdrawn.id}/history`)
    assert.equal(history.status, 404)
    assert.deepEqual(history.json(), { success: false, message: 'Registro não encontrado.' })
    assert.equal((await get(`/contratos/${withdrawn.id}`)).status, 404)
    const { rows } = await db.pool.query('SELECT change, restore FROM public_changes WHERE id = $1', [
      withdrawn.id,
    ])
    assert.deepEqual(rows, [{ change: 'withdrawn', restore: null }])
  })

  it('never shows a whole CPF in any version', async () => {
    for (let n = 1; n <= 3; n++) await get(`${detail}/history/${n}`)
    const cpfs = records.flatMap((r) =>
      ['managers', 'inspectors'].flatMap((name) =>
        ((r[name] as { cpf: string }[] | undefined) ?? []).map((person) => person.cpf),
      ),
    )
    assert.ok(cpfs.length > 0)
    const all = texts.join('\n')
    assert.ok(all.includes('***.'), 'masked CPFs are shown')
    for (const cpf of cpfs) assert.ok(!all.includes(cpf), `a whole CPF (${cpf.slice(3, 9)})`)
  })
})
