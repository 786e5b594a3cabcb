import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { orderFailure, publicFailure } from '../readmodel/envelopes.js'

// Errors raised before any route runs (a malformed request line or header, headers too large, a request
// that does not arrive in time, a URL that does not decode) are answered in the envelope of the interface
// the path belongs to: the order envelope under /external, the transparency envelope everywhere else.

const PUBLIC_MESSAGES: Readonly<Record<number, string>> = {
  400: 'Requisição malformada.',
  408: 'A requisição não chegou a tempo.',
  414: 'Endereço longo demais.',
  431: 'Cabeçalhos grandes demais.',
}

/** The error body for status on path, as JSON text. */
export function errorBody(path: string | undefined, status: number): string {
  if (path?.startsWith('/external/') || path === '/external')
    return JSON.stringify(orderFailure(STATUS_CODES[status] ?? 'Error'))
  return JSON.stringify(publicFailure(PUBLIC_MESSAGES[status] ?? 'Requisição inválida.'))
}

/** The path of the request line in what the parser saw (`GET /external/orders?... HTTP/1.1`). */
function pathOf(packet: unknown): string | undefined {
  if (!Buffer.isBuffer(packet)) return undefined
  const line = packet.subarray(0, 2048).toString('latin1')
  return /^[A-Z]+ (\/\S*)/.exec(line)?.[1]
}

type ClientError = Error & { code?: string; rawPacket?: unknown }
type ParsedSocket = Socket & {
  parser?: { incoming?: { url?: string } } | null
  _httpMessage?: { headersSent?: boolean } | null
}

/** Node's clientError event: answer in the path's envelope and close, as Node's own handler does. */
export function clientErrorHandler(this: FastifyInstance, error: ClientError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const status =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
  const parsed = socket as ParsedSocket
  const path = pathOf(error.rawPacket) ?? parsed.parser?.incoming?.url
  this.log.debug({ err: error, status }, 'client error before routing')
  if (socket.writable && !parsed._httpMessage?.headersSent) {
    const body = errorBody(path, status)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy()
}

/** Fastify's own errors before routing (a URL that does not decode, a path parameter too long). */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400
  reply.code(status).type('application/json; charset=utf-8').send(errorBody(request.raw.url, status))
}
