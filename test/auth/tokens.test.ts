import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it, mock } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  findToken,
  hashToken,
  issueToken,
  isWellFormedToken,
  listTokens,
  revokeToken,
  TokenCache,
  TokenError,
} from '../../src/auth/tokens.js'
import { Notifications } from '../../src/channel.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { eventually } from '../helpers/http.js'
import { demoRecords, first } from '../helpers/records.js'

describe('access tokens', () => {
  let db: TestDatabase
  const records = demoRecords()
  const organization = first(records, 'organization').uuid as string
  /** The test database's pool, counting the queries asked of it: the token lookups a cache makes. */
  const countedPool = () => {
    const counted = {
      lookups: 0,
      pool: {
        query: (...args: Parameters<typeof db.pool.query>) => {
          counted.lookups++
          return db.pool.query(...args)
        },
      } as unknown as typeof db.pool,
    }
    return counted
  }

  before(async () => {
    db = await seededDatabase(records)
  })
  after(() => db.drop())

  it('issues 256 random bits in base64url, and stores only their SHA-256', async () => {
    const a = await issueToken(db.pool, organization, 'ERP')
    const b = await issueToken(db.pool, organization, null)
    assert.match(a.token, /^[A-Za-z0-9_-]{43}$/)
    assert.notEqual(a.token, b.token)
    assert.equal(b.id, a.id + 1)
    const { rows } = await db.pool.query('SELECT token_hash, label FROM access_tokens WHERE id = $1', [a.id])
    assert.deepEqual(rows[0].token_hash, createHash('sha256').update(a.token).digest())
    assert.deepEqual(hashToken(a.token), rows[0].token_hash)
    assert.equal(rows[0].label, 'ERP')
    const stored = await db.pool.query(
      'SELECT count(*)::int AS n FROM access_tokens WHERE token_hash::text LIKE $1',
      [`%${a.token}%`],
    )
    assert.equal(stored.rows[0].n, 0)
  })

  it('refuses a token for an organization that does not exist', async () => {
    await assert.rejects(
      issueToken(db.pool, '00000000-0000-4000-8000-000000000000', null),
      (error: Error) =>
        error instanceof TokenError &&
        error.name === 'TokenError' &&
        error.message === 'no organization with uuid 00000000-0000-4000-8000-000000000000',
    )
  })

  it('finds a live token, never a revoked or unknown one, and revokes once', async () => {
    const { id, token } = await issueToken(db.pool, organization, null)
    assert.deepEqual(await findToken(db.pool, token), { tokenId: id, organizationId: organization })
    assert.equal(await findToken(db.pool, 'A'.repeat(43)), undefined)
    assert.equal(await revokeToken(db.pool, id), true)
    assert.equal(await revokeToken(db.pool, id), false)
    assert.equal(await revokeToken(db.pool, 999_999), false)
    assert.equal(await findToken(db.pool, token), undefined)
  })

  it('lists tokens with their organization, label, dates and last use, never the token', async () => {
    const { id, token } = await issueToken(db.pool, organization, 'listado')
    await db.pool.query(
      `INSERT INTO access_log (at, token_id, organization_id, order_number, status)
       VALUES ('2030-05-06T07:08:09Z', $1, $2, 'x', 200), ('2030-05-06T07:08:01Z', $1, $2, 'y', 200)`,
      [id, organization],
    )
    await revokeToken(db.pool, id)
    const listed = (await listTokens(db.pool)).find((t) => t.id === id)
    assert.ok(listed)
    assert.equal(listed.organization_id, organization)
    assert.equal(listed.organization_name, first(records, 'organization').name)
    assert.equal(listed.label, 'listado')
    assert.match(listed.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    assert.equal(listed.last_used_at, '2030-05-06T07:08:09Z')
    assert.match(listed.revoked_at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    assert.ok(!JSON.stringify(await listTokens(db.pool)).includes(token))
    const ids = (await listTokens(db.pool)).map((t) => t.id)
    assert.deepEqual(
      ids,
      [...ids].sort((x, y) => x - y),
    )
  })

  it('keeps the access records of a token deleted by hand (an audit trail outlives its tokens)', async () => {
    const { id } = await issueToken(db.pool, organization, 'apagado')
    await db.pool.query(
      `INSERT INTO access_log (at, token_id, organization_id, order_number, status)
       VALUES ('2030-07-01T00:00:00Z', $1, $2, 'z', 200)`,
      [id, organization],
    )
    await db.pool.query('DELETE FROM access_tokens WHERE id = $1', [id])
    const { rows } = await db.pool.query('SELECT order_number FROM access_log WHERE token_id = $1', [id])
    assert.deepEqual(rows, [{ order_number: 'z' }])
  })

  it('tells a well-formed token by its form alone', () => {
    assert.equal(isWellFormedToken('a'.repeat(43)), true)
    assert.equal(isWellFormedToken('a'.repeat(42)), false)
    assert.equal(isWellFormedToken('a'.repeat(44)), false)
    assert.equal(isWellFormedToken(`${'a'.repeat(42)}=`), false)
    assert.equal(isWellFormedToken(`Bearer ${'a'.repeat(36)}`), false)
  })

  it('caches lookups, unknown tokens too, for at most its time to live', async () => {
    const cache = new TokenCache(db.pool, { ttlMs: 300, maxEntries: 2 })
    const { id, token } = await issueToken(db.pool, organization, null)
    assert.deepEqual(await cache.verify(token), { tokenId: id, organizationId: organization })
    await revokeToken(db.pool, id)
    // Within the time to live the answer is the cached one...
    assert.deepEqual(await cache.verify(token), { tokenId: id, organizationId: organization })
    await new Promise((resolve) => setTimeout(resolve, 350))
    // ...and after it, the database's.
    assert.equal(await cache.verify(token), undefined)
    // A malformed token is refused without a lookup (the pool is never asked).
    const closed = new TokenCache({ query: () => Promise.reject(new Error('asked')) } as never)
    assert.equal(await closed.verify('not-a-token'), undefined)
    // The cache holds at most its size, and starts again when full.
    const second = await issueToken(db.pool, organization, null)
    const third = await issueToken(db.pool, organization, null)
    const entries = (cache as unknown as { entries: Map<string, unknown> }).entries
    await cache.verify(second.token)
    assert.equal(entries.size, 2, 'kept until full')
    await cache.verify(third.token)
    assert.equal(entries.size, 1)
  })

  it('keeps answers while it hears of token changes, and drops them at any change, by hand too', async () => {
    const errors: Error[] = []
    const notifications = new Notifications(db.pool, (error) => errors.push(error))
    const counted = countedPool()
    const cache = new TokenCache(counted.pool, { ttlMs: 50, notifications })
    const entries = (cache as unknown as { entries: Map<string, unknown> }).entries
    const a = await issueToken(db.pool, organization, null) // before listening: its notification unheard
    await notifications.start()
    try {
      assert.deepEqual(await cache.verify(a.token), { tokenId: a.id, organizationId: organization })
      await sleep(150) // three times ttlMs: heard, the answer is kept
      assert.deepEqual(await cache.verify(a.token), { tokenId: a.id, organizationId: organization })
      assert.equal(counted.lookups, 1)
      // An unknown token, then issued by hand in SQL: the "unknown" kept is dropped.
      const later = 'L'.repeat(43)
      assert.equal(await cache.verify(later), undefined)
      const { rows } = await db.pool.query<{ id: string }>(
        'INSERT INTO access_tokens (organization_id, token_hash) VALUES ($1, $2) RETURNING id',
        [organization, hashToken(later)],
      )
      await eventually(async () =>
        assert.deepEqual(await cache.verify(later), {
          tokenId: Number(rows[0]?.id),
          organizationId: organization,
        }),
      )
      // Revoked by hand: seen without waiting for any time to live.
      await db.pool.query('UPDATE access_tokens SET revoked_at = now() WHERE id = $1', [a.id])
      await eventually(async () => assert.equal(await cache.verify(a.token), undefined))
      // The listening connection lost: what was kept is dropped (a change may go unheard), and reported once.
      await cache.verify(later)
      assert.ok(entries.has(later))
      await db.pool.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
      )
      await eventually(async () => assert.equal(errors.length, 1))
      assert.equal(entries.size, 0)
      // Listening again, it hears the next change.
      await eventually(async () => assert.equal(notifications.listening, true))
      await cache.verify(later)
      await revokeToken(db.pool, Number(rows[0]?.id))
      await eventually(async () => assert.equal(await cache.verify(later), undefined))
      assert.equal(errors.length, 1)
    } finally {
      await notifications.close()
    }
  })

  it('spreads the times to live of answers kept together, while it hears of changes, over its second half', async () => {
    const notifications = new Notifications(db.pool, () => {})
    const counted = countedPool()
    const issued = await Promise.all(
      Array.from({ length: 20 }, () => issueToken(db.pool, organization, null)),
    )
    await notifications.start()
    mock.timers.enable({ apis: ['Date'], now: Date.now() })
    try {
      const cache = new TokenCache(counted.pool, { notifications, heardTtlMs: 1000 })
      const askAll = async () => {
        counted.lookups = 0
        for (const { token } of issued) await cache.verify(token)
        return counted.lookups
      }
      assert.equal(await askAll(), 20)
      mock.timers.tick(499)
      assert.equal(await askAll(), 0, 'every answer lives at least half of heardTtlMs')
      // A quarter of the way into the spread (625 ms), about a quarter of them; three quarters of the way
      // (875 ms), about half of them more.
      mock.timers.tick(126)
      const quarter = await askAll()
      assert.ok(quarter >= 4 && quarter <= 6, `${quarter} of 20 looked up again at 625 ms`)
      mock.timers.tick(250)
      const half = await askAll()
      assert.ok(half >= 9 && half <= 11, `${half} of 20 looked up again at 875 ms`)
      // Each answer is kept heardTtlMs at most: all are looked up again by then.
      mock.timers.tick(1000)
      assert.equal(await askAll(), 20)
    } finally {
      mock.timers.reset()
      await notifications.close()
    }
  })

  it('answers from the cache for less than its time to live, never at its end', async () => {
    mock.timers.enable({ apis: ['Date'], now: Date.now() })
    try {
      const cache = new TokenCache(db.pool, { ttlMs: 1000 })
      const { id, token } = await issueToken(db.pool, organization, null)
      assert.deepEqual(await cache.verify(token), { tokenId: id, organizationId: organization })
      await revokeToken(db.pool, id)
      mock.timers.tick(999)
      assert.deepEqual(await cache.verify(token), { tokenId: id, organizationId: organization })
      mock.timers.tick(1)
      assert.equal(await cache.verify(token), undefined, 'a revocation is seen once ttlMs has passed')
    } finally {
      mock.timers.reset()
    }
  })
})
