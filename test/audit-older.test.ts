import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { issueToken } from '../src/auth/tokens.js'
import { loggedUrl } from '../src/plugins/requests.js'
import { resetSeconds } from '../src/routes/http/send-answer.js'
import { serving } from './helpers/app.js'
import { seededDatabase, type TestDatabase } from './helpers/db.js'
import { request } from './helpers/http.js'
import { demoRecords, first, TINY } from './helpers/records.js'

// Older behaviours a hand audit of mutants found untested (issue 66, point 8): each test fails on its mutant.

describe('older behaviours a mutant audit found untested', () => {
  let db: TestDatabase
  const records = demoRecords(TINY, 17)
  const contract = first(records, 'contract', (c) => c.bidding_uuid === null)
  const order = first(records, 'order')

  before(async () => {
    db = await seededDatabase(records)
  })
  after(() => db.drop())

  it('rounds the seconds of Retry-After and X-RateLimit-Reset up, never down to a moment too early', async () => {
    const hit = (resetMs: number) => ({ allowed: false, limit: 1, remaining: 0, resetMs })
    assert.equal(resetSeconds(hit(1)), 1)
    assert.equal(resetSeconds(hit(1000)), 1)
    assert.equal(resetSeconds(hit(1001)), 2)
    assert.equal(resetSeconds(hit(59_400)), 60)
    // And as a client meets it: past the limit, both headers are whole seconds to the window's end.
    const { base, close } = await serving(db, { env: { PUBLIC_RATE_LIMIT: '1' } })
    try {
      await request(`${base}/v1/transparency/helpers/bidding-statuses`)
      const refused = await request(`${base}/v1/transparency/helpers/bidding-statuses`)
      assert.equal(refused.status, 429)
      // A second or so after the first of a one-minute window: 60, or 59 on a machine slow enough.
      assert.match(refused.headers['retry-after'] ?? '', /^(59|60)$/)
      assert.equal(refused.headers['x-ratelimit-reset'], refused.headers['retry-after'])
    } finally {
      await close()
    }
  })

  it('masks a CPF written with %2E for its dots in the request log, as one written plainly', async () => {
    assert.equal(loggedUrl('/x?q=123%2E456%2E789-01'), '/x?q=***.456.789-**')
    assert.equal(loggedUrl('/x?q=123%2e456%2e78901'), '/x?q=***.456.789-**')
    const lines: string[] = []
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const { base, close } = await serving(db, {
      env: { PUBLIC_RATE_LIMIT: '0', LOG_REQUESTS: 'true', LOG_LEVEL: 'info' },
      logStream,
    })
    try {
      await request(`${base}/v1/transparency/contracts?provider_name=123%2E456%2E789-01`)
      await request(`${base}/contratos?q=123%2e456%2e789-01`)
    } finally {
      await close()
    }
    const log = lines.join('')
    assert.ok(log.includes('***.456.789-**'), log.slice(0, 500))
    assert.ok(!/123(\.|%2E)456(\.|%2E)789-?01/i.test(log), 'a whole CPF in the log')
  })

  it('dates an OCDS period that starts and ends on days at their start and end in Brasília', async () => {
    const { base, close } = await serving(db, { env: { PUBLIC_RATE_LIMIT: '0' } })
    try {
      const ocid = `ocds-xxxxxx-${contract.id}`
      const answer = await request(`${base}/v1/ocds/records/${ocid}`)
      assert.equal(answer.status, 200)
      const compiled = JSON.parse(answer.body).records[0].compiledRelease
      const [ocdsContract] = compiled.contracts as { period: { startDate: string; endDate: string } }[]
      assert.equal(ocdsContract?.period.startDate, `${contract.date_start}T00:00:00-03:00`)
      assert.equal(ocdsContract?.period.endDate, `${contract.date_end}T23:59:59-03:00`)
    } finally {
      await close()
    }
  })

  it("reads an organ's feed in its own numbering, though a later entry was dated earlier", async () => {
    const organization = order.organization_uuid as string
    const { token } = await issueToken(db.pool, organization, null)
    // Two entries after the organ's last: the later one (by its number) dated a day before the other.
    await db.pool.query(
      `INSERT INTO order_changes (organization_id, number, change, changed_at, org_seq)
       SELECT $1, $2, 'updated', t.at, (SELECT max(org_seq) FROM order_changes WHERE organization_id = $1) + t.k
       FROM (VALUES (1, now()), (2, now() - interval '1 day')) t(k, at)`,
      [organization, order.number],
    )
    await db.pool.query(
      `UPDATE order_feed_numbers SET last = (SELECT max(org_seq) FROM order_changes WHERE organization_id = $1)
       WHERE organization_id = $1`,
      [organization],
    )
    const { base, close } = await serving(db, { env: { PUBLIC_RATE_LIMIT: '0' } })
    try {
      const entries: { changed_at: string }[] = []
      let after = ''
      for (let page = 0; page < 100; page++) {
        const answer = await request(`${base}/external/orders/changes?per_page=50${after}`, {
          authorization: token,
        })
        assert.equal(answer.status, 200, answer.body)
        const data = JSON.parse(Buffer.from(answer.body, 'latin1').toString()).data
        entries.push(...data.data)
        if (!data.has_more) break
        after = `&after=${data.next_cursor}`
      }
      const [second, last] = entries.slice(-2) as [{ changed_at: string }, { changed_at: string }]
      // In numbering order: the entry dated a day earlier comes last, where its number puts it.
      assert.ok(last.changed_at < second.changed_at, `${second.changed_at} then ${last.changed_at}`)
    } finally {
      await close()
    }
  })
})
