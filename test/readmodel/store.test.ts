import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { issueToken } from '../../src/auth/tokens.js'
import { migrate } from '../../src/db/migrate.js'
import { createPool } from '../../src/db/pool.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { DOCUMENT_VERSIONS, syncReadModel } from '../../src/readmodel/build.js'
import { DocumentStore, LruCache } from '../../src/readmodel/store.js'
import { buildTestApp } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { eventually } from '../helpers/http.js'
import { demoRecords, ndjson, source } from '../helpers/records.js'

/** Polls until check passes (an import's notice reaches the instance asynchronously) or fails after 5 s. */
describe('LruCache', () => {
  it('drops the least recently used entries once over its size', () => {
    const cache = new LruCache(400) // bytes; an entry costs its key and value, a byte a character, and 64
    cache.set('a', '0123456789', cache.generation) // 75
    cache.set('b', '0123456789', cache.generation) // 150
    assert.equal(cache.get('a'), '0123456789') // a is now the most recent
    cache.set('c', '0123456789', cache.generation) // 225
    cache.set('d', '0123456789', cache.generation) // 300
    cache.set('e', '0123456789', cache.generation) // 375
    cache.set('f', '0123456789', cache.generation) // 450: b goes
    assert.equal(cache.get('b'), undefined)
    assert.equal(cache.get('a'), '0123456789')
    assert.equal(cache.size, 5)
  })

  it('does not keep a value read before a clear, nor one bigger than a quarter of it', () => {
    const cache = new LruCache(1000)
    const generation = cache.generation
    cache.clear()
    cache.set('old', 'value', generation)
    assert.equal(cache.get('old'), undefined)
    cache.set('big', 'x'.repeat(200), cache.generation)
    assert.equal(cache.get('big'), undefined)
    cache.set('small', 'x', cache.generation)
    assert.equal(cache.get('small'), 'x')
  })

  it('keeps nothing with a size of 0', () => {
    const cache = new LruCache(0)
    cache.set('a', 'b', cache.generation)
    assert.equal(cache.get('a'), undefined)
  })
})

describe('read model', () => {
  let db: TestDatabase
  let app: FastifyInstance
  const records = demoRecords(
    { organizations: 2, orders: 40, contracts: 8, arps: 4, directContracts: 2, publicCalls: 2 },
    5,
  )
  const [orgA, orgB] = records.filter((r) => r.type === 'organization') as [DemoRecord, DemoRecord]
  const orderOf = (org: DemoRecord) =>
    records.find((r) => r.type === 'order' && r.organization_uuid === org.uuid) as DemoRecord
  let tokenA = ''
  const orderUrl = (number: unknown) => `/external/orders?order_number=${encodeURIComponent(String(number))}`
  const getOrder = async (number: unknown) => {
    const response = await app.inject({
      method: 'GET',
      url: orderUrl(number),
      headers: { authorization: tokenA },
    })
    assert.equal(response.statusCode, 200, response.body)
    return response.json().data
  }

  before(async () => {
    db = await seededDatabase(records)
    ;({ token: tokenA } = await issueToken(db.pool, orgA.uuid as string, null))
    app = await buildTestApp(db)
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  it('serves a re-imported order as changed, although the old one was cached', async () => {
    const order = orderOf(orgA)
    assert.equal((await getOrder(order.number)).object, order.object)
    assert.equal((await getOrder(order.number)).object, order.object) // now from the cache
    const changed = { ...order, object: 'Objeto alterado pela segunda importação' }
    assert.equal((await importRecords(db.pool, [source(ndjson([changed]))])).ok, true)
    await eventually(async () => assert.equal((await getOrder(order.number)).object, changed.object))
  })

  it("rebuilds another organization's documents when an import renames their supplier", async () => {
    const order = orderOf(orgA)
    const before = await getOrder(order.number)
    // A contract of organization A with the same supplier, under the name it has now.
    const contractA = {
      ...(records.find((r) => r.type === 'contract' && r.organization_uuid === orgA.uuid) as DemoRecord),
      provider_document: before.provider_document,
      provider_company_name: before.provider_name,
    }
    assert.equal((await importRecords(db.pool, [source(ndjson([contractA]))])).ok, true)
    // An order of organization B from the same supplier, under a new name.
    const orderB = {
      ...orderOf(orgB),
      number: 'RENOMEIA/2025',
      provider_document: before.provider_document,
      provider_name: 'Fornecedor Renomeado Ltda',
    }
    assert.equal((await importRecords(db.pool, [source(ndjson([orderB]))])).ok, true)
    await eventually(async () =>
      assert.equal((await getOrder(order.number)).provider_name, orderB.provider_name),
    )
    const response = await app.inject(`/v1/transparency/contracts/${(contractA as DemoRecord).id}`)
    assert.equal(response.json().data.provider_company_name, orderB.provider_name)
  })

  it('serves listing pages and counts built after an import, not the cached ones', async () => {
    const url = `/v1/transparency/contracts?organization_uuid=${orgA.uuid}&per_page=2`
    const count = `/v1/transparency/contracts?organization_uuid=${orgA.uuid}&per_page=1&page=2`
    const page = async (u: string) => (await app.inject(u)).json().data
    const before = await page(url)
    const beforeCount = await page(count)
    assert.deepEqual(await page(url), before) // cached now, page and count
    const newest = {
      ...(records.find((r) => r.type === 'contract' && r.organization_uuid === orgA.uuid) as DemoRecord),
      id: 'ffffffff-0000-4000-8000-000000000001',
      contract_number: 'NOVO/2099',
      bidding_uuid: null,
      arp_number: null,
      date_start: '2099-01-01',
    }
    assert.equal((await importRecords(db.pool, [source(ndjson([newest]))])).ok, true)
    await eventually(async () => {
      const after = await page(url)
      assert.equal(after.total, before.total + 1)
      assert.equal(after.data[0].id, newest.id)
      assert.equal((await page(count)).total, beforeCount.total + 1)
    })
  })

  it('keeps no count read before an import that came in meanwhile', async () => {
    const store = new DocumentStore(db.pool, { cacheBytes: 1 << 20, onError: () => {} })
    await store.start()
    try {
      store.keeper('probe')('kept')
      assert.equal(store.cached('probe'), 'kept')
      // As a listing's total: its keeper taken before the query, the import landing while it runs.
      const keep = store.keeper('count')
      const contract = records.find((r) => r.type === 'contract') as DemoRecord
      const changed = { ...contract, object_details: 'Objeto mudado enquanto se contava' }
      assert.equal((await importRecords(db.pool, [source(ndjson([changed]))])).ok, true)
      await eventually(async () => assert.equal(store.cached('probe'), undefined))
      keep('41')
      assert.equal(store.cached('count'), undefined)
      store.keeper('count')('42')
      assert.equal(store.cached('count'), '42')
    } finally {
      await store.close()
    }
  })

  it('answers concurrent lookups of different orders, batched, each with its own document', async () => {
    const numbers = records
      .filter((r) => r.type === 'order' && r.organization_uuid === orgA.uuid)
      .map((r) => r.number)
    const fresh = await buildTestApp(db, { env: { CACHE_MB: '0' } })
    try {
      const responses = await Promise.all(
        numbers.map((number) =>
          fresh.inject({ method: 'GET', url: orderUrl(number), headers: { authorization: tokenA } }),
        ),
      )
      responses.forEach((response, i) => {
        assert.equal(response.statusCode, 200)
        assert.equal(response.json().data.number, numbers[i])
      })
      const missing = await fresh.inject({
        method: 'GET',
        url: orderUrl('NAO-EXISTE/1'),
        headers: { authorization: tokenA },
      })
      assert.equal(missing.json().message, 'Ordem não encontrada')
    } finally {
      await fresh.close()
    }
  })

  it('sends the lookups asked for while a batch is out as one batch when it comes back', async () => {
    const orders = records.filter((r) => r.type === 'order' && r.organization_uuid === orgA.uuid)
    // The real pool, with its queries counted by name (a store without a cache only queries).
    const sent: string[] = []
    const counted = {
      query: (...args: Parameters<typeof db.pool.query>) => {
        sent.push((args[0] as { name?: string }).name ?? '')
        return db.pool.query(...args)
      },
    } as unknown as typeof db.pool
    const store = new DocumentStore(counted, { cacheBytes: 0, onError: (error) => assert.fail(error) })
    // A lock holds the first batch out for as long as the test needs.
    const locker = await db.pool.connect()
    try {
      await locker.query('BEGIN')
      await locker.query('LOCK TABLE order_documents IN ACCESS EXCLUSIVE MODE')
      const first = store.order(orgA.uuid as string, orders[0]?.number as string)
      const rest: Promise<string | undefined>[] = []
      // Each asked for in a turn of the event loop of its own: without the batch out, each would go alone.
      for (const order of orders.slice(1, 10)) {
        await new Promise((resolve) => setImmediate(resolve))
        rest.push(store.order(orgA.uuid as string, order.number as string))
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
      assert.deepEqual(sent, ['batch-order_documents'])
      await locker.query('COMMIT')
      const documents = await Promise.all([first, ...rest])
      documents.forEach((document, i) => {
        assert.equal(JSON.parse(document as string).number, orders[i]?.number)
      })
      assert.deepEqual(sent, ['batch-order_documents', 'batch-order_documents'])

      // A burst larger than a batch holds goes as several, one after another: 600 lookups, 500 and 100.
      sent.length = 0
      await locker.query('BEGIN')
      await locker.query('LOCK TABLE order_documents IN ACCESS EXCLUSIVE MODE')
      const held = store.order(orgA.uuid as string, orders[0]?.number as string)
      await new Promise((resolve) => setImmediate(resolve))
      const burst = Array.from({ length: 600 }, (_, i) => orders[i % orders.length] as DemoRecord)
      const answers = burst.map((order) => store.order(orgA.uuid as string, order.number as string))
      await locker.query('COMMIT')
      await held
      ;(await Promise.all(answers)).forEach((document, i) => {
        assert.equal(JSON.parse(document as string).number, burst[i]?.number)
      })
      assert.equal(sent.length, 3)
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined)
      locker.release()
      await store.close()
    }
  })

  it('plans a batch once per connection, whatever the number of keys it carries', async () => {
    const orders = records.filter((r) => r.type === 'order' && r.organization_uuid === orgA.uuid)
    const ids = records.filter((r) => r.type === 'contract').map((r) => r.id as string)
    // One connection, so that its prepared statements are the ones read after.
    const pool = createPool(db.url, { max: 1 })
    const store = new DocumentStore(pool, { cacheBytes: 0, onError: (error) => assert.fail(error) })
    try {
      // Batches of one to three keys, ten of each kind: small ones, that PostgreSQL would plan again each time.
      for (let size = 0; size < 10; size++) {
        const picked = orders.slice(size, size + 1 + (size % 3))
        const found = await Promise.all(
          picked.map((o) => store.order(orgA.uuid as string, o.number as string)),
        )
        assert.deepEqual(
          found.map((document) => JSON.parse(document as string).number),
          picked.map((o) => o.number),
        )
        const details = await Promise.all(
          ids.slice(0, 1 + (size % 3)).map((id) => store.detail('contracts', id)),
        )
        assert.ok(details.every((document) => document !== undefined))
      }
      const { rows } = await pool.query<{ name: string; generic: number; custom: number }>(
        `SELECT name, generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements
         WHERE name LIKE 'batch-%' ORDER BY name`,
      )
      // PostgreSQL plans the first five executions with their values, then keeps the generic plan.
      assert.deepEqual(rows, [
        { name: 'batch-detail_documents', generic: 5, custom: 5 },
        { name: 'batch-order_documents', generic: 5, custom: 5 },
      ])
    } finally {
      await store.close()
      await pool.end()
    }
  })

  it('builds a listing page once for many requests that ask for it at the same time', async () => {
    const url = `/v1/transparency/contracts?organization_uuid=${orgA.uuid}&per_page=3`
    // Every pool's queries counted: the app reads through a pool of its own.
    const query = pg.Pool.prototype.query
    let pages = 0
    pg.Pool.prototype.query = function (this: pg.Pool, config: unknown, values?: unknown) {
      const text = typeof config === 'string' ? config : (config as { text: string }).text
      if (text.includes('WITH page AS')) pages++
      return (query as (...args: unknown[]) => Promise<pg.QueryResult>).call(this, config, values)
    } as unknown as typeof query
    try {
      const responses = await Promise.all(Array.from({ length: 12 }, () => app.inject(url)))
      for (const response of responses) {
        assert.equal(response.statusCode, 200)
        assert.equal(response.body, responses[0]?.body)
      }
      assert.equal(pages, 1)
      assert.equal(responses[0]?.json().data.data.length, 3)
    } finally {
      pg.Pool.prototype.query = query
    }
  })

  it('builds again for who asks after every asker of a build has left, instead of failing with its abort', async () => {
    const store = new DocumentStore(db.pool, { cacheBytes: 1 << 20, onError: () => {} })
    await store.start()
    try {
      let builds = 0
      let release: () => void = () => {}
      const build = (signal: AbortSignal) => {
        builds++
        const n = builds
        return new Promise<string>((resolve, reject) => {
          // The first build waits, as a slow query does, until its askers leave and it is cancelled.
          if (n === 1) {
            signal.addEventListener('abort', () => {
              release = () => reject(signal.reason)
            })
            return
          }
          resolve(`built ${n}`)
        })
      }
      const leaving = new AbortController()
      const first = store.answer('k', build, leaving.signal)
      leaving.abort(new Error('the client went away'))
      // Asked again while the abandoned build has not ended yet.
      const second = store.answer('k', build, new AbortController().signal)
      release()
      await assert.rejects(first, /the client went away/)
      assert.equal((await second)?.body.toString(), 'built 2')
      assert.equal(builds, 2)
      // The abandoned build's end does not drop the second's place: a third asker shares the cached answer.
      assert.equal((await store.answer('k', build))?.body.toString(), 'built 2')
      assert.equal(builds, 2)
    } finally {
      await store.close()
    }
  })

  it('stores documents whole, so that a lookup reads them without inflating them', async () => {
    // Over 2 kB, PostgreSQL's default target, a row's longest value would be compressed (pglz).
    const { rows } = await db.pool.query<{ kind: string; long: number; compressed: number }>(
      `SELECT kind, count(*) FILTER (WHERE octet_length(body) > 2032)::int AS long,
         count(pg_column_compression(body))::int AS compressed
       FROM (SELECT 'detail' AS kind, body FROM detail_documents
             UNION ALL SELECT 'order', body FROM order_documents) d
       GROUP BY kind ORDER BY kind`,
    )
    assert.deepEqual(
      rows.map((row) => ({ ...row, long: row.long > 0 })),
      [
        { kind: 'detail', long: true, compressed: 0 },
        { kind: 'order', long: true, compressed: 0 },
      ],
    )
  })

  it('rebuilds, once upgraded, the detail documents stored compressed before', async () => {
    // As a database migrated before 0014: the default target, and the detail documents written under it.
    await db.pool.query(`ALTER TABLE detail_documents RESET (toast_tuple_target);
      UPDATE detail_documents SET body = body || '';
      DELETE FROM schema_migrations WHERE version = 14`)
    const compressed = async () => {
      const { rows } = await db.pool.query<{ n: number }>(
        'SELECT count(pg_column_compression(body))::int AS n FROM detail_documents',
      )
      return rows[0]?.n
    }
    assert.ok(((await compressed()) ?? 0) > 0)
    assert.deepEqual(await migrate(db.pool), ['0014_documents_uncompressed'])
    // 0014 forgets every version but the orders' and OCDS's: the flags, which came after it, are made again too.
    assert.deepEqual(await syncReadModel(db.pool), [
      'contracts',
      'direct-contracts',
      'public-calls',
      'arps',
      'indicators',
    ])
    assert.equal(await compressed(), 0)
  })

  it('stops caching while it cannot hear of imports, and starts again when it can', async () => {
    const errors: string[] = []
    const store = new DocumentStore(db.pool, {
      cacheBytes: 1 << 20,
      onError: (_e, what) => errors.push(what),
    })
    await store.start()
    try {
      const order = orderOf(orgA)
      const key = 'test-key'
      await store.through(key, async () => 'value')
      assert.equal(store.cached(key), 'value')
      await db.pool.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
      )
      await eventually(async () => assert.equal(store.cached(key), undefined))
      assert.equal(errors.length, 1)
      // Still answers from the read model meanwhile.
      assert.ok(await store.order(orgA.uuid as string, order.number as string))
      await eventually(async () => {
        await store.through(key, async () => 'again')
        assert.equal(store.cached(key), 'again')
      })
      // One report per outage: a second outage is reported again.
      await db.pool.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
      )
      await eventually(async () => assert.equal(store.cached(key), undefined))
      assert.equal(errors.length, 2)
    } finally {
      await store.close()
    }
  })

  it('rebuilds the documents of a kind built by another version of the code, and only those', async () => {
    const contract = records.find((r) => r.type === 'contract') as DemoRecord
    const url = `/v1/transparency/contracts/${contract.id}`
    assert.equal((await app.inject(url)).json().data.contract_number, contract.contract_number)
    // As after an upgrade that changed the contracts' document SQL: the stored documents were built by
    // another version (here, stale text), and the order documents by this one.
    await db.pool.query("UPDATE read_model_versions SET version = 'older' WHERE kind = 'contracts'")
    await db.pool.query(`UPDATE detail_documents SET body = '{"stale":true}' WHERE resource = 'contracts'`)
    const order = await db.pool.query('SELECT organization_id, number, body FROM order_documents LIMIT 1')
    assert.deepEqual(await syncReadModel(db.pool), ['contracts'])
    const { rows } = await db.pool.query<{ stale: number; version: string }>(
      `SELECT (SELECT count(*)::int FROM detail_documents WHERE resource = 'contracts' AND body LIKE '%stale%') AS stale,
         (SELECT version FROM read_model_versions WHERE kind = 'contracts') AS version`,
    )
    assert.deepEqual(rows[0], { stale: 0, version: DOCUMENT_VERSIONS.contracts })
    const again = await db.pool.query(
      'SELECT body FROM order_documents WHERE organization_id = $1 AND number = $2',
      [order.rows[0].organization_id, order.rows[0].number],
    )
    assert.equal(again.rows[0].body, order.rows[0].body)
    // Every instance drops what it cached: the detail is served from the rebuilt document.
    await eventually(async () =>
      assert.equal((await app.inject(url)).json().data.contract_number, contract.contract_number),
    )
    // A new version of the code (its SQL hashed to another version) has its kind rebuilt once, then nothing.
    assert.deepEqual(await syncReadModel(db.pool, { ...DOCUMENT_VERSIONS, order: 'next' }), ['order'])
    assert.deepEqual(await syncReadModel(db.pool, { ...DOCUMENT_VERSIONS, order: 'next' }), [])
    assert.deepEqual(await syncReadModel(db.pool), ['order'])
  })

  it('is built by migrate for data stored before the read model existed', async () => {
    await db.pool.query(
      'DROP TABLE order_documents, detail_documents, data_version; DELETE FROM schema_migrations WHERE version IN (4, 11)',
    )
    assert.deepEqual(await migrate(db.pool), ['0004_read_model', '0011_listing_items'])
    await syncReadModel(db.pool) // what `compras migrate` and `serve` run after the migrations
    const { rows } = await db.pool.query<{
      orders: number
      documents: number
      details: number
      records: number
    }>(
      `SELECT (SELECT count(*)::int FROM orders) AS orders, (SELECT count(*)::int FROM order_documents) AS documents,
         (SELECT count(*)::int FROM detail_documents) AS details,
         (SELECT (SELECT count(*) FROM contracts) + (SELECT count(*) FROM arps) + (SELECT count(*) FROM biddings))::int
           AS records`,
    )
    const counts = rows[0] as { orders: number; documents: number; details: number; records: number }
    assert.equal(counts.documents, counts.orders)
    assert.equal(counts.details, counts.records)
    assert.ok(counts.orders > 0)
  })
})
