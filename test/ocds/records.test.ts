import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import type { DemoRecord } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { compiledRelease, type Release, versionedRelease } from '../../src/ocds/merge.js'
import { syncReadModel } from '../../src/readmodel/build.js'
import { buildTestApp } from '../helpers/app.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import {
  ajv,
  checkRelease,
  type Json,
  validateRecordPackage,
  validateReleasePackage,
  validateVersioned,
} from '../helpers/ocds.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// OCDS records whose cost is bounded by what they hold: releases linked by address, compiled and versioned
// releases made by the import (incrementally: the same as a merge of every release), one cache entry per
// process whatever the ocid's letter case; the extension's metadata as OCDS's extension schema asks; the bulk
// download's package metadata beside it; and an ARP withdrawn under contracts leaves releases that still
// validate.

const PREFIX = 'ocds-rec001'
const BASE = 'https://compras.example.gov.br'

describe('OCDS records bounded by what they hold', () => {
  let db: TestDatabase
  let app: FastifyInstance
  const demo = demoRecords(
    { organizations: 1, orders: 6, contracts: 2, arps: 1, directContracts: 1, publicCalls: 1 },
    63,
  )
  const organization = first(demo, 'organization')
  const call: DemoRecord = { ...first(demo, 'public_call'), id: 'e0000000-0000-4000-8000-000000000001' }
  const arp: DemoRecord = {
    ...first(demo, 'arp'),
    id: 'e0000000-0000-4000-8000-000000000002',
    number: 'ARP-OCDS 1/2026',
    bidding_uuid: call.id,
  }
  const contract: DemoRecord = {
    ...first(demo, 'contract'),
    id: 'e0000000-0000-4000-8000-000000000003',
    contract_number: 'CT-OCDS 1/2026',
    bidding_uuid: call.id,
    arp_number: arp.number,
  }
  const orders: DemoRecord[] = Array.from({ length: 30 }, (_, k) => ({
    ...first(demo, 'order'),
    number: `OF-OCDS-${k + 1}/2026`,
    contract_number: contract.contract_number,
    arp_number: null,
  }))
  const ocid = `${PREFIX}-${call.id}`
  const CHANGES = 20

  const importLines = async (lines: readonly unknown[]) => {
    const result = await importRecords(db.pool, [source(ndjson(lines))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
  }
  const get = async (url: string) => {
    const response = await app.inject({ url })
    return { status: response.statusCode, text: response.body, headers: response.headers }
  }
  /** The releases a record links, as their addresses serve them. */
  const linked = async (record: Json): Promise<Json[]> => {
    const releases: Json[] = []
    for (const link of record.releases as { url: string }[]) {
      const one = await get(new URL(link.url).pathname)
      assert.equal(one.status, 200, one.text)
      const body: Json = JSON.parse(one.text)
      assert.ok(validateReleasePackage(body), ajv.errorsText(validateReleasePackage.errors))
      releases.push(body.releases[0])
    }
    return releases
  }

  /** A process's record with its versioned release, valid as a record package, and the releases it links. */
  const versionedRecord = async (id: string) => {
    const body: Json = JSON.parse((await get(`/v1/ocds/records/${id}?versioned=true`)).text)
    assert.ok(validateRecordPackage(body), ajv.errorsText(validateRecordPackage.errors))
    const record: Json = body.records[0]
    return { record, releases: (await linked(record)) as Release[] }
  }
  /** The record's compiled and versioned releases are what a merge of its releases makes. */
  const assertMerged = (record: Json, releases: Release[]) => {
    assert.deepEqual(record.compiledRelease, compiledRelease(releases))
    assert.deepEqual(record.versionedRelease, versionedRelease(releases))
  }

  before(async () => {
    db = await createTestDatabase()
    app = await buildTestApp(db, {
      env: { PUBLIC_RATE_LIMIT: '0', CACHE_MB: '0', OCDS_PREFIX: PREFIX, PUBLIC_URL: BASE },
    })
    await importLines([organization, call, arp, contract, ...orders])
    // One order after another changes: each a release of the whole process.
    for (let k = 1; k <= CHANGES; k++)
      await importLines([
        {
          ...(orders[k % orders.length] as DemoRecord),
          status_title: k % 2 ? 'Recebido total' : 'Emitida',
          object: `Ordem, mudança ${k}`,
        },
      ])
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  it('links its releases, and its size follows the process, not its history', async () => {
    const record = await get(`/v1/ocds/records/${ocid}`)
    assert.equal(record.status, 200)
    const body: Json = JSON.parse(record.text)
    assert.ok(validateRecordPackage(body), ajv.errorsText(validateRecordPackage.errors))
    const releases = await linked(body.records[0])
    assert.equal(releases.length, CHANGES + 1)
    for (const release of releases) checkRelease(release, release.id)
    // The record holds the process's state once and a line per release: not a copy of the process per release.
    const oneRelease = JSON.stringify(releases.at(-1)).length
    assert.ok(record.text.length < 2 * oneRelease + 400 * (CHANGES + 1), `${record.text.length} bytes`)
  })

  it('makes the compiled and versioned releases at import as a merge of every release would', async () => {
    const { record, releases } = await versionedRecord(ocid)
    assertMerged(record, releases)
    // What never changed has one value, whence the first release: not a value per release.
    const documentTitle = record.versionedRelease.tender.documents[0].title
    assert.deepEqual(
      documentTitle.map((v: Json) => v.releaseID),
      [`${ocid}-1`],
    )
    assert.ok(validateVersioned(record.versionedRelease), ajv.errorsText(validateVersioned.errors))
    checkRelease(record.compiledRelease, 'compiled')
  })

  it('serves a process from one cache entry whatever the letter case of its ocid', async () => {
    const cached = await buildTestApp(db, {
      env: { PUBLIC_RATE_LIMIT: '0', OCDS_PREFIX: PREFIX, PUBLIC_URL: BASE },
    })
    try {
      const lower = await cached.inject({ url: `/v1/ocds/records/${ocid}` })
      const upper = await cached.inject({ url: `/v1/ocds/records/${ocid.toUpperCase()}` })
      assert.equal(upper.statusCode, 200)
      assert.equal(upper.body, lower.body)
      assert.equal(upper.headers.etag, lower.headers.etag)
      const release = await cached.inject({ url: `/v1/ocds/releases/${ocid.toUpperCase()}-1` })
      assert.equal(release.statusCode, 200)
      assert.equal(JSON.parse(release.body).releases[0].id, `${ocid}-1`)
    } finally {
      await cached.close()
    }
    for (const missing of [`${ocid}-999`, `${ocid}-0`, `${ocid}`, 'nada'])
      assert.equal((await get(`/v1/ocds/releases/${missing}`)).status, 404, missing)
  })

  it('describes its extension as the extension schema asks, with its documentation', async () => {
    const meta = JSON.parse((await get('/v1/ocds/extension/extension.json')).text)
    for (const name of ['name', 'description', 'documentationUrl'])
      assert.ok(
        Object.keys(meta[name]).length > 0 && Object.keys(meta[name]).every((k) => /^[a-z]{2}$/.test(k)),
        name,
      )
    for (const url of Object.values(meta.documentationUrl) as string[]) {
      assert.ok(URL.canParse(url), url)
      const doc = await get(new URL(url).pathname)
      assert.equal(doc.status, 200)
      assert.match(doc.headers['content-type'] as string, /^text\/markdown/)
      assert.match(doc.text, /^# Milestone value/)
    }
    assert.ok(meta.compatibility.every((v: string) => /^\d+\.\d+$/.test(v)))
    assert.deepEqual(meta.schemas, ['release-schema.json'])
  })

  it('gives the bulk download its package metadata beside it', async () => {
    const bulk = await get('/v1/ocds/releases.jsonl')
    assert.equal(bulk.headers.link, `<${BASE}/v1/ocds/package.json>; rel="describedby"`)
    const meta = JSON.parse((await get('/v1/ocds/package.json')).text)
    // A package's fields but its releases: with one release added, a valid release package.
    const line = JSON.parse(bulk.text.split('\n')[0] as string)
    assert.ok(
      validateReleasePackage({ ...meta, releases: [line] }),
      ajv.errorsText(validateReleasePackage.errors),
    )
    assert.equal(meta.publishedDate, JSON.parse((await get(`/v1/ocds/records/${ocid}`)).text).publishedDate)
  })

  it('keeps in the compiled release what left the process, as the merge of every release does', async () => {
    const moving: DemoRecord = {
      ...contract,
      id: 'e0000000-0000-4000-8000-000000000004',
      contract_number: 'CT-OCDS 2/2026',
      arp_number: null,
      terms: [],
    }
    await importLines([moving])
    // Then it leaves the call: a process of its own.
    await importLines([{ ...moving, bidding_uuid: null }])
    const { record, releases } = await versionedRecord(ocid)
    assert.ok(
      !((releases.at(-1) as Json).contracts as Json[]).some((c) => c.id === moving.id),
      'not in the latest release',
    )
    assert.ok(
      record.compiledRelease.contracts.some((c: Json) => c.id === moving.id),
      'in the compiled one',
    )
    assertMerged(record, releases)
  })

  it('tags an edited additive term, not only an added one, a contractAmendment', async () => {
    const term = {
      number: '1º Termo Aditivo',
      kind: 'Aditivo de prazo',
      description: 'Prorrogação por 12 meses',
      signature_date: '2026-01-10',
      date_start: '2026-01-10',
      date_end: '2027-01-10',
      value: null,
      documents: [],
    }
    const tags = async () => {
      const links = JSON.parse((await get(`/v1/ocds/records/${ocid}`)).text).records[0].releases
      return links.at(-1).tag as string[]
    }
    await importLines([{ ...contract, terms: [term] }])
    assert.ok((await tags()).includes('contractAmendment'), 'added')
    await importLines([{ ...contract, terms: [{ ...term, description: 'Prorrogação por 24 meses' }] }])
    assert.deepEqual(await tags(), ['contractAmendment'])
  })

  it("keeps in a small process's compiled release what its first change leaves out", async () => {
    // One small release (its compiled release not stored, made per request), then a change that leaves the
    // estimate out (a budget made secret): the compiled release keeps it, as the merge of both does.
    const lone: DemoRecord = {
      ...call,
      id: 'e0000000-0000-4000-8000-000000000077',
      number: 'PC-LONE 1/2026',
      budget_secret: false,
      sum_amount_total: '1000.00',
    }
    await importLines([lone])
    await importLines([{ ...lone, budget_secret: true }])
    const { record, releases } = await versionedRecord(`${PREFIX}-${lone.id}`)
    assert.equal(releases.length, 2)
    assert.equal((releases[1] as Json).tender.value, undefined)
    assert.deepEqual(record.compiledRelease.tender.value, { amount: 1000, currency: 'BRL' })
    assertMerged(record, releases)
  })

  it('completes, once, the records of processes published before compiled releases were kept', async () => {
    const whole = JSON.parse((await get(`/v1/ocds/records/${ocid}?versioned=true`)).text).records[0]
    // As a database from before records were kept: a process of many releases, without its compiled ones.
    await db.pool.query('UPDATE ocds_releases SET compiled = NULL, versioned = NULL WHERE process_id = $1', [
      call.id,
    ])
    assert.deepEqual(await syncReadModel(db.pool), ['history'])
    assert.deepEqual(await syncReadModel(db.pool), [])
    const { rows } = await db.pool.query<{ kept: boolean }>(
      'SELECT compiled IS NOT NULL AND versioned IS NOT NULL AS kept FROM ocds_releases WHERE process_id = $1',
      [call.id],
    )
    assert.equal(rows[0]?.kept, true)
    const again = JSON.parse((await get(`/v1/ocds/records/${ocid}?versioned=true`)).text).records[0]
    assert.deepEqual(again, whole)
  })

  it('takes a withdrawn process away with every release it had', async () => {
    const alone: DemoRecord = {
      ...contract,
      id: 'e0000000-0000-4000-8000-000000000099',
      contract_number: 'CT-SO 1/2026',
      bidding_uuid: null,
      arp_number: null,
      terms: [],
    }
    const own = `${PREFIX}-${alone.id}`
    await importLines([alone])
    await importLines([{ ...alone, object_details: 'Segunda versão' }])
    const links = JSON.parse((await get(`/v1/ocds/records/${own}`)).text).records[0].releases
    assert.equal(links.length, 2)
    await importLines([
      { type: 'withdraw', record: 'contract', organization_uuid: organization.uuid, id: alone.id },
    ])
    assert.equal((await get(`/v1/ocds/records/${own}`)).status, 404)
    for (const version of [1, 2]) assert.equal((await get(`/v1/ocds/releases/${own}-${version}`)).status, 404)
    assert.ok(!(await get('/v1/ocds/releases.jsonl?history=true')).text.includes(alone.id as string))
    const { rows } = await db.pool.query('SELECT 1 FROM ocds_release_versions WHERE process_id = $1', [
      alone.id,
    ])
    assert.equal(rows.length, 0)
  })

  it('leaves valid releases when an ARP is withdrawn under the contracts it covered', async () => {
    const before = JSON.parse((await get(`/v1/ocds/records/${ocid}`)).text).records[0]
    assert.ok((await linked(before)).some((r) => JSON.stringify(r).includes(arp.id as string)))
    await importLines([
      { ...contract, arp_number: null },
      { type: 'withdraw', record: 'arp', organization_uuid: organization.uuid, id: arp.id },
    ])
    const { record, releases } = await versionedRecord(ocid)
    for (const release of [...releases, record.compiledRelease] as Json[]) {
      checkRelease(release, release.id)
      assert.ok(!JSON.stringify(release).includes(arp.id as string), `${release.id} still shows the ARP`)
      // Every contract's award is there: its own, since its ARP is gone.
      for (const c of release.contracts ?? [])
        assert.ok(
          release.awards.some((a: Json) => a.id === c.awardID),
          `${release.id}: ${c.awardID}`,
        )
    }
    assert.ok(!JSON.stringify(record.versionedRelease).includes(arp.id as string))
  })
})
