import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { gunzipSync } from 'node:zlib'
import { loadConfig } from '../../src/config.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { type PublicRow, publicFeedSql } from '../../src/feeds/change-feeds.js'
import { importRecords } from '../../src/import/importer.js'
import { recordPackage, releasePackage } from '../../src/ocds-packages/packages.js'
import { type SnapshotManifest, takeSnapshot } from '../../src/ocds-packages/snapshot.js'
import { Cursors } from '../../src/queries/cursors.js'
import { serving } from '../helpers/app.js'
import { runCli } from '../helpers/cli.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { ajv, checkRelease, type Json, validateRecordPackage } from '../helpers/ocds.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// OCDS snapshots (issue 70, part 3) as a data user meets them: files by year, each line valid against the OCDS
// 1.1 schemas, a manifest whose sizes, hashes and counts are the files', a catalogue; a snapshot, then imports,
// then the change feed from the snapshot's cursor applied to it, equal to the next snapshot (as sets of releases
// and records), a snapshot taken while an import commits included; and SNAPSHOT_DIR served with Range and ETag.

const config = loadConfig({})
const publication = { config: config.ocds, publicUrl: config.publicUrl }

/** A snapshot read back: its manifest, and its releases and records by id, each line checked. */
function readSnapshot(dir: string) {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as SnapshotManifest
  const releases = new Map<string, string>()
  const records = new Map<string, string>()
  for (const file of manifest.files) {
    const bytes = readFileSync(path.join(dir, file.name))
    assert.equal(bytes.length, file.bytes, file.name)
    assert.equal(createHash('sha256').update(bytes).digest('hex'), file.sha256, file.name)
    const text = gunzipSync(bytes).toString('utf8')
    assert.equal(Buffer.byteLength(text), file.uncompressed_bytes, file.name)
    const lines = text.split('\n').filter((line) => line !== '')
    assert.equal(lines.length, file.count, file.name)
    for (const line of lines) {
      const value = JSON.parse(line) as Json
      if (file.kind === 'releases') releases.set(value.id, line)
      else records.set(value.ocid, line)
    }
  }
  return { manifest, releases, records }
}

/** Every line valid: each release against the release schema, each record as a record package holds it. */
function validate(snapshot: ReturnType<typeof readSnapshot>) {
  for (const [id, line] of snapshot.releases) checkRelease(JSON.parse(line) as Json, id)
  for (const [ocid, line] of snapshot.records) {
    const record = JSON.parse(line) as Json
    const container = {
      uri: 'http://localhost:3000/v1/ocds/snapshots/manifest.json',
      version: '1.1',
      publishedDate: snapshot.manifest.taken_at.replace(/\.\d+Z$/, 'Z'),
      publisher: snapshot.manifest.publisher,
      records: [record],
    }
    assert.ok(validateRecordPackage(container), `${ocid}: ${ajv.errorsText(validateRecordPackage.errors)}`)
    checkRelease(record.compiledRelease, `${ocid} compiled`)
  }
}

describe('OCDS snapshots', () => {
  let db: TestDatabase
  let cursors: Cursors
  const out = mkdtempSync(path.join(os.tmpdir(), 'compras-snapshots-'))
  const records = demoRecords(
    { organizations: 2, orders: 10, contracts: 8, arps: 3, directContracts: 4, publicCalls: 5 },
    73,
  )
  const load = async (lines: readonly unknown[]) => {
    const result = await importRecords(db.pool, [source(ndjson(lines))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
  }
  const snapshot = (onView?: () => Promise<void>) =>
    takeSnapshot(db.pool, cursors, { out, publication, ...(onView ? { onView } : {}) })

  /**
   * A mirror's way: the change feed after the snapshot's cursor names records; each names its process (itself, or
   * the call it came from), and a withdrawn one the processes that showed it; each such process is read again,
   * its record and its releases, or taken out when it is gone.
   */
  async function apply(base: ReturnType<typeof readSnapshot>) {
    const releases = new Map(base.releases)
    const recordsOf = new Map(base.records)
    const after = cursors.read('changes', base.manifest.cursors.changes, 'after')
    const { text, values } = publicFeedSql({ after, withRecords: true })
    const entries = (await db.pool.query<PublicRow>(text, values)).rows
    const prefix = config.ocds.prefix
    const touched = new Set<string>()
    for (const entry of entries) {
      touched.add(`${prefix}-${entry.id}`)
      const record = entry.body === null ? undefined : (JSON.parse(entry.body) as Json)
      if (typeof record?.bidding_uuid === 'string') touched.add(`${prefix}-${record.bidding_uuid}`)
      for (const [ocid, line] of recordsOf) if (line.includes(entry.id)) touched.add(ocid)
    }
    for (const ocid of touched) {
      for (const id of [...releases.keys()]) if (id.startsWith(`${ocid}-`)) releases.delete(id)
      recordsOf.delete(ocid)
      const current = await recordPackage(db.pool, publication, ocid)
      if (current === undefined) continue
      const record = (JSON.parse(current) as Json).records[0] as Json
      recordsOf.set(ocid, JSON.stringify(record))
      for (const link of record.releases as { url: string }[]) {
        const id = decodeURIComponent((link.url.split('/').at(-1) as string).split('#')[0] as string)
        const one = (JSON.parse((await releasePackage(db.pool, publication, id)) as string) as Json)
          .releases[0]
        releases.set(id, JSON.stringify(one))
      }
    }
    return { releases, records: recordsOf }
  }
  /** Two snapshots' contents as the same sets: each release and record as JSON values. */
  const same = (a: { releases: Map<string, string>; records: Map<string, string> }, b: typeof a) => {
    const values = (map: Map<string, string>) =>
      [...map.entries()].sort(([x], [y]) => x.localeCompare(y)).map(([id, line]) => [id, JSON.parse(line)])
    assert.deepEqual(values(a.releases), values(b.releases))
    assert.deepEqual(values(a.records), values(b.records))
  }

  before(async () => {
    db = await createTestDatabase()
    cursors = new Cursors(db.pool)
    await load(records)
  })
  after(async () => {
    await db?.drop()
    rmSync(out, { recursive: true, force: true })
  })

  it('writes every release and record by year, each valid, with a manifest and a catalogue that tell the files', async () => {
    const taken = await snapshot()
    assert.equal(realpathSync(path.join(out, 'latest')), realpathSync(taken.dir))
    const read = readSnapshot(taken.dir)
    validate(read)
    const { rows } = await db.pool.query<{ releases: number; processes: number }>(
      `SELECT (SELECT count(*) FROM ocds_release_versions)::int + count(*)::int AS releases, count(*)::int AS processes
       FROM ocds_releases`,
    )
    assert.equal(read.releases.size, rows[0]?.releases)
    assert.equal(read.records.size, rows[0]?.processes)
    // A process's releases and its record are in the files of one year: its first release's.
    for (const file of read.manifest.files)
      assert.match(file.name, new RegExp(`^${file.kind}-${file.year}-\\d+\\.jsonl\\.gz$`))
    const catalogue = JSON.parse(readFileSync(path.join(taken.dir, 'data.json'), 'utf8')) as Json
    assert.deepEqual(
      catalogue.dataset[0].distribution.map((d: Json) => d.downloadURL),
      read.manifest.files.map((f) => `http://localhost:3000/v1/ocds/snapshots/${f.name}`),
    )
    assert.equal(read.manifest.publisher.name, 'compras')
  })

  it('splits a year past its bound without splitting a process, and numbers its files', async () => {
    const small = mkdtempSync(path.join(os.tmpdir(), 'compras-snapshot-small-'))
    try {
      const taken = await takeSnapshot(db.pool, cursors, { out: small, publication, maxLines: 3 })
      const read = readSnapshot(taken.dir)
      assert.ok(read.manifest.files.some((f) => f.name.endsWith('-2.jsonl.gz')))
      for (const file of read.manifest.files)
        assert.ok(file.count <= 3 || file.kind === 'releases', `${file.name}: ${file.count} records`)
      validate(read)
    } finally {
      rmSync(small, { recursive: true, force: true })
    }
  })

  it('is continued by the change feed: a snapshot, imports, the feed applied, equal the next snapshot', async () => {
    const base = readSnapshot((await snapshot()).dir)
    const contract = first(records, 'contract')
    const call = first(records, 'public_call')
    const direct = first(records, 'direct_contract')
    // A change, a new term (a new release of its process), a withdrawal of a process whole, a new process.
    await load([
      { ...call, object_details: 'Aquisição de notebooks para as escolas' },
      {
        ...contract,
        terms: [
          ...((contract.terms as unknown[]) ?? []),
          {
            number: '9º Termo Aditivo',
            kind: 'Termo Aditivo',
            description: 'Acréscimo de quantitativos',
            signature_date: '2026-01-10',
            date_start: null,
            date_end: null,
            value: '100.00',
            documents: [],
          },
        ],
      },
      { ...direct, id: '0d000000-0000-4000-8000-000000000001', number: 'DISP 99/2026' },
    ])
    const withdrawable = records.find(
      (r) =>
        r.type === 'direct_contract' &&
        !records.some((o) => o.type === 'contract' && o.bidding_uuid === r.id) &&
        !records.some((o) => o.type === 'arp' && o.bidding_uuid === r.id),
    ) as DemoRecord
    await load([
      {
        type: 'withdraw',
        record: 'direct_contract',
        organization_uuid: withdrawable.organization_uuid,
        id: withdrawable.id,
      },
    ])
    // And a contract of a call withdrawn: its call's process loses it.
    const under = records.find(
      (r) =>
        r.type === 'contract' &&
        r.bidding_uuid !== null &&
        r.id !== contract.id &&
        !records.some(
          (o) =>
            o.type === 'order' &&
            o.contract_number === r.contract_number &&
            o.organization_uuid === r.organization_uuid,
        ),
    ) as DemoRecord
    assert.ok(under, 'a contract of a call without orders')
    await load([
      { type: 'withdraw', record: 'contract', organization_uuid: under.organization_uuid, id: under.id },
    ])
    const next = readSnapshot((await snapshot()).dir)
    assert.notEqual(next.manifest.cursors.changes, base.manifest.cursors.changes)
    same(await apply(base), next)
  })

  it('holds one view while an import commits: the import is in what the feed gives after it', async () => {
    const contract = first(records, 'contract')
    const before = readSnapshot((await snapshot()).dir)
    // The import commits once the snapshot's view is taken, before its data is read.
    const during = readSnapshot(
      (
        await snapshot(async () => {
          await load([{ ...contract, object_details: 'Aquisição de mesas escolares' }])
        })
      ).dir,
    )
    same(during, before)
    assert.equal(during.manifest.cursors.changes, before.manifest.cursors.changes)
    const later = readSnapshot((await snapshot()).dir)
    assert.ok([...later.releases.values()].some((line) => line.includes('mesas escolares')))
    same(await apply(during), later)
  })

  it('serves the latest at /v1/ocds/snapshots/ with Last-Modified, an ETag and Range', async () => {
    await snapshot()
    const latest = readSnapshot(path.join(out, 'latest'))
    const server = await serving(db, { env: { SNAPSHOT_DIR: out } })
    try {
      const index = await fetch(`${server.base}/v1/ocds/snapshots/`)
      assert.equal(index.status, 200)
      assert.deepEqual((await index.json()) as SnapshotManifest, latest.manifest)
      const file = latest.manifest.files[0] as SnapshotManifest['files'][number]
      const whole = await fetch(`${server.base}/v1/ocds/snapshots/${file.name}`)
      assert.equal(whole.status, 200)
      assert.ok(whole.headers.get('last-modified'))
      const tag = whole.headers.get('etag') as string
      assert.equal(Buffer.from(await whole.arrayBuffer()).length, file.bytes)
      const part = await fetch(`${server.base}/v1/ocds/snapshots/${file.name}`, {
        headers: { range: 'bytes=0-9' },
      })
      assert.equal(part.status, 206)
      assert.equal((await part.arrayBuffer()).byteLength, 10)
      // Not by fetch, which sends Cache-Control: no-cache with a conditional request (and the file would come whole).
      const unchanged = await server.app.inject({
        url: `/v1/ocds/snapshots/${file.name}`,
        headers: { 'if-none-match': tag },
      })
      assert.equal(unchanged.statusCode, 304)
      assert.equal((await fetch(`${server.base}/v1/ocds/snapshots/nope.jsonl.gz`)).status, 404)
      assert.equal((await fetch(`${server.base}/v1/ocds/snapshots/../manifest.json`)).status, 404)
    } finally {
      await server.close()
    }
  })

  it('is taken by compras snapshot, and refused without a folder', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'compras-snapshot-cli-'))
    try {
      const made = await runCli(['snapshot', '--out', folder], { DATABASE_URL: db.url })
      assert.equal(made.code, 0, made.stderr)
      assert.match(made.stdout, /^snapshot of \d+ releases and \d+ records in \d+ files: /)
      assert.ok(existsSync(path.join(folder, 'latest', 'manifest.json')))
      assert.deepEqual(
        readdirSync(folder).filter((name) => name.startsWith('.')),
        [],
      )
      const refused = await runCli(['snapshot'], { DATABASE_URL: db.url })
      assert.equal(refused.code, 1)
      assert.match(refused.stderr, /--out DIR is required \(or SNAPSHOT_DIR\)/)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
