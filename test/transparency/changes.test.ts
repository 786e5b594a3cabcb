import assert from 'node:assert/strict'
import { rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import type { DemoRecord } from '../../src/demo/generator.js'
import { dumpRecords } from '../../src/import/dump.js'
import { importRecords } from '../../src/import/importer.js'
import { buildTestApp, listen } from '../helpers/app.js'
import { runCli } from '../helpers/cli.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { eventually, request, turns } from '../helpers/http.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// The public change feed (GET /v1/transparency/changes and .jsonl) as a mirror meets it: every record
// created, changed or withdrawn, in commit order, gap-free across pages and imports, tombstones included.

interface Entry {
  cursor: string
  kind: string
  id: string
  organization_uuid: string
  change: 'created' | 'updated' | 'withdrawn'
  changed_at: string
  record?: Record<string, unknown>
}

/** A page of the feed, as `data` carries it (an error's body has none). */
interface Page {
  data: Entry[]
  next_cursor: string
  has_more: boolean
}

const PATHS: Record<string, string> = {
  contract: 'contracts',
  direct_contract: 'direct-contracts',
  public_call: 'public-calls',
  arp: 'arps',
}

describe('the public change feed', () => {
  let db: TestDatabase
  let app: FastifyInstance
  let base = ''
  const records = demoRecords(
    { organizations: 2, orders: 20, contracts: 10, arps: 4, directContracts: 3, publicCalls: 4 },
    49,
  )
  const publicRecords = () => records.filter((r) => r.type in PATHS)

  const get = async (url: string) => {
    const response = await app.inject({ method: 'GET', url })
    return {
      status: response.statusCode,
      body: response.json() as { success: boolean; message: string; data: Page },
    }
  }
  /** Every entry after `from`, read page by page; and the last page's next_cursor. */
  async function readAll(
    query = '',
    perPage = 7,
    from?: string,
  ): Promise<{ entries: Entry[]; next: string }> {
    const entries: Entry[] = []
    let cursor = from
    for (const _turn of turns(10_000, 'the feed')) {
      const { status, body } = await get(
        `/v1/transparency/changes?per_page=${perPage}${query}${cursor ? `&after=${cursor}` : ''}`,
      )
      assert.equal(status, 200, JSON.stringify(body))
      entries.push(...body.data.data)
      cursor = body.data.next_cursor
      if (!body.data.has_more) return { entries, next: cursor as string }
    }
    throw new Error('unreachable: turns() throws past its last turn')
  }
  const importLines = async (lines: readonly unknown[]) => {
    const result = await importRecords(db.pool, [source(ndjson(lines))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
  }

  before(async () => {
    db = await createTestDatabase()
    await importLines(records)
    app = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '0', IDLE_TIMEOUT: '30' } })
    base = await listen(app)
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  it('starts with every public record created, once, in order, and never an order', async () => {
    const { entries } = await readAll()
    assert.equal(entries.length, publicRecords().length)
    assert.deepEqual(
      new Set(entries.map((e) => `${e.kind} ${e.id}`)),
      new Set(publicRecords().map((r) => `${PATHS[r.type]} ${r.id}`)),
    )
    assert.ok(entries.every((e) => e.change === 'created' && e.record === undefined))
    assert.ok(entries.every((e) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(e.changed_at)))
    assert.equal(new Set(entries.map((e) => e.cursor)).size, entries.length)
    assert.ok(
      entries.every((e) => Object.keys(e).join() === 'cursor,kind,id,organization_uuid,change,changed_at'),
    )
    // An entry's cursor is where the next read starts: the rest of the feed after it, exactly.
    const middle = entries[5] as Entry
    assert.deepEqual((await readAll('', 4, middle.cursor)).entries, entries.slice(6))
    // A page holds per_page entries at most, and says whether more follow: exactly so at the edge.
    const whole = await get(`/v1/transparency/changes?per_page=${entries.length}`)
    assert.deepEqual(whole.body.data.data, entries)
    assert.equal(whole.body.data.has_more, false)
    const short = await get(`/v1/transparency/changes?per_page=${entries.length - 1}`)
    assert.deepEqual(short.body.data.data, entries.slice(0, -1))
    assert.equal(short.body.data.has_more, true)
  })

  it('adds nothing when an import writes the same content again', async () => {
    const { entries, next } = await readAll()
    await importLines(records)
    const { entries: later } = await readAll('', 50, next)
    assert.deepEqual(later, [])
    assert.equal((await readAll()).entries.length, entries.length)
  })

  it('adds an updated entry for a record whose document changed, and for those that show it', async () => {
    const { next } = await readAll()
    const contract: DemoRecord = {
      ...first(records, 'contract', (c) => c.bidding_uuid !== null),
      object_details: 'Objeto mudado',
    }
    await importLines([contract])
    const { entries } = await readAll('&with_records=true', 50, next)
    const mine = entries.find((e) => e.id === contract.id) as Entry
    assert.equal(mine.change, 'updated')
    assert.equal(mine.kind, 'contracts')
    assert.equal(mine.record?.object_details, 'Objeto mudado')
    const detail = await get(`/v1/transparency/contracts/${contract.id}`)
    assert.deepEqual(mine.record, detail.body.data)
    // Its bidding lists its contracts with their objects: it changed too, and says so.
    const bidding = entries.find((e) => e.id === contract.bidding_uuid) as Entry
    assert.equal(bidding?.change, 'updated')
    for (const entry of entries) assert.equal(entry.change, 'updated')
    const index = records.findIndex((r) => r.id === contract.id)
    records[index] = contract
  })

  it('filters by kinds, organization and since, and pages alike', async () => {
    // The unfiltered pages were cached before the last import: the instance serves them until it hears the
    // import's NOTIFY, while a filtered read is new. Read until every read is of the same log.
    await eventually(async () => {
      const all = (await readAll()).entries
      const arps = (await readAll('&kinds=arps,contracts')).entries
      assert.deepEqual(
        arps.map((e) => e.cursor),
        all.filter((e) => e.kind === 'arps' || e.kind === 'contracts').map((e) => e.cursor),
      )
      // Kinds are names: a space after a comma is not part of one.
      assert.deepEqual((await readAll('&kinds=arps,%20contracts')).entries, arps)
      const organization = (all[0] as Entry).organization_uuid
      const mine = (await readAll(`&organization_uuid=${organization.toUpperCase()}`)).entries
      assert.deepEqual(
        mine.map((e) => e.cursor),
        all.filter((e) => e.organization_uuid === organization).map((e) => e.cursor),
      )
      const latest = (all.at(-1) as Entry).changed_at
      const since = (await readAll(`&since=${latest}`)).entries
      assert.deepEqual(
        since.map((e) => e.cursor),
        all.filter((e) => e.changed_at >= latest).map((e) => e.cursor),
      )
      assert.ok(since.length > 0 && since.length < all.length)
    })
  })

  it('shows a withdrawal as a tombstone, and the withdrawn record no more', async () => {
    const { next } = await readAll()
    const arp = first(
      records,
      'arp',
      (a) => !records.some((r) => r.arp_number === a.number && r.organization_uuid === a.organization_uuid),
    )
    await importLines([
      { type: 'withdraw', record: 'arp', organization_uuid: arp.organization_uuid, id: arp.id },
    ])
    records.splice(
      records.findIndex((r) => r.id === arp.id),
      1,
    )
    // Pages are cached until the instance hears of the import (its NOTIFY): read until it has.
    await eventually(async () => {
      const { entries } = await readAll('&with_records=true', 50, next)
      const tombstone = entries.find((e) => e.id === arp.id) as Entry
      assert.deepEqual(Object.keys(tombstone), [
        'cursor',
        'kind',
        'id',
        'organization_uuid',
        'change',
        'changed_at',
      ])
      assert.equal(tombstone.change, 'withdrawn')
      assert.equal(tombstone.kind, 'arps')
      // From the start, the withdrawn record's earlier entries are gone: only its tombstone remains.
      const everything = (await readAll()).entries.filter((e) => e.id === arp.id)
      assert.deepEqual(
        everything.map((e) => e.change),
        ['withdrawn'],
      )
    })
  })

  it('lets a mirror that applies the feed end equal to compras dump, by pages or in one download', async () => {
    const mirror = new Map<string, unknown>()
    for (const entry of (await readAll('&with_records=true', 3)).entries) {
      const key = `${entry.kind} ${entry.id}`
      if (entry.change === 'withdrawn') mirror.delete(key)
      else mirror.set(key, entry.record)
    }
    const dumped: Record<string, unknown>[] = []
    for await (const record of dumpRecords(db.pool, 100)) dumped.push(record)
    const published = dumped.filter((r) => (r.type as string) in PATHS)
    assert.deepEqual(
      [...mirror.keys()].sort(),
      published.map((r) => `${PATHS[r.type as string]} ${r.id}`).sort(),
    )
    for (const [key, record] of mirror) {
      const [kind, id] = key.split(' ')
      assert.deepEqual(record, (await get(`/v1/transparency/${kind}/${id}`)).body.data, key)
    }
    // The same entries as lines, in one request.
    const lines = await request(`${base}/v1/transparency/changes.jsonl?with_records=true`)
    assert.equal(lines.status, 200)
    assert.match(lines.headers['content-type'] as string, /^application\/x-ndjson/)
    const streamed = Buffer.from(lines.body, 'latin1')
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Entry)
    assert.deepEqual(streamed, (await readAll('&with_records=true', 1000)).entries)
    const { entries } = await readAll('', 2)
    const fromMiddle = await request(
      `${base}/v1/transparency/changes.jsonl?after=${(entries[1] as Entry).cursor}`,
    )
    assert.equal(fromMiddle.body.split('\n').filter(Boolean).length, entries.length - 2)
  })

  it('waits for the next import when nothing follows the cursor, and answers as soon as it commits', async () => {
    const { next } = await readAll()
    const empty = await get(`/v1/transparency/changes?after=${next}&wait=1`)
    assert.deepEqual(empty.body.data, { data: [], next_cursor: next, has_more: false })
    // A page that waited is never kept by a cache on the way (the same URL waits again for what comes next). One
    // that did not is kept as a listing is. Both are the same answer, read once for every reader of the question.
    const waited = await app.inject({ url: `/v1/transparency/changes?after=${next}&wait=1` })
    assert.equal(waited.headers['cache-control'], 'no-store')
    assert.equal(waited.headers['content-type'], 'application/json; charset=utf-8')
    const kept = await app.inject({ url: `/v1/transparency/changes?after=${next}` })
    assert.notEqual(kept.headers['cache-control'], 'no-store')
    assert.equal(kept.headers['content-type'], 'application/json; charset=utf-8')
    assert.ok(kept.headers.etag)
    assert.equal(waited.headers.etag, kept.headers.etag)
    const asked = Date.now()
    const waiting = get(`/v1/transparency/changes?after=${next}&wait=30`)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const contract: DemoRecord = {
      ...first(records, 'contract'),
      object_details: 'Mudado enquanto um leitor esperava',
    }
    await importLines([contract])
    const answered = await waiting
    // Woken by the import, not by its deadline 30 s on.
    assert.ok(Date.now() - asked < 20_000, 'answered when the import committed')
    assert.equal(answered.status, 200)
    assert.ok(answered.body.data.data.some((e: Entry) => e.id === contract.id && e.change === 'updated'))
    records[records.findIndex((r) => r.id === contract.id)] = contract
  })

  it('waits as long as asked over a real socket, longer than IDLE_TIMEOUT too', async () => {
    const { next } = await readAll()
    const short = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '0', IDLE_TIMEOUT: '2' } })
    try {
      const shortBase = await listen(short)
      const asked = Date.now()
      const answered = await request(`${shortBase}/v1/transparency/changes?after=${next}&wait=4`)
      assert.equal(answered.status, 200)
      assert.ok(Date.now() - asked >= 4000, 'the whole wait, not cut at IDLE_TIMEOUT')
      assert.deepEqual(JSON.parse(answered.body).data, { data: [], next_cursor: next, has_more: false })
    } finally {
      await short.close()
    }
  })

  it('misses nothing and repeats nothing while several imports run in other processes', async () => {
    const dir = path.join(os.tmpdir(), `compras-feed-${process.pid}`)
    const contracts = records.filter((r) => r.type === 'contract')
    // Three files, each changing every contract: three imports, one after another by the import lock.
    const files = [1, 2, 3].map((n) => {
      const file = `${dir}-${n}.ndjson`
      writeFileSync(file, ndjson(contracts.map((c) => ({ ...c, object_details: `Versão ${n} de ${c.id}` }))))
      return file
    })
    const { next: start } = await readAll()
    const seen: Entry[] = []
    let cursor = start
    const imports = Promise.all(files.map((file) => runCli(['import', file], { DATABASE_URL: db.url })))
    let done = false
    void imports.then(() => {
      done = true
    })
    // Read while they run, a little at a time, then once more after the last has committed.
    for (let last = false; ; ) {
      const { body } = await get(`/v1/transparency/changes?per_page=2&after=${cursor}`)
      seen.push(...body.data.data)
      cursor = body.data.next_cursor
      if (!body.data.has_more) {
        if (last) break
        if (done) last = true
        else await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    const results = await imports
    for (const file of files) rmSync(file, { force: true })
    for (const result of results) assert.equal(result.code, 0, result.stderr)
    const all = (await readAll('', 50, start)).entries
    assert.deepEqual(
      seen.map((e) => e.cursor),
      all.map((e) => e.cursor),
    )
    assert.equal(new Set(seen.map((e) => e.cursor)).size, seen.length)
    // Each import changed every contract (and what shows them): each contract three times.
    for (const contract of contracts)
      assert.equal(seen.filter((e) => e.id === contract.id).length, 3, String(contract.id))
  })

  it('refuses a bad cursor, bad parameters and an unknown organization in its envelope', async () => {
    const forged = Buffer.from('c1.-1').toString('base64url')
    for (const [query, status, message] of [
      ['after=xyz', 422, /^Cursor inválido: after\. Use o next_cursor/],
      [`after=${forged}`, 422, /^Cursor inválido: after\./],
      // A cursor of another feed (the OCDS releases'): gone, sync again.
      [`after=${Buffer.from('o1.5').toString('base64url')}`, 410, /^Cursor desconhecido: after\./],
      ['per_page=1001', 422, /^Parâmetro inválido: per_page\. Aceita um número inteiro de 1 a 1000\.$/],
      [
        'kinds=orders',
        422,
        /^Parâmetro inválido: kinds\. Tipo desconhecido: orders\. Aceita: contracts, direct-contracts, public-calls, arps\.$/,
      ],
      [
        'kinds=orders,ordens',
        422,
        /^Parâmetro inválido: kinds\. Tipo desconhecido: orders, ordens\. Aceita: contracts, direct-contracts, /,
      ],
      ['kinds=', 422, /^Parâmetro inválido: kinds\. Tipo desconhecido: \(vazio\)\. Aceita: contracts, /],
      [
        'kinds=arps&kinds=contracts',
        422,
        /^Parâmetro inválido: kinds\. Aceita uma lista separada por vírgulas de: contracts, direct-contracts, public-calls, arps\.$/,
      ],
      ['after=', 422, /^Parâmetro inválido: after\. Aceita um cursor de uma resposta anterior\.$/],
      ['organization_uuid=xyz', 422, /^Parâmetro inválido: organization_uuid\. Aceita um UUID\.$/],
      [
        'since=ontem',
        422,
        /^Parâmetro inválido: since\. Aceita um instante ISO 8601, como 2026-01-31T12:00:00Z\.$/,
      ],
      ['wait=31', 422, /^Parâmetro inválido: wait\. Aceita um número inteiro de 0 a 30\.$/],
      ['with_records=yes', 422, /^Parâmetro inválido: with_records\. Aceita true ou false\.$/],
      ['order_number=1', 422, /^Parâmetro desconhecido: order_number\./],
      ['organization_uuid=00000000-0000-4000-8000-000000000000', 404, /^Organização não encontrada\.$/],
    ] as const) {
      const { status: got, body } = await get(`/v1/transparency/changes?${query}`)
      assert.equal(got, status, query)
      assert.equal(body.success, false, query)
      assert.match(body.message, message, query)
    }
    const lines = await request(`${base}/v1/transparency/changes.jsonl?after=xyz`)
    assert.equal(lines.status, 422)
    // The download takes the page's parameters but per_page and wait: it reads to the end, at once.
    for (const query of ['per_page=5', 'wait=1']) {
      const refused = await request(`${base}/v1/transparency/changes.jsonl?${query}`)
      assert.equal(refused.status, 422, query)
      assert.equal(
        JSON.parse(Buffer.from(refused.body, 'latin1').toString('utf8')).message,
        `Parâmetro desconhecido: ${query.split('=')[0]}. Aceitos: after, kinds, organization_uuid, since, with_records.`,
      )
    }
    // The download refuses an unknown organization as the pages do, before any line.
    const unknown = await request(
      `${base}/v1/transparency/changes.jsonl?organization_uuid=00000000-0000-4000-8000-000000000000`,
    )
    assert.equal(unknown.status, 404)
    assert.deepEqual(JSON.parse(Buffer.from(unknown.body, 'latin1').toString('utf8')), {
      success: false,
      message: 'Organização não encontrada.',
    })
  })
})
