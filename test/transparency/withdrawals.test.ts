import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import type { DemoRecord } from '../../src/demo/generator.js'
import { cnpjFrom } from '../../src/demo/tax-ids.js'
import { importRecords } from '../../src/import/importer.js'
import { buildTestApp } from '../helpers/app.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// A withdrawal means every face: a withdrawn contract, ARP or supply order leaves the history of every record
// that showed it (the API's history and versions, the portal's history section and version pages), whichever
// parent it was under, now or before a relink. The parents keep the rest of their history.

interface Version {
  version: number
  change: string
  changes: { field: string; before: unknown; after: unknown }[]
}

describe('a withdrawal leaves every face', () => {
  let db: TestDatabase
  let app: FastifyInstance
  const demo = demoRecords(
    { organizations: 1, orders: 4, contracts: 2, arps: 1, directContracts: 1, publicCalls: 2 },
    61,
  )
  const organization = first(demo, 'organization')
  const org = organization.uuid as string
  const [callTemplate, otherTemplate] = demo.filter((r) => r.type === 'public_call') as [
    DemoRecord,
    DemoRecord,
  ]
  const call: DemoRecord = {
    ...callTemplate,
    id: 'c0000000-0000-4000-8000-000000000001',
    number: 'PE 1/2026',
  }
  const other: DemoRecord = {
    ...otherTemplate,
    id: 'c0000000-0000-4000-8000-000000000002',
    number: 'PE 2/2026',
  }
  const contractOf = (n: number, bidding: DemoRecord): DemoRecord => ({
    ...first(demo, 'contract'),
    id: `c0000000-0000-4000-8000-00000000010${n}`,
    contract_number: `CT-RET-${n}/2026`,
    bidding_uuid: bidding.id,
    arp_number: null,
    terms: [],
  })
  const kept = contractOf(1, call)
  /** A supplier that only the contract withdrawn names. */
  const supplier = {
    document: cnpjFrom([9, 8, 7, 6, 5, 4, 3, 2, 0, 0, 0, 1]),
    name: 'Fornecedor Só do Retirado Ltda',
  }
  const withdrawnContract: DemoRecord = {
    ...contractOf(2, call),
    provider_document: supplier.document,
    provider_company_name: supplier.name,
  }
  const relinked = contractOf(3, call)
  const arp: DemoRecord = {
    ...first(demo, 'arp'),
    id: 'c0000000-0000-4000-8000-000000000201',
    number: 'ARP-RET 1/2026',
    bidding_uuid: call.id,
    terms: [],
  }
  const orderOf = (n: number, link: { contract_number?: string; arp_number?: string }): DemoRecord => ({
    ...first(demo, 'order'),
    number: `OF-RET-${n}/2026`,
    contract_number: link.contract_number ?? null,
    arp_number: link.arp_number ?? null,
  })
  const keptOrder = orderOf(1, { contract_number: kept.contract_number as string })
  const withdrawnOrder = orderOf(2, { contract_number: kept.contract_number as string })
  const arpOrder = orderOf(3, { arp_number: arp.number as string })
  const laterOrder = orderOf(4, { contract_number: kept.contract_number as string })
  /** Every text served in the checks, for looking for what was withdrawn. */
  const withdrawnMarks = [
    withdrawnContract.id,
    withdrawnContract.contract_number,
    relinked.id,
    relinked.contract_number,
    withdrawnOrder.number,
    arpOrder.number,
  ] as string[]

  const importLines = async (lines: readonly unknown[]) => {
    const result = await importRecords(db.pool, [source(ndjson(lines))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    // Each import's changes are a second apart, so that history is in order.
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const get = async (url: string) => {
    const response = await app.inject({ url })
    return { status: response.statusCode, text: response.body }
  }
  /** Every version of a record, each whole, and its history: all the API serves of its past. */
  const past = async (kind: string, id: string) => {
    const history = await get(`/v1/transparency/${kind}/${id}/history`)
    assert.equal(history.status, 200, history.text)
    const versions = JSON.parse(history.text).data.versions as Version[]
    const texts = [history.text]
    for (const { version } of versions) {
      const one = await get(`/v1/transparency/${kind}/${id}/history/${version}`)
      assert.equal(one.status, 200, one.text)
      texts.push(one.text)
    }
    return { versions, texts }
  }
  /** Everything OCDS serves of a process: its record with both merges, every release it links, the bulk history. */
  const ocdsPast = async (processId: string) => {
    const ocid = `ocds-xxxxxx-${processId}`
    const record = await get(`/v1/ocds/records/${ocid}?versioned=true`)
    assert.equal(record.status, 200, record.text)
    const texts = [record.text]
    for (const link of JSON.parse(record.text).records[0].releases as { url: string }[])
      texts.push((await get(new URL(link.url).pathname)).text)
    texts.push((await get('/v1/ocds/releases.jsonl?history=true')).text)
    return texts
  }
  /** The portal's page of a record and of each of its earlier versions. */
  const pages = async (path: string, id: string, count: number) => {
    const texts = [(await get(`/${path}/${id}`)).text]
    for (let v = 1; v < count; v++) {
      const page = await get(`/${path}/${id}/versoes/${v}`)
      assert.equal(page.status, 200, page.text.slice(0, 200))
      texts.push(page.text)
    }
    return texts
  }

  before(async () => {
    db = await createTestDatabase()
    app = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '0', CACHE_MB: '0' } })
    await importLines([
      organization,
      call,
      other,
      kept,
      withdrawnContract,
      relinked,
      arp,
      keptOrder,
      withdrawnOrder,
      arpOrder,
    ])
    await importLines([{ ...call, object_details: 'Objeto retificado da chamada' }])
    await importLines([{ ...kept, amount_total: '999.99' }])
    // Moved to the other call: the first one's history still showed it.
    await importLines([{ ...relinked, bidding_uuid: other.id }])
    await importLines([laterOrder])
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  it('shows each withdrawn record in its parents’ past before (the check can see them)', async () => {
    const callPast = (await past('public-calls', call.id as string)).texts.join('\n')
    for (const mark of [withdrawnContract.id, relinked.id, arp.id] as string[])
      assert.ok(callPast.includes(mark), mark)
    assert.ok(
      (await past('contracts', kept.id as string)).texts.join('\n').includes(withdrawnOrder.number as string),
    )
    assert.ok((await past('arps', arp.id as string)).texts.join('\n').includes(arpOrder.number as string))
    const releases = (await ocdsPast(call.id as string)).join('\n')
    // (An order of an ARP is no milestone: OCDS shows the orders of contracts.)
    for (const mark of [withdrawnContract.id, relinked.id, arp.id, withdrawnOrder.number, supplier.document])
      assert.ok(releases.includes(mark as string), `${mark} in the call's releases`)
  })

  /** The log's last entry before the withdrawals. */
  let beforeWithdrawal = 0n
  /** A record's entries in the log, oldest first. */
  const entriesOf = async (kind: string, id: string) =>
    (
      await db.pool.query<{ seq: string; change: string; in_history: boolean }>(
        'SELECT c.seq::text, c.change, c.in_history FROM public_changes c WHERE c.resource = $1 AND c.id = $2 ORDER BY c.seq',
        [kind, id],
      )
    ).rows

  it('erases a contract, an order of a contract and an order of an ARP from every version of their parents', async () => {
    beforeWithdrawal = BigInt(
      (await db.pool.query<{ seq: string }>('SELECT max(seq)::text AS seq FROM public_changes')).rows[0]
        ?.seq ?? 0,
    )
    await importLines([
      { type: 'withdraw', record: 'contract', organization_uuid: org, id: withdrawnContract.id },
      { type: 'withdraw', record: 'contract', organization_uuid: org, id: relinked.id },
      { type: 'withdraw', record: 'order', organization_uuid: org, number: withdrawnOrder.number },
      { type: 'withdraw', record: 'order', organization_uuid: org, number: arpOrder.number },
    ])
    const parents = [
      ['public-calls', 'chamadas-publicas', call.id],
      ['public-calls', 'chamadas-publicas', other.id],
      ['contracts', 'contratos', kept.id],
      ['arps', 'atas', arp.id],
    ] as const
    for (const [kind, path, id] of parents) {
      const { versions, texts } = await past(kind, id as string)
      const portal = await pages(path, id as string, versions.length)
      for (const text of [...texts, ...portal])
        for (const mark of withdrawnMarks)
          assert.ok(!text.includes(mark), `${kind} ${id}: ${mark} is still shown`)
    }
    // Its process's releases, every one of them, compiled and versioned, and the bulk download with history.
    for (const process of [call.id, other.id] as string[])
      for (const text of await ocdsPast(process))
        for (const mark of withdrawnMarks)
          assert.ok(!text.includes(mark), `the OCDS of ${process}: ${mark} is still shown`)
    // An earlier release that, without them, says what the one before it said is gone (the relink of the
    // contract since withdrawn); the current one stays. Their supplier, whom only they named, is gone too.
    const links = JSON.parse((await get(`/v1/ocds/records/ocds-xxxxxx-${call.id}`)).text).records[0].releases
    assert.deepEqual(
      links.map((l: { url: string }) => Number(l.url.split('-').at(-1))),
      [1, 2, 3, 5, 6],
    )
    const callReleases = (await ocdsPast(call.id as string)).join('\n')
    assert.ok(!callReleases.includes(supplier.document), "the withdrawn contract's own supplier")
    assert.ok(!callReleases.includes(supplier.name), "the withdrawn contract's own supplier's name")
    // The call keeps the rest of its history: created, its object corrected, its kept contract's new value.
    const call1 = (await past('public-calls', call.id as string)).versions
    assert.deepEqual(
      call1.map((v) => [v.version, v.change, v.changes.map((c) => c.field)]),
      [
        [1, 'created', []],
        [2, 'updated', ['object_details']],
        [3, 'updated', [`contracts[${kept.id}].amount_total`]],
      ],
    )
    // The contract keeps its own changes and the order added later.
    const contract = (await past('contracts', kept.id as string)).versions
    assert.deepEqual(
      contract.map((v) => v.changes.map((c) => c.field)),
      [[], ['amount_total'], [`orders[${laterOrder.number}]`]],
    )
  })

  it('still tells the feed that a parent changed, though its history shows no version for it', async () => {
    // The call's entries: one a version, and the withdrawal's own, which makes none. An earlier update that
    // showed only what was withdrawn (the relink) is gone.
    const rows = await entriesOf('public-calls', call.id as string)
    const last = rows.at(-1)
    assert.deepEqual(
      rows.map((r) => [r.change, r.in_history]),
      [
        ['created', true],
        ['updated', true],
        ['updated', true],
        ['updated', false],
      ],
    )
    assert.ok(BigInt(last?.seq ?? 0) > beforeWithdrawal, "the withdrawal's own entry")
  })

  it('erases an ARP from the history of its call', async () => {
    const earlier = await entriesOf('public-calls', call.id as string)
    await importLines([{ type: 'withdraw', record: 'arp', organization_uuid: org, id: arp.id }])
    // A rewrite leaves the entries that make no version as they were: the last withdrawal's stays.
    assert.deepEqual((await entriesOf('public-calls', call.id as string)).slice(0, earlier.length), earlier)
    const { versions, texts } = await past('public-calls', call.id as string)
    const portal = await pages('chamadas-publicas', call.id as string, versions.length)
    for (const text of [...texts, ...portal]) {
      assert.ok(!text.includes(arp.id as string))
      assert.ok(!text.includes(arp.number as string))
    }
    assert.equal((await get(`/v1/transparency/arps/${arp.id}/history`)).status, 404)
    for (const text of await ocdsPast(call.id as string)) {
      assert.ok(!text.includes(arp.id as string), 'the ARP is still in the OCDS of its call')
      assert.ok(!text.includes(arp.number as string))
    }
  })
})
