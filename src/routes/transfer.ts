import type { ServerResponse } from 'node:http'
import type { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'

// How a streamed file (an export, the OCDS bulk download) goes out: a watchdog for a reader that stops
// reading, and a failure in the middle that cuts the transfer so a truncated file never looks complete.

/**
 * Drops a reader that has taken nothing for idleMs while the answer waits for it to drain (the socket's
 * buffers full): the connection is closed, which closes the file's stream and releases its database cursor
 * and its export place. Node's own socket timeout does not do it on time: it is put off by every write to the
 * socket's queue, which the file keeps making. A file that is slow to come (a slow query) is not the reader's
 * fault, and is left to EXPORT_TIMEOUT.
 */
export function watchReader(response: ServerResponse, idleMs: number): void {
  let drained = Date.now()
  const onDrain = () => {
    drained = Date.now()
  }
  response.on('drain', onDrain)
  const timer = setInterval(
    () => {
      if (!response.writableNeedDrain) drained = Date.now()
      else if (Date.now() - drained >= idleMs) response.destroy()
    },
    Math.max(50, Math.min(1000, idleMs / 4)),
  )
  timer.unref()
  response.once('close', () => {
    clearInterval(timer)
    response.off('drain', onDrain)
  })
}

/** Error codes of a transfer that ended because the client went away, not because the file failed. */
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
  file.once('error', (error: Error & { code?: string }) => {
    const gone = reply.raw.destroyed || (error.code !== undefined && CLIENT_GONE.has(error.code))
    if (gone) request.log.info({ code: error.code }, `${what} cut: the client went away`)
    else request.log.error({ err: error }, `${what} failed in the middle: transfer aborted`)
    reply.raw.destroy()
  })
}
