import type { ServerResponse } from 'node:http'

/** A response's status line and headers, as one flat list for writeHead (name, value, name, value...). */
export type Head = (string | number)[]

interface Pending {
  response: ServerResponse
  status: number
  head: Head
  /** None for a 304. */
  body: Buffer | undefined
  sent: (() => void) | undefined
}

/**
 * Answers of one turn of the event loop, written together at its end (setImmediate: after every socket the
 * turn found readable has been read and answered, and every lookup it settled). Written one by one as each
 * was ready, every answer to a client that had gone idle waiting for it woke that client's thread, and on a
 * virtual machine a wake-up across cores is a trip through the host: in a CPU profile of one contract asked
 * again and again, the service's writev took 22 µs an answer against the bare server's 10, and a bare
 * node:http server slowed by a 20 µs loop a request spent 46 µs an answer in writev. Written together, the
 * answers of a turn wake the client once. Measured with two builds of the service side by side on the large
 * dataset, driven in turn (5 s after a 3-s warm-up, the benchmark's wrk script, CPU from /proc), one
 * contract asked again and again: 23,944–37,268 req/s at 26–41 µs of the service's CPU a request, against
 * 16,209–27,652 at 36–62 µs written one by one; the skewed order query: 11,890–14,123 against 9,825–12,236.
 * An answer waits for the others of its turn, which are answers kept whole or just looked up: microseconds
 * each. An answer that cannot be written is logged and its connection closed; the others are written.
 */
export class Outbox {
  private pending: Pending[] = []

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Writes status, head and body (none: a 304) at the end of this turn; then calls sent, if given. */
  send(response: ServerResponse, status: number, head: Head, body: Buffer | undefined, sent?: () => void) {
    if (this.pending.push({ response, status, head, body, sent }) === 1) setImmediate(this.flush)
  }

  private readonly flush = () => {
    const pending = this.pending
    this.pending = []
    for (const answer of pending) this.write(answer)
  }

  private write({ response, status, head, body, sent }: Pending) {
    try {
      response.writeHead(status, head)
      // No body (a 304): end(undefined) ends the response as end() does.
      response.end(body)
    } catch (error) {
      this.onError(error)
      response.destroy()
      return
    }
    // What follows a written answer (its metrics) never takes it back, nor stops the others.
    try {
      sent?.()
    } catch (error) {
      this.onError(error)
    }
  }
}
