import assert from 'node:assert/strict'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { type DemoRecord, generateDemo, SCALES } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { DOCUMENT_VERSIONS, syncReadModel } from '../../src/readmodel/build.js'
import { buildTestApp } from '../helpers/app.js'
import { runCli } from '../helpers/cli.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { turns } from '../helpers/http.js'
import {
  ajv,
  checkRelease,
  type Json,
  validateRecordPackage,
  validateReleasePackage,
  validateVersioned,
} from '../helpers/ocds.js'
import { componentSchema, published } from '../helpers/published.js'
import { assertFresh } from '../helpers/readmodel.js'
import { ndjson, source } from '../helpers/records.js'

// Every package, record and bulk line the demo dataset yields, validated against the official OCDS 1.1
// schemas shipped in test/ocds/standard (draft-04), every codelist-bound value checked against its
// codelist, and no whole CPF anywhere.

const PREFIX = 'ocds-test01'

describe('OCDS publication', () => {
  let db: TestDatabase
  let app: FastifyInstance
  const records: DemoRecord[] = [...generateDemo(SCALES.small, 2025)]
  const texts: string[] = [] // every body served, for the CPF check
  const get = async (url: string) => {
    const response = await app.inject({ method: 'GET', url })
    texts.push(response.body)
    return response
  }
  const releases = new Map<string, Json>() // by ocid, from the pages

  before(async () => {
    db = await seededDatabase(records)
    app = await buildTestApp(db, {
      env: { PUBLIC_RATE_LIMIT: '0', OCDS_PREFIX: PREFIX, PUBLIC_URL: 'https://compras.example.gov.br/' },
    })
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  /** The processes the records make: biddings, and contracts and ARPs that name none. */
  function expectedProcesses(): Set<string> {
    const standaloneArps = new Set(
      records
        .filter((r) => r.type === 'arp' && !r.bidding_uuid)
        .map((r) => `${r.organization_uuid}\u0000${r.number}`),
    )
    const ids = new Set<string>()
    for (const r of records) {
      if (r.type === 'direct_contract' || r.type === 'public_call') ids.add(r.id as string)
      if (r.type === 'arp' && !r.bidding_uuid) ids.add(r.id as string)
      if (
        r.type === 'contract' &&
        !r.bidding_uuid &&
        !standaloneArps.has(`${r.organization_uuid}\u0000${r.arp_number}`)
      )
        ids.add(r.id as string)
    }
    return ids
  }

  it('pages through every process as valid release packages, newest change first, with links', async () => {
    let url: string | undefined = '/v1/ocds/releases?page=1&per_page=50'
    let pages = 0
    for (const _turn of turns(1000, 'the pages by number')) {
      if (!url) break
      const response = await get(url)
      assert.equal(response.statusCode, 200, response.body)
      assert.match(response.headers['content-type'] as string, /^application\/json/)
      assert.ok(response.headers.etag)
      const body: Json = response.json()
      assert.ok(validateReleasePackage(body), `${url}: ${ajv.errorsText(validateReleasePackage.errors)}`)
      assert.equal(body.version, '1.1')
      assert.equal(body.uri, `https://compras.example.gov.br/v1/ocds/releases?page=${pages + 1}&per_page=50`)
      assert.deepEqual(body.extensions, ['https://compras.example.gov.br/v1/ocds/extension/extension.json'])
      assert.equal(body.publisher.name, 'compras')
      assert.equal(body.license, 'https://creativecommons.org/licenses/by/4.0/')
      for (const release of body.releases) {
        checkRelease(release, release.ocid)
        assert.ok(!releases.has(release.ocid), `${release.ocid} twice`)
        releases.set(release.ocid, release)
      }
      const dates = body.releases.map((r: Json) => r.date)
      assert.deepEqual(dates, [...dates].sort().reverse())
      assert.equal(body.publishedDate, dates[0])
      // Pages by number link to their neighbours by number, keeping per_page.
      if (pages > 0)
        assert.equal(
          body.links.prev,
          `https://compras.example.gov.br/v1/ocds/releases?page=${pages}&per_page=50`,
        )
      else assert.equal(body.links.prev, undefined)
      if (body.links.next !== undefined)
        assert.equal(
          body.links.next,
          `https://compras.example.gov.br/v1/ocds/releases?page=${pages + 2}&per_page=50`,
        )
      url = body.links.next?.replace('https://compras.example.gov.br', '')
      pages++
    }
    assert.ok(pages > 1)
    const expected = [...expectedProcesses()].map((id) => `${PREFIX}-${id}`).sort()
    assert.deepEqual([...releases.keys()].sort(), expected)
    // A page exactly as long as what is left has no next.
    assert.ok(releases.size <= 100, 'every release fits one page')
    const whole = (await get(`/v1/ocds/releases?page=1&per_page=${releases.size}`)).json()
    assert.equal(whole.releases.length, releases.size)
    assert.equal(whole.links.next, undefined)
  })

  it('pages by change from the start, each page linking on by cursor, to an empty page to resume from', async () => {
    const organization = records.find((r) => r.type === 'organization')?.uuid as string
    const base = 'https://compras.example.gov.br/v1/ocds/releases'
    for (const filter of ['', `organization_uuid=${organization}&`]) {
      let url = `/v1/ocds/releases?${filter}per_page=7`
      let uri = `${base}?${filter}after=&per_page=7`
      const seen: string[] = []
      for (const _turn of turns(10_000, 'the releases by change')) {
        const response = await get(url)
        assert.equal(response.statusCode, 200, response.body)
        const body: Json = response.json()
        if (body.releases.length > 0)
          assert.ok(validateReleasePackage(body), ajv.errorsText(validateReleasePackage.errors))
        assert.equal(body.uri, uri)
        seen.push(...body.releases.map((r: Json) => r.id))
        const next = body.links.next as string
        assert.ok(next.startsWith(`${base}?${filter}after=`), next)
        assert.ok(next.endsWith('&per_page=7'), next)
        if (body.releases.length === 0) {
          // Past the end: nothing, dated now, and the same cursor to come back with.
          assert.equal(next, uri)
          assert.match(body.publishedDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
          break
        }
        uri = next
        url = next.replace('https://compras.example.gov.br', '')
      }
      assert.equal(new Set(seen).size, seen.length, 'no release twice')
      if (filter === '') assert.equal(seen.length, releases.size)
      else assert.ok(seen.length > 0 && seen.length < releases.size)
    }
  })

  it('maps the data as docs/ocds-mapping.md says', () => {
    const all = [...releases.values()]
    for (const release of all) {
      assert.match(release.ocid, /^ocds-test01-[0-9a-f-]{36}$/)
      assert.equal(release.id, `${release.ocid}-1`) // each process's first release
      assert.equal(release.language, 'pt')
      assert.equal(release.initiationType, 'tender')
      const buyer = release.parties.find((p: Json) => p.id === release.buyer.id)
      assert.deepEqual(buyer.roles, ['buyer', 'procuringEntity'])
      assert.equal(buyer.identifier.scheme, 'BR-CNPJ')
      for (const award of release.awards ?? []) {
        for (const supplier of award.suppliers) {
          const party = release.parties.find((p: Json) => p.id === supplier.id)
          assert.ok(party.roles.includes('supplier'))
        }
      }
      for (const contract of release.contracts ?? []) {
        assert.ok(
          release.awards.some((a: Json) => a.id === contract.awardID),
          contract.awardID,
        )
        assert.equal(contract.value.currency, 'BRL')
      }
    }
    // Each bidding's tender, and its budget withheld when secret.
    const biddings = records.filter((r) => r.type === 'direct_contract' || r.type === 'public_call')
    for (const bidding of biddings) {
      const release = releases.get(`${PREFIX}-${bidding.id}`) as Json
      assert.equal(release.tender.id, bidding.id)
      assert.equal(release.tender.description, bidding.object_details)
      assert.equal(release.tender.procurementMethodDetails, bidding.modality)
      if (bidding.budget_secret) assert.equal(release.tender.value, undefined)
      else assert.equal(release.tender.value.amount, Number(bidding.sum_amount_total))
      assert.equal(release.tender.numberOfTenderers, release.tender.tenderers?.length ?? 0)
    }
    assert.ok(biddings.some((b) => b.budget_secret))
    // Orders: delivery milestones of their contract, by number, with their value.
    const order = records.find(
      (r) =>
        r.type === 'order' &&
        r.contract_number &&
        records.some(
          (c) =>
            c.type === 'contract' &&
            c.contract_number === r.contract_number &&
            c.organization_uuid === r.organization_uuid,
        ),
    ) as DemoRecord
    const contract = records.find(
      (c) =>
        c.type === 'contract' &&
        c.contract_number === order.contract_number &&
        c.organization_uuid === order.organization_uuid,
    ) as DemoRecord
    const ocdsContract = all.flatMap((r) => r.contracts ?? []).find((c: Json) => c.id === contract.id)
    const milestone = ocdsContract.implementation.milestones.find((m: Json) => m.id === order.number)
    assert.equal(milestone.type, 'delivery')
    assert.equal(milestone.value.amount, Number(order.amount_total))
    assert.equal(Date.parse(milestone.dueDate), Date.parse(order.deadline_delivery as string))
    // A person supplier: a local id, and no identifier at all.
    const people = all.flatMap((r) => r.parties).filter((p: Json) => p.id.startsWith('pessoa-'))
    assert.ok(people.length > 0, 'the demo data has suppliers who are people')
    for (const person of people) assert.equal(person.identifier, undefined)
  })

  it('serves each process as a valid record package with its compiled and versioned releases', async () => {
    for (const [ocid, release] of releases) {
      const response = await get(`/v1/ocds/records/${ocid}`)
      assert.equal(response.statusCode, 200, response.body)
      const body: Json = response.json()
      assert.ok(validateRecordPackage(body), `${ocid}: ${ajv.errorsText(validateRecordPackage.errors)}`)
      const [record] = body.records
      assert.equal(record.ocid, ocid)
      // Its releases linked by address: a package of the release alone, which it describes.
      assert.deepEqual(record.releases, [
        {
          url: `https://compras.example.gov.br/v1/ocds/releases/${release.id}#${release.id}`,
          date: release.date,
          tag: release.tag,
        },
      ])
      const linked: Json = (await get(`/v1/ocds/releases/${release.id}`)).json()
      assert.ok(validateReleasePackage(linked), ajv.errorsText(validateReleasePackage.errors))
      assert.deepEqual(linked.releases, [release])
      assert.equal(record.versionedRelease, undefined)
      checkRelease(record.compiledRelease, `${ocid} compiled`)
      assert.deepEqual(record.compiledRelease.tag, ['compiled'])
      assert.deepEqual({ ...record.compiledRelease, id: release.id, tag: release.tag }, release)
      assert.equal(body.uri, `https://compras.example.gov.br/v1/ocds/records/${ocid}`)
      assert.deepEqual(body.extensions, ['https://compras.example.gov.br/v1/ocds/extension/extension.json'])
      const versioned: Json = (await get(`/v1/ocds/records/${ocid}?versioned=true`)).json()
      assert.ok(validateRecordPackage(versioned), ajv.errorsText(validateRecordPackage.errors))
      assert.equal(versioned.uri, `https://compras.example.gov.br/v1/ocds/records/${ocid}?versioned=true`)
      const { versionedRelease } = versioned.records[0]
      assert.ok(validateVersioned(versionedRelease), `${ocid}: ${ajv.errorsText(validateVersioned.errors)}`)
      // One release: each field has one value, and that release gave it.
      assert.deepEqual(versionedRelease.initiationType, [
        { releaseID: release.id, releaseDate: release.date, releaseTag: release.tag, value: 'tender' },
      ])
    }
  })

  it('streams every release as JSON Lines, over HTTP and from the CLI, with the same filters', async () => {
    const response = await get('/v1/ocds/releases.jsonl')
    assert.equal(response.statusCode, 200, response.body)
    assert.match(response.headers['content-disposition'] as string, /ocds-releases-.*\.jsonl/)
    const lines = response.body.trimEnd().split('\n')
    assert.equal(lines.length, releases.size)
    for (const line of lines) {
      const release = JSON.parse(line)
      checkRelease(release, release.ocid)
      assert.deepEqual(release, releases.get(release.ocid))
    }
    const organization = records.find(
      (r) => r.id === ([...releases.keys()][0] as string).slice(PREFIX.length + 1),
    )?.organization_uuid as string
    const filtered = (await get(`/v1/ocds/releases.jsonl?organization_uuid=${organization}`)).body
    const inOrganization = [...releases.values()].filter((r) =>
      records.some((x) => x.id === r.ocid.slice(PREFIX.length + 1) && x.organization_uuid === organization),
    )
    assert.equal(filtered.trimEnd().split('\n').length, inOrganization.length)

    const dir = await mkdtemp(path.join(tmpdir(), 'compras-ocds-'))
    try {
      const out = path.join(dir, 'releases.jsonl')
      const cli = await runCli(['export', '--resource', 'ocds', '--out', out], {
        DATABASE_URL: db.url,
        OCDS_PREFIX: PREFIX,
      })
      assert.equal(cli.code, 0, cli.stderr)
      const written = await readFile(out, 'utf8')
      texts.push(written)
      assert.equal(written, response.body)
      const bad = await runCli(['export', '--resource', 'ocds', '--out', out, '--modality-id', '2'], {
        DATABASE_URL: db.url,
      })
      assert.equal(bad.code, 1)
      assert.match(bad.stderr, /modality_id/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('never shows a whole CPF', () => {
    const cpfs = new Set<string>()
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect)
      else if (value && typeof value === 'object') {
        for (const [key, v] of Object.entries(value)) {
          if (
            (key === 'cpf' || key === 'document' || key === 'provider_document') &&
            typeof v === 'string' &&
            v.length === 11
          )
            cpfs.add(v)
          collect(v)
        }
      }
    }
    collect(records)
    assert.ok(cpfs.size > 0)
    const all = texts.join('\n')
    assert.ok(all.length > 100_000)
    for (const cpf of cpfs) assert.ok(!all.includes(cpf), `a whole CPF (${cpf.slice(3, 9)}) in the output`)
  })

  it('answers bad requests in the transparency envelope', async () => {
    const cases: [string, number, RegExp][] = [
      [`/v1/ocds/records/${PREFIX}-00000000-0000-4000-8000-000000000000`, 404, /^Registro não encontrado\.$/],
      [
        `/v1/ocds/records/ocds-other1-${[...releases.keys()][0]?.slice(PREFIX.length + 1)}`,
        404,
        /^Registro não encontrado\.$/,
      ],
      ['/v1/ocds/records/nonsense', 404, /^Registro não encontrado\.$/],
      [`/v1/ocds/records/${[...releases.keys()][0]}0`, 404, /^Registro não encontrado\.$/],
      [
        `/v1/ocds/records/${PREFIX}-0${[...releases.keys()][0]?.slice(PREFIX.length + 1)}`,
        404,
        /^Registro não encontrado\.$/,
      ],
      ['/v1/ocds/releases?per_page=101', 422, /per_page/],
      ['/v1/ocds/releases?page=0', 422, /page/],
      ['/v1/ocds/releases?date_from=2025-02-30', 422, /date_from/],
      ['/v1/ocds/releases?modality_id=1', 422, /modality_id/],
      ['/v1/ocds/releases?page=100000', 404, /^Registro não encontrado\.$/],
      [
        '/v1/ocds/releases?organization_uuid=00000000-0000-4000-8000-000000000000',
        404,
        /^Organização não encontrada\.$/,
      ],
      [
        '/v1/ocds/releases.jsonl?organization_uuid=00000000-0000-4000-8000-000000000000',
        404,
        /^Organização não encontrada\.$/,
      ],
      ['/v1/ocds/releases.jsonl?page=2', 422, /page/],
      ['/v1/ocds/releases.jsonl?history=sim', 422, /history/],
      [`/v1/ocds/records/${[...releases.keys()][0]}?versioned=2`, 422, /versioned/],
      [`/v1/ocds/records/${[...releases.keys()][0]}?compiled=true`, 422, /compiled/],
      ['/v1/ocds/releases?page=1&date_from=2999-01-01', 404, /^Registro não encontrado\.$/],
      ['/v1/ocds/releases?page=1&after=', 422, /^Parâmetros em conflito: page e after/],
    ]
    for (const [url, status, message] of cases) {
      const response = await get(url)
      assert.equal(response.statusCode, status, `${url}: ${response.body}`)
      const body: Json = response.json()
      assert.equal(body.success, false, url)
      assert.match(body.message, message, url)
    }
  })

  it('serves the milestone-value extension that every package declares', async () => {
    const meta = (await get('/v1/ocds/extension/extension.json')).json()
    assert.deepEqual(meta.schemas, ['release-schema.json'])
    assert.deepEqual(meta.compatibility, ['1.1'])
    const patch = (await get('/v1/ocds/extension/release-schema.json')).json()
    assert.equal(patch.definitions.Milestone.properties.value.$ref, '#/definitions/Value')
  })

  it('publishes a change as the next release of its process, and never changes a published one', async () => {
    const bulkBefore = (await get('/v1/ocds/releases.jsonl?history=true')).body
    const contract = records.find((r) => r.type === 'contract' && r.bidding_uuid) as DemoRecord
    const ocid = `${PREFIX}-${contract.bidding_uuid}`
    const first = releases.get(ocid) as Json
    const changed = { ...contract, object_details: `${contract.object_details} (retificado)` }
    await new Promise((resolve) => setTimeout(resolve, 1100)) // a later second for the new date
    const result = await importRecords(db.pool, [source(ndjson([changed]))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    // Every instance drops its cache within a second of an import (NOTIFY): ask until it has.
    let record: Json = {}
    for (let tries = 0; tries < 30; tries++) {
      record = (await get(`/v1/ocds/records/${ocid}?versioned=true`)).json().records[0]
      if (record.releases.length > 1) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const [was, now] = (await Promise.all(
      (record.releases as Json[]).map(
        async (link) => (await get(new URL(link.url).pathname)).json().releases[0],
      ),
    )) as [Json, Json]
    assert.deepEqual(was, first) // the first release, as it was published
    assert.equal(now.id, `${ocid}-2`)
    assert.ok(now.date > first.date)
    assert.deepEqual(now.tag, ['contractUpdate'])
    checkRelease(now, now.id)
    assert.equal(now.contracts.find((c: Json) => c.id === contract.id).description, changed.object_details)
    // The compiled release is the latest state; the versioned one has both descriptions, and whence.
    assert.deepEqual({ ...record.compiledRelease, id: now.id, tag: now.tag }, now)
    assert.ok(validateVersioned(record.versionedRelease), ajv.errorsText(validateVersioned.errors))
    // The record of two releases, its compiled release merged, as the OpenAPI document describes it.
    const publishedRecord = componentSchema('OcdsRecord')
    assert.ok(publishedRecord(record), published.errorsText(publishedRecord.errors))
    const versions = record.versionedRelease.contracts.find((c: Json) => c.id === contract.id).description
    assert.deepEqual(
      versions.map((v: Json) => [v.releaseID, v.releaseTag, v.value]),
      [
        [first.id, first.tag, contract.object_details],
        [now.id, ['contractUpdate'], changed.object_details],
      ],
    )
    // The page has the latest release; the bulk download with history every release, in publication order,
    // the ones published before byte for byte.
    const latest = (await get(`/v1/ocds/releases?after=&per_page=100`)).json()
    assert.ok(latest.releases.some((r: Json) => r.id === now.id))
    assert.ok(!latest.releases.some((r: Json) => r.id === first.id))
    const bulkAfter = (await get('/v1/ocds/releases.jsonl?history=true')).body
    assert.ok(bulkAfter.startsWith(bulkBefore), 'the releases published before are the same bytes, first')
    const added = bulkAfter.slice(bulkBefore.length).trimEnd().split('\n')
    assert.deepEqual(
      added.map((line) => JSON.parse(line).id),
      [now.id],
    )
    assert.deepEqual(
      (await get('/v1/ocds/releases.jsonl?history=false')).body.trimEnd().split('\n').length,
      releases.size,
    )
    // Every other process: its one release, unchanged.
    const { rows } = await db.pool.query<{ process_id: string; version: number; tail: string }>(
      'SELECT process_id, version, tail FROM ocds_releases',
    )
    for (const row of rows) {
      const key = `${PREFIX}-${row.process_id}`
      if (key === ocid) continue
      assert.equal(row.version, 1, key)
      assert.equal(JSON.parse(`{${row.tail}`).date, releases.get(key)?.date, key)
    }
    // A withdrawn standalone contract (with its orders, in the same file) takes its process with it.
    const standalone = records.find(
      (r) => r.type === 'contract' && releases.has(`${PREFIX}-${r.id}`),
    ) as DemoRecord
    assert.ok(standalone, 'a contract that is a process of its own')
    const orders = records.filter(
      (o) =>
        o.type === 'order' &&
        o.organization_uuid === standalone.organization_uuid &&
        o.contract_number === standalone.contract_number,
    )
    const withdrawal = [
      ...orders.map((o) => ({
        type: 'withdraw',
        record: 'order',
        organization_uuid: o.organization_uuid,
        number: o.number,
      })),
      {
        type: 'withdraw',
        record: 'contract',
        organization_uuid: standalone.organization_uuid,
        id: standalone.id,
      },
    ]
    const withdrawn = await importRecords(db.pool, [source(ndjson(withdrawal))])
    assert.equal(withdrawn.ok, true, JSON.stringify(withdrawn.problems))
    const { rows: gone } = await db.pool.query('SELECT 1 FROM ocds_releases WHERE process_id = $1', [
      standalone.id,
    ])
    assert.equal(gone.length, 0)
    assert.equal((await get(`/v1/ocds/records/${PREFIX}-${standalone.id}`)).statusCode, 404)
    await assertFresh(db.pool)
    // Releases of two imports, two dates: a package is dated by its newest, by number or by change.
    for (const url of ['/v1/ocds/releases?page=1&per_page=100', '/v1/ocds/releases?per_page=100']) {
      const body: Json = (await get(url)).json()
      const dates = body.releases.map((r: Json) => r.date as string).sort()
      assert.notEqual(dates[0], dates.at(-1), url)
      assert.equal(body.publishedDate, dates.at(-1), url)
    }
  })

  it('rebuilds the releases when the mapping changes (read-model version)', async () => {
    await db.pool.query(`UPDATE ocds_releases SET tail = '"id":"stale"}', hash = 'stale'`)
    await db.pool.query("UPDATE read_model_versions SET version = 'older' WHERE kind = 'ocds'")
    assert.deepEqual(await syncReadModel(db.pool), ['ocds'])
    const { rows } = await db.pool.query(
      `SELECT count(*)::int AS stale FROM ocds_releases WHERE tail LIKE '"id":"stale"%'`,
    )
    assert.equal(rows[0].stale, 0)
    const { rows: version } = await db.pool.query(
      "SELECT version FROM read_model_versions WHERE kind = 'ocds'",
    )
    assert.equal(version[0].version, DOCUMENT_VERSIONS.ocds)
    assert.deepEqual(await syncReadModel(db.pool), [])
  })
})
