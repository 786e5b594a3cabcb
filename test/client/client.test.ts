import assert from 'node:assert/strict'
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { retryAfterMs } from '../../client/src/http.js'
import {
  Compras,
  ComprasError,
  CursorResetError,
  MemoryCursorStore,
  type PriceResearch,
  type PublicChange,
} from '../../client/src/index.js'
import { issueToken } from '../../src/auth/tokens.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { dumpRecords } from '../../src/import/dump.js'
import { importRecords } from '../../src/import/importer.js'
import { ORDER_MESSAGES } from '../../src/messages.js'
import { ORDER_RATE_LIMIT } from '../../src/routes/orders/order-access.js'
import { serving } from '../helpers/app.js'
import { spawnCli } from '../helpers/cli.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { turns, until } from '../helpers/http.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// compras-client (client/) as an integrator meets it, against the real service over real HTTP: every call
// typed and equal to what the API answers, errors in the service's words, retries that respect the server,
// and sync() mirrors that converge through concurrent and killed imports, killed mirrors and a rebuilt database.

const run = promisify(execFile)

const PATHS: Record<string, string> = {
  contract: 'contracts',
  direct_contract: 'direct-contracts',
  public_call: 'public-calls',
  arp: 'arps',
}

/** The published records of a database, by `kind/id`, as compras dump gives them. */
async function dumped(db: TestDatabase): Promise<Set<string>> {
  const keys = new Set<string>()
  for await (const record of dumpRecords(db.pool, 100))
    if ((record.type as string) in PATHS) keys.add(`${PATHS[record.type as string]}/${record.id}`)
  return keys
}

/** The last cursor of the public feed, as the API gives it now. */
async function feedEnd(base: string): Promise<string> {
  let cursor = ''
  for (const _turn of turns(10_000, 'the feed')) {
    const answer = (await (
      await fetch(`${base}/v1/transparency/changes?per_page=1000${cursor ? `&after=${cursor}` : ''}`)
    ).json()) as { data: { next_cursor: string; has_more: boolean } }
    cursor = answer.data.next_cursor
    if (!answer.data.has_more) return cursor
  }
  throw new Error('unreachable: turns() throws past its last turn')
}

/** Applies a feed entry to a mirror keyed `kind/id`. */
function apply(mirror: Map<string, unknown>, entry: PublicChange) {
  const key = `${entry.kind}/${entry.id}`
  if (entry.change === 'withdrawn') mirror.delete(key)
  else mirror.set(key, entry.record)
}

describe('compras-client against the service', () => {
  let db: TestDatabase
  let base = ''
  let close: () => Promise<void>
  let token = ''
  const records = demoRecords(
    { organizations: 2, orders: 30, contracts: 70, arps: 20, directContracts: 20, publicCalls: 20 },
    58,
  )
  const organization = first(records, 'organization')
  const order = first(records, 'order', (o) => o.organization_uuid === organization.uuid)

  before(async () => {
    db = await createTestDatabase()
    const result = await importRecords(db.pool, [source(ndjson(records))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    ;({ token } = await issueToken(db.pool, organization.uuid as string, 'client'))
    ;({ base, close } = await serving(db, { env: { PUBLIC_RATE_LIMIT: '0', IDLE_TIMEOUT: '40' } }))
  })
  after(async () => {
    await close()
    await db.drop()
  })

  const raw = async (path: string, headers: Record<string, string> = {}) =>
    ((await (await fetch(`${base}${path}`, { headers })).json()) as { data: unknown }).data

  it('reads each kind as the API serves it: a record, every page of a listing, its history and versions', async () => {
    const api = new Compras({ baseUrl: base })
    for (const [kind, resource] of [
      ['contracts', api.contracts],
      ['direct-contracts', api.directContracts],
      ['public-calls', api.publicCalls],
      ['arps', api.arps],
    ] as const) {
      const listed = await resource.list({ per_page: 7 }).toArray()
      const total = ((await raw(`/v1/transparency/${kind}?per_page=1`)) as { total: number }).total
      assert.equal(listed.length, total, kind)
      assert.equal(new Set(listed.map((item) => item.id)).size, total, `${kind}: each once`)
      assert.equal((await resource.list({ per_page: 3 }).toArray({ limit: 5 })).length, 5)
      const id = (listed[0] as { id: string }).id
      assert.deepEqual(await resource.get(id), await raw(`/v1/transparency/${kind}/${id}`))
      assert.deepEqual(await resource.history(id), await raw(`/v1/transparency/${kind}/${id}/history`))
      assert.deepEqual(await resource.version(id, 1), await raw(`/v1/transparency/${kind}/${id}/history/1`))
    }
    // Lists go comma-separated, as the document says (style form, explode false).
    const related = await api.contracts
      .list({ per_page: 2, with_relations: ['documents', 'terms'] })
      .toArray()
    assert.ok(related.length > 0 && related.every((item) => 'documents' in item && 'terms' in item))
    // A listing's filters go with every page.
    const mine = await api.contracts
      .list({ organization_uuid: organization.uuid as string, per_page: 4 })
      .toArray()
    assert.ok(mine.length > 4)
    assert.ok(mine.every((item) => item.organization_uuid === organization.uuid))
    assert.deepEqual(
      await api.helpers.biddingModalities(),
      await raw('/v1/transparency/helpers/bidding-modalities'),
    )
    const releases = await api.ocds.releases({ per_page: 2 })
    const [latest] = releases.releases
    assert.ok(latest)
    const record = (await api.ocds.record(latest.ocid, { versioned: true })).records[0]
    assert.equal(record?.ocid, latest.ocid)
    assert.equal(record?.versionedRelease?.ocid, latest.ocid)
    const linked = record?.releases.at(-1)?.url as string
    assert.deepEqual(await api.ocds.release(decodeURIComponent(new URL(linked).hash.slice(1))), latest)
    const csv = await new Response(await api.export({ resource: 'contracts', format: 'csv' })).text()
    assert.equal(csv.trimEnd().split('\r\n').length, 71, 'the title row and every contract')
  })

  it('reads prices, suppliers, organizations, every helper and every whole file as the API serves them', async () => {
    const api = new Compras({ baseUrl: base })
    const text = (stream: ReadableStream<Uint8Array>) => new Response(stream).text()
    const rawText = async (path: string) => (await fetch(`${base}${path}`)).text()
    const q = 'papel'
    const research = (await raw(`/v1/transparency/prices?q=${q}&per_page=100`)) as PriceResearch
    assert.ok(
      research.items.data.length > 2 && !research.items.has_more,
      'a research of a few items, one page',
    )
    assert.deepEqual(await api.prices.research({ q, per_page: 100 }), research)
    assert.deepEqual(await api.prices.items({ q, per_page: 1, sort: 'amount' }).toArray({ limit: 1000 }), [
      ...((await raw(`/v1/transparency/prices?q=${q}&per_page=100&sort=amount`)) as PriceResearch).items.data,
    ])
    const file = await text(await api.prices.export({ q, format: 'csv' }))
    assert.equal(
      file.split('\n').length,
      (await rawText(`/v1/transparency/prices/export?q=${q}&format=csv`)).split('\n').length,
    )
    assert.ok(file.includes(research.items.data[0]?.description as string))
    // Lists by name, a page a supplier: the query goes with every page, and every page is read (a limit: a
    // client that asked the first page for ever would not hang the test).
    const everyone = (await raw('/v1/transparency/suppliers?per_page=100')) as { data: { name: string }[] }
    const named = new Map<string, number>()
    for (const { name } of everyone.data)
      for (const w of new Set(name.split(/\s+/))) named.set(w, (named.get(w) ?? 0) + 1)
    // A word of some suppliers' names, not of all of them.
    const [word] = [...named].find(([w, n]) => n > 1 && n < everyone.data.length && w.length > 3) ?? ['']
    const suppliers = (await raw(
      `/v1/transparency/suppliers?q=${encodeURIComponent(word)}&per_page=100`,
    )) as {
      data: { document: string }[]
    }
    assert.ok(suppliers.data.length > 1, word)
    assert.deepEqual(
      await api.suppliers.list({ q: word, per_page: 1 }).toArray({ limit: 1000 }),
      suppliers.data,
    )
    const document = suppliers.data[0]?.document as string
    assert.deepEqual(await api.suppliers.get(document), await raw(`/v1/transparency/suppliers/${document}`))
    const organizations = (await raw('/v1/transparency/organizations?per_page=100')) as {
      data: { uuid: string }[]
    }
    assert.equal(organizations.data.length, 2)
    assert.deepEqual(
      await api.organizations.list({ per_page: 1 }).toArray({ limit: 1000 }),
      organizations.data,
    )
    const uuid = organization.uuid as string
    assert.deepEqual(await api.organizations.get(uuid), await raw(`/v1/transparency/organizations/${uuid}`))
    // The integrity flags, page after page as one page of them all gives them, and their counts.
    const flags = (await raw('/v1/transparency/indicators?per_page=100')) as {
      data: unknown[]
      has_more: boolean
    }
    assert.ok(flags.data.length > 1 && !flags.has_more, `${flags.data.length} flags`)
    assert.deepEqual(await api.indicators.list({ per_page: 1 }).toArray({ limit: 1000 }), flags.data)
    // Cardinal's shape has no envelope: the answer whole.
    assert.deepEqual(
      await api.indicators.cardinal({ organization_uuid: uuid }),
      await (
        await fetch(`${base}/v1/transparency/indicators?format=cardinal&organization_uuid=${uuid}`)
      ).json(),
    )
    assert.deepEqual(
      await api.indicators.summary({ organization_uuid: uuid }),
      await raw(`/v1/transparency/indicators/summary?organization_uuid=${uuid}`),
    )
    assert.deepEqual(
      await api.helpers.biddingStatuses(),
      await raw('/v1/transparency/helpers/bidding-statuses'),
    )
    assert.deepEqual(
      await api.helpers.managementStatuses(),
      await raw('/v1/transparency/helpers/management-statuses'),
    )
    assert.equal(await text(await api.ocds.download()), await rawText('/v1/ocds/releases.jsonl'))
    assert.equal(await text(await api.changes.lines()), await rawText('/v1/transparency/changes.jsonl'))
    // The feed as sync() catches up: without records unless asked, and nothing before `since`.
    const entries: PublicChange[] = []
    for await (const entry of api.changes.sync({ untilCaughtUp: true, signal: AbortSignal.timeout(60_000) }))
      entries.push(entry)
    assert.equal(
      entries.length,
      (await rawText('/v1/transparency/changes.jsonl')).trimEnd().split('\n').length,
    )
    assert.ok(entries.every((entry) => !('record' in entry)))
    const later: PublicChange[] = []
    for await (const entry of api.changes.sync({
      untilCaughtUp: true,
      signal: AbortSignal.timeout(60_000),
      since: '2999-01-01T00:00:00Z',
    }))
      later.push(entry)
    assert.deepEqual(later, [])
    const orders: string[] = []
    for await (const entry of api.orders.changes({
      token,
      untilCaughtUp: true,
      signal: AbortSignal.timeout(60_000),
    }))
      orders.push(entry.number)
    assert.deepEqual(
      orders,
      (
        (await raw('/external/orders/changes?per_page=1000', { authorization: token })) as {
          data: { number: string }[]
        }
      ).data.map((entry) => entry.number),
    )
    for await (const entry of api.orders.changes({
      token,
      untilCaughtUp: true,
      signal: AbortSignal.timeout(60_000),
      since: '2999-01-01T00:00:00Z',
    }))
      assert.fail(`an order changed after 2999: ${entry.number}`)
  })

  it("reads an organ's order with a token given per call, and rejects in the service's own words", async () => {
    const api = new Compras({ baseUrl: base })
    const number = order.number as string
    assert.deepEqual(
      await api.orders.get(number, { token }),
      await raw(`/external/orders?order_number=${encodeURIComponent(number)}`, { authorization: token }),
    )
    const refused = await api.orders.get(number, { token: 'not-a-token' }).catch((error: unknown) => error)
    assert.ok(refused instanceof ComprasError)
    assert.equal(refused.status, 401)
    assert.equal(refused.message, ORDER_MESSAGES.unauthorized)
    const missing = await api.contracts
      .get('00000000-0000-4000-8000-000000000000', { signal: AbortSignal.timeout(10_000) })
      .catch((error: unknown) => error)
    assert.ok(missing instanceof ComprasError)
    assert.equal(missing.status, 404)
    assert.match(missing.message, /não encontrad/)
    assert.match(missing.requestId ?? '', /^[0-9a-f-]{36}$/, 'the request id to quote')
  })

  it('retries 429 after Retry-After and answers every request; never retries a 404', async () => {
    const asked: number[] = []
    const counting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      asked.push(response.status)
      return response
    }
    // Attempts enough for a loaded machine, where the 90 spread over more seconds than the default's five tries.
    const api = new Compras({ baseUrl: base, fetch: counting, attempts: 30 })
    // The order query allows ORDER_RATE_LIMIT (60) requests a second per token: 90 at once meet its 429.
    const answers = await Promise.all(
      Array.from({ length: ORDER_RATE_LIMIT + 30 }, () => api.orders.get(order.number as string, { token })),
    )
    assert.equal(answers.length, ORDER_RATE_LIMIT + 30)
    assert.ok(answers.every((answer) => answer.number === order.number))
    assert.ok(asked.includes(429), 'the limit was met')
    assert.equal(asked.filter((status) => status === 200).length, ORDER_RATE_LIMIT + 30)
    asked.length = 0
    await api.contracts.get('00000000-0000-4000-8000-000000000000').catch(() => {})
    assert.deepEqual(asked, [404])
    // Retry-After in seconds or as an HTTP date.
    assert.equal(retryAfterMs('3'), 3000)
    assert.equal(
      retryAfterMs('Wed, 21 Oct 2026 07:28:03 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT')),
      3000,
    )
    assert.equal(retryAfterMs(null), undefined)
    // A network that fails: retried, then the failure itself.
    const closed = new Compras({ baseUrl: 'http://127.0.0.1:9', attempts: 3, baseDelayMs: 10 })
    await assert.rejects(closed.contracts.get('00000000-0000-4000-8000-000000000000'), TypeError)
  })

  it('keeps a mirror equal to compras dump through concurrent imports, one killed with SIGKILL', async () => {
    const api = new Compras({ baseUrl: base })
    const mirror = new Map<string, unknown>()
    const store = new MemoryCursorStore()
    const stop = new AbortController()
    const following = (async () => {
      for await (const entry of api.changes.sync({ store, withRecords: true, signal: stop.signal, wait: 2 }))
        apply(mirror, entry)
    })()
    const changed = (round: number, which: number): DemoRecord[] =>
      records
        .filter((r) => r.type === 'contract' || r.type === 'direct_contract')
        .filter((_, k) => k % 2 === which)
        .map((r) => ({ ...r, object_details: `Rodada ${round}.${which}` }))
    // One importer in the process, round after round; another as `compras import`, killed halfway.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'compras-client-'))
    let killed: ChildProcess | undefined
    try {
      const file = path.join(dir, 'changes.ndjson')
      writeFileSync(file, ndjson(Array.from({ length: 20 }, (_, round) => changed(100 + round, 1)).flat()))
      killed = spawnCli(['import', file], { DATABASE_URL: db.url })
      const exited = once(killed, 'exit')
      for (let round = 0; round < 4; round++) {
        const result = await importRecords(db.pool, [source(ndjson(changed(round, 0)))])
        assert.equal(result.ok, true, JSON.stringify(result.problems))
        if (round === 1) killed.kill('SIGKILL')
      }
      await exited
      // And a withdrawal: the first ARP nothing else links to (a refused import changes nothing).
      let withdrawn = false
      for (const arp of records.filter((r) => r.type === 'arp')) {
        const line = { type: 'withdraw', record: 'arp', organization_uuid: arp.organization_uuid, id: arp.id }
        if ((await importRecords(db.pool, [source(ndjson([line]))])).ok) {
          withdrawn = true
          break
        }
      }
      assert.ok(withdrawn, 'an ARP could be withdrawn')
      const end = await feedEnd(base)
      await until(async () => (await store.get()) === end, 20_000, 'the mirror to catch up')
    } finally {
      killed?.kill('SIGKILL')
      stop.abort()
      await following
      rmSync(dir, { recursive: true, force: true })
    }
    assert.deepEqual(new Set(mirror.keys()), await dumped(db))
    for (const [key, record] of mirror) assert.deepEqual(record, await raw(`/v1/transparency/${key}`), key)
  })

  it('lets a mirror process killed with SIGKILL go on from its cursor file and converge', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'compras-mirror-'))
    const file = path.join(dir, 'mirror.json')
    const example = new URL('../../client/examples/mirror.ts', import.meta.url).pathname
    const start = () => spawn(process.execPath, ['--import', 'tsx', example, base, file], { stdio: 'ignore' })
    let child = start()
    try {
      // Killed as soon as it has kept a cursor: after its first page, with more to come.
      await until(() => existsSync(`${file}.cursor`), 20_000, 'a first page')
      child.kill('SIGKILL')
      await once(child, 'exit')
      await importRecords(db.pool, [
        source(ndjson([{ ...first(records, 'contract'), object_details: 'Mudado com o espelho parado' }])),
      ])
      child = start()
      const end = await feedEnd(base)
      await until(
        () => readFileSync(`${file}.cursor`, 'utf8').trim() === end,
        30_000,
        'the mirror to catch up',
      )
      child.kill('SIGINT')
      await once(child, 'exit')
      const mirror = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
      assert.deepEqual(new Set(Object.keys(mirror)), await dumped(db))
      for (const [key, record] of Object.entries(mirror))
        assert.deepEqual(record, await raw(`/v1/transparency/${key}`), key)
    } finally {
      child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('says "start over" for a cursor of a database loaded again from a dump, and starts over when asked', async () => {
    const old = await feedEnd(base)
    const lines: Record<string, unknown>[] = []
    for await (const record of dumpRecords(db.pool, 100)) lines.push(record)
    const rebuilt = await createTestDatabase()
    const again = await serving(rebuilt, { env: { PUBLIC_RATE_LIMIT: '0' } })
    try {
      assert.equal((await importRecords(rebuilt.pool, [source(ndjson(lines))])).ok, true)
      const fresh = new Compras({ baseUrl: again.base })
      const refused = await fresh.changes
        .sync({ store: new MemoryCursorStore(old) })
        .next()
        .catch((error: unknown) => error)
      assert.ok(refused instanceof CursorResetError)
      assert.equal(refused.status, 410)
      assert.match(refused.message, /^Cursor desconhecido/)
      let resyncs = 0
      const stop = new AbortController()
      const mirror = new Map<string, unknown>()
      const store = new MemoryCursorStore(old)
      const end = await feedEnd(again.base)
      const following = (async () => {
        for await (const entry of fresh.changes.sync({
          store,
          signal: stop.signal,
          wait: 1,
          onReset: 'resync',
          onResync: () => {
            resyncs++
            mirror.clear()
          },
        }))
          apply(mirror, entry)
      })()
      await until(async () => (await store.get()) === end, 20_000, 'the resync to end')
      stop.abort()
      await following
      assert.equal(resyncs, 1)
      assert.deepEqual(new Set(mirror.keys()), await dumped(rebuilt))
    } finally {
      await again.close()
      await rebuilt.drop()
    }
  })

  it('packs as a package that installs and types a strict program with no cast, run by plain node', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'compras-client-pack-'))
    try {
      const client = new URL('../../client/', import.meta.url).pathname
      const manifest = JSON.parse(readFileSync(path.join(client, 'package.json'), 'utf8'))
      assert.equal(manifest.dependencies, undefined)
      const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'))
      assert.equal(manifest.version, document.info.version, "the package's version follows the API's")
      assert.equal(manifest.type, 'module')
      // As a fresh clone packs it: its prepack builds dist/ (compiled by the repository's TypeScript).
      const { stdout: packed } = await run('npm', ['pack', '--json', '--pack-destination', dir], {
        cwd: client,
      })
      const [{ filename, files }] = JSON.parse(packed) as [{ filename: string; files: { path: string }[] }]
      const paths = files.map((f) => f.path)
      for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/schema.d.ts', 'README.md'])
        assert.ok(paths.includes(file), `${file} is in the package: ${paths.join(', ')}`)
      // Installed where an integrator would, and used by a strict program that casts nothing.
      const app = path.join(dir, 'app')
      mkdirSync(app)
      writeFileSync(
        path.join(app, 'package.json'),
        JSON.stringify({ name: 'app', private: true, type: 'module' }),
      )
      await run('npm', ['install', '--no-audit', '--no-fund', '--offline', path.join(dir, filename)], {
        cwd: app,
      })
      writeFileSync(
        path.join(app, 'main.ts'),
        `import { Compras, type PriceItem, type SupplierPage } from 'compras-client'
const api = new Compras({ baseUrl: process.argv[2] ?? '' })
const contracts = await api.contracts.list({ per_page: 2 }).toArray({ limit: 2 })
const research = await api.prices.research({ q: 'papel' })
const items: PriceItem[] = await api.prices.items({ q: 'papel', per_page: 5 }).toArray({ limit: 5 })
const [supplier] = await api.suppliers.list({ per_page: 1 }).toArray({ limit: 1 })
const page: SupplierPage | undefined = supplier ? await api.suppliers.get(supplier.document) : undefined
const [organization] = await api.organizations.list().toArray({ limit: 1 })
const organ = organization ? await api.organizations.get(organization.uuid) : undefined
const units = research.summary.map((entry) => entry.unit)
process.stdout.write(JSON.stringify([contracts.length, units.length > 0, items.length > 0, page?.totals.committed.value, organ?.totals.committed.value !== undefined]))
`,
      )
      const tsc = new URL('../../node_modules/typescript/bin/tsc', import.meta.url).pathname
      await run(
        process.execPath,
        [
          tsc,
          '--strict',
          '--noUncheckedIndexedAccess',
          '--target',
          'ES2022',
          '--module',
          'NodeNext',
          '--moduleResolution',
          'NodeNext',
          '--types',
          'node',
          '--typeRoots',
          new URL('../../node_modules/@types', import.meta.url).pathname,
          '--outDir',
          app,
          path.join(app, 'main.ts'),
        ],
        { cwd: app },
      )
      const { stdout } = await run(process.execPath, [path.join(app, 'main.js'), base], { cwd: app })
      const [count, units, items, committed, organ] = JSON.parse(stdout) as [
        number,
        boolean,
        boolean,
        string,
        boolean,
      ]
      assert.deepEqual([count, units, items, organ], [2, true, true, true])
      assert.match(committed, /^\d+\.\d{2}$/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('saves the cursor of a page only once the caller has taken its last entry', async () => {
    const api = new Compras({ baseUrl: base })
    const store = new MemoryCursorStore()
    const taken: PublicChange[] = []
    for await (const entry of api.changes.sync({ store, perPage: 5 })) {
      taken.push(entry)
      // The caller stops (or crashes) in the middle of the second page.
      if (taken.length === 7) break
    }
    const page = (await raw('/v1/transparency/changes?per_page=5')) as { next_cursor: string }
    assert.equal(await store.get(), page.next_cursor, 'the first page is saved, the second is not')
    // Resumed from the store, it goes on from the second page's first entry: nothing skipped.
    const resumed = await api.changes.sync({ store, perPage: 5 }).next()
    assert.deepEqual(resumed.value, taken[5])
    // A catch-up that ends: every entry once, then done, with the last cursor kept.
    const caughtUp: PublicChange[] = []
    for await (const entry of api.changes.sync({ store: new MemoryCursorStore(), untilCaughtUp: true }))
      caughtUp.push(entry)
    const end = await feedEnd(base)
    assert.equal(caughtUp.at(-1)?.cursor, end)
    assert.equal(new Set(caughtUp.map((entry) => entry.cursor)).size, caughtUp.length)
  })

  it('stops a sync waiting for the next import at once when its signal aborts', async () => {
    const api = new Compras({ baseUrl: base })
    const stop = new AbortController()
    const store = new MemoryCursorStore(await feedEnd(base))
    const seen: PublicChange[] = []
    const following = (async () => {
      for await (const entry of api.changes.sync({ store, signal: stop.signal, wait: 25 })) seen.push(entry)
    })()
    await new Promise((resolve) => setTimeout(resolve, 300))
    const asked = Date.now()
    stop.abort()
    await following
    assert.ok(Date.now() - asked < 5000, 'ended by the signal, not by its 25 s wait')
    assert.deepEqual(seen, [])
  })
})
