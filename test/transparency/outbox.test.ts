import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { type Head, Outbox } from '../../src/routes/outbox.js'

// Issue 12: the answers served before Fastify are written together at the end of the event loop's turn
// (src/routes/outbox.ts). Over a real node:http server and real connections: nothing is written before the
// turn ends, each answer reaches its own client whole, and one that cannot be written closes its own
// connection only.

/**
 * A GET on a connection of its own: the status and body, or the error that cut it short (a timeout among
 * them: an answer never written fails the test instead of holding it).
 */
function get(
  url: string,
  agent: http.Agent | false = false,
): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    http
      .get(url, { agent, timeout: 5000 }, (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          body += chunk
        })
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
      })
      .on('timeout', function (this: http.ClientRequest) {
        this.destroy(new Error('no answer within 5 s'))
      })
      .on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }))
  })
}

describe('the outbox of answers served before Fastify', () => {
  const errors: unknown[] = []
  const outbox = new Outbox((error) => errors.push(error))
  /** What the server does with the requests it holds, once it holds three (in one turn). */
  let answer: (responses: http.ServerResponse[], urls: string[]) => void = () => {}
  let held: { response: http.ServerResponse; url: string }[] = []
  const server = http.createServer((request, response) => {
    held.push({ response, url: request.url ?? '' })
    if (held.length < 3) return
    const all = held.sort((a, b) => a.url.localeCompare(b.url))
    held = []
    answer(
      all.map((h) => h.response),
      all.map((h) => h.url),
    )
  })
  let base = ''

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const head = (body: Buffer): Head => ['content-type', 'text/plain', 'content-length', body.length]

  /**
   * Queues `answer <url>` for each request held, with what follows each written answer (sent) and, if given,
   * the head it goes with.
   */
  function sendEach(
    responses: http.ServerResponse[],
    urls: string[],
    sent: (url: string, response: http.ServerResponse) => void,
    headFor: (url: string, body: Buffer) => Head = (_url, body) => head(body),
  ) {
    responses.forEach((response, i) => {
      const url = urls[i] as string
      const body = Buffer.from(`answer ${url}`)
      outbox.send(response, 200, headFor(url, body), body, () => sent(url, response))
    })
  }

  it('writes the answers of a turn once the turn ends, each whole to its client, and then says so', async () => {
    const seen: string[] = []
    answer = (responses, urls) => {
      sendEach(responses, urls, (url, response) => seen.push(`sent ${url} ended=${response.writableEnded}`))
      // Nothing written while the turn goes on: the answers wait in the outbox.
      seen.push(`during the turn: ${responses.map((r) => r.headersSent).join(',')}`)
      setImmediate(() => seen.push(`after the turn: ${responses.map((r) => r.headersSent).join(',')}`))
    }
    const results = await Promise.all(['/a', '/b', '/c'].map((path) => get(`${base}${path}`)))
    assert.deepEqual(results, [
      { status: 200, body: 'answer /a' },
      { status: 200, body: 'answer /b' },
      { status: 200, body: 'answer /c' },
    ])
    assert.deepEqual(seen, [
      'during the turn: false,false,false',
      'sent /a ended=true',
      'sent /b ended=true',
      'sent /c ended=true',
      'after the turn: true,true,true',
    ])
    assert.deepEqual(errors, [])
  })

  it('writes a 304 without a body', async () => {
    answer = (responses) => {
      for (const response of responses) outbox.send(response, 304, ['etag', '"x"'], undefined)
    }
    const results = await Promise.all(['/a', '/b', '/c'].map((path) => get(`${base}${path}`)))
    assert.deepEqual(
      results,
      ['/a', '/b', '/c'].map(() => ({ status: 304, body: '' })),
    )
  })

  it('keeps an answer written, and its connection open, when what follows it fails', async () => {
    errors.length = 0
    let open: boolean[] = []
    answer = (responses, urls) => {
      sendEach(responses, urls, (url) => {
        if (url === '/a') throw new Error('counting failed')
      })
      // Node lets go of a response's socket once it is written: taken now.
      const sockets = responses.map((response) => response.socket)
      setImmediate(() => {
        open = sockets.map((socket) => socket?.destroyed === false)
      })
    }
    // Connections kept alive, so that one closed by the server shows.
    const agent = new http.Agent({ keepAlive: true })
    const results = await Promise.all(['/a', '/b', '/c'].map((path) => get(`${base}${path}`, agent)))
    agent.destroy()
    assert.deepEqual(results, [
      { status: 200, body: 'answer /a' },
      { status: 200, body: 'answer /b' },
      { status: 200, body: 'answer /c' },
    ])
    assert.deepEqual(open, [true, true, true])
    assert.deepEqual(
      errors.map((error) => (error as Error).message),
      ['counting failed'],
    )
  })

  it('closes the connection of an answer it cannot write, and writes the others of its turn', async () => {
    errors.length = 0
    const sent: string[] = []
    answer = (responses, urls) => {
      // A header name Node refuses for /b: writeHead throws, as it would for any answer it cannot write.
      sendEach(
        responses,
        urls,
        (url) => sent.push(url),
        (url, body) => (url === '/b' ? ['not a name', 'x'] : head(body)),
      )
    }
    const results = await Promise.all(['/a', '/b', '/c'].map((path) => get(`${base}${path}`)))
    assert.deepEqual(results[0], { status: 200, body: 'answer /a' })
    assert.ok(
      'error' in (results[1] as object),
      `the refused answer reached its client: ${JSON.stringify(results[1])}`,
    )
    assert.deepEqual(results[2], { status: 200, body: 'answer /c' })
    assert.deepEqual(sent, ['/a', '/c'])
    assert.equal(errors.length, 1)
    assert.equal((errors[0] as NodeJS.ErrnoException).code, 'ERR_INVALID_HTTP_TOKEN')
  })
})
