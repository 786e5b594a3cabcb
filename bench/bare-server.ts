// The bare server the read scenarios are measured against: the service's own reads (src/reads) behind
// node:http, with nothing around them. It answers every scenario's requests as the service does, with the
// same Read the service's route declares, from the same cache (a DocumentStore with the service's memory):
// order queries (a token's organization looked up once and kept), contract details, histories,
// listings and their Atom feed, the change feed, and the portal's contract pages and listings. It takes no limit, writes no
// access record, sends no request id, ETag, CORS or Cache-Control header, counts no metric, compresses
// nothing, and checks nothing a client could get wrong. What the service spends beyond it is Fastify, the
// interface's rules and the operator's settings.
// TypeScript type-checked with the service, compiled to JavaScript (`npm run build:bench`), and run with no
// loader in the process, as the service runs in production.
// Usage: node dist-bench/bench/bare-server.js DATABASE_URL CACHE_BYTES (prints the port once listening).
import { createServer, type ServerResponse } from 'node:http'
import { findToken } from '../src/auth/tokens.js'
import { loadConfig } from '../src/config.js'
import { createPool } from '../src/db/pool.js'
import { DEFAULT_FEED_PAGE, publicFeedQuery } from '../src/feeds/change-feeds.js'
import { Gate } from '../src/gate.js'
import { Cursors } from '../src/queries/cursors.js'
import type { Answer } from '../src/readmodel/answer.js'
import { DocumentStore } from '../src/readmodel/store.js'
import { orderRead } from '../src/reads/order-reads.js'
import { PortalReads } from '../src/reads/portal-reads.js'
import { PublicReads } from '../src/reads/public-reads.js'
import { answerOf } from '../src/reads/read.js'
import { contracts } from '../src/resources/index.js'

const pool = createPool(process.argv[2] as string)
const JSON_TYPE = 'application/json; charset=utf-8'
const HTML_TYPE = 'text/html; charset=utf-8'
const ATOM_TYPE = 'application/atom+xml; charset=utf-8'

const store = new DocumentStore(pool, { cacheBytes: Number(process.argv[3]), onError: () => {} })
await store.start()
const cursors = new Cursors(pool)
await cursors.ready()
const config = loadConfig(process.env)
// No limit on researches at once: the bare server takes none.
const researches = {
  gate: new Gate(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
  maxItems: config.researchMaxItems,
}
const reads = new PublicReads({
  pool,
  store,
  cursors,
  publication: { config: config.ocds, publicUrl: config.publicUrl },
  researches,
})
const pages = new PortalReads(pool, store, cursors, researches)

/** Tokens' organizations (null: no such token), looked up once each with the service's own query. */
const organizations = new Map<string, string | null>()
async function organizationOf(token: string): Promise<string | null> {
  let organization = organizations.get(token)
  if (organization === undefined) {
    organization = (await findToken(pool, token))?.organizationId ?? null
    organizations.set(token, organization)
  }
  return organization
}

/** The query of a URL, with the numbers a listing takes as numbers (what the service's schema gives it). */
function queryOf(url: string): Record<string, unknown> {
  const query: Record<string, unknown> = Object.fromEntries(new URL(url, 'http://x').searchParams)
  for (const name of ['page', 'per_page', 'modality_id', 'status_id', 'management_status_id'])
    if (query[name] !== undefined) query[name] = Number(query[name])
  // Booleans as the service's validation gives them (src/query-validation.ts).
  for (const name of ['with_records'])
    if (query[name] === 'true' || query[name] === 'false') query[name] = query[name] === 'true'
  return query
}

/** The answer to a URL, as the service's route declares it: [content type, Answer] or undefined. */
async function answer(
  url: string,
  authorization: string | undefined,
): Promise<[string, Answer | undefined] | undefined> {
  if (url.startsWith('/external/orders?order_number=')) {
    const organization = await organizationOf(authorization ?? '')
    if (organization === null) return undefined
    const number = decodeURIComponent(url.slice('/external/orders?order_number='.length))
    return [JSON_TYPE, await answerOf(store, orderRead(store, organization, number))]
  }
  if (url.startsWith('/v1/transparency/contracts/') && url.endsWith('/history'))
    return [
      JSON_TYPE,
      await reads.answer(reads.history(contracts, url.slice(27, -8).toLowerCase(), undefined)),
    ]
  if (url.startsWith('/v1/transparency/contracts/'))
    return [JSON_TYPE, await reads.answer(reads.detail(contracts, url.slice(27).toLowerCase()))]
  if (url.startsWith('/v1/transparency/indicators?'))
    return [JSON_TYPE, await reads.answer(reads.indicators(queryOf(url)))]
  if (url.startsWith('/v1/transparency/contracts.atom'))
    return [ATOM_TYPE, await reads.answer(reads.atom(contracts, queryOf(url)))]
  if (url.startsWith('/v1/transparency/contracts'))
    return [JSON_TYPE, await reads.answer(reads.listing(contracts, queryOf(url)))]
  if (url.startsWith('/v1/transparency/prices?'))
    return [JSON_TYPE, await reads.answer(reads.research(queryOf(url), '127.0.0.1'))]
  if (url.startsWith('/v1/transparency/changes?')) {
    const query = queryOf(url)
    const perPage = (query.per_page as number | undefined) ?? DEFAULT_FEED_PAGE
    return [JSON_TYPE, await reads.answer(reads.changes(query, publicFeedQuery(query, cursors), perPage))]
  }
  if (url.startsWith('/contratos/')) {
    const place = { path: url, parameters: '[]' }
    return [HTML_TYPE, await answerOf(store, pages.record(place, contracts, url.slice(11).toLowerCase()))]
  }
  if (url.startsWith('/contratos')) {
    const [path = url] = url.split('?')
    const query = Object.fromEntries(new URL(url, 'http://x').searchParams)
    const view = { resource: contracts, query, errors: {}, page: 1, perPage: 20, sort: contracts.defaultSort }
    const place = { path, parameters: url }
    return [HTML_TYPE, await answerOf(store, pages.listing(place, view, queryOf(url)))]
  }
  return undefined
}

function send(response: ServerResponse, status: number, type: string, body: Buffer) {
  response.writeHead(status, ['content-type', type, 'content-length', String(body.length)])
  response.end(body)
}

const NOT_FOUND = Buffer.from('{"message":"Não encontrado"}')

const server = createServer((request, response) => {
  answer(request.url ?? '', request.headers.authorization).then(
    (found) =>
      found?.[1] === undefined
        ? send(response, 404, JSON_TYPE, NOT_FOUND)
        : send(response, 200, found[0], found[1].body),
    () => send(response, 500, JSON_TYPE, NOT_FOUND),
  )
})
server.keepAliveTimeout = 72_000
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`)
})
process.on('SIGTERM', () =>
  server.close(() =>
    store
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
  ),
)
