import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AccessLog } from '../auth/access-log.js'
import type { MemoryLimiter } from '../auth/rate-limit.js'
import type { TokenCache } from '../auth/tokens.js'
import type { Metrics } from '../metrics.js'
import { Answer } from '../readmodel/answer.js'
import { type DocumentStore, detailKey, helperKey, listingKey, orderKey } from '../readmodel/store.js'
import { requestId } from '../request-id.js'
import { JSON_TYPE, outgoing, rateHeaders } from './answer.js'
import { ORDER_RATE_LIMIT, singleAuthorization } from './orders.js'

/** Where the transparency routes live (the /v1 prefix, and the plugin's /transparency paths). */
const PREFIX = '/v1/transparency/'

export interface HitOptions {
  store: DocumentStore
  /** The listing and detail routes' resources (their paths), and the helpers' paths. */
  resources: readonly string[]
  helpers: readonly string[]
  /** The public routes' per-address limit, when on. */
  limit?: { limiter: MemoryLimiter; perMinute: number }
  metrics?: Metrics
}

/**
 * A transparency answer already in the cache, served straight from Node's request event: no routing,
 * request and reply objects, hooks, schema checks or promises. It answers as the Fastify route would: the
 * headers and body come from the same function (`outgoing`), the CORS header is the one @fastify/cors sets
 * for `origin: '*'`, and a test compares the two answers header by header. Only a GET whose answer is in the
 * cache is answered here; anything else (a miss, HEAD, OPTIONS, a refused request, an unusual URL) returns
 * false and goes to Fastify, which is where every error is answered.
 */
export function answerHits(options: HitOptions) {
  const { store, limit, metrics } = options
  // The routes' templates as Fastify names them (the metrics' label), by the path segment that selects them.
  const listings = new Map(options.resources.map((path) => [path, `${PREFIX}${path}`]))
  const details = new Map(options.resources.map((path) => [path, `${PREFIX}${path}/:id`]))
  const helpers = new Map(options.helpers.map((path) => [path, `${PREFIX}helpers/${path}`]))

  /** The cache key and route template a URL asks for, when it is one of the routes kept whole. */
  function asked(url: string): { key: string; route: string } | undefined {
    if (!url.startsWith(PREFIX)) return undefined
    const query = url.indexOf('?', PREFIX.length)
    const path = url.slice(PREFIX.length, query < 0 ? undefined : query)
    const slash = path.indexOf('/')
    if (slash < 0) {
      // A listing page: kept under the URL as sent (the route validated it before it was kept).
      const route = listings.get(path)
      return route === undefined ? undefined : { key: listingKey(url), route }
    }
    if (query >= 0) return undefined
    const first = path.slice(0, slash)
    const rest = path.slice(slash + 1)
    if (first === 'helpers') {
      const route = helpers.get(rest)
      return route === undefined ? undefined : { key: helperKey(rest), route }
    }
    // A detail: only a plain UUID (the route decodes and checks what is not, then misses or answers 400).
    const route = details.get(first)
    if (route === undefined || !/^[0-9A-Fa-f-]{36}$/.test(rest)) return undefined
    return { key: detailKey(first, rest.toLowerCase()), route }
  }

  /** Answers request from the cache and returns true, or returns false having written nothing. */
  return function serve(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || request.url === undefined) return false
    const started = metrics ? process.hrtime.bigint() : 0n
    const found = asked(request.url)
    if (found === undefined) return false
    const answer = store.cached(found.key)
    if (!(answer instanceof Answer)) return false
    const { headers } = request
    // The limit counts only what it admits: a refused request is refused again, and answered, by Fastify.
    const hit = limit?.limiter.takeNow(request.socket.remoteAddress ?? '', limit.perMinute, 60_000)
    if (hit && !hit.allowed) return false
    store.hits++
    response.setHeader('x-request-id', requestId(headers['x-request-id']))
    if (hit) for (const [name, value] of rateHeaders(hit)) response.setHeader(name, value)
    response.setHeader('access-control-allow-origin', '*')
    const out = outgoing(answer, headers, JSON_TYPE)
    for (const [name, value] of out.headers) response.setHeader(name, value)
    if (out.body === undefined) {
      response.statusCode = 304
      response.end()
    } else {
      response.setHeader('content-length', out.body.length)
      response.end(out.body)
    }
    if (metrics) {
      const status = String(response.statusCode)
      metrics.requests.inc({ route: found.route, method: 'GET', status })
      metrics.duration.observe(
        { route: found.route, status },
        Number(process.hrtime.bigint() - started) / 1e9,
      )
    }
    return true
  }
}

/** The order query's path and the one parameter a hit may have. */
const ORDER_QUERY = '/external/orders?order_number='
/** An order number that reads the same raw and decoded, and needs no trimming: nothing to parse. */
const PLAIN_NUMBER = /^[0-9A-Za-z._/-]{1,100}$/
const ORDER_ROUTE = '/external/orders'

export interface OrderHitOptions {
  store: DocumentStore
  tokens: TokenCache
  /** The per-token limit: only one kept in this process can be counted here. */
  limiter: MemoryLimiter
  accessLog: AccessLog
  metrics?: Metrics
}

/**
 * An order query whose token and answer are both in memory, served straight from Node's request event, as
 * `answerHits` serves transparency answers: the token as the cache last found it, the per-token limit
 * counted in the same limiter, the access record written alike, and the same headers and bytes as the
 * Fastify route (src/routes/orders.ts; a test compares the two). Anything else goes to Fastify: another
 * parameter or an encoded number, a token not kept or unknown, Authorization sent twice, an answer not in
 * the cache, and a request over the limit (refused, and recorded, there).
 */
export function answerOrderHits(options: OrderHitOptions) {
  const { store, tokens, limiter, accessLog, metrics } = options
  return function serve(request: IncomingMessage, response: ServerResponse): boolean {
    const url = request.url
    if (request.method !== 'GET' || url === undefined || !url.startsWith(ORDER_QUERY)) return false
    const started = metrics ? process.hrtime.bigint() : 0n
    const number = url.slice(ORDER_QUERY.length)
    if (!PLAIN_NUMBER.test(number)) return false
    const token = singleAuthorization(request)
    const identity = token === undefined ? undefined : tokens.known(token)
    if (identity === undefined) return false
    const answer = store.cached(orderKey(identity.organizationId, number))
    if (!(answer instanceof Answer)) return false
    const hit = limiter.takeNow(`order:${identity.tokenId}`, ORDER_RATE_LIMIT, 1000)
    if (!hit.allowed) return false
    store.hits++
    const id = requestId(request.headers['x-request-id'])
    response.setHeader('x-request-id', id)
    for (const [name, value] of rateHeaders(hit)) response.setHeader(name, value)
    response.setHeader('content-type', JSON_TYPE)
    response.setHeader('content-length', answer.body.length)
    response.end(answer.body)
    accessLog.record({
      at: new Date(),
      tokenId: identity.tokenId,
      organizationId: identity.organizationId,
      orderNumber: number,
      status: 200,
      requestId: id,
    })
    if (metrics) {
      metrics.requests.inc({ route: ORDER_ROUTE, method: 'GET', status: '200' })
      metrics.duration.observe(
        { route: ORDER_ROUTE, status: '200' },
        Number(process.hrtime.bigint() - started) / 1e9,
      )
    }
    return true
  }
}
