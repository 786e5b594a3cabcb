import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import type { Hit, MemoryLimiter } from '../auth/rate-limit.js'
import { isUuid } from '../checks.js'
import type { Metrics } from '../metrics.js'
import { Answer } from '../readmodel/answer.js'
import { type DocumentStore, detailKey, helperKey, listingKey } from '../readmodel/store.js'
import { requestId } from '../request-id.js'
import { answerLookedUp, JSON_TYPE, outgoing, rateHeaders, type Shortcut } from './answer.js'
import type { Head, Outbox } from './outbox.js'
import { inEnvelope } from './transparency.js'

/** Where the transparency routes live (the /v1 prefix, and the plugin's /transparency paths). */
const PREFIX = '/v1/transparency/'

export interface HitOptions {
  store: DocumentStore
  /** The listing and detail routes' resources (their paths), and the helpers' paths. */
  resources: readonly string[]
  helpers: readonly string[]
  /** The public routes' per-address limit, when on. */
  limit?: { limiter: MemoryLimiter; perMinute: number }
  /** Where the answers are written, together at the end of the event loop's turn. */
  outbox: Outbox
  metrics?: Metrics
}

/**
 * A transparency answer served straight from Node's request event: no routing, request and reply objects,
 * hooks, schema checks or promises. It answers as the Fastify route would: the headers and body come from
 * the same function (`outgoing`), the CORS header is the one @fastify/cors sets for `origin: '*'`, and a
 * test compares the two answers header by header. A GET whose answer is in the cache is answered here, and
 * a detail's that is not is looked up first; anything else (a missing record, a failed lookup, a listing
 * page or helper not in the cache, HEAD, OPTIONS, a refused request, an unusual URL) goes to Fastify, which
 * is where every error is answered. Going around Fastify saves an answer about 8–10 µs of the service's CPU
 * (32–40 µs against 39–47 for one contract detail asked again and again with the cache off, alternated in one
 * service).
 */
export function answerHits(options: HitOptions): Shortcut {
  const { store, limit, outbox, metrics } = options
  // The routes' templates as Fastify names them (the metrics' label), by the path segment that selects them.
  const listings = new Map(options.resources.map((path) => [path, `${PREFIX}${path}`]))
  const details = new Map(options.resources.map((path) => [path, `${PREFIX}${path}/:id`]))
  const helpers = new Map(options.helpers.map((path) => [path, `${PREFIX}helpers/${path}`]))

  /**
   * The cache key and route template a URL asks for, when it is one of the routes kept whole; for a
   * detail, also its resource and id (both or neither), to look it up when it is not in the cache.
   */
  function asked(url: string): { key: string; route: string; resource?: string; id?: string } | undefined {
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
    // A detail: only a UUID as the route's schema accepts it, so that nothing PostgreSQL would refuse is looked
    // up here (the route decodes and checks the rest, then answers or refuses it).
    const route = details.get(first)
    if (route === undefined || !isUuid(rest)) return undefined
    const id = rest.toLowerCase()
    return { key: detailKey(first, id), route, resource: first, id }
  }

  /** Writes an answer kept whole as the route would (in the outbox), and counts it in the metrics once written. */
  function reply(
    response: ServerResponse,
    headers: IncomingHttpHeaders,
    hit: Hit | undefined,
    route: string,
    started: bigint,
    kept: Answer,
  ): true {
    // The headers in one flat list to writeHead, with none set before: Node then writes them as given,
    // without keeping a header map (a setHeader each validated and stored every header twice).
    const head: Head = ['x-request-id', requestId(headers['x-request-id'])]
    if (hit) for (const [name, value] of rateHeaders(hit)) head.push(name, value)
    head.push('access-control-allow-origin', '*')
    const out = outgoing(kept, headers, JSON_TYPE)
    for (const [name, value] of out.headers) head.push(name, value)
    const status = out.body === undefined ? 304 : 200
    if (out.body !== undefined) head.push('content-length', out.body.length)
    outbox.send(
      response,
      status,
      head,
      out.body,
      metrics && (() => metrics.answered(route, String(status), started)),
    )
    return true
  }

  /**
   * Answers request from the cache and returns true, or returns false having written nothing; a detail not
   * in the cache is looked up first, and a missing record or a failed lookup handed to the route
   * (`handedOver`), which answers it.
   */
  return function serve(request, response) {
    if (request.method !== 'GET' || request.url === undefined) return false
    const started = metrics ? process.hrtime.bigint() : 0n
    const found = asked(request.url)
    if (found === undefined) return false
    const cached = store.cached(found.key)
    if (!(cached instanceof Answer) && found.id === undefined) return false
    const { headers } = request
    // The limit counts only what it admits: a refused request is refused again, and answered, by Fastify.
    const hit = limit?.limiter.takeNow(request.socket.remoteAddress ?? '', limit.perMinute, 60_000)
    if (hit && !hit.allowed) return false
    if (cached instanceof Answer) {
      store.hits++
      return reply(response, headers, hit, found.route, started, cached)
    }
    // A detail: asked() gives its resource with its id.
    const lookup = store.detailAnswer(found.resource as string, found.id as string, inEnvelope)
    return answerLookedUp(request, hit, lookup, (kept) =>
      reply(response, headers, hit, found.route, started, kept),
    )
  }
}
