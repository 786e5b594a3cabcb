import http from 'node:http'
import net from 'node:net'

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/** Sends bytes as they are on a new connection and reads until the server closes it (or timeoutMs). */
export function rawRequest(base: string, bytes: string | Buffer, timeoutMs = 10_000): Promise<string> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname)
    let received = ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no close within ${timeoutMs} ms; received ${JSON.stringify(received.slice(0, 200))}`))
    }, timeoutMs)
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8')
    })
    socket.on('error', () => {}) // a reset after the answer is the server closing; 'close' follows
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(received)
    })
    socket.write(bytes)
  })
}

/** Parses the first HTTP/1.1 response of raw bytes (no chunked bodies: error answers have a length). */
export function parseResponse(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n')
  const head = raw.slice(0, end).split('\r\n')
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head[0] ?? '')?.[1])
  const headers: Record<string, string> = {}
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  const length = Number(headers['content-length'] ?? raw.length)
  return { status, headers, body: raw.slice(end + 4, end + 4 + length) }
}

export interface Paused {
  response: http.IncomingMessage
  first: Buffer
  /** Resolves with how the response ended: end (complete), aborted or error (cut short). */
  outcome: Promise<'end' | 'aborted' | 'error' | 'close'>
}

/** Starts a GET and pauses after its first bytes, as a reader that stops reading would. */
export function startPaused(url: string, headers: Record<string, string> = {}): Promise<Paused> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const outcome = new Promise<'end' | 'aborted' | 'error' | 'close'>((settle) => {
          response.on('end', () => settle('end'))
          response.on('aborted', () => settle('aborted'))
          response.on('error', () => settle('error'))
          response.on('close', () => settle(response.complete ? 'end' : 'close'))
        })
        response.once('data', (chunk: Buffer) => {
          response.pause()
          resolve({ response, first: chunk, outcome })
        })
      })
      .on('error', reject)
  })
}

/** Polls condition until it holds or timeoutMs passes. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'condition',
) {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * The turns of a loop that must end (pages of a feed read to its end, say): a code that never ends it fails the
 * test after `max` turns, naming what did not end, instead of hanging the suite.
 */
export function* turns(max: number, what: string): Generator<number> {
  for (let turn = 0; turn < max; turn++) yield turn
  throw new Error(`${what} did not end in ${max} turns`)
}

/** Runs check (assertions) until it passes or 5 s pass; then its last failure is the test's. */
export async function eventually(check: () => Promise<void>) {
  const deadline = Date.now() + 5000
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
}

/** A request over a real socket: the headers as sent, and the body as bytes in latin1 (compressed or not). */
export function request(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode as number,
            headers: response.headers as Record<string, string>,
            body: Buffer.concat(chunks).toString('latin1'),
          }),
        )
        response.on('error', reject)
      })
      .on('error', reject)
      .end()
  })
}

/** What two answers to the same request must share: all but the per-request and per-connection headers. */
export function comparable(headers: Record<string, string | string[] | number | undefined>) {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (['date', 'x-request-id', 'connection', 'keep-alive', 'x-ratelimit-remaining'].includes(name)) continue
    kept[name] = String(value)
  }
  return kept
}
