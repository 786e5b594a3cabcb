import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

// The watchdog of a streamed file's reader (src/routes/http/send-download.ts): it drops a reader that stops
// reading or reads too slowly, by resetting its connection.

/** What the watchdog holds a reader to. */
export interface ReaderLimits {
  /** A reader the answer waits on that drains nothing for this long is dropped (IDLE_TIMEOUT). */
  idleMs: number
  /** Bytes a second under which a reader the answer waits on is dropped, after its first window; 0: never. */
  minBytesPerSecond: number
  /** The longest a transfer may last, however fast its reader (EXPORT_TIMEOUT): then its connection is reset. */
  timeoutMs: number
}

/** Resets a connection: the kernel drops what it still holds for the peer instead of keeping it for minutes. */
export function reset(socket: Socket | null) {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: resetting a closed socket only closes it again
  if (socket === null || socket.destroyed) return
  try {
    socket.resetAndDestroy()
    // Stryker disable next-line BlockStatement: a TLS socket (TLS_CERT_FILE), which no test serves
  } catch {
    socket.destroy() // a socket without a TCP handle of its own (TLS over a wrapped one)
  }
}

/** Bytes the socket has handed to the kernel (what it still buffers itself aside). */
// Stryker disable next-line ArithmeticOperator: counting Node's own buffer too moves a window's bytes by at most its size
const sentBytes = (socket: Socket) => socket.bytesWritten - socket.writableLength

/**
 * What the watchdog makes of a reader, from what it sees at each beat: whether the answer waits on the
 * reader (the socket's buffers full) and how many bytes have gone to the kernel. A reader the answer waits on
 * that drains nothing for idleMs is `idle`. Past its first window (grace for a connection's slow start), a
 * reader is `slow` when, over a window in which the answer waited on it at least half the time, it took less
 * than minBytesPerSecond. A window is twice idleMs, at most a minute: the kernel hands a slow reader's bytes on
 * in bursts as large as half its send buffer, so a shorter window would take a reader between bursts for a
 * slow one. A file slow to come (a slow query) is not the reader's fault: only waiting on it counts.
 */
export class ReaderWatch {
  private readonly windowMs: number
  private drained: number
  private windowStart: number
  private windowSent: number
  private beats = 0
  private waited = 0
  private firstWindow = true

  constructor(
    private readonly limits: Pick<ReaderLimits, 'idleMs' | 'minBytesPerSecond'>,
    start: number,
    sent: number,
  ) {
    this.windowMs = Math.min(60_000, 2 * limits.idleMs)
    this.drained = start
    this.windowStart = start
    this.windowSent = sent
  }

  /** The socket drained its buffers. */
  drain(at: number) {
    this.drained = at
  }

  /** One beat: `waiting` when the answer waits on the reader, `sent` the bytes gone so far. */
  beat(at: number, waiting: boolean, sent: number): 'ok' | 'idle' | 'slow' {
    this.beats++
    if (!waiting) this.drained = at
    else {
      this.waited++
      if (at - this.drained >= this.limits.idleMs) return 'idle'
    }
    if (at - this.windowStart < this.windowMs) return 'ok'
    const rate = ((sent - this.windowSent) * 1000) / (at - this.windowStart)
    // A floor of 0 finds no reader slow: no rate is under it.
    const slow = !this.firstWindow && this.waited * 2 >= this.beats && rate < this.limits.minBytesPerSecond
    this.firstWindow = false
    this.windowStart = at
    this.windowSent = sent
    this.beats = 0
    this.waited = 0
    return slow ? 'slow' : 'ok'
  }
}

/**
 * Watches a file's reader (ReaderWatch) on a beat of a quarter of idleMs, at most a second, and resets the
 * connection of one that is idle or slow: its file, database cursor and export place go with it, and the
 * kernel frees what it still held for it.
 */
export function watchReader(response: ServerResponse, limits: ReaderLimits): void {
  const socket = response.socket
  // This watch replaces the server's idle timeout for the transfer: that one would end the connection with
  // a FIN, leaving the kernel to hold the unsent bytes for the reader for minutes.
  // (An injected request's socket has no timeout, nor byte counts.)
  // Stryker disable next-line OptionalChaining: an answer always has a socket while it is being sent
  if (typeof socket?.setTimeout === 'function') socket.setTimeout(0)
  // Stryker disable next-line ConditionalExpression,LogicalOperator: an injected socket's count is NaN either way, which finds no reader slow
  const sent = () => (socket && typeof socket.bytesWritten === 'number' ? sentBytes(socket) : 0)
  const watch = new ReaderWatch(limits, Date.now(), sent())
  const onDrain = () => watch.drain(Date.now())
  response.on('drain', onDrain)
  const timer = setInterval(
    () => {
      if (watch.beat(Date.now(), response.writableNeedDrain, sent()) !== 'ok') reset(response.socket)
    },
    // Stryker disable next-line MethodExpression,ArithmeticOperator: the beat's period only delays a verdict, by a second at most
    Math.max(50, Math.min(1000, limits.idleMs / 4)),
  )
  timer.unref()
  // However fast it reads, a transfer holds an export place and a connection for EXPORT_TIMEOUT at most.
  const deadline = setTimeout(() => reset(response.socket), limits.timeoutMs)
  deadline.unref()
  // Stryker disable next-line StringLiteral,BlockStatement: a timer left beating on a closed socket resets nothing; no test sees it
  response.once('close', () => {
    clearInterval(timer)
    clearTimeout(deadline)
    // Stryker disable next-line StringLiteral: a closed response emits no more drains
    response.off('drain', onDrain)
  })
}
