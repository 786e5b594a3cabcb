import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import http from 'node:http'
import { after, before, describe, it } from 'node:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { issueToken } from '../../src/auth/tokens.js'
import { importRecords } from '../../src/import/importer.js'
import { parseRelations, sortValues } from '../../src/queries/parameters.js'
import { Answer } from '../../src/readmodel/answer.js'
import { PUBLIC_RESOURCES } from '../../src/resources/index.js'
import { buildTestApp, listen } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// Issue 12: answers kept as they go on the wire. Whatever the cache holds, a client sees what it saw when
// every answer was built for its request: the same bytes, tags, encodings and headers.

interface Got {
  status: number
  headers: http.IncomingHttpHeaders
  /** The bytes as sent, before any decoding. */
  raw: Buffer
}

/** A GET over a real socket, reading the body as sent (fetch would decode it). */
function get(url: string, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode as number,
            headers: response.headers,
            raw: Buffer.concat(chunks),
          }),
        )
        response.on('error', reject)
      })
      .on('error', reject)
  })
}

/** The body a response carries, decoded as its Content-Encoding says. */
function decoded(got: Got): string {
  const encoding = got.headers['content-encoding']
  if (encoding === 'br') return brotliDecompressSync(got.raw).toString()
  if (encoding === 'gzip') return gunzipSync(got.raw).toString()
  assert.equal(encoding, undefined)
  return got.raw.toString()
}

describe('answers kept whole', () => {
  let db: TestDatabase
  let app: FastifyInstance
  let base = ''
  let detailPath = ''
  let orderPath = ''
  let token = ''
  const records = demoRecords(
    { organizations: 1, orders: 4, contracts: 30, arps: 2, directContracts: 2, publicCalls: 2 },
    9,
  )

  before(async () => {
    db = await seededDatabase(records)
    detailPath = `/v1/transparency/contracts/${first(records, 'contract').id}`
    const order = first(records, 'order')
    orderPath = `/external/orders?order_number=${encodeURIComponent(order.number as string)}`
    ;({ token } = await issueToken(db.pool, order.organization_uuid as string, null))
    app = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '0' } })
    base = await listen(app)
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  const paths = () => [
    detailPath,
    '/v1/transparency/contracts?per_page=20',
    '/v1/transparency/public-calls?per_page=2&sort=number',
    '/v1/transparency/helpers/bidding-modalities',
  ]

  it('serves the same bytes and tag from memory as when it built them, in every encoding', async () => {
    for (const path of paths()) {
      const built = await get(`${base}${path}`)
      assert.equal(built.status, 200, path)
      const kept = await get(`${base}${path}`)
      assert.deepEqual(kept.raw, built.raw, path)
      assert.equal(kept.headers.etag, built.headers.etag, path)
      assert.equal(kept.headers['cache-control'], 'public, max-age=60', path)
      assert.equal(kept.headers['content-type'], 'application/json; charset=utf-8', path)
      assert.equal(kept.headers['access-control-allow-origin'], '*', path)
      for (const acceptEncoding of ['br', 'gzip', 'gzip, deflate, br', 'br;q=0, gzip', 'x-gzip', '*']) {
        const got = await get(`${base}${path}`, { 'accept-encoding': acceptEncoding })
        assert.equal(got.status, 200)
        assert.equal(decoded(got), built.raw.toString(), `${path} ${acceptEncoding}`)
        assert.equal(got.headers.vary, 'accept-encoding')
        if (built.raw.length >= 1024) {
          const expected = acceptEncoding === 'br;q=0, gzip' || acceptEncoding === 'x-gzip' ? 'gzip' : 'br'
          const encoding = acceptEncoding === 'gzip' ? 'gzip' : expected
          assert.equal(got.headers['content-encoding'], encoding)
          // Each encoding's bytes have a tag of their own: the identity tag and the encoding.
          assert.equal(got.headers.etag, `${(built.headers.etag as string).slice(0, -1)}-${encoding}"`)
          assert.equal(Number(got.headers['content-length']), got.raw.length)
        } else {
          assert.equal(got.headers['content-encoding'], undefined, `${path} is small: sent as it is`)
          assert.equal(got.headers.etag, built.headers.etag, `${path} ${acceptEncoding}`)
        }
      }
      const refused = await get(`${base}${path}`, { 'accept-encoding': 'gzip', 'x-no-compression': '1' })
      assert.equal(refused.headers['content-encoding'], undefined)
      assert.deepEqual(refused.raw, built.raw)
      const identity = await get(`${base}${path}`, { 'accept-encoding': 'identity' })
      assert.deepEqual(identity.raw, built.raw)
    }
  })

  it('answers If-None-Match from the stored tag, strong or weak, with 304 and no body', async () => {
    for (const path of paths()) {
      const { headers, raw } = await get(`${base}${path}`)
      const tag = headers.etag as string
      // A strong tag of the bytes sent: SHA-1 of the identity body, computed here independently.
      assert.equal(tag, `"${createHash('sha1').update(raw).digest('base64url')}"`, path)
      for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`]) {
        const again = await get(`${base}${path}`, { 'if-none-match': ifNoneMatch })
        assert.equal(again.status, 304, `${path} ${ifNoneMatch}`)
        assert.equal(again.raw.length, 0)
        assert.equal(again.headers.etag, tag)
        assert.equal(again.headers['cache-control'], 'public, max-age=60')
        assert.equal(again.headers.vary, 'accept-encoding')
      }
      // The brotli copy has its own tag: the identity tag does not revalidate it, its own does.
      const br = await get(`${base}${path}`, { 'accept-encoding': 'br' })
      if (raw.length >= 1024) {
        assert.equal(
          (await get(`${base}${path}`, { 'if-none-match': tag, 'accept-encoding': 'br' })).status,
          200,
        )
        const again = await get(`${base}${path}`, {
          'if-none-match': br.headers.etag as string,
          'accept-encoding': 'br',
        })
        assert.equal(again.status, 304)
      }
      const stale = await get(`${base}${path}`, { 'if-none-match': '"other"' })
      assert.equal(stale.status, 200)
    }
  })

  it('gives a new tag once an import changes what an answer shows', async () => {
    const before = await get(`${base}${detailPath}`)
    const contract = { ...first(records, 'contract'), object_details: 'Objeto alterado por uma importação' }
    const result = await importRecords(db.pool, [source(ndjson([contract]))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    const deadline = Date.now() + 5000
    let after = await get(`${base}${detailPath}`)
    while (after.headers.etag === before.headers.etag && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      after = await get(`${base}${detailPath}`)
    }
    assert.notEqual(after.headers.etag, before.headers.etag)
    assert.match(after.raw.toString(), /Objeto alterado por uma importação/)
    const old = await get(`${base}${detailPath}`, { 'if-none-match': before.headers.etag as string })
    assert.equal(old.status, 200)
  })

  it('serves every listing exactly as JSON.stringify would write it, items as PostgreSQL wrote them', async () => {
    // Text that JSON escapes, and characters past ASCII: the items go out as PostgreSQL wrote them.
    const odd = {
      ...first(records, 'contract'),
      id: 'ffffffff-0000-4000-8000-0000000000aa',
      contract_number: 'ESCAPES/2026',
      object_details: 'Aspas " barra \\ nova\nlinha\ttab \u0001 \u001f \u007f ú € 😀 \u2028 </script>',
      bidding_uuid: null,
      arp_number: null,
      date_start: '2099-12-31',
    }
    const result = await importRecords(db.pool, [source(ndjson([odd]))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    for (const resource of PUBLIC_RESOURCES) {
      const all = resource.offered.join(',')
      const listing = `${base}/v1/transparency/${resource.path}?per_page=100&with_relations=${all}`
      let text = ''
      // The first answer reads the total with the page; the second (another page) the total kept.
      for (const page of [1, 2]) {
        const got = await get(`${listing}&page=${page}`)
        assert.equal(got.status, 200, resource.path)
        text = got.raw.toString()
        assert.equal(text, JSON.stringify(JSON.parse(text)), `${resource.path} page ${page}`)
      }
      const body = JSON.parse(text) as { data: { data: unknown[]; total: number; from: null; to: null } }
      const total =
        records.filter((r) => r.type === resource.type).length + (resource.path === 'contracts' ? 1 : 0)
      assert.equal(body.data.total, total, resource.path)
      assert.deepEqual([body.data.data, body.data.from, body.data.to], [[], null, null], resource.path)
    }
    const got = await get(`${base}/v1/transparency/contracts?per_page=1`)
    const newest = (JSON.parse(got.raw.toString()) as { data: { data: { object_details: string }[] } }).data
    assert.equal(newest.data[0]?.object_details, odd.object_details)
  })

  it('serves the items the read model keeps as the items built with relations, in every sort', async () => {
    // Without relations a page joins its ids to the items kept beside the details; with relations it builds
    // them. Both must give the same items in the same order, the kept ones as JSON.stringify would write.
    for (const resource of PUBLIC_RESOURCES) {
      const all = resource.offered.join(',')
      for (const sort of sortValues(resource)) {
        for (const page of [1, 2]) {
          const listing = `${base}/v1/transparency/${resource.path}?per_page=3&page=${page}&sort=${sort}`
          const kept = (await get(listing)).raw.toString()
          assert.equal(kept, JSON.stringify(JSON.parse(kept)), `${resource.path} ${sort}`)
          const built = JSON.parse((await get(`${listing}&with_relations=${all}`)).raw.toString()) as {
            data: { data: Record<string, unknown>[] }
          }
          for (const item of built.data.data) for (const name of resource.offered) delete item[name]
          assert.equal(kept, JSON.stringify(built), `${resource.path} ${sort} page ${page}`)
        }
      }
    }
  })

  it('reads with_relations in the order the resource offers them, each once, however the client wrote them', async () => {
    // The page's statements are kept by the relations asked (src/listings/listing.ts): one set, one key.
    const contracts = PUBLIC_RESOURCES.find((resource) => resource.path === 'contracts')
    assert.ok(contracts)
    assert.deepEqual(parseRelations(contracts, 'orders, documents,orders,managers'), [
      'managers',
      'documents',
      'orders',
    ])
    const listing = `${base}/v1/transparency/contracts?per_page=3&with_relations=`
    const bodies = await Promise.all(
      ['managers,documents,orders', 'orders,documents,managers', 'documents,orders,managers,orders'].map(
        async (relations) => (await get(`${listing}${relations}`)).raw.toString(),
      ),
    )
    assert.deepEqual(bodies.slice(1), [bodies[0], bodies[0]])
  })

  it('sends the order query the same bytes from memory as from the read model', async () => {
    const built = await get(`${base}${orderPath}`, { authorization: token })
    assert.equal(built.status, 200)
    const kept = await get(`${base}${orderPath}`, { authorization: token })
    assert.deepEqual(kept.raw, built.raw)
    assert.equal(kept.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal(kept.headers.etag, undefined) // the order query has no validators (spec section 7)
    const body = JSON.parse(kept.raw.toString()) as { message: string; data: { number: string } }
    assert.equal(body.message, 'Ordem recuperada com sucesso')
  })

  it('chooses encodings as Accept-Encoding asks', () => {
    const answer = new Answer(JSON.stringify({ text: 'x'.repeat(2000) }))
    const cases: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      ['', undefined],
      ['identity', undefined],
      ['deflate', undefined],
      ['gzip', 'gzip'],
      ['GZIP', 'gzip'],
      ['gzip;q=0', undefined],
      ['br;q=0.5, gzip;q=0.9', 'gzip'],
      ['br, gzip', 'br'],
      ['*', 'br'],
      ['*;q=0', undefined],
    ]
    for (const [header, expected] of cases) {
      const headers = header === undefined ? {} : { 'accept-encoding': header }
      assert.equal(answer.encodingFor(headers), expected, String(header))
    }
    assert.equal(new Answer('{"small":true}').encodingFor({ 'accept-encoding': 'br' }), undefined)
    // The variants are made once, and decode to the body.
    const br = answer.bytesFor('br')
    assert.equal(answer.bytesFor('br'), br)
    assert.deepEqual(brotliDecompressSync(br), answer.body)
    assert.deepEqual(gunzipSync(answer.bytesFor('gzip')), answer.body)
  })

  it('keeps its bytes in memory of their own, not in a slab shared with other buffers', () => {
    // Node slices buffers under 4 kB out of shared 8 kB slabs; a cached slice would keep its slab alive.
    const text = JSON.stringify({ nome: 'Órgão', text: 'x'.repeat(1500) })
    const answer = new Answer(text)
    assert.equal(answer.body.toString(), text)
    for (const bytes of [answer.body, answer.bytesFor('br'), answer.bytesFor('gzip')]) {
      assert.ok(bytes.length < 4096)
      assert.equal(bytes.byteOffset, 0)
      assert.equal(bytes.buffer.byteLength, bytes.length)
    }
  })
})
