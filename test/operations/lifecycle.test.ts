import assert from 'node:assert/strict'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { importRecords } from '../../src/import/importer.js'
import { runCli, spawnCli } from '../helpers/cli.js'
import { createTestDatabase, multiplyContracts, type TestDatabase } from '../helpers/db.js'
import { startPaused } from '../helpers/http.js'
import { demoRecords, first, ndjson, source, TINY } from '../helpers/records.js'
import { freePort } from '../helpers/redis.js'

// A process that is told to stop, or killed: what was accepted completes, and what was not done leaves
// nothing behind.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('stopping and killing', () => {
  let db: TestDatabase
  const dir = mkdtempSync(path.join(os.tmpdir(), 'compras-lifecycle-'))
  const records = demoRecords()

  before(async () => {
    db = await createTestDatabase()
    assert.equal((await importRecords(db.pool, [source(ndjson(records))])).ok, true)
  })
  after(async () => {
    await db.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('SIGTERM under load: every request accepted before it completes whole, and serve exits soon after', async () => {
    const port = await freePort()
    const child = spawnCli(['serve'], { DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1' })
    try {
      const base = `http://127.0.0.1:${port}`
      for (let started = performance.now(); ; await sleep(100)) {
        if ((await fetch(`${base}/ready`).catch(() => undefined))?.status === 200) break
        assert.ok(performance.now() - started < 120_000, 'serve never became ready')
      }
      const contract = first(records, 'contract')
      const paths = [
        '/v1/transparency/export?resource=contracts&format=xlsx',
        '/v1/transparency/export?resource=arps&format=csv',
        `/v1/transparency/contracts/${contract.id}?with_relations=orders,terms,documents`,
        '/v1/transparency/public-calls?per_page=100&with_relations=documents,providers',
      ]
      // Forty requests accepted (their answers begun, exports still streaming) when the signal comes.
      const heads = await Promise.all(
        Array.from({ length: 40 }, (_, i) => fetch(`${base}${paths[i % paths.length]}`)),
      )
      const signalled = performance.now()
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      const done = await Promise.all(
        heads.map(async (response) => ({
          status: response.status,
          type: response.headers.get('content-type') ?? '',
          body: Buffer.from(await response.arrayBuffer()),
        })),
      )
      for (const { status, type, body } of done) {
        // 200 with a whole body, or, for an export beyond the concurrency limit, its 429/503 in the envelope.
        assert.ok([200, 429, 503].includes(status), `status ${status}`)
        // Whole: JSON that parses, a CSV that ends its last line, an XLSX with its zip directory at the end.
        if (type.startsWith('application/json')) JSON.parse(body.toString('utf8'))
        else if (type.startsWith('text/csv'))
          assert.ok(body.toString('utf8').endsWith('\r\n'), 'a CSV cut short')
        else assert.ok(body.subarray(-22).readUInt32LE(0) === 0x06054b50, 'an XLSX cut short')
      }
      assert.ok(done.filter((a) => a.status === 200).length >= 15)
      const [code] = await exited
      assert.equal(code, 0)
      // Generous: the service's own bound is the drain of its requests, seconds; a loaded machine is slower.
      assert.ok(performance.now() - signalled < 30_000, 'serve took more than 30 s to stop')
      // A request after the signal finds the port closed.
      assert.equal(await fetch(`${base}/health`).catch(() => 'refused'), 'refused')
    } finally {
      child.kill('SIGKILL')
    }
  })

  it('SIGTERM while a reader is paused mid-export: the export completes whole once it reads on', async () => {
    // A file larger than the sockets' buffers, so that the answer is still in flight at the stop.
    const db2 = await createTestDatabase()
    try {
      assert.equal((await importRecords(db2.pool, [source(ndjson(records))])).ok, true)
      await multiplyContracts(db2.pool, 60_000)
      const port = await freePort()
      const child = spawnCli(['serve'], { DATABASE_URL: db2.url, PORT: String(port), HOST: '127.0.0.1' })
      const exited = once(child, 'exit')
      try {
        const base = `http://127.0.0.1:${port}`
        for (let started = performance.now(); ; await sleep(100)) {
          if ((await fetch(`${base}/ready`).catch(() => undefined))?.status === 200) break
          assert.ok(performance.now() - started < 120_000, 'serve never became ready')
        }
        const paused = await startPaused(`${base}/v1/transparency/export?resource=contracts&format=csv`)
        child.kill('SIGTERM')
        await sleep(1500)
        assert.equal(child.exitCode, null, 'serve waits for the export in flight')
        const chunks: Buffer[] = [paused.first]
        paused.response.on('data', (chunk: Buffer) => chunks.push(chunk))
        paused.response.resume()
        assert.equal(await paused.outcome, 'end')
        const csv = Buffer.concat(chunks).toString('utf8')
        assert.ok(csv.endsWith('\r\n'), 'the CSV ends with its last line')
        const contracts = (await db2.pool.query('SELECT count(*)::int AS n FROM contracts')).rows[0]
          .n as number
        assert.equal(csv.trimEnd().split('\r\n').length, contracts + 1, 'every contract and the title row')
        const [code] = await exited
        assert.equal(code, 0)
      } finally {
        child.kill('SIGKILL')
      }
    } finally {
      await db2.drop()
    }
  })

  it('keeps to DATABASE_POOL_SIZE connections to PostgreSQL, however many requests wait for one', async () => {
    const port = await freePort()
    const { rows } = await db.pool.query<{ now: Date }>('SELECT now()')
    const child = spawnCli(['serve'], {
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_POOL_SIZE: '2',
      PUBLIC_RATE_LIMIT: '0',
    })
    try {
      const base = `http://127.0.0.1:${port}`
      for (let started = performance.now(); ; await sleep(100)) {
        if ((await fetch(`${base}/ready`).catch(() => undefined))?.status === 200) break
        assert.ok(performance.now() - started < 120_000, 'serve never became ready')
      }
      // The service's connections: opened since it started, the one asking here excluded.
      const connections = async () =>
        (
          await db.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()
             AND application_name = 'compras' AND backend_start >= $1 AND pid <> pg_backend_pid()`,
            [rows[0]?.now],
          )
        ).rows[0]?.n ?? 0
      let most = 0
      let answered = false
      const watching = (async () => {
        while (!answered) {
          most = Math.max(most, await connections())
          await sleep(2)
        }
      })()
      // Sixty pages no one asked for yet, each its own query.
      const statuses = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          fetch(`${base}/v1/transparency/contracts?per_page=1&page=${i + 1}`).then((r) => r.status),
        ),
      ).finally(() => {
        // A failed request ends the watching too: the test fails, never hangs.
        answered = true
      })
      await watching
      assert.deepEqual(new Set(statuses), new Set([200]))
      most = Math.max(most, await connections())
      assert.ok(most >= 1 && most <= 2, `${most} connections`)
    } finally {
      child.kill('SIGKILL')
    }
  })

  it('an import killed after writing its change log, before it commits: no entry is ever seen', async () => {
    const logged = async () =>
      (
        await db.pool.query<{ n: number }>(
          'SELECT (SELECT count(*) FROM order_changes) + (SELECT count(*) FROM public_changes) AS n',
        )
      ).rows[0]?.n
    const before = await logged()
    const organization = first(records, 'organization')
    const order = {
      ...first(records, 'order', (o) => o.organization_uuid === organization.uuid),
      number: 'NUNCA-1/2026',
    }
    const locker = await db.pool.connect()
    try {
      // The import records its run last, after its documents and their log entries: held there, it has
      // written them all in its transaction when it is killed.
      await locker.query('BEGIN')
      await locker.query('LOCK TABLE import_runs IN ACCESS EXCLUSIVE MODE')
      const child = spawnCli(['import', '-'], { DATABASE_URL: db.url })
      child.stdin?.end(ndjson([order]))
      for (let started = performance.now(); ; await sleep(50)) {
        const { rows } = await db.pool.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
             AND query LIKE 'INSERT INTO import_runs%'`,
        )
        if (rows.length > 0) break
        assert.equal(child.exitCode, null, 'the import ended before it could be held')
        assert.ok(performance.now() - started < 30_000, 'the import never reached its end')
      }
      const exited = once(child, 'exit')
      child.kill('SIGKILL')
      await exited
    } finally {
      await locker.query('ROLLBACK')
      locker.release()
    }
    assert.equal(await logged(), before)
    const { rowCount } = await db.pool.query("SELECT 1 FROM order_changes WHERE number = 'NUNCA-1/2026'")
    assert.equal(rowCount, 0)
  })

  it('an import killed with SIGKILL halfway: nothing of it lands, and the next import runs', async () => {
    const counts = async () =>
      (
        await db.pool.query<{ orders: number; documents: number; runs: number }>(
          `SELECT (SELECT count(*) FROM orders)::int AS orders,
                  (SELECT count(*) FROM order_documents)::int AS documents,
                  (SELECT count(*) FROM import_runs)::int AS runs,
                  (SELECT count(*) FROM order_changes)::int AS changes`,
        )
      ).rows[0]
    const before = await counts()
    const big = path.join(dir, 'big.ndjson')
    const organization = first(records, 'organization')
    // Many more orders for an organization already stored: seconds of work to be killed in.
    const more = demoRecords({ ...TINY, organizations: 1, orders: 6000 }, 99)
      .filter((r) => r.type === 'order')
      .map((r, i) => ({
        ...r,
        organization_uuid: organization.uuid,
        number: `MORTA-${i}/2026`,
        contract_number: null,
        arp_number: null,
      }))
    writeFileSync(big, ndjson(more))
    const child = spawnCli(['import', big], { DATABASE_URL: db.url })
    // Killed while its transaction is open: once the server shows it working on this database.
    for (let started = performance.now(); ; await sleep(50)) {
      const { rows } = await db.pool.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
           AND state <> 'idle' AND xact_start IS NOT NULL AND query NOT LIKE '%pg_stat_activity%'`,
      )
      if (rows.length > 0) break
      assert.equal(child.exitCode, null, 'the import ended before it could be killed')
      assert.ok(performance.now() - started < 30_000, 'the import never started')
    }
    await sleep(300)
    const exited = once(child, 'exit')
    child.kill('SIGKILL')
    await exited
    assert.deepEqual(await counts(), before)
    // The lock went with the connection: the next import runs, and completes.
    const started = performance.now()
    const next = await runCli(
      ['import', '-'],
      { DATABASE_URL: db.url },
      ndjson([{ ...more[0], number: 'VIVA-1/2026' }]),
    )
    assert.equal(next.code, 0, next.stderr)
    assert.match(next.stdout, /^imported 1 order/)
    assert.ok(performance.now() - started < 30_000)
    assert.equal((await counts())?.orders, (before?.orders ?? 0) + 1)
  })
})
