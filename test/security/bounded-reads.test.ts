import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { MESSAGES } from '../../src/messages.js'
import { buildTestApp, listen, placesHeld } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { until } from '../helpers/http.js'
import { demoRecords } from '../helpers/records.js'

// Every question has a bounded cost (issue 66, F1 and F3): a public read's statement is cancelled past
// QUERY_TIMEOUT, price researches compute on a bounded number of places (one per address), a research too broad
// is refused before it costs, and a client that leaves takes its query with it, in the API, the portal and the
// files. A research is made to wait, as a costly one would, by a lock on the table it reads.

const records = demoRecords(
  { organizations: 2, orders: 30, contracts: 4, arps: 2, directContracts: 2, publicCalls: 2 },
  11,
)

/** Requests seem to come from this address (TRUST_PROXY is on in these apps). */
const from = (address: string) => ({ 'x-forwarded-for': address })

describe('every question has a bounded cost', () => {
  let db: TestDatabase
  /** QUERY_TIMEOUT of 1 s. */
  let quick: FastifyInstance
  let quickBase = ''
  /** A patient one: one research at a time, a research bound just under everything, two exports at once. */
  let patient: FastifyInstance
  let base = ''
  let everything = 0
  /** A description some items have, not all: a research within the bound. */
  let narrow = ''

  /** Holds price_items locked in a transaction of its own, until the function it gives is called. */
  async function lockPrices(): Promise<() => Promise<void>> {
    const client = new pg.Client({ connectionString: db.url })
    await client.connect()
    await client.query('BEGIN')
    await client.query('LOCK TABLE price_items IN ACCESS EXCLUSIVE MODE')
    return async () => {
      await client.query('ROLLBACK')
      await client.end()
    }
  }

  /** Statements of the service waiting on that lock now, by application. */
  const waiting = async (application: string) =>
    (
      await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()
         AND application_name = $1 AND wait_event_type = 'Lock'`,
        [application],
      )
    ).rows[0]?.n ?? 0

  before(async () => {
    db = await seededDatabase(records)
    everything = (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM price_items')).rows[0]
      ?.n as number
    narrow = (
      await db.pool.query<{ description: string }>(
        `SELECT d.description FROM price_items p JOIN item_descriptions d ON d.id = p.description_id
         GROUP BY d.description ORDER BY count(*), d.description LIMIT 1`,
      )
    ).rows[0]?.description as string
    quick = await buildTestApp(db, {
      env: { TRUST_PROXY: 'true', PUBLIC_RATE_LIMIT: '0', QUERY_TIMEOUT: '1' },
    })
    quickBase = await listen(quick)
    patient = await buildTestApp(db, {
      env: {
        TRUST_PROXY: 'true',
        PUBLIC_RATE_LIMIT: '0',
        QUERY_TIMEOUT: '60',
        RESEARCH_CONCURRENCY: '1',
        RESEARCH_MAX_ITEMS: String(everything - 1),
        EXPORT_CONCURRENCY: '2',
        METRICS_PORT: '0',
      },
    })
    base = await listen(patient)
  })
  after(async () => {
    await quick.close()
    await patient.close()
    await db.drop()
  })

  it('answers a statement past QUERY_TIMEOUT with a 503 that says why and when to come back', async () => {
    const release = await lockPrices()
    try {
      const api = await fetch(`${quickBase}/v1/transparency/prices?q=caneta`, {
        signal: AbortSignal.timeout(10_000),
      })
      assert.equal(api.status, 503)
      assert.equal(api.headers.get('retry-after'), '5')
      assert.deepEqual(await api.json(), { success: false, message: MESSAGES.queryTimeout })
      const page = await fetch(`${quickBase}/precos?q=papel`, { signal: AbortSignal.timeout(10_000) })
      assert.equal(page.status, 503)
      assert.equal(page.headers.get('retry-after'), '5')
      assert.match(await page.text(), /A consulta demorou demais/)
      // The statements were cancelled, not left waiting.
      assert.equal(await waiting('compras'), 0)
    } finally {
      await release()
    }
  })

  it('refuses a research too broad before it costs, in the API, the portal and the file', async () => {
    // `-zzzz` matches every description: one past the bound is read, no more.
    const api = await fetch(`${base}/v1/transparency/prices?q=-zzzz`)
    assert.equal(api.status, 422)
    const body = (await api.json()) as { success: boolean; message: string }
    assert.equal(body.success, false)
    assert.match(
      body.message,
      /^Pesquisa ampla demais: mais de [\d.]+ itens correspondem\. Use mais palavras/,
    )
    const page = await fetch(`${base}/precos?q=-zzzz`)
    assert.match(await page.text(), /role="alert"><p>Pesquisa ampla demais/)
    const file = await fetch(`${base}/v1/transparency/prices/export?q=-zzzz&format=csv`)
    assert.equal(file.status, 422)
    assert.equal(((await file.json()) as { message: string }).message, body.message)
    // Narrowed, it is answered.
    const narrowed = await fetch(`${base}/v1/transparency/prices?q=${encodeURIComponent(`"${narrow}"`)}`)
    assert.equal(narrowed.status, 200)
  })

  it('computes researches on a bounded number of places: 429 for the same address, 503 past the instance', async () => {
    const release = await lockPrices()
    try {
      const first = fetch(`${base}/v1/transparency/prices?q=caneta`, { headers: from('10.1.0.1') })
      await until(async () => (await waiting('compras')) === 1, 10_000, 'the first research to wait')
      const same = await fetch(`${base}/v1/transparency/prices?q=papel`, { headers: from('10.1.0.1') })
      assert.equal(same.status, 429)
      assert.equal(same.headers.get('retry-after'), '5')
      assert.equal(((await same.json()) as { message: string }).message, MESSAGES.researchRunning)
      const other = await fetch(`${base}/v1/transparency/prices?q=papel`, { headers: from('10.1.0.2') })
      assert.equal(other.status, 503)
      assert.equal(other.headers.get('retry-after'), '5')
      assert.equal(((await other.json()) as { message: string }).message, MESSAGES.researchesBusy)
      const portal = await fetch(`${base}/precos?q=papel`, { headers: from('10.1.0.3') })
      assert.equal(portal.status, 503)
      assert.match(await portal.text(), /Pesquisas de preços demais em andamento/)
      // The same question asked meanwhile shares the research under way, and takes no place.
      const shared = fetch(`${base}/v1/transparency/prices?q=caneta&sort=amount`, {
        headers: from('10.1.0.4'),
      })
      await release()
      assert.equal((await first).status, 200)
      assert.equal((await shared).status, 200)
    } finally {
      await release().catch(() => {})
    }
  })

  it('cancels the query of a research whose client left, and gives its place back', async () => {
    const release = await lockPrices()
    try {
      const leaving = new AbortController()
      const asked = fetch(`${base}/v1/transparency/prices?q=mesa`, {
        headers: from('10.2.0.1'),
        signal: leaving.signal,
      }).catch(() => undefined)
      await until(async () => (await waiting('compras')) === 1, 10_000, 'the research to wait')
      leaving.abort()
      await asked
      // Cancelled in PostgreSQL though the lock still holds: nothing of the service waits on it.
      await until(async () => (await waiting('compras')) === 0, 5000, 'the research to be cancelled')
      // Its place is given back once the service has heard of the cancel: the same address may research again.
      await until(
        async () => (await placesHeld(patient, 'researches')) === 0,
        5000,
        'its place to be given back',
      )
      const again = fetch(`${base}/v1/transparency/prices?q=cadeira`, { headers: from('10.2.0.1') })
      await until(async () => (await waiting('compras')) === 1, 10_000, 'the next research to wait')
      await release()
      assert.equal((await again).status, 200)
    } finally {
      await release().catch(() => {})
    }
  })

  it('cancels the query of a page whose client left, on the portal too', async () => {
    const release = await lockPrices()
    try {
      const leaving = new AbortController()
      const asked = fetch(`${base}/precos?q=caneta`, {
        headers: from('10.3.0.1'),
        signal: leaving.signal,
      }).catch(() => undefined)
      await until(async () => (await waiting('compras')) === 1, 10_000, 'the page to wait')
      leaving.abort()
      await asked
      await until(async () => (await waiting('compras')) === 0, 5000, 'the page to be cancelled')
    } finally {
      await release()
    }
  })

  it('holds an export place until its cancelled query has ended, then gives it back at once', async () => {
    const release = await lockPrices()
    const file = (address: string, signal?: AbortSignal) =>
      fetch(`${base}/v1/transparency/prices/export?q=caneta&format=csv`, { headers: from(address), signal })
    try {
      const leaving = new AbortController()
      const held = [file('10.4.0.1', leaving.signal), file('10.4.0.2', leaving.signal)].map((asked) =>
        asked.catch(() => undefined),
      )
      await until(async () => (await waiting('compras-export')) === 2, 10_000, 'two exports to wait')
      // Both places are taken while their queries run.
      assert.equal((await file('10.4.0.3')).status, 503)
      leaving.abort()
      await Promise.all(held)
      // Cancelled though the lock still holds, and only then are the places given back.
      await until(async () => (await waiting('compras-export')) === 0, 5000, 'the export queries to end')
      const next = file('10.4.0.4', AbortSignal.timeout(20_000))
      await until(async () => (await waiting('compras-export')) === 1, 10_000, 'the next export to start')
      await release()
      const answered = await next
      assert.equal(answered.status, 200)
      assert.match(await answered.text(), /Descrição/)
    } finally {
      await release().catch(() => {})
    }
  })

  it('never runs more export queries than places when files are asked and left at once', async () => {
    const release = await lockPrices()
    let most = 0
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()
           AND application_name = 'compras-export' AND state <> 'idle'`,
        )
        most = Math.max(most, rows[0]?.n ?? 0)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })()
    try {
      // Twelve files asked and left 0 to 11 ms later, each from an address of its own.
      await Promise.all(
        Array.from({ length: 12 }, async (_, k) => {
          const leaving = new AbortController()
          setTimeout(() => leaving.abort(), k)
          await fetch(`${base}/v1/transparency/prices/export?q=caneta&format=xlsx`, {
            headers: from(`10.5.0.${k + 1}`),
            signal: leaving.signal,
          }).catch(() => undefined)
        }),
      )
      await until(async () => (await waiting('compras-export')) === 0, 5000, 'the export queries to end')
      await release()
      // Every place is given back (a file asked before the lock was released may still be ending: wait for it),
      // and an ordinary export is answered: no place or connection was left behind.
      // The research places too: a summary every asker left holds its place until its cancelled query ends.
      await until(
        async () =>
          (await placesHeld(patient, 'exports')) === 0 && (await placesHeld(patient, 'researches')) === 0,
        20_000,
        'every place to be given back',
      )
      const answered = await fetch(`${base}/v1/transparency/prices/export?q=caneta&format=csv`, {
        headers: from('10.5.1.1'),
        signal: AbortSignal.timeout(10_000),
      })
      assert.equal(answered.status, 200)
      await answered.text()
      assert.ok(most <= 2, `${most} export queries at once`)
    } finally {
      sampling = false
      await sampler
      await release().catch(() => {})
    }
  })
})
