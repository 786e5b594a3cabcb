import http from 'node:http'
import https from 'node:https'
import type { LookupFunction, Socket } from 'node:net'
import { AddressRefused, type Destinations } from './addresses.js'

// One delivery's POST: to the endpoint's address as checked where the connection is made (Destinations), never
// following a redirect, its answer read up to 64 KB, the whole attempt bounded by a timeout. Connections are
// kept alive between deliveries to the same endpoint.

/** What an attempt came to: the endpoint's status, or why there was none. */
export interface Attempt {
  status?: number
  error?: string
  milliseconds: number
}

export interface PostOptions {
  destinations: Destinations
  /** The name resolution (the DNS's by default; a test's). */
  resolve?: LookupFunction
  timeoutMs: number
  /** The most of the endpoint's answer that is read. */
  maxBytes: number
}

/** Sends POSTs to webhook endpoints, over connections it keeps. */
export class Poster {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 4 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 4 }),
  }
  private readonly lookup: LookupFunction

  constructor(private readonly options: PostOptions) {
    this.lookup = options.destinations.lookup(options.resolve)
  }

  post(url: string, headers: Record<string, string>, body: string): Promise<Attempt> {
    const started = performance.now()
    const target = new URL(url)
    const elapsed = () => Math.round(performance.now() - started)
    return new Promise((resolve) => {
      let settled = false
      const done = (attempt: Omit<Attempt, 'milliseconds'>) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve({ ...attempt, milliseconds: elapsed() })
      }
      const transport = target.protocol === 'https:' ? https : http
      const request = transport.request(
        target,
        {
          method: 'POST',
          agent: this.agents[target.protocol as 'http:' | 'https:'],
          lookup: this.lookup,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': 'compras-webhooks',
          },
        },
        (response) => {
          let read = 0
          response.on('data', (chunk: Buffer) => {
            read += chunk.length
            // Enough of an answer: the status is what counts.
            if (read > this.options.maxBytes) {
              response.destroy()
              done({ status: response.statusCode })
            }
          })
          response.on('end', () => done({ status: response.statusCode }))
          response.on('error', () => done({ status: response.statusCode }))
        },
      )
      // The peer connected to is checked too: an address literal never goes through the lookup.
      request.on('socket', (socket: Socket) => {
        const check = () => {
          const refusal = socket.remoteAddress && this.options.destinations.refusal(socket.remoteAddress)
          if (refusal) request.destroy(new AddressRefused(refusal))
        }
        if (socket.remoteAddress !== undefined && !socket.connecting) check()
        else socket.once('connect', check)
      })
      request.on('error', (error: NodeJS.ErrnoException) =>
        done({ error: error instanceof AddressRefused ? error.message : (error.code ?? error.message) }),
      )
      const timer = setTimeout(() => {
        request.destroy(new Error(`no answer within ${this.options.timeoutMs / 1000} s`))
        done({ error: `no answer within ${this.options.timeoutMs / 1000} s` })
      }, this.options.timeoutMs)
      request.end(body)
    })
  }

  close(): void {
    this.agents['http:'].destroy()
    this.agents['https:'].destroy()
  }
}
