import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { addressKey } from '../address.js'
import type { Metrics } from '../metrics.js'
import { errorBody } from './client-errors.js'
import { SECURITY_HEADERS } from './security-headers.js'

export interface RequestsOptions {
  /** LOG_REQUESTS: one line per answered request, at info. */
  logRequests: boolean
  metrics: Metrics | undefined
  /** IPV6_PREFIX: the leading bits of an IPv6 address that name one client. */
  ipv6Prefix: number
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The client as per-address limits count it: its IPv4 address, or its IPv6 address's prefix. */
    readonly client: string
  }
}

/**
 * What every request goes through, whatever its route: its id sent back, a connection that brought a body
 * closed once answered, a log line when asked for, and the metrics. Global (fastify-plugin), registered
 * before every route.
 */
/**
 * A URL as the request log keeps it: any CPF a client wrote into it (11 digits, with or without its dots and
 * dash, alone) masked as the API masks one, so that no log holds a person's whole document.
 */
export const loggedUrl = (url: string) =>
  url.replace(
    /(?<![0-9])[0-9]{3}(\.|%2E)?([0-9]{3})(\.|%2E)?([0-9]{3})(-)?[0-9]{2}(?![0-9])/gi,
    '***.$2.$4-**',
  )

export default fp<RequestsOptions>(
  async function requests(app: FastifyInstance, { logRequests, metrics, ipv6Prefix }) {
    // Worked out when a limit asks, not on every request.
    app.decorateRequest('client', {
      getter(this: { ip: string }) {
        return addressKey(this.ip, ipv6Prefix)
      },
    })
    app.addHook('onRequest', (request, reply, done) => {
      // X-Request-Id: the client's or the proxy's when sane, else a new one (genReqId); logged as reqId.
      reply.header('x-request-id', request.id)
      // A GET-only API reads no request body: a body trickled in a byte at a time cannot hold the connection
      // open, as Node would to drain it for keep-alive.
      const { headers } = request
      // HTTP/1.1 requires Host (RFC 9112, 3.2): a request without one is malformed.
      if (headers.host === undefined && request.raw.httpVersion === '1.1') {
        reply
          .code(400)
          .header('content-type', 'application/json; charset=utf-8')
          .header('connection', 'close')
        for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value)
        reply.send(errorBody(request.url, 400))
        return
      }
      if (
        (headers['content-length'] !== undefined && headers['content-length'] !== '0') ||
        headers['transfer-encoding']
      )
        reply.header('connection', 'close')
      done()
    })
    if (logRequests)
      app.addHook('onResponse', (request, reply, done) => {
        request.log.info(
          {
            method: request.method,
            url: loggedUrl(request.url),
            status: reply.statusCode,
            ms: Math.round(reply.elapsedTime),
          },
          'request',
        )
        done()
      })
    metrics?.instrument(app)
  },
  { name: 'requests' },
)
