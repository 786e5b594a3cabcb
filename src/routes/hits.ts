import type { IncomingMessage, ServerResponse } from 'node:http'
import type { MemoryLimiter } from '../auth/rate-limit.js'
import type { Metrics } from '../metrics.js'
import { Answer } from '../readmodel/answer.js'
import { type DocumentStore, detailKey, helperKey, listingKey } from '../readmodel/store.js'
import { requestId } from '../request-id.js'
import { answerHeaders, JSON_TYPE, PUBLIC_HEADERS, rateHeaders } from './answer.js'

/** Where the transparency routes live. */
export const TRANSPARENCY_PREFIX = '/v1/transparency'

export interface HitOptions {
  store: DocumentStore
  /** The listing and detail routes' resources (their paths), and the helpers' paths. */
  resources: readonly string[]
  helpers: readonly string[]
  /** The public routes' per-address limit, when on. */
  limit?: { limiter: MemoryLimiter; perMinute: number }
  metrics?: Metrics
}

/** What a URL asks for, when it is one of the routes whose answers are kept whole. */
interface Asked {
  key: string
  /** The route's template, as Fastify names it (the metrics' label). */
  route: string
}

/**
 * A transparency answer already in the cache, served straight from Node's request event: no routing,
 * request and reply objects, hooks, schema checks or promises. On the bare node:http baseline's path that is
 * most of what a cached detail cost (84–101 µs of CPU a request through Fastify, an empty Fastify route
 * 44–58, bare node:http 38–40, on the benchmark's host). It answers exactly as the Fastify route would
 * (the headers come from the same functions, and a test compares the two answers header by header) and only
 * for a GET whose answer is in the cache; anything else (a miss, HEAD, OPTIONS, a refused request, an
 * unusual URL) returns false and goes to Fastify, which is where every error is answered.
 */
export function answerHits(options: HitOptions) {
  const { store, limit, metrics } = options
  const resources = new Set(options.resources)
  const helpers = new Set(options.helpers)
  const prefix = `${TRANSPARENCY_PREFIX}/`

  function asked(url: string): Asked | undefined {
    if (!url.startsWith(prefix)) return undefined
    const query = url.indexOf('?', prefix.length)
    const path = url.slice(prefix.length, query < 0 ? undefined : query)
    const slash = path.indexOf('/')
    if (slash < 0) {
      // A listing page: kept under the URL as sent (the route validated it before it was kept).
      if (!resources.has(path)) return undefined
      return { key: listingKey(url), route: `${TRANSPARENCY_PREFIX}/${path}` }
    }
    if (query >= 0) return undefined
    const first = path.slice(0, slash)
    const rest = path.slice(slash + 1)
    if (first === 'helpers')
      return helpers.has(rest)
        ? { key: helperKey(rest), route: `${TRANSPARENCY_PREFIX}/helpers/${rest}` }
        : undefined
    // A detail: only a plain UUID (the route decodes and checks what is not, then misses or answers 400).
    if (!resources.has(first) || !/^[0-9A-Fa-f-]{36}$/.test(rest)) return undefined
    return { key: detailKey(first, rest.toLowerCase()), route: `${TRANSPARENCY_PREFIX}/${first}/:id` }
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
    for (const [name, value] of PUBLIC_HEADERS) response.setHeader(name, value)
    const fresh = answer.matches(headers['if-none-match'])
    const encoding = fresh ? undefined : answer.encodingFor(headers)
    for (const [name, value] of answerHeaders(answer, fresh, encoding, JSON_TYPE))
      response.setHeader(name, value)
    if (fresh) {
      response.statusCode = 304
      response.end()
    } else {
      const body = answer.bytesFor(encoding)
      response.setHeader('content-length', body.length)
      response.end(body)
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
