import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { DATA_CHANNEL, ImportSignal, Notifications } from '../../src/channel.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import type { FeedPage } from '../../src/feeds/change-feeds.js'
import { importRecords } from '../../src/import/importer.js'
import { longPoll } from '../../src/routes/http/long-poll.js'
import { buildTestApp, listen } from '../helpers/app.js'
import { adminUrl, seededDatabase, type TestDatabase } from '../helpers/db.js'
import { request, turns, until } from '../helpers/http.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// Long polling as it must behave in the moments that are easy to get wrong: an import that commits while a
// wait's read is in flight, the app closing with waiters, and the listening connection down.

const EMPTY: FeedPage = { entries: '[]', count: 0, nextCursor: 'x', hasMore: false }

describe('long polling in the moments between', () => {
  let db: TestDatabase
  const records = demoRecords(
    { organizations: 1, orders: 2, contracts: 3, arps: 1, directContracts: 1, publicCalls: 1 },
    64,
  )
  let changes = 0
  /** An import that changes one contract: an entry in the feed, and a NOTIFY to every instance. */
  const change = async () => {
    const contract: DemoRecord = { ...first(records, 'contract'), object_details: `Mudança ${++changes}` }
    const result = await importRecords(db.pool, [source(ndjson([contract]))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
  }
  const end = async (app: FastifyInstance) => {
    let cursor = ''
    for (const _turn of turns(10_000, 'the feed')) {
      const page = (await app.inject({ url: `/v1/transparency/changes?per_page=1000${cursor}` })).json().data
      if (!page.has_more) return page.next_cursor as string
      cursor = `&after=${page.next_cursor}`
    }
    throw new Error('unreachable: turns() throws past its last turn')
  }

  before(async () => {
    db = await seededDatabase(records)
  })
  after(async () => {
    await db.drop()
  })

  it('hears an import that commits while its read is in flight, and reads again at once', async () => {
    const notifications = new Notifications(db.pool, () => {})
    const imports = new ImportSignal(notifications)
    let notified = 0
    notifications.subscribe(DATA_CHANNEL, () => notified++)
    await notifications.start()
    try {
      let reads = 0
      const started = Date.now()
      const page = await longPoll(
        undefined,
        imports,
        20_000,
        30_000,
        async () => {
          reads++
          if (reads > 1) return { ...EMPTY, entries: '[{}]', count: 1 }
          // This read's snapshot came before the import: empty. The import commits, and is heard, before it returns.
          const before = notified
          await change()
          await until(() => notified > before, 5000, 'the NOTIFY')
          return EMPTY
        },
        (found) => found.count,
      )
      assert.equal(page.count, 1)
      assert.equal(reads, 2)
      assert.ok(Date.now() - started < 10_000, 'woken by the import, not by the deadline')
    } finally {
      await notifications.close()
    }
  })

  it('answers a waiting reader at once when the app closes', async () => {
    const app = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '0' } })
    const base = await listen(app)
    const next = await end(app)
    const waiting = request(`${base}/v1/transparency/changes?after=${next}&wait=30`)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const closing = Date.now()
    await app.close()
    const answered = await waiting
    assert.ok(Date.now() - closing < 10_000, 'closed without waiting out the wait')
    assert.equal(answered.status, 200)
    assert.deepEqual(JSON.parse(answered.body).data.data, [])
  })

  it('reads again on its own while the listening connection is down, and gets the import', async () => {
    const app = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '0' } })
    const admin = new pg.Client({ connectionString: adminUrl() })
    await admin.connect()
    try {
      const next = await end(app)
      // Connections open for the reads and the import; then no new one may be made, and the listening one
      // is cut: it cannot come back, and no NOTIFY reaches the instance.
      await Promise.all([1, 2, 3].map(() => db.pool.query('SELECT pg_sleep(0.05)')))
      await admin.query(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS false`)
      await db.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
      )
      await new Promise((resolve) => setTimeout(resolve, 1500)) // its first attempts to listen again fail
      const started = Date.now()
      const waiting = app.inject({ url: `/v1/transparency/changes?after=${next}&wait=25` })
      await new Promise((resolve) => setTimeout(resolve, 300))
      await change()
      const answered = await waiting
      assert.equal(answered.statusCode, 200)
      const contract = first(records, 'contract').id
      assert.ok(answered.json().data.data.some((e: { id: string }) => e.id === contract))
      assert.ok(Date.now() - started < 15_000, 'read again within seconds, not at the deadline')
    } finally {
      await admin.query(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS true`)
      await admin.end()
      await app.close()
    }
  })
})
