// The benchmark's ceiling for the read scenarios: the least work a server must do to answer an order query
// or a contract detail from this dataset, on this machine. It finds a token's organization once and keeps
// it; reads each document PostgreSQL keeps ready (order_documents, detail_documents) with the service's own
// batched lookup, as bytes, into an answer in its envelope (its DocumentStore and Envelope, built in dist/,
// with the cache off); keeps the answers it sent in as
// much memory as the service's cache has (CACHE_MB as the service reads it, charged for their bytes alone,
// where the service charges half as much again for compressed variants); and sends each with two headers.
// It takes no limit, writes no access record, sends no request id, ETag, CORS or Cache-Control header,
// counts no metric and checks nothing a client could get wrong. Whatever the service does beyond this is the
// spec's or the operator's, so what the service reaches is read against it.
// Plain JavaScript over node:http and the built service's modules, as the baseline: no loader in the process.
// Usage: node bench/ceiling-server.mjs DATABASE_URL CACHE_BYTES ORDER_ENVELOPE DETAIL_ENVELOPE (prints the
// port once listening); each envelope is its route's, as JSON [before, after] the document.
import { createServer } from 'node:http'
import { LRUCache } from 'lru-cache'
import { findToken } from '../dist/auth/tokens.js'
import { createPool } from '../dist/db/pool.js'
import { Envelope } from '../dist/readmodel/answer.js'
import { DocumentStore } from '../dist/readmodel/store.js'

const pool = createPool(process.argv[2])
const [ORDER_ENVELOPE, DETAIL_ENVELOPE] = process.argv
  .slice(4, 6)
  .map((envelope) => new Envelope(...JSON.parse(envelope)))
const ORDERS = '/external/orders?order_number='
const CONTRACTS = '/v1/transparency/contracts/'
const TYPE = 'application/json; charset=utf-8'

// The service's own lookups (dist/, built by `npm run bench`), without its cache: the answers are kept here.
const store = new DocumentStore(pool, { cacheBytes: 0, onError: () => {} })

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

/** Answers sent, as their bytes, the least recently used out first. */
const answers = new LRUCache({ maxSize: Number(process.argv[3]), sizeCalculation: (body) => body.length })

function send(response, status, body) {
  response.writeHead(status, ['content-type', TYPE, 'content-length', body.length])
  response.end(body)
}

/** The bytes of an answer being read, kept under key; undefined when there is none. */
async function answer(key, reading) {
  const found = await reading
  if (found === undefined) return undefined
  answers.set(key, found.body)
  return found.body
}

const NOT_FOUND = Buffer.from('{"message":"Não encontrado"}')

const server = createServer((request, response) => {
  const url = request.url ?? ''
  const order = url.startsWith(ORDERS)
  if (!order && !url.startsWith(CONTRACTS)) return send(response, 404, NOT_FOUND)
  // An order's answer depends on the token's organization: kept under the token (one per order here).
  const authorization = order ? (request.headers.authorization ?? '') : ''
  const key = order ? `${authorization} ${url}` : url
  const kept = answers.get(key)
  if (kept !== undefined) return send(response, 200, kept)
  const found = order
    ? organizationOf(authorization).then((organization) => {
        if (organization === null) return undefined
        const number = decodeURIComponent(url.slice(ORDERS.length))
        return answer(key, store.orderAnswer(organization, number, ORDER_ENVELOPE))
      })
    : answer(key, store.detailAnswer('contracts', url.slice(CONTRACTS.length), DETAIL_ENVELOPE))
  found.then(
    (body) => send(response, body === undefined ? 404 : 200, body ?? NOT_FOUND),
    () => send(response, 500, NOT_FOUND),
  )
})
server.keepAliveTimeout = 72_000
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`)
})
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))))
