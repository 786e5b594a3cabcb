import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo, LookupFunction } from 'node:net'
import { after, before, beforeEach, describe, it } from 'node:test'
import { Webhook } from 'standardwebhooks'
import type { DemoRecord } from '../../src/demo/generator.js'
import { type PublicRow, publicEntry, publicFeedSql } from '../../src/feeds/change-feeds.js'
import { importRecords } from '../../src/import/importer.js'
import { Cursors } from '../../src/queries/cursors.js'
import { AddressRefused, checkedUrl, Destinations, parseCidrs } from '../../src/webhooks/addresses.js'
import { Dispatcher, KEPT_ATTEMPTS, retryDelay } from '../../src/webhooks/dispatcher.js'
import { addSubscription, redeliver, rotateSecret } from '../../src/webhooks/subscriptions.js'
import { runCli, spawnCli } from '../helpers/cli.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { until } from '../helpers/http.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'
import { freePort } from '../helpers/redis.js'

// Webhooks (issue 70, part 2) as an integrator's receiver meets them: every delivery verified with the
// standardwebhooks package, in commit order, a filter's entries exactly the feed's with the same filter, a
// tombstone for a withdrawal, retries until the receiver recovers, and the refusals (a private address, after a
// DNS change too; a redirect; 410). The kill test runs two `compras serve` processes over one database.

interface Received {
  id: string
  signature: string
  body: string
  entry: { cursor: string; kind: string; id: string; change: string; record?: Record<string, unknown> }
}

/** A receiver on the loopback: each request verified and kept; `answer` decides each one's status. */
class Receiver {
  readonly received: Received[] = []
  readonly verified: Received[] = []
  answer: (request: IncomingMessage, count: number) => number | 'stall' = () => 200
  private server: Server | undefined
  private readonly stalled: (() => void)[] = []
  secrets: string[] = []
  url = ''

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        const got: Received = {
          id: String(request.headers['webhook-id']),
          signature: String(request.headers['webhook-signature']),
          body,
          entry: JSON.parse(body) as Received['entry'],
        }
        this.received.push(got)
        // Every secret given must verify the delivery: during a rotation, both do.
        for (const secret of this.secrets)
          new Webhook(secret).verify(body, request.headers as Record<string, string>)
        const status = this.answer(request, this.received.length)
        if (status === 'stall') {
          this.stalled.push(() => response.destroy())
          return
        }
        if (status === 200) this.verified.push(got)
        if (status === 302) response.setHeader('location', `${this.url}/elsewhere`)
        response.statusCode = status
        response.end(status === 299 ? 'x'.repeat(200_000) : 'ok')
      })
    })
    const server = this.server
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  }

  async close(): Promise<void> {
    for (const release of this.stalled) release()
    this.server?.closeAllConnections()
    await new Promise((resolve) => this.server?.close(resolve))
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** An entry as the log numbers it, without its record (which is the record as it is when it is read). */
const head = (body: string) => {
  const { record: _record, ...entry } = JSON.parse(body) as Record<string, unknown>
  return JSON.stringify(entry)
}

describe('webhooks', () => {
  let db: TestDatabase
  let cursors: Cursors
  let dispatcher: Dispatcher | undefined
  const receiver = new Receiver()
  const logged: { level: string; fields: object; message: string }[] = []
  const outcomes: string[] = []
  const records = demoRecords(
    { organizations: 2, orders: 4, contracts: 6, arps: 2, directContracts: 3, publicCalls: 4 },
    71,
  )
  const loopback = new Destinations(parseCidrs('127.0.0.0/8'))

  const dispatch = (
    options: { resolve?: LookupFunction; destinations?: Destinations; retryForMs?: number } = {},
  ) => {
    dispatcher = new Dispatcher({
      pool: db.pool,
      cursors,
      destinations: options.destinations ?? loopback,
      concurrency: 4,
      timeoutMs: 1000,
      baseDelayMs: 20,
      maxDelayMs: 100,
      ...(options.resolve ? { resolve: options.resolve } : {}),
      ...(options.retryForMs ? { retryForMs: options.retryForMs } : {}),
      log: {
        warn: (fields, message) => logged.push({ level: 'warn', fields, message }),
        error: (fields, message) => logged.push({ level: 'error', fields, message }),
      },
      metrics: { delivered: (outcome) => outcomes.push(outcome) },
    })
    dispatcher.start()
    return dispatcher
  }
  /** The public feed after a position, with a subscription's kinds and organization, as the feed serves it. */
  const feed = async (after: string, kinds?: string[], organizationId?: string) => {
    const { text, values } = publicFeedSql({ after: Number(after), kinds, organizationId, withRecords: true })
    return (await db.pool.query<PublicRow>(text, values)).rows.map((row) => publicEntry(row, true, cursors))
  }
  const end = async () =>
    (await db.pool.query<{ last: string }>('SELECT coalesce(max(seq), 0)::text AS last FROM public_changes'))
      .rows[0]?.last as string
  const load = async (lines: readonly unknown[]) => {
    const result = await importRecords(db.pool, [source(ndjson(lines))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    dispatcher?.wake()
  }
  const subscribe = async (asked: { kinds?: string; filter?: string } = {}) => {
    const made = await addSubscription(db.pool, { url: receiver.url, ...asked }, loopback)
    receiver.secrets = [made.secret]
    return made
  }
  const changed = (record: DemoRecord, n: number): DemoRecord =>
    record.type === 'contract'
      ? { ...record, object_details: `${record.object_details} (${n})` }
      : { ...record, object_details: `${record.object_details} [${n}]` }

  before(async () => {
    db = await createTestDatabase()
    cursors = new Cursors(db.pool)
    await cursors.ready()
    await receiver.start()
    assert.equal((await importRecords(db.pool, [source(ndjson(records))])).ok, true)
  })
  beforeEach(async () => {
    await dispatcher?.close()
    dispatcher = undefined
    await db.pool.query('DELETE FROM webhook_subscriptions')
    receiver.received.length = 0
    receiver.verified.length = 0
    receiver.answer = () => 200
    logged.length = 0
    outcomes.length = 0
  })
  after(async () => {
    await dispatcher?.close()
    await receiver.close()
    await db?.drop()
  })

  it('delivers each change after the subscription, in commit order, signed, as the feed gives its entry', async () => {
    const start = await end()
    await subscribe()
    dispatch()
    const contract = first(records, 'contract')
    const call = first(records, 'public_call')
    for (let n = 1; n <= 3; n++) await load([changed(contract, n), changed(call, n)])
    const expected = await feed(start)
    // The changed records, and those whose documents show them (a call shows its contracts...).
    assert.ok(expected.length >= 6)
    await until(async () => receiver.verified.length >= expected.length, 10_000, 'the deliveries')
    assert.deepEqual(
      receiver.verified.map((r) => head(r.body)),
      expected.map(head),
    )
    // Each carries its record as the feed gives it: the last delivery of a record, as it is now.
    assert.equal(receiver.verified.at(-1)?.body, expected.at(-1))
    // webhook-id is the entry's cursor: a mirror resumes from it.
    assert.deepEqual(
      receiver.verified.map((r) => r.id),
      receiver.verified.map((r) => r.entry.cursor),
    )
    assert.deepEqual(outcomes, Array(expected.length).fill('delivered'))
  })

  it("gives a filtered subscription exactly the feed's entries with the same filter, and tombstones", async () => {
    const organization = first(records, 'organization').uuid as string
    const start = await end()
    await subscribe({ kinds: 'contracts,arps', filter: `organization_uuid=${organization}` })
    dispatch()
    const mine = records.filter(
      (r) =>
        (r.type === 'contract' || r.type === 'arp' || r.type === 'public_call') &&
        r.organization_uuid === organization,
    )
    const others = records.filter((r) => r.type === 'contract' && r.organization_uuid !== organization)
    await load([...mine.map((r) => changed(r, 7)), ...others.map((r) => changed(r, 7))])
    const expected = await feed(start, ['contracts', 'arps'], organization)
    assert.ok(expected.length >= 3)
    await until(async () => receiver.verified.length >= expected.length, 10_000, 'the filtered deliveries')
    await sleep(200)
    assert.deepEqual(
      receiver.verified.map((r) => head(r.body)),
      expected.map(head),
    )
    // A contract of the organization withdrawn: its tombstone comes too, as the feed gives it (which no longer
    // holds the withdrawn record's earlier entries: they were delivered before it was withdrawn).
    const gone = records.find(
      (r) =>
        r.type === 'contract' &&
        r.organization_uuid === organization &&
        !records.some(
          (o) =>
            o.type === 'order' &&
            o.contract_number === r.contract_number &&
            o.organization_uuid === organization,
        ),
    ) as DemoRecord
    const before = await end()
    await load([{ type: 'withdraw', record: 'contract', organization_uuid: organization, id: gone.id }])
    const after = await feed(before, ['contracts', 'arps'], organization)
    await until(
      async () => receiver.verified.length >= expected.length + after.length,
      10_000,
      'the deliveries after the withdrawal',
    )
    assert.deepEqual(
      receiver.verified.slice(expected.length).map((r) => head(r.body)),
      after.map(head),
    )
    const tombstone = receiver.verified.at(-1)?.entry
    assert.deepEqual([tombstone?.change, tombstone?.id, tombstone?.record], ['withdrawn', gone.id, undefined])
  })

  it("takes the listing's other filters: a record is delivered when it meets them as it is now", async () => {
    const calls = records.filter((r) => r.type === 'public_call')
    const [hit, miss] = calls as [DemoRecord, DemoRecord]
    await subscribe({ kinds: 'public-calls', filter: 'q=estetoscopio' })
    dispatch()
    await load([
      { ...hit, object_details: 'Aquisição de estetoscópios para as unidades de saúde' },
      changed(miss, 9),
    ])
    await until(async () => receiver.verified.length >= 1, 10_000, 'the matching delivery')
    await sleep(300)
    assert.deepEqual(
      receiver.verified.map((r) => r.entry.id),
      [hit.id],
    )
  })

  it('tries again with backoff while the receiver fails, then delivers every entry in order', async () => {
    const start = await end()
    await subscribe({ kinds: 'contracts' })
    // The first five attempts fail: a 500, a 503, a timeout, a refused redirect and a 404.
    const failures: (number | 'stall')[] = [500, 503, 'stall', 302, 404]
    receiver.answer = (request, count) => {
      if (request.url?.endsWith('/elsewhere')) return 200
      return failures[count - 1] ?? 200
    }
    dispatch()
    const contract = first(records, 'contract')
    for (let n = 11; n <= 14; n++) await load([changed(contract, n)])
    const expected = await feed(start, ['contracts'])
    await until(
      async () => receiver.verified.length >= expected.length,
      20_000,
      'the deliveries after the failures',
    )
    assert.deepEqual(
      receiver.verified.map((r) => head(r.body)),
      expected.map(head),
    )
    // Every failed attempt was of the first entry, its id unchanged, and no redirect was followed.
    assert.deepEqual(
      receiver.received.slice(0, 6).map((r) => r.id),
      Array(6).fill(receiver.verified[0]?.id),
    )
    assert.ok(!receiver.received.some((r) => r.body === '' || r.id === 'undefined'))
    const { rows } = await db.pool.query<{ status: number | null; error: string | null }>(
      'SELECT status, error FROM webhook_deliveries ORDER BY id LIMIT 5',
    )
    assert.deepEqual(
      rows.map((r) => r.status),
      [500, 503, null, 302, 404],
    )
    assert.match(rows[2]?.error as string, /no answer within 1 s/)
    assert.ok(outcomes.filter((o) => o === 'failed').length === 5)
  })

  it('removes a subscription its endpoint says is gone (410), and disables one failing past the limit', async () => {
    const { id } = await subscribe()
    receiver.answer = () => 410
    dispatch()
    await load([changed(first(records, 'arp'), 21)])
    await until(
      async () =>
        (await db.pool.query('SELECT 1 FROM webhook_subscriptions WHERE id = $1', [id])).rowCount === 0,
      10_000,
      'the subscription removed',
    )
    assert.ok(logged.some((l) => l.message.includes('410 Gone')))
    await dispatcher?.close()

    const failing = await subscribe()
    await db.pool.query(
      "UPDATE webhook_subscriptions SET failing_since = now() - interval '3 days' WHERE id = $1",
      [failing.id],
    )
    receiver.answer = () => 500
    dispatch()
    await load([changed(first(records, 'arp'), 22)])
    await until(
      async () =>
        (
          await db.pool.query(
            'SELECT 1 FROM webhook_subscriptions WHERE id = $1 AND disabled_at IS NOT NULL',
            [failing.id],
          )
        ).rowCount === 1,
      10_000,
      'the subscription disabled',
    )
    assert.ok(
      logged.some((l) => l.level === 'error' && l.message.startsWith('webhook subscription disabled')),
    )
    assert.ok(outcomes.includes('disabled'))
    // Enabled again from a cursor, it delivers what it missed.
    receiver.answer = () => 200
    const { rows } = await db.pool.query<{ seq: string }>('SELECT max(seq) - 1 AS seq FROM public_changes')
    assert.equal(
      await redeliver(db.pool, cursors, failing.id, cursors.position('changes', rows[0]?.seq as string)),
      true,
    )
    dispatcher?.wake()
    await until(async () => receiver.verified.length >= 1, 10_000, 'the delivery after enabling')
  })

  it('signs with both secrets during a rotation, reads big answers, and never calls a private address', async () => {
    const { id, secret } = await subscribe()
    const rotated = (await rotateSecret(db.pool, id)) as string
    receiver.secrets = [secret, rotated]
    receiver.answer = () => 299
    dispatch()
    await load([changed(first(records, 'direct_contract'), 31)])
    await until(
      async () => (await db.pool.query('SELECT 1 FROM webhook_deliveries WHERE status = 299')).rowCount === 1,
      10_000,
      'the big answer',
    )
    assert.equal(receiver.received[0]?.signature.split(' ').length, 2)
    await dispatcher?.close()
    await db.pool.query('DELETE FROM webhook_subscriptions')

    // A name that resolves to a public address when it is added, and to the loopback at delivery (a DNS change).
    let address = '93.184.216.34'
    const resolve: LookupFunction = (_host, _options, callback) =>
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address, family: 4 },
      ])
    const publicOnly = new Destinations()
    const made = await addSubscription(db.pool, { url: 'http://hooks.example.test:9/x' }, publicOnly, resolve)
    address = '127.0.0.1'
    dispatch({ destinations: publicOnly, resolve })
    await load([changed(first(records, 'direct_contract'), 32)])
    await until(
      async () =>
        ((await db.pool.query('SELECT 1 FROM webhook_deliveries WHERE subscription_id = $1', [made.id]))
          .rowCount ?? 0) > 0,
      10_000,
      'the refused attempt',
    )
    const { rows } = await db.pool.query<{ error: string }>(
      'SELECT error FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY id LIMIT 1',
      [made.id],
    )
    assert.match(rows[0]?.error as string, /127\.0\.0\.1 is not a public address/)
    await assert.rejects(
      addSubscription(db.pool, { url: 'http://hooks.example.test/x' }, publicOnly, resolve),
      (error: Error) =>
        error instanceof AddressRefused && /127\.0\.0\.1 is not a public address/.test(error.message),
    )
  })

  it('keeps the last 1,000 attempts of a subscription, the newest among them', async () => {
    const { id } = await subscribe()
    await db.pool.query(
      `INSERT INTO webhook_deliveries (subscription_id, entry, status, milliseconds)
       SELECT $1, 0, 200, 1 FROM generate_series(1, 1100)`,
      [id],
    )
    dispatch()
    await load([changed(first(records, 'arp'), 41)])
    await until(async () => receiver.verified.length >= 1, 10_000, 'the delivery')
    const count = async () =>
      (
        await db.pool.query<{ n: number; newest: string }>(
          'SELECT count(*)::int AS n, max(entry)::text AS newest FROM webhook_deliveries WHERE subscription_id = $1',
          [id],
        )
      ).rows[0]
    await until(async () => (await count())?.n === KEPT_ATTEMPTS, 10_000, 'the older attempts gone')
    assert.notEqual((await count())?.newest, '0')
  })

  it('waits longer after each failure, halved at random, up to its ceiling', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 20].map((n) => retryDelay(n, 1000, 60_000, () => 1)),
      [1000, 2000, 4000, 8000, 60_000],
    )
    assert.equal(
      retryDelay(3, 1000, 60_000, () => 0),
      2000,
    )
  })
})

describe('compras webhook', () => {
  let db: TestDatabase
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli(['webhook', ...args], { DATABASE_URL: db.url, ...env })

  before(async () => {
    db = await createTestDatabase()
  })
  after(async () => {
    await db?.drop()
  })

  it('adds, lists, rotates, shows deliveries, redelivers and removes, and refuses what cannot be called', async () => {
    const added = await cli(
      ['add', '--url', 'http://127.0.0.1:9/hook', '--kinds', 'contracts', '--filter', 'q=papel'],
      {
        WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8',
      },
    )
    assert.equal(added.code, 0, added.stderr)
    const secret = added.stdout.trim().split('\n').at(-1) as string
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/)
    const listed = await cli(['list'])
    assert.match(listed.stdout, /^1\s+http:\/\/127\.0\.0\.1:9\/hook\s+contracts\s+q=papel\s+0\s+ok/m)
    assert.ok(!listed.stdout.includes(secret), 'a secret is shown once')
    const rotated = await cli(['rotate-secret', '1'])
    assert.equal(rotated.code, 0)
    assert.notEqual(rotated.stdout.trim().split('\n').at(-1), secret)
    assert.equal((await cli(['deliveries', '1'])).code, 0)
    assert.equal((await cli(['redeliver', '1', '--from', '0'])).code, 0)
    assert.equal((await cli(['redeliver', '1', '--from', 'nope'])).code, 1)
    assert.equal((await cli(['remove', '1'])).code, 0)
    assert.match((await cli(['remove', '1'])).stderr, /no webhook with id 1/)

    // The command says why (each start of it costs a second: the other reasons are asked of the check itself).
    const refused = await cli(['add', '--url', 'ftp://example.com/x'])
    assert.equal(refused.code, 1)
    assert.match(refused.stderr, /--url: the URL must be http or https, not ftp/)
    for (const [url, reason] of [
      ['https://user:pass@example.com/x', /may not hold a user or password/],
      ['http://10.1.2.3/x', /10\.1\.2\.3 is not a public address/],
      ['http://[::1]:8080/x', /::1 is not a public address/],
      ['http://[::ffff:192.168.0.1]/x', /192\.168\.0\.1 is not a public address/],
      ['http://[::ffff:7f00:1]/x', /127\.0\.0\.1 is not a public address/],
      ['http://[::7f00:1]/x', /is not a public address/],
      ['http://169.254.169.254/latest/meta-data', /169\.254\.169\.254 is not a public address/],
      ['http://localhost:3000/x', /localhost: 127\.0\.0\.1 is not a public address/],
      ['https://example.com/x#part', /may not have a fragment/],
      ['not a url', /is not a URL/],
    ] as const)
      assert.throws(
        () => checkedUrl(url, new Destinations()),
        (error: Error) => error instanceof AddressRefused && reason.test(error.message),
        url,
      )
    assert.equal(checkedUrl('https://hooks.example.com/x', new Destinations()), 'https://hooks.example.com/x')
    assert.equal(checkedUrl('http://[::ffff:8.8.8.8]/x', new Destinations()), 'http://[::ffff:808:808]/x')
    const unknown = await cli(
      ['add', '--url', 'http://127.0.0.1:9/', '--kinds', 'contracts', '--filter', 'status_id=1'],
      {
        WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
      },
    )
    assert.match(
      unknown.stderr,
      /Parâmetro desconhecido: status_id\. Aceitos: organization_uuid, .*\(contracts\)/,
    )
    const kinds = await cli(['add', '--url', 'http://127.0.0.1:9/', '--kinds', 'orders'], {
      WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
    })
    assert.match(kinds.stderr, /Parâmetro inválido: kinds\. Tipo desconhecido: orders/)
    const invalid = await cli(['add', '--url', 'http://127.0.0.1:9/', '--filter', 'modality_id=abc'], {
      WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
    })
    assert.match(invalid.stderr, /Parâmetro inválido: modality_id\. Aceita /)
  })
})

describe('webhooks across instances', () => {
  let db: TestDatabase
  const receiver = new Receiver()
  const children: ReturnType<typeof spawnCli>[] = []
  const records = demoRecords(
    { organizations: 1, orders: 2, contracts: 4, arps: 1, directContracts: 1, publicCalls: 1 },
    72,
  )
  const serve = async () => {
    const port = await freePort()
    const child = spawnCli(['serve'], {
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8',
    })
    children.push(child)
    await until(
      async () => (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined))?.status === 200,
      120_000,
      'serve ready',
    )
    return child
  }

  before(async () => {
    db = await createTestDatabase()
    await receiver.start()
    assert.equal((await importRecords(db.pool, [source(ndjson(records))])).ok, true)
  })
  after(async () => {
    for (const child of children) child.kill('SIGKILL')
    await receiver.close()
    await db?.drop()
  })

  it('loses nothing when an instance is killed mid-delivery, and repeats at most the entry in flight', async () => {
    const { rows } = await db.pool.query<{ last: string }>(
      'SELECT coalesce(max(seq), 0)::text AS last FROM public_changes',
    )
    const cursors = new Cursors(db.pool)
    await cursors.ready()
    const made = await addSubscription(
      db.pool,
      { url: receiver.url, kinds: 'contracts' },
      new Destinations(parseCidrs('127.0.0.0/8')),
    )
    receiver.secrets = [made.secret]
    // The third delivery is never answered: the instance that makes it is killed while it waits.
    receiver.answer = (_request, count) => (count === 3 ? 'stall' : 200)
    const first = await serve()
    const contracts = records.filter((r) => r.type === 'contract')
    for (const [n, contract] of contracts.entries())
      assert.equal(
        (await importRecords(db.pool, [source(ndjson([{ ...contract, object_details: `Objeto ${n}` }]))])).ok,
        true,
      )
    await until(async () => receiver.received.length >= 3, 30_000, 'the third delivery, in flight')
    await serve()
    first.kill('SIGKILL')
    await until(
      async () => receiver.verified.length >= contracts.length,
      60_000,
      'every delivery, by the other instance',
    )
    const { text, values } = publicFeedSql({
      after: Number(rows[0]?.last),
      kinds: ['contracts'],
      withRecords: true,
    })
    const expected = (await db.pool.query<PublicRow>(text, values)).rows.map((row) =>
      publicEntry(row, true, cursors),
    )
    assert.deepEqual(
      receiver.verified.map((r) => head(r.body)),
      expected.map(head),
    )
    // What the receiver saw: every entry once, but the one in flight twice.
    const ids = receiver.received.map((r) => r.id)
    assert.equal(ids.length, contracts.length + 1)
    assert.equal(ids[2], ids[3])
  })
})
