import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it, mock } from 'node:test'
import { Http, retryAfterMs } from '../../client/src/http.js'
import {
  Compras,
  ComprasError,
  FileCursorStore,
  MemoryCursorStore,
  type PublicChange,
} from '../../client/src/index.js'

import { type Route, type RouteServer, routeServer } from '../helpers/route-server.js'

// compras-client's requests as a server sees them, against a server of the test's own: the URL and headers it
// sends, what it retries and how long it waits, the bodies it reads (at their limit, split mid-character), the
// errors it makes of an answer, and a sync that catches up in one JSON Lines download and saves its cursor.

/** A JSON Lines body, and how the server writes it: in two chunks, split inside the character é. */
const LINES =
  '{"cursor":"l1","id":"café","change":"created"}\n\n{"cursor":"l2","id":"l2","change":"created"}\n'

describe('compras-client, request by request', () => {
  let server: RouteServer
  let base = ''
  const asked = new Map<string, number>()
  /** What the JSON Lines catch-up answers: the lines above, with or without the last newline, or a refusal. */
  let lines: 'ended' | 'unended' | 'too long' | 'busy' | 'gone' | 'held' | 'two' = 'ended'
  /** The page feed's asks: after and with_records. */
  const pages: [string | null, string | null][] = []
  /** The orders feed's asks: after, since and the token. */
  const orderAsks: [string | null, string | null, string | null, string | null][] = []

  const json = (
    response: ServerResponse,
    status: number,
    body: string,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers })
    response.end(body)
  }

  const routes: Record<string, Route> = {
    '/v1/transparency/contracts/echo': (request, response) =>
      json(response, 200, JSON.stringify({ data: { url: request.url, headers: request.headers } })),
    '/v1/transparency/contracts/reset': (request) => request.socket.destroy(),
    '/v1/transparency/contracts/busy': (_request, response) =>
      json(response, 503, '{"success":false,"message":"Indisponível."}', { 'retry-after': '0' }),
    '/v1/transparency/contracts/no-location': (_request, response) => {
      response.writeHead(302, { 'content-type': 'application/json' })
      response.end('{"success":false,"message":"Sem destino."}')
    },
    '/v1/transparency/contracts/located': (_request, response) =>
      json(response, 200, '{"data":{"id":"located"}}', { location: '/elsewhere' }),
    '/v1/transparency/contracts/split': (_request, response) => {
      // 41 bytes exactly, é (0xC3 0xA9) split between two writes, no Content-Length.
      const body = Buffer.from('{"data":{"id":"café","pad":"xxxxxxxxx"}}')
      response.writeHead(200, { 'content-type': 'application/json' })
      const cut = body.indexOf(0xa9)
      response.write(body.subarray(0, cut))
      setTimeout(() => response.end(body.subarray(cut)), 30)
    },
    '/v1/transparency/contracts/declared': (_request, response) => {
      const body = '{"data":{"id":"declared"}}'
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) })
      response.end(body)
    },
    '/v1/transparency/contracts/plain-error': (_request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' })
      response.end('boom')
    },
    '/v1/transparency/contracts/null-error': (_request, response) => json(response, 500, 'null'),
    '/v1/transparency/contracts/large-error': (_request, response) => json(response, 500, 'x'.repeat(4096)),
    '/v1/transparency/changes.jsonl': (request, response) => {
      const after = new URL(request.url ?? '', 'http://x').searchParams.get('after')
      if (lines === 'busy' || lines === 'held' || lines === 'two')
        return json(response, 503, '{"success":false,"message":"Exportações demais."}')
      if (lines === 'gone' && after !== null)
        return json(response, 410, '{"success":false,"message":"Cursor."}')
      if (lines === 'gone') return json(response, 503, '{"success":false,"message":"Exportações demais."}')
      const bytes = Buffer.from(
        lines === 'too long'
          ? `{"cursor":"l1","id":"${'x'.repeat(200)}"}`
          : lines === 'unended'
            ? LINES.trimEnd()
            : LINES,
      )
      response.writeHead(200, { 'content-type': 'application/x-ndjson' })
      const cut = bytes.indexOf(0xa9) === -1 ? 10 : bytes.indexOf(0xa9)
      response.write(bytes.subarray(0, cut))
      setTimeout(() => response.end(bytes.subarray(cut)), 30)
    },
    '/external/orders/changes': (request, response) => {
      const query = new URL(request.url ?? '', 'http://x').searchParams
      const after = query.get('after')
      orderAsks.push([after, query.get('since'), query.get('wait'), request.headers.authorization ?? null])
      if (after === 'old') return json(response, 410, '{"success":false,"message":"Cursor."}')
      const data = after === 'o1' ? [] : [{ cursor: 'o1', number: 'o1', change: 'created' }]
      json(response, 200, JSON.stringify({ data: { data, next_cursor: 'o1', has_more: false } }))
    },
    '/v1/transparency/changes': (request, response) => {
      const query = new URL(request.url ?? '', 'http://x').searchParams
      const after = query.get('after')
      pages.push([after, query.get('with_records')])
      // A long poll that never answers (until the client leaves); a page of two entries.
      if (lines === 'held') return
      if (lines === 'two') {
        const data = ['t1', 't2'].map((id) => ({ cursor: id, kind: 'contracts', id, change: 'created' }))
        return json(response, 200, JSON.stringify({ data: { data, next_cursor: 't2', has_more: false } }))
      }
      const entry = { cursor: 'p1', kind: 'contracts', id: 'p1', change: 'created' }
      const data = after === 'p1' ? [] : [entry]
      json(response, 200, JSON.stringify({ data: { data, next_cursor: 'p1', has_more: false } }))
    },
  }

  before(async () => {
    server = await routeServer(routes, asked)
    base = server.base
  })
  after(() => server.close())

  const count = (at: string) => asked.get(at) ?? 0

  it('reads a Retry-After as whole seconds or a date, and nothing else', () => {
    assert.equal(retryAfterMs(null), undefined)
    assert.equal(retryAfterMs(''), undefined)
    assert.equal(retryAfterMs(' 7 '), 7000)
    assert.equal(retryAfterMs('12abc'), undefined)
    assert.equal(retryAfterMs('1.5', Date.parse('2030-01-01T00:00:00Z')), 0, 'a date long past')
    assert.equal(retryAfterMs('Tue, 01 Jan 2030 00:00:10 GMT', Date.parse('2030-01-01T00:00:00Z')), 10_000)
  })

  it('writes a URL of the values given, lists comma-separated, under a base with trailing slashes', async () => {
    const http = new Http({ baseUrl: `${base}//` })
    assert.equal(
      http.url('/v1/x', { a: undefined, b: null, c: ['1', '2'], d: 0, e: false, f: 'é' }),
      `${base}/v1/x?c=1%2C2&d=0&e=false&f=%C3%A9`,
    )
    const api = new Compras({ baseUrl: `${base}//`, headers: { 'user-agent': 'integrador/1.0' } })
    const echo = (await api.contracts.get('echo')) as unknown as {
      url: string
      headers: Record<string, string>
    }
    assert.equal(echo.url, '/v1/transparency/contracts/echo')
    assert.equal(echo.headers.accept, 'application/json')
    assert.equal(echo.headers['user-agent'], 'integrador/1.0')
    assert.equal(echo.headers.authorization, undefined, 'no token, no Authorization')
  })

  it('retries a connection that fails exactly as many times as it may', async () => {
    const api = new Compras({ baseUrl: base, attempts: 3, baseDelayMs: 1 })
    await assert.rejects(api.contracts.get('reset'), (error: unknown) => !(error instanceof ComprasError))
    assert.equal(count('/v1/transparency/contracts/reset'), 3)
  })

  it('waits base × 2^(attempt − 1), half of it random, bounded by its longest wait', async () => {
    const delays: number[] = []
    const original = globalThis.setTimeout
    mock.method(Math, 'random', () => 0.999)
    mock.method(globalThis, 'setTimeout', (run: () => void, ms?: number) => {
      if (new Error().stack?.includes('client/src/http')) delays.push(ms ?? 0)
      return original(run, ms)
    })
    try {
      const api = new Compras({ baseUrl: base, attempts: 4, baseDelayMs: 100, maxDelayMs: 250 })
      await assert.rejects(
        api.contracts.get('busy'),
        (error: unknown) => (error as ComprasError).status === 503,
      )
    } finally {
      mock.restoreAll()
    }
    // Steps of 100, 200 and 250 (bounded): half certain, half random (here nearly all of it).
    assert.deepEqual(
      delays.map((ms) => Math.round(ms)),
      [100, 200, 250],
    )
  })

  it('takes an answer without Location as it is, whatever its status', async () => {
    const api = new Compras({ baseUrl: base, attempts: 1 })
    const failed = await api.contracts.get('no-location').catch((error: unknown) => error)
    assert.ok(failed instanceof ComprasError && failed.status === 302, String(failed))
    assert.equal(failed.message, 'Sem destino.')
    assert.deepEqual(await api.contracts.get('located'), { id: 'located' })
  })

  it('reads a body of exactly its limit, declared or not, and a character split between two chunks', async () => {
    assert.deepEqual(await new Compras({ baseUrl: base, maxBodyBytes: 41 }).contracts.get('split'), {
      id: 'café',
      pad: 'xxxxxxxxx',
    })
    assert.deepEqual(await new Compras({ baseUrl: base, maxBodyBytes: 26 }).contracts.get('declared'), {
      id: 'declared',
    })
  })

  it("makes an error of any answer: the service's message, or the status when there is none", async () => {
    const api = new Compras({ baseUrl: base, attempts: 1, maxBodyBytes: 1024 })
    for (const [name, body] of [
      ['plain-error', 'boom'],
      ['null-error', null],
      ['large-error', ''],
    ] as const) {
      const failed = await api.contracts.get(name).catch((error: unknown) => error)
      assert.ok(failed instanceof ComprasError, `${name}: ${String(failed)}`)
      assert.equal(failed.status, 500)
      assert.equal(failed.message, 'HTTP 500', name)
      assert.deepEqual(failed.body, body, name)
    }
  })

  it('takes no item and asks nothing for a limit of 0', async () => {
    const before = count('/v1/transparency/contracts')
    assert.deepEqual(await new Compras({ baseUrl: base }).contracts.list().toArray({ limit: 0 }), [])
    assert.equal(count('/v1/transparency/contracts'), before)
  })

  /** A sync to its end: the entries' ids, the cursors saved, and the asks of each kind. */
  async function caughtUp(
    options: { perPage?: number; store?: MemoryCursorStore; maxBodyBytes?: number } = {},
  ) {
    const saved: string[] = []
    const store = options.store ?? new MemoryCursorStore()
    const set = store.set.bind(store)
    store.set = async (cursor: string) => {
      saved.push(cursor)
      await set(cursor)
    }
    const [linesBefore, pagesBefore] = [count('/v1/transparency/changes.jsonl'), pages.length]
    const api = new Compras({
      baseUrl: base,
      attempts: 2,
      baseDelayMs: 1,
      maxBodyBytes: options.maxBodyBytes,
    })
    const ids: string[] = []
    let resyncs = 0
    for await (const entry of api.changes.sync({
      store,
      signal: AbortSignal.timeout(20_000),
      perPage: options.perPage,
      untilCaughtUp: true,
      onReset: 'resync',
      onResync: () => void resyncs++,
    }))
      ids.push((entry as PublicChange).id)
    return {
      ids,
      saved,
      resyncs,
      lines: count('/v1/transparency/changes.jsonl') - linesBefore,
      pages: pages.slice(pagesBefore),
    }
  }

  it('catches up in one JSON Lines download, saving its cursor every perPage entries and at the end', async () => {
    lines = 'ended'
    assert.deepEqual(await caughtUp({ perPage: 1 }), {
      ids: ['café', 'l2'],
      saved: ['l1', 'l2'],
      resyncs: 0,
      lines: 1,
      pages: [],
    })
    lines = 'unended'
    assert.deepEqual(await caughtUp({ perPage: 5 }), {
      ids: ['café', 'l2'],
      saved: ['l2'],
      resyncs: 0,
      lines: 1,
      pages: [],
    })
  })

  it('goes on by pages where the download is refused or cut, and starts over on a 410 when asked', async () => {
    lines = 'busy'
    const busy = await caughtUp()
    assert.deepEqual(
      [busy.ids, busy.lines, busy.pages],
      [['p1'], 1, [[null, null]]],
      'a 503: asked once, no retry',
    )
    lines = 'too long'
    const cut = await caughtUp({ maxBodyBytes: 150 })
    assert.deepEqual([cut.ids, cut.pages], [['p1'], [[null, null]]], 'a line past the limit is not taken')
    lines = 'gone'
    const gone = await caughtUp({ store: new MemoryCursorStore('old') })
    assert.deepEqual([gone.ids, gone.resyncs], [['p1'], 1], 'the download says 410: start over once')
    assert.deepEqual(gone.pages, [[null, null]])
  })

  it('gives up waiting to retry as soon as the signal aborts', async () => {
    const api = new Compras({ baseUrl: base, attempts: 3, baseDelayMs: 20_000 })
    const started = performance.now()
    const stop = new AbortController()
    setTimeout(() => stop.abort(new Error('parado')), 200)
    await assert.rejects(api.contracts.get('busy', { signal: stop.signal }), /parado/)
    // The wait before the second attempt is at least 10 s: the abort ended it.
    assert.ok(performance.now() - started < 8000, `${performance.now() - started} ms`)
  })

  it('ends a sync quietly when its signal aborts, waiting or between two entries of a page', async () => {
    const api = new Compras({ baseUrl: base, attempts: 1 })
    lines = 'held'
    const held: unknown[] = []
    for await (const entry of api.changes.sync({ signal: AbortSignal.timeout(300) })) held.push(entry)
    assert.deepEqual(held, [], 'a timeout, its reason a TimeoutError, ends it as an abort does')
    lines = 'two'
    const stop = new AbortController()
    const taken: string[] = []
    for await (const entry of api.changes.sync({ signal: stop.signal })) {
      taken.push((entry as PublicChange).id)
      stop.abort()
    }
    assert.deepEqual(taken, ['t1'])
  })

  it("follows an organ's orders with its token, since an instant from the start only, over again on a 410", async () => {
    const api = new Compras({ baseUrl: base, attempts: 1 })
    const ids: string[] = []
    let resyncs = 0
    for await (const entry of api.orders.changes({
      token: 'token-1',
      since: '2030-01-01T00:00:00Z',
      store: new MemoryCursorStore('old'),
      onReset: 'resync',
      onResync: () => void resyncs++,
      untilCaughtUp: true,
    }))
      ids.push(entry.number)
    assert.deepEqual(ids, ['o1'])
    assert.equal(resyncs, 1)
    assert.deepEqual(orderAsks, [
      ['old', null, '0', 'token-1'],
      [null, '2030-01-01T00:00:00Z', '0', 'token-1'],
    ])
  })

  it('keeps a cursor in a file, written whole, read without its newline', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'compras-cursor-'))
    try {
      const file = path.join(dir, 'cursor')
      const store = new FileCursorStore(file)
      await store.set('c1')
      await store.set('c2')
      assert.equal(await store.get(), 'c2')
      assert.deepEqual(readdirSync(dir), ['cursor'], 'no temporary file left')
      writeFileSync(file, '\n')
      assert.equal(await store.get(), undefined, 'an empty file is no cursor')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
