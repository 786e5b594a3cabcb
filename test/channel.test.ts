import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { DATA_CHANNEL, ImportSignal, Notifications } from '../src/channel.js'
import { createPool, type Pool } from '../src/db/pool.js'
import { adminUrl, createTestDatabase, type TestDatabase } from './helpers/db.js'
import { eventually } from './helpers/http.js'

// The listening connection (src/channel.ts) on a real server: an outage is reported once and its
// subscribers hear they may have missed something, it listens again once the server lets it, and a closed
// one leaves nothing behind on the connection it gives back. Every instance's cache relies on it.

describe('the listening connection', () => {
  let db: TestDatabase
  let pool: Pool
  before(async () => {
    db = await createTestDatabase()
    // Two connections: the listener's, and one for the test. The pool hands out the connection given back
    // last, so the one the listener gives back is the one a test takes next.
    pool = createPool(db.url, { max: 2 })
  })
  after(async () => {
    await allowConnections(true)
    await pool.end()
    await db.drop()
  })

  /** Runs a statement as the server's administrator (outside the test database). */
  async function admin(sql: string, values: unknown[] = []) {
    const client = new pg.Client({ connectionString: adminUrl() })
    await client.connect()
    try {
      return await client.query(sql, values)
    } finally {
      await client.end()
    }
  }
  const allowConnections = (allow: boolean) => admin(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS ${allow}`)
  /** Ends the backend listening in the test database, as a restart or a network cut would. */
  const cutListener = () =>
    admin(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = $1 AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
      [db.name],
    )

  /** A listener on a pool of its own, with no connection open yet, and the failures it reports. */
  function freshListener(drop: () => void = () => {}) {
    const errors: Error[] = []
    const fresh = createPool(db.url, { max: 2 })
    const notifications = new Notifications(fresh, (error) => errors.push(error))
    notifications.subscribe(DATA_CHANNEL, drop)
    return { errors, fresh, notifications }
  }

  it('reports an outage once however many retries fail, and listens again when it can', async () => {
    const errors: Error[] = []
    let drops = 0
    const notifications = new Notifications(pool, (error) => errors.push(error))
    notifications.subscribe(DATA_CHANNEL, () => drops++)
    assert.equal(notifications.listening, false, 'not listening before it starts')
    await notifications.start()
    try {
      assert.equal(notifications.listening, true)
      assert.equal(errors.length, 0)

      await allowConnections(false)
      const before = drops
      await cutListener()
      await eventually(async () => assert.equal(notifications.listening, false))
      assert.ok(drops > before, 'subscribers are told they may have missed a notification')
      // Two retries a second apart fail while the server refuses connections: still one report.
      await sleep(2500)
      assert.equal(errors.length, 1)

      await allowConnections(true)
      await eventually(async () => assert.equal(notifications.listening, true))
      const heard = drops
      await pool.query(`SELECT pg_notify('${DATA_CHANNEL}', '')`)
      await eventually(async () => assert.ok(drops > heard, 'a notification is heard again'))

      // The next outage is reported again.
      await cutListener()
      await eventually(async () => assert.equal(errors.length, 2))
      await eventually(async () => assert.equal(notifications.listening, true))
    } finally {
      await allowConnections(true)
      await notifications.close()
    }
  })

  it('reports a start that cannot connect, and keeps trying until it can', async () => {
    const { errors, fresh, notifications } = freshListener()
    await allowConnections(false)
    try {
      await notifications.start()
      assert.equal(notifications.listening, false)
      assert.equal(errors.length, 1)
      await allowConnections(true)
      await eventually(async () => assert.equal(notifications.listening, true))
    } finally {
      await allowConnections(true)
      await notifications.close()
      await fresh.end()
    }
  })

  it('closed while a start that cannot connect is under way, it reports nothing and tries no more', async () => {
    const { errors, fresh, notifications } = freshListener()
    await allowConnections(false)
    try {
      const starting = notifications.start()
      await notifications.close()
      await starting
      await sleep(1500) // past the retry it would have made
      assert.deepEqual(errors, [])
      assert.equal(fresh.totalCount, 0)
    } finally {
      await allowConnections(true)
      await fresh.end()
    }
  })

  it('gives back a connection lost before it listens, reports it, and listens on a new one', async () => {
    let drops = 0
    const { errors, fresh, notifications } = freshListener(() => drops++)
    // The first connection's backend ends itself before the LISTEN that follows it in its queue.
    let first = true
    fresh.on('connect', (client) => {
      if (!first) return
      first = false
      client.query('SELECT pg_terminate_backend(pg_backend_pid())').catch(() => {})
    })
    try {
      await notifications.start()
      assert.equal(errors.length, 1, 'reported')
      await eventually(async () => assert.equal(notifications.listening, true))
      assert.equal(fresh.totalCount, 1, 'the lost connection was given back, not kept')
      const before = drops
      await pool.query(`SELECT pg_notify('${DATA_CHANNEL}', '')`)
      await eventually(async () => assert.ok(drops > before, 'hears on the new connection'))
    } finally {
      await notifications.close()
      await fresh.end()
    }
  })

  it('closed, it gives its connection back without LISTEN or its listeners, and stops', async () => {
    let drops = 0
    const notifications = new Notifications(pool, () => {})
    notifications.subscribe(DATA_CHANNEL, () => drops++)
    await notifications.start()
    await notifications.close()
    assert.equal(notifications.listening, false)
    const client = await pool.connect()
    try {
      const { rows } = await client.query('SELECT pg_listening_channels() AS channel')
      assert.deepEqual(rows, [], 'UNLISTEN * on close')
      const before = drops
      await client.query(`LISTEN ${DATA_CHANNEL}`)
      await client.query(`SELECT pg_notify('${DATA_CHANNEL}', '')`)
      client.emit('error', new Error('an error on the pooled connection, later'))
      await sleep(200)
      assert.equal(drops, before, 'the closed listener hears nothing on the connection it gave back')
      await client.query('UNLISTEN *')
    } finally {
      client.release()
    }
  })

  it('closed while it connects, it never listens', async () => {
    const notifications = new Notifications(pool, () => {})
    notifications.subscribe(DATA_CHANNEL, () => {})
    const starting = notifications.start()
    await notifications.close()
    await starting
    assert.equal(notifications.listening, false)
    const client = await pool.connect()
    try {
      const { rows } = await client.query('SELECT pg_listening_channels() AS channel')
      assert.deepEqual(rows, [], 'the connection it was making is given back unlistened')
    } finally {
      client.release()
    }
  })

  it('makes a wait end at once once closed, and last a second at most while nothing is heard', async () => {
    const notifications = new Notifications(pool, () => {}) // never started: it hears nothing
    const signal = new ImportSignal(notifications)
    // Not listening: a long wait is cut to a second, so that the waiter reads again on its own.
    const capped = signal.next(60_000)
    await Promise.race([
      capped.heard,
      sleep(20_000, undefined, { ref: false }).then(() =>
        assert.fail('a wait outlasted the second it may last unheard'),
      ),
    ])
    signal.close()
    let heard = false
    const late = signal.next(60_000)
    void late.heard.then(() => {
      heard = true
    })
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(heard, true, 'a wait asked after close ends at once')
  })
})
