// The bare server the read scenarios are measured against: the service's own library calls (built in dist/)
// behind node:http, with nothing around them. It answers every scenario's requests as the service does,
// from the same read path and the same cache (a DocumentStore with the service's memory): order queries
// (a token's organization looked up once and kept), contract details, histories and listings, the change
// feed, and the portal's contract pages and listings. It takes no limit, writes no access record, sends no request id, ETag, CORS
// or Cache-Control header, counts no metric, compresses nothing, and checks nothing a client could get
// wrong. What the service spends beyond it is Fastify, the interface's rules and the operator's settings.
// Plain JavaScript, as the service runs in production: no loader in the process.
// Usage: node bench/bare-server.mjs DATABASE_URL CACHE_BYTES ORDER_ENVELOPE DETAIL_ENVELOPE (prints the
// port once listening); each envelope is its route's, as JSON [before, after] the document.
import { createServer } from 'node:http'
import { findToken } from '../dist/auth/tokens.js'
import { createPool } from '../dist/db/pool.js'
import { choices, listing, recordWithHistory } from '../dist/portal/data.js'
import { listingPage as portalListingPage } from '../dist/portal/listing.js'
import { detailPage } from '../dist/portal/pages.js'
import { Envelope } from '../dist/readmodel/answer.js'
import { DocumentStore, listingKey } from '../dist/readmodel/store.js'
import { contracts } from '../dist/resources/index.js'
import { publicFeedPage } from '../dist/transparency/changes.js'
import { Cursors } from '../dist/transparency/cursors.js'
import { historyText } from '../dist/transparency/history.js'
import { listingPage } from '../dist/transparency/listing.js'

const pool = createPool(process.argv[2])
const [ORDER_ENVELOPE, DETAIL_ENVELOPE] = process.argv
  .slice(4, 6)
  .map((envelope) => new Envelope(...JSON.parse(envelope)))
const JSON_TYPE = 'application/json; charset=utf-8'
const FEED_HEAD = '{"success":true,"message":"Dados recuperados com sucesso","data":'
const HTML_TYPE = 'text/html; charset=utf-8'

const store = new DocumentStore(pool, { cacheBytes: Number(process.argv[3]), onError: () => {} })
await store.start()
const cursors = new Cursors(pool)
await cursors.ready()

/** Tokens' organizations (null: no such token), looked up once each with the service's own query. */
const organizations = new Map()
async function organizationOf(token) {
  let organization = organizations.get(token)
  if (organization === undefined) {
    organization = (await findToken(pool, token))?.organizationId ?? null
    organizations.set(token, organization)
  }
  return organization
}

/** The query of a URL, with the numbers a listing takes as numbers (what the service's schema gives it). */
function queryOf(url) {
  const query = Object.fromEntries(new URL(url, 'http://x').searchParams)
  for (const name of ['page', 'per_page', 'modality_id', 'status_id', 'management_status_id'])
    if (query[name] !== undefined) query[name] = Number(query[name])
  return query
}

/** The answer to a URL, as the service's route builds it: [content type, Answer] or undefined. */
async function answer(url, authorization) {
  if (url.startsWith('/external/orders?order_number=')) {
    const organization = await organizationOf(authorization ?? '')
    if (organization === null) return undefined
    const number = decodeURIComponent(url.slice('/external/orders?order_number='.length))
    return [JSON_TYPE, await store.orderAnswer(organization, number, ORDER_ENVELOPE)]
  }
  if (url.startsWith('/v1/transparency/contracts/') && url.endsWith('/history')) {
    const id = url.slice(27, -8).toLowerCase()
    return [
      JSON_TYPE,
      await store.answer(`hist\u0000contracts\u0000${id}\u0000`, async () => {
        const history = await store.history('contracts', id)
        return history && `${FEED_HEAD}${historyText(contracts, id, history.versions)}}`
      }),
    ]
  }
  if (url.startsWith('/v1/transparency/contracts/'))
    return [JSON_TYPE, await store.detailAnswer('contracts', url.slice(27).toLowerCase(), DETAIL_ENVELOPE)]
  if (url.startsWith('/v1/transparency/contracts'))
    return [
      JSON_TYPE,
      await store.answer(listingKey(url), () => listingPage(pool, store, cursors, contracts, queryOf(url))),
    ]
  if (url.startsWith('/v1/transparency/changes?')) {
    return [
      JSON_TYPE,
      await store.answer(`f\u0000${url}`, async () => {
        const query = queryOf(url)
        const page = await publicFeedPage(
          pool,
          cursors,
          {
            after: cursors.read('changes', query.after, 'after'),
            withRecords: query.with_records === 'true',
          },
          query.per_page,
        )
        return `${FEED_HEAD}{"data":${page.entries},"next_cursor":"${page.nextCursor}","has_more":${page.hasMore}}}`
      }),
    ]
  }
  if (url.startsWith('/contratos/')) {
    const id = url.slice(11).toLowerCase()
    return [
      HTML_TYPE,
      await store.answer(`p\u0000${url}`, async () => {
        const found = await recordWithHistory(pool, store, contracts, id)
        return found && detailPage(contracts, id, found.document, found.owner, { history: found.versions })
      }),
    ]
  }
  if (url.startsWith('/contratos')) {
    return [
      HTML_TYPE,
      await store.answer(`p\u0000${url}`, async () => {
        const query = Object.fromEntries(new URL(url, 'http://x').searchParams)
        return portalListingPage({
          resource: contracts,
          query,
          errors: {},
          page: 1,
          perPage: 20,
          sort: contracts.defaultSort,
          choices: await choices(pool, store),
          result: await listing(pool, store, contracts, queryOf(url)),
        })
      }),
    ]
  }
  return undefined
}

function send(response, status, type, body) {
  response.writeHead(status, ['content-type', type, 'content-length', body.length])
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
