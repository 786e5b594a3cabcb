import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import {
  Compras,
  ComprasError,
  CursorResetError,
  FileCursorStore,
  MemoryCursorStore,
  ProtocolError,
} from '../../client/src/index.js'

import { type Route, type RouteServer, routeServer } from '../helpers/route-server.js'

// compras-client against a server that misbehaves (issue 66, F9): a Retry-After too long for a timer or of 0, a
// redirect that never ends or leaves the service's origin, a body larger than any answer should be, a feed page
// that says more follows but does not move. The client stays within its bounds and says what went wrong.

describe('compras-client against a server that misbehaves', () => {
  let server: RouteServer
  let base = ''
  /** Requests the server got, by path. */
  const asked = new Map<string, number>()
  let sentBytes = 0
  /** The after and wait of each page of the feed asked, and the feed it was asked of. */
  const waits: [string | null, string | null, string][] = []
  let feed: 'two pages' | 'reloaded' = 'two pages'

  const routes: Record<string, Route> = {
    '/v1/transparency/contracts/huge-retry-after': (_request, response) => {
      response.writeHead(429, { 'retry-after': '3000000', 'content-type': 'application/json' })
      response.end('{"success":false,"message":"Muitas requisições."}')
    },
    '/v1/transparency/contracts/no-retry-after': (_request, response) => {
      response.writeHead(503, { 'retry-after': '0', 'content-type': 'application/json' })
      response.end('{"success":false,"message":"Indisponível."}')
    },
    '/v1/transparency/contracts/loop': (_request, response) => {
      response.writeHead(302, { location: '/v1/transparency/contracts/loop' })
      response.end()
    },
    '/v1/transparency/contracts/elsewhere': (_request, response) => {
      response.writeHead(307, { location: 'http://example.org/steal' })
      response.end()
    },
    '/v1/transparency/contracts/declared-huge': (_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(400 * 1024 * 1024),
      })
      response.write('{"data":')
      // The rest never comes: the client must not wait for it.
      setTimeout(() => response.destroy(), 5000).unref()
    },
    '/v1/transparency/contracts/endless': (_request, response) => {
      // A body without an end: written as long as the client takes it.
      response.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(64 * 1024, 'x')
      const more = () => {
        while (!response.destroyed && sentBytes < 1024 * 1024 * 1024) {
          sentBytes += chunk.length
          if (!response.write(chunk)) return void response.once('drain', more)
        }
      }
      response.write('{"data":"')
      more()
    },
    '/v1/transparency/changes': (request, response) => {
      const query = new URL(request.url ?? '', 'http://x').searchParams
      const after = query.get('after')
      waits.push([after, query.get('wait'), feed])
      const page = (data: unknown[], next: string, more: boolean) => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ success: true, data: { data, next_cursor: next, has_more: more } }))
      }
      // A feed that never moves; one whose database was loaded again (410 even from the start); and one of two
      // pages, then caught up.
      if (after === 'same') return page([], 'same', true)
      if (feed === 'reloaded') {
        response.writeHead(410, { 'content-type': 'application/json' })
        return response.end('{"success":false,"message":"Cursor desconhecido: after."}')
      }
      const entry = (cursor: string) => ({ cursor, kind: 'contracts', id: cursor, change: 'created' })
      if (after === null) return page([entry('c1')], 'c1', true)
      if (after === 'c1') return page([entry('c2')], 'c2', false)
      return page([], 'c2', false)
    },
  }

  before(async () => {
    server = await routeServer(routes, asked)
    base = server.base
  })
  after(() => server.close())

  it('waits at most its longest wait for a Retry-After too long for a timer, then says 429', async () => {
    const api = new Compras({ baseUrl: base, attempts: 3, baseDelayMs: 50, maxDelayMs: 300 })
    const started = performance.now()
    const failed = await api.contracts.get('huge-retry-after').catch((error: unknown) => error)
    const elapsed = performance.now() - started
    assert.ok(failed instanceof ComprasError && failed.status === 429, String(failed))
    assert.equal(failed.name, 'ComprasError')
    assert.equal(asked.get('/v1/transparency/contracts/huge-retry-after'), 3)
    // Two waits of the longest (300 ms), not a timer that overflows and fires at once, nor 3,000,000 s.
    assert.ok(elapsed >= 550 && elapsed < 10_000, `${elapsed} ms`)
  })

  it('backs off exponentially when Retry-After says 0', async () => {
    const api = new Compras({ baseUrl: base, attempts: 4, baseDelayMs: 100 })
    const started = performance.now()
    const failed = await api.contracts.get('no-retry-after').catch((error: unknown) => error)
    const elapsed = performance.now() - started
    assert.ok(failed instanceof ComprasError && failed.status === 503, String(failed))
    assert.equal(asked.get('/v1/transparency/contracts/no-retry-after'), 4)
    // At least half of each step: 50 + 100 + 200 ms.
    assert.ok(elapsed >= 340, `${elapsed} ms`)
  })

  it('follows a few redirects within the origin, never one elsewhere, and retries neither', async () => {
    const api = new Compras({ baseUrl: base, attempts: 5, baseDelayMs: 10 })
    const looped = await api.contracts.get('loop').catch((error: unknown) => error)
    assert.ok(looped instanceof ProtocolError, String(looped))
    assert.equal(looped.name, 'ProtocolError')
    assert.match(looped.message, /Redirecionamentos demais/)
    assert.equal(asked.get('/v1/transparency/contracts/loop'), 6, 'the request and 5 redirects, once')
    const away = await api.contracts.get('elsewhere').catch((error: unknown) => error)
    assert.ok(away instanceof ProtocolError, String(away))
    assert.match(away.message, /outra origem/)
    assert.equal(asked.get('/v1/transparency/contracts/elsewhere'), 1)
  })

  it('refuses a body larger than maxBodyBytes, declared or not, without reading it all', async () => {
    const api = new Compras({ baseUrl: base, maxBodyBytes: 1024 * 1024, attempts: 1 })
    const declared = await api.contracts.get('declared-huge').catch((error: unknown) => error)
    assert.ok(declared instanceof ProtocolError, String(declared))
    assert.match(declared.message, /grande demais/)
    const endless = await api.contracts.get('endless').catch((error: unknown) => error)
    assert.ok(endless instanceof ProtocolError, String(endless))
    // It stopped reading past its limit: the server could write little more than what the buffers on the way hold.
    assert.ok(sentBytes < 64 * 1024 * 1024, `${sentBytes} bytes sent`)
  })

  it('ends a sync whose feed says more follows but gives the same cursor back', async () => {
    const api = new Compras({ baseUrl: base, attempts: 1 })
    const store = new MemoryCursorStore('same')
    const seen: unknown[] = []
    const failed = await (async () => {
      for await (const entry of api.changes.sync({ store })) seen.push(entry)
    })().catch((error: unknown) => error)
    assert.ok(failed instanceof ProtocolError, String(failed))
    assert.match(failed.message, /não avançou o cursor/)
    assert.equal(asked.get('/v1/transparency/changes'), 1)
    assert.deepEqual(seen, [])
  })

  it('asks without waiting while more follows, then waits for the next import once caught up', async () => {
    waits.length = 0
    feed = 'two pages'
    const api = new Compras({ baseUrl: base, attempts: 1 })
    const stop = new AbortController()
    const seen: string[] = []
    for await (const entry of api.changes.sync({ wait: 7, signal: stop.signal })) {
      seen.push(entry.id)
      if (seen.length === 2) setTimeout(() => stop.abort(), 300)
    }
    assert.deepEqual(seen, ['c1', 'c2'])
    // From the start, after c1 (more followed): no wait. After c2 (caught up): the wait asked.
    assert.deepEqual(waits.slice(0, 3), [
      [null, '0', 'two pages'],
      ['c1', '0', 'two pages'],
      ['c2', '7', 'two pages'],
    ])
    // This server answers a wait at once: the client does not ask it again in a tight loop.
    assert.ok(waits.length <= 4, `${waits.length} asks in 300 ms`)
  })

  it('throws a 410 on a feed read from its start, rather than starting over for ever', async () => {
    feed = 'reloaded'
    waits.length = 0
    const api = new Compras({ baseUrl: base, attempts: 1 })
    let resyncs = 0
    const failed = await (async () => {
      for await (const _entry of api.changes.sync({ onReset: 'resync', onResync: () => void resyncs++ })) {
        // No entry comes.
      }
    })().catch((error: unknown) => error)
    assert.ok(failed instanceof CursorResetError, String(failed))
    assert.equal(failed.name, 'CursorResetError')
    assert.equal(resyncs, 0)
    assert.equal(waits.filter(([, , asked]) => asked === 'reloaded').length, 1)
  })

  it('throws a cursor file that cannot be read, other than one that is not there', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'compras-cursor-'))
    try {
      assert.equal(await new FileCursorStore(path.join(dir, 'none')).get(), undefined)
      // A folder where the file should be: EISDIR, which a sync must not take for "no cursor yet".
      await assert.rejects(new FileCursorStore(dir).get(), /EISDIR/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
