import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import type { DemoRecord } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { syncReadModel } from '../../src/readmodel/build.js'
import { CHECKPOINT } from '../../src/readmodel/log.js'
import { storedPatch } from '../../src/readmodel/patch.js'
import { DocumentStore } from '../../src/readmodel/store.js'
import { buildTestApp } from '../helpers/app.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { turns } from '../helpers/http.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// History that costs what it changed: a record changed forty times keeps a whole version every CHECKPOINT,
// each version is the detail as it was served, a version past the last is found missing from the count, the
// differences of entries written before they were kept are made once, and a record and its history are read
// in one snapshot. And a record that moves to another organization leaves the old one's filtered feed.

interface Entry {
  id: string
  organization_uuid: string
  change: string
  record?: Record<string, unknown>
}

describe('history that costs what it changed', () => {
  let db: TestDatabase
  let app: FastifyInstance
  const records = demoRecords(
    { organizations: 2, orders: 4, contracts: 3, arps: 1, directContracts: 1, publicCalls: 1 },
    62,
  )
  const [orgA, orgB] = records.filter((r) => r.type === 'organization') as [DemoRecord, DemoRecord]
  const contract: DemoRecord = {
    ...first(records, 'contract'),
    id: 'd0000000-0000-4000-8000-000000000001',
    contract_number: 'HIST-40/2026',
    organization_uuid: orgA.uuid,
    bidding_uuid: null,
    arp_number: null,
  }
  /** The detail of the contract as served after each import: version k at index k - 1. */
  const served: string[] = []
  const CHANGES = 40

  const importLines = async (lines: readonly unknown[]) => {
    const result = await importRecords(db.pool, [source(ndjson(lines))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
  }
  const detail = async () => {
    const response = await app.inject({ url: `/v1/transparency/contracts/${contract.id}` })
    return JSON.stringify(JSON.parse(response.body).data)
  }

  before(async () => {
    db = await createTestDatabase()
    app = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '0', CACHE_MB: '0' } })
    await importLines([...records.filter((r) => r.type === 'organization'), contract])
    served.push(await detail())
    for (let k = 1; k < CHANGES; k++) {
      await importLines([
        { ...contract, amount_total: `${1000 + k}.50`, object_details: `Objeto, versão ${k + 1}` },
      ])
      served.push(await detail())
    }
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  it('keeps a version whole every CHECKPOINT versions, and serves each version as its detail was', async () => {
    const { rows } = await db.pool.query<{ v: number; whole: boolean }>(
      `SELECT row_number() OVER (ORDER BY seq)::int AS v, left(restore, 5) = '{"w":' AS whole
       FROM public_changes WHERE resource = 'contracts' AND id = $1 ORDER BY seq`,
      [contract.id],
    )
    assert.equal(rows.length, CHANGES)
    // Entry v restores version v - 1: whole when that is a multiple of CHECKPOINT.
    assert.deepEqual(
      rows.filter((r) => r.whole).map((r) => r.v - 1),
      [CHECKPOINT, 2 * CHECKPOINT],
    )
    for (let k = 1; k <= CHANGES; k++) {
      const response = await app.inject({
        url: `/v1/transparency/contracts/${contract.id}/history/${k}`,
      })
      assert.equal(response.statusCode, 200, response.body)
      assert.equal(JSON.stringify(JSON.parse(response.body).data.record), served[k - 1], `version ${k}`)
    }
  })

  it('answers a version past the last as missing, on the API and the portal', async () => {
    const api = await app.inject({
      url: `/v1/transparency/contracts/${contract.id}/history/${CHANGES + 1}`,
    })
    assert.equal(api.statusCode, 404)
    assert.deepEqual(api.json(), { success: false, message: 'Versão não encontrada.' })
    const page = await app.inject({ url: `/contratos/${contract.id}/versoes/${CHANGES + 1}` })
    assert.equal(page.statusCode, 404)
    assert.match(page.body, /Versão não encontrada\./)
  })

  it('gives the entries written before differences were kept their differences and checkpoints, once', async () => {
    // As a build before them wrote the log: plain patches all the way, no differences.
    const { rows } = await db.pool.query<{ seq: number }>(
      `SELECT seq FROM public_changes WHERE resource = 'contracts' AND id = $1 ORDER BY seq`,
      [contract.id],
    )
    for (let k = 1; k < CHANGES; k++)
      await db.pool.query('UPDATE public_changes SET restore = $2, changes = NULL WHERE seq = $1', [
        rows[k]?.seq,
        storedPatch(served[k] as string, served[k - 1] as string),
      ])
    const history = async () =>
      (await app.inject({ url: `/v1/transparency/contracts/${contract.id}/history` })).json().data.versions
    assert.ok(
      (await history()).slice(1).every((v: { changes: unknown[] }) => v.changes.length === 0),
      'no differences yet',
    )
    assert.deepEqual(await syncReadModel(db.pool), ['history'])
    assert.deepEqual(await syncReadModel(db.pool), [])
    const versions = await history()
    for (const version of versions.slice(1))
      assert.deepEqual(
        version.changes.map((c: { field: string }) => c.field),
        ['object_details', 'amount_total'],
      )
    const { rows: wholes } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM public_changes WHERE resource = 'contracts' AND id = $1 AND left(restore, 5) = '{"w":'`,
      [contract.id],
    )
    assert.equal(wholes[0]?.n, 2)
    for (const k of [1, CHECKPOINT, CHECKPOINT + 1, CHANGES]) {
      const response = await app.inject({
        url: `/v1/transparency/contracts/${contract.id}/history/${k}`,
      })
      assert.equal(JSON.stringify(JSON.parse(response.body).data.record), served[k - 1])
    }
  })

  it('reads a record and its history in one snapshot, while imports change it', async () => {
    const store = new DocumentStore(db.pool, { cacheBytes: 0, onError: () => {} })
    const seen: string[] = []
    let importing = true
    const imports = (async () => {
      for (let k = 0; k < 15; k++)
        await importLines([{ ...contract, amount_total: `${5000 + k}.25`, object_details: 'Objeto final' }])
    })().finally(() => {
      // A failed import ends the reading too: the test fails with it, never hangs.
      importing = false
    })
    // Whatever an import does in between, the newest version's difference says what the document says.
    for (const _turn of turns(1_000_000, 'the reads while importing')) {
      if (!importing) break
      const read = await store.history('contracts', contract.id as string)
      const newest = read?.versions.at(-1)
      const amount = newest?.changes.find((c) => c.field === 'amount_total')?.after
      const document = JSON.parse(read?.body ?? '{}') as { amount_total: unknown }
      if (amount !== undefined) seen.push(`${amount} ${document.amount_total}`)
      if (amount !== undefined) assert.equal(amount, document.amount_total)
    }
    await imports
    assert.ok(seen.length > 0)
  })

  it('starts over with one version a record withdrawn and imported again', async () => {
    const again: DemoRecord = {
      ...contract,
      id: 'd0000000-0000-4000-8000-000000000002',
      contract_number: 'HIST-DE-NOVO/2026',
    }
    await importLines([again])
    await importLines([{ ...again, object_details: 'Mudado antes de retirado' }])
    await importLines([{ type: 'withdraw', record: 'contract', organization_uuid: orgA.uuid, id: again.id }])
    await importLines([again])
    const versions = (await app.inject({ url: `/v1/transparency/contracts/${again.id}/history` })).json().data
      .versions
    assert.deepEqual(
      versions.map((v: { version: number; change: string }) => [v.version, v.change]),
      [[1, 'created']],
    )
    const entries = (await app.inject({ url: '/v1/transparency/changes?per_page=1000' })).json().data.data
    assert.deepEqual(
      entries.filter((e: Entry) => e.id === again.id).map((e: Entry) => e.change),
      ['withdrawn', 'created'],
    )
  })

  it('moves a record out of an organization: a tombstone there, created in the other, one update for all', async () => {
    const feed = async (query: string): Promise<Entry[]> =>
      (await app.inject({ url: `/v1/transparency/changes?per_page=1000&with_records=true${query}` })).json()
        .data.data
    const [beforeA, beforeB, beforeAll] = await Promise.all([
      feed(`&organization_uuid=${orgA.uuid}`),
      feed(`&organization_uuid=${orgB.uuid}`),
      feed(''),
    ])
    const versions = (await app.inject({ url: `/v1/transparency/contracts/${contract.id}/history` })).json()
      .data.versions.length
    // Only its organization changes: its document does not show it.
    await importLines([
      { ...contract, amount_total: '5014.25', object_details: 'Objeto final', organization_uuid: orgB.uuid },
    ])
    const [afterA, afterB, afterAll] = await Promise.all([
      feed(`&organization_uuid=${orgA.uuid}`),
      feed(`&organization_uuid=${orgB.uuid}`),
      feed(''),
    ])
    const newIn = (later: Entry[], earlier: Entry[]) => later.slice(earlier.length)
    assert.deepEqual(
      newIn(afterA, beforeA).map((e) => [e.id, e.change, e.organization_uuid, e.record]),
      [[contract.id, 'withdrawn', orgA.uuid, undefined]],
    )
    const created = newIn(afterB, beforeB)
    assert.deepEqual(
      created.map((e) => [e.id, e.change, e.organization_uuid]),
      [[contract.id, 'created', orgB.uuid]],
    )
    assert.equal(
      (created[0]?.record as { contract_number?: string } | undefined)?.contract_number,
      contract.contract_number,
    )
    assert.deepEqual(
      newIn(afterAll, beforeAll).map((e) => [e.id, e.change, e.organization_uuid]),
      [[contract.id, 'updated', orgB.uuid]],
    )
    // A mirror of A's feed, applying it, no longer holds the record.
    const mirror = new Set<string>()
    for (const entry of afterA) entry.change === 'withdrawn' ? mirror.delete(entry.id) : mirror.add(entry.id)
    assert.ok(!mirror.has(contract.id as string))
    // Its document is the same: no new version of its history.
    const after = (await app.inject({ url: `/v1/transparency/contracts/${contract.id}/history` })).json().data
      .versions.length
    assert.equal(after, versions)
  })
})
