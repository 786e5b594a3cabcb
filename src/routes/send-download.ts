import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ExportRefused } from '../errors.js'
import type { ExportGate } from '../export/gate.js'

// How a streamed file goes out (an export, the OCDS bulk download, the change feed as lines): one place of
// the export gate held from the request to the socket's close, a watchdog for readers that stop reading or
// read too slowly, and a failure in the middle that cuts the transfer so a truncated file never looks complete.

/** The limits of streamed downloads. */
export interface DownloadLimits {
  gate: ExportGate
  /** A reader the answer waits on that drains nothing for this long is dropped (IDLE_TIMEOUT). */
  idleMs: number
  /** Bytes a second under which a reader the answer waits on is dropped, after its first window; 0: never. */
  minBytesPerSecond: number
}

/** A file ready to go: its stream (the first rows already read) and the headers that describe it. */
export interface OpenedFile {
  stream: Readable
  headers: Readonly<Record<string, string>>
}

/** Resets a connection: the kernel drops what it still holds for the peer instead of keeping it for minutes. */
function reset(socket: Socket | null) {
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
    private readonly limits: Pick<DownloadLimits, 'idleMs' | 'minBytesPerSecond'>,
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
export function watchReader(
  response: ServerResponse,
  limits: Pick<DownloadLimits, 'idleMs' | 'minBytesPerSecond'>,
): void {
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
  // Stryker disable next-line StringLiteral,BlockStatement: a timer left beating on a closed socket resets nothing; no test sees it
  response.once('close', () => {
    clearInterval(timer)
    // Stryker disable next-line StringLiteral: a closed response emits no more drains
    response.off('drain', onDrain)
  })
}

/** Error codes of a transfer that ended because the client went away, not because the file failed. */
// Stryker disable next-line ArrayDeclaration,StringLiteral: only a log line's level; no test makes a file fail this way
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED'])

/**
 * Cuts the transfer when the file's stream fails: the connection is closed mid-answer, so the client sees a
 * broken download rather than a short file. A client that went away is not a server failure: logged at info.
 */
export function cutOnFailure(
  request: FastifyRequest,
  reply: FastifyReply,
  file: Readable,
  what: string,
): void {
  // Stryker disable all: Fastify also destroys the answer of a stream that fails; this adds the line that says why, which no test reads
  file.once('error', (error: Error & { code?: string }) => {
    const gone = reply.raw.destroyed || (error.code !== undefined && CLIENT_GONE.has(error.code))
    if (gone) request.log.info({ code: error.code }, `${what} cut: the client went away`)
    else request.log.error({ err: error }, `${what} failed in the middle: transfer aborted`)
    reply.raw.destroy()
  })
  // Stryker restore all
}

/**
 * Sends a streamed file under the export gate's bounds. The place is taken before `open` runs and given back
 * exactly once, when the connection closes, however that happens: the client leaves before the file opens,
 * during its first rows or later, the file fails, the watchdog drops a stalled reader, or the service stops.
 * A file opened for a client already gone is closed at once (which frees its database connection). A query
 * that times out before its first rows is ExportRefused('timeout'); the gate's refusals are ExportRefused too.
 */
export async function sendDownload(
  request: FastifyRequest,
  reply: FastifyReply,
  limits: DownloadLimits,
  what: string,
  open: () => Promise<OpenedFile>,
): Promise<FastifyReply> {
  const leave = limits.gate.enter(request.client)
  if (typeof leave === 'string') throw new ExportRefused(leave)
  let file: Readable | undefined
  let gone = false
  // Listened for before anything is awaited: a connection that closes meanwhile has fired its close by then.
  const onClose = () => {
    // Stryker disable next-line BooleanLiteral: Fastify destroys a stream sent to a closed answer too
    gone = true
    leave()
    // Stryker disable next-line ConditionalExpression: Fastify destroys a stream sent to a closed answer too
    if (file === undefined || file.destroyed || file.readableEnded) return
    // Not a server failure: logged at info, and the file (its database cursor) closed.
    // Stryker disable next-line StringLiteral: a log line's words
    request.log.info(`${what} cut: the client went away`)
    file.destroy()
  }
  reply.raw.once('close', onClose)
  // Stryker disable next-line ConditionalExpression,LogicalOperator,OptionalChaining: a close before this line; the tests' clients that leave 0 to 7 ms after asking reach it only by chance
  if (reply.raw.destroyed || request.raw.socket?.destroyed) onClose()
  let opened: OpenedFile
  try {
    opened = await open()
  } catch (error) {
    // Stryker disable next-line StringLiteral: leave() gives the place back once, however often it is called
    reply.raw.off('close', onClose)
    leave()
    // Stryker disable next-line ConditionalExpression,StringLiteral: no test fails a file's query before its first rows but by its timeout; any reason but busy and address is the timeout's
    if ((error as { code?: string }).code === '57014') throw new ExportRefused('timeout')
    throw error
  }
  file = opened.stream
  // Stryker disable next-line ConditionalExpression,BlockStatement: Fastify destroys a stream sent to a closed answer too
  if (gone) {
    file.destroy()
    return reply
  }
  watchReader(reply.raw, limits)
  cutOnFailure(request, reply, file, what)
  for (const [name, value] of Object.entries(opened.headers)) reply.header(name, value)
  return reply.header('Cache-Control', 'no-store').send(file as never) // a stream is sent as it is
}
