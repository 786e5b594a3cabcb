import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { migrate } from '../../src/db/migrate.js'
import { createPool, type Pool, type ServerPool } from '../../src/db/pool.js'
import {
  lsnValue,
  pastEnd,
  ReadPool,
  Replicas,
  serverName,
  serverOf,
  serversOf,
} from '../../src/db/replicas.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { publicFeedPage } from '../../src/feeds/change-feeds.js'
import { dumpRecords } from '../../src/import/dump.js'
import { importRecords } from '../../src/import/importer.js'
import { metricsPortOf } from '../../src/metrics.js'
import { Cursors } from '../../src/queries/cursors.js'
import { syncReadModel } from '../../src/readmodel/build.js'
import { buildTestApp, listen } from '../helpers/app.js'
import { request, turns, until } from '../helpers/http.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'
import { query, type StandbyPair, type StandbyServer, startStandbyPair } from '../helpers/standby.js'

// Reads from a real streaming standby (DATABASE_REPLICA_URLS): they land on it, and an instance that has heard
// of an import never answers older than it, though the standby replays it seconds later; a lagging or dead
// standby leaves the rotation and comes back; a mirror fed from a replica-backed instance ends equal to the
// primary's dump.

interface Entry {
  cursor: string
  kind: string
  id: string
  change: 'created' | 'updated' | 'withdrawn'
  record?: Record<string, unknown>
}

interface FeedPage {
  data: Entry[]
  next_cursor: string
  has_more: boolean
}

const PATHS: Record<string, string> = {
  contract: 'contracts',
  direct_contract: 'direct-contracts',
  public_call: 'public-calls',
  arp: 'arps',
}

describe('reads from a streaming replica', () => {
  let pair: StandbyPair
  let primary: ServerPool
  const records = demoRecords(
    { organizations: 2, orders: 12, contracts: 8, arps: 2, directContracts: 2, publicCalls: 3 },
    57,
  )
  const contract = first(records, 'contract', (c) => c.bidding_uuid !== null)
  let edits = 0
  /** Imports a new object for the contract; the text it now has. */
  const editContract = async () => {
    const object = `Objeto alterado ${++edits}`
    const result = await importRecords(primary, [source(ndjson([{ ...contract, object_details: object }]))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    return object
  }
  /** The contract's object as the standby has it now (straight from its read model). */
  const onStandby = async () =>
    (
      await query<{ object: string }>(
        pair.standby.url,
        `SELECT body::json->>'object_details' AS object FROM detail_documents WHERE resource = 'contracts' AND id = $1`,
        [contract.id],
      )
    )[0]?.object
  /** The compras backends on the standby (the reads' connections, whatever their state). */
  const readsOnStandby = async () =>
    (
      await query<{ n: number }>(
        pair.standby.url,
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'compras' AND application_name = 'compras' AND pid <> pg_backend_pid()`,
      )
    )[0]?.n ?? 0
  /** Transactions the standby has run for the compras database, as its own counters tell. */
  const served = async () =>
    (
      await query<{ n: number }>(
        pair.standby.url,
        "SELECT (xact_commit + xact_rollback)::int AS n FROM pg_stat_database WHERE datname = 'compras'",
      )
    )[0]?.n ?? 0
  /**
   * Twenty reads no cache holds yet (`path(k)`), each answered, and at least fifteen of them run by the standby,
   * by its own counters (a backend reports its counts within a second or so of going idle).
   */
  const readsLandOnStandby = async (base: string, path: (k: number) => string) => {
    const before = await served()
    for (let k = 0; k < 20; k++) assert.equal((await request(`${base}${path(k)}`)).status, 200)
    await until(async () => (await served()) - before >= 15, 10_000, 'the reads to land on the standby')
  }
  const serve = async (env: Record<string, string> = {}) => {
    const app = await buildTestApp(
      { pool: primary },
      {
        env: {
          DATABASE_URL: pair.primary.url,
          DATABASE_REPLICA_URLS: pair.standby.url,
          PUBLIC_RATE_LIMIT: '0',
          ...env,
        },
      },
    )
    return { app, base: await listen(app) }
  }
  const ready = async (base: string) =>
    JSON.parse((await request(`${base}/ready`)).body) as {
      status: string
      replicas: { name: string; state: string; lag_seconds: number | null }[]
    }

  before(async () => {
    pair = await startStandbyPair()
    primary = createPool(pair.primary.url, { max: 6 })
    await migrate(primary)
    await syncReadModel(primary)
    const result = await importRecords(primary, [source(ndjson(records))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    await pair.caughtUp()
  })
  after(async () => {
    await primary?.end()
    await pair?.stop()
  })

  it('orders WAL positions across their high word', () => {
    assert.ok(lsnValue('1/0') > lsnValue('0/FFFFFFFF'))
    assert.ok(lsnValue('16/B374D848') > lsnValue('16/B374D847'))
    assert.equal(lsnValue('0/10'), 16n)
  })

  it('retries elsewhere a read the standby cancels for a conflict (40001), and drops a failed one at once', async () => {
    // A function that fails as a recovery conflict does, on a standby only: made on the primary, replayed.
    await primary.query(
      `CREATE OR REPLACE FUNCTION compras_test_conflict(code text DEFAULT '40001') RETURNS text LANGUAGE plpgsql AS $$
       BEGIN
         IF pg_is_in_recovery() THEN RAISE EXCEPTION 'failed on the standby' USING ERRCODE = code; END IF;
         RETURN 'primary';
       END $$`,
    )
    await pair.caughtUp()
    // Checked once a minute: what takes the standby out below is the failed read, nothing else.
    const replicas = new Replicas(primary, [pair.standby.url], { maxLagMs: 60_000, checkMs: 60_000 })
    const replicaPool = createPool(pair.standby.url, { max: 2, queryTimeoutMs: 2000, connectTimeoutMs: 1500 })
    const reads: Pool = new ReadPool(primary, [replicaPool], replicas)
    try {
      await replicas.start()
      // The floor heard is the primary's position now; the standby has replayed exactly it: it is not behind.
      replicas.heard()
      await until(() => replicas.pick() === 0, 10_000, 'the standby, caught up exactly, to serve')
      const { rows } = await reads.query<{ answer: string }>('SELECT compras_test_conflict() AS answer')
      assert.equal(rows[0]?.answer, 'primary', 'retried on the primary and answered')
      // A conflict is not a failure of the standby: it stays in the rotation.
      assert.equal(replicas.statuses[0]?.state, 'up')
      // Any other error of the statement is the read's own: not run again elsewhere, and the standby stays.
      await assert.rejects(reads.query("SELECT compras_test_conflict('22012')"), { code: '22012' })
      assert.equal(replicas.statuses[0]?.state, 'up')
      // The servers behind the pool, and the one a connection taken from it talks to (where a cancel goes).
      assert.deepEqual(serversOf(reads), [primary, replicaPool])
      assert.deepEqual(serversOf(primary), [primary])
      const client = await reads.connect()
      try {
        assert.equal((await client.query('SELECT pg_is_in_recovery() AS r')).rows[0]?.r, true)
        assert.equal(serverOf(reads, client), replicaPool)
        assert.equal(serverOf(primary, client), primary)
      } finally {
        client.release()
      }
      // Past its end: asked of the pool the page was read from, then of the primary when that was a replica.
      // Here the replica's log ends at 3 and the primary's at 10.
      const lastOf = async (pool: Pool | undefined) => (pool === replicaPool || pool === reads ? 3 : 10)
      assert.equal(await pastEnd(replicaPool, 5, lastOf), true, 'a plain pool is past its own end')
      assert.equal(await pastEnd(reads, 5, lastOf), false, 'not past the primary, which is never behind')
      assert.equal(await pastEnd(reads, 11, lastOf), true)
      // A read the standby fails (it stops answering): answered elsewhere, and the standby is down at once.
      await pair.standby.freeze()
      // Thawed in 15 s whatever happens: nothing here may wait on it for ever.
      const thawing = setTimeout(() => void pair.standby.thaw(), 15_000)
      try {
        const read = await reads.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r')
        assert.equal(read.rows[0]?.r, false, 'answered by the primary')
        assert.equal(replicas.statuses[0]?.state, 'down')
        assert.equal(replicas.pick(), undefined)
      } finally {
        clearTimeout(thawing)
        await pair.standby.thaw()
      }
    } finally {
      await replicas.close()
      // Ending the read pool ends the replicas' pools, never a primary's pool it was given.
      await reads.end()
      assert.equal(replicaPool.ended, true)
      assert.equal(primary.ended, false)
      await primary.query('DROP FUNCTION IF EXISTS compras_test_conflict(text)')
    }
    // One made with a primary's pool of its own (the exports' is) ends that one too.
    const own = createPool(pair.primary.url, { max: 1 })
    const owned = new ReadPool(own, [createPool(pair.standby.url, { max: 1 })], replicas, true)
    assert.equal((await owned.query('SELECT 1 AS one')).rows[0]?.one, 1)
    await owned.end()
    assert.deepEqual(
      serversOf(owned).map((pool) => pool.ended),
      [true, true],
    )
  })

  it('reads on the standby, and on the primary from the moment an import is heard until the standby has it', async () => {
    const replicas = new Replicas(primary, [pair.standby.url], { maxLagMs: 60_000 })
    const replicaPool = createPool(pair.standby.url, { max: 2 })
    const reads: Pool = new ReadPool(primary, [replicaPool], replicas)
    try {
      await replicas.start()
      assert.deepEqual(
        replicas.statuses.map((s) => s.state),
        ['up'],
      )
      const inRecovery = async () =>
        (await reads.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby')).rows[0]?.standby
      assert.equal(await inRecovery(), true)
      const client = await reads.connect()
      try {
        assert.equal((await client.query('SELECT pg_is_in_recovery() AS r')).rows[0].r, true)
      } finally {
        client.release()
      }
      await pair.applyDelay(60_000)
      // Imports of more entries than a standby sees the log's sequence ahead of its replay (32 values).
      await editContract()
      for (let round = 0; round < 3; round++) {
        const changed = records
          .filter((r) => r.type === 'contract' || r.type === 'direct_contract')
          .map((r) => ({ ...r, object_details: `Rodada ${round}` }))
        assert.equal((await importRecords(primary, [source(ndjson(changed))])).ok, true)
      }
      const { rows } = await primary.query<{ last: number }>(
        'SELECT max(seq)::int AS last FROM public_changes',
      )
      // Not yet heard: the standby still serves, without the imports; a cursor past its end (handed out by an
      // instance that has heard) is not taken for one of a log loaded again: nothing new, as if nothing happened.
      const cursors = new Cursors(reads)
      const after = rows[0]?.last ?? 0
      const unheard = await publicFeedPage(reads, cursors, { after, withRecords: false }, 10)
      assert.equal(unheard.count, 0)
      assert.equal(unheard.nextCursor, cursors.position('changes', after))
      assert.equal(await inRecovery(), true)
      replicas.heard()
      assert.equal(await inRecovery(), false, 'the primary serves until the standby has replayed the import')
      assert.equal(await inRecovery(), false)
      await pair.applyDelay(0)
      await until(async () => (await inRecovery()) === true, 20_000, 'the standby to serve again')
    } finally {
      await pair.applyDelay(0)
      await replicas.close()
      await reads.end()
    }
  })

  it('watches a standby over a connection named for the check, tells each change once, and ends it on close', async () => {
    const told: string[] = []
    const replicas = new Replicas(primary, [pair.standby.url], {
      maxLagMs: 60_000,
      checkMs: 50,
      onState: (status) => told.push(status.state),
    })
    const checks = async () =>
      (
        await query<{ n: number }>(
          pair.standby.url,
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'compras-replica-check'",
        )
      )[0]?.n ?? 0
    try {
      assert.deepEqual(replicas.statuses, [
        { name: serverName(pair.standby.url), state: 'starting', lag_seconds: null },
      ])
      await replicas.start()
      assert.equal(replicas.statuses[0]?.state, 'up')
      // An operator tells the check from the reads in pg_stat_activity by its name.
      assert.ok((await checks()) >= 1, 'no connection named compras-replica-check on the standby')
      // Checked every 50 ms, and up all along: told once.
      await new Promise((resolve) => setTimeout(resolve, 400))
      assert.deepEqual(told, ['up'])
    } finally {
      await replicas.close()
    }
    // Within 5 s, half the pool's idle timeout: ended by close, not left to time out.
    await until(async () => (await checks()) === 0, 5_000, 'the check connection to end on close')
  })

  it('never serves from a server that is not a standby, such as the primary named as a replica', async () => {
    const replicas = new Replicas(primary, [pair.primary.url], { maxLagMs: 60_000, checkMs: 60_000 })
    try {
      await replicas.start()
      assert.deepEqual(replicas.statuses[0], {
        name: serverName(pair.primary.url),
        state: 'not a standby',
        lag_seconds: null,
      })
      replicas.heard()
      await new Promise((resolve) => setTimeout(resolve, 300))
      assert.equal(replicas.pick(), undefined)
    } finally {
      await replicas.close()
    }
  })

  it('finds a standby that stops answering down at its next check, though no read went to it', async () => {
    const replicas = new Replicas(primary, [pair.standby.url], { maxLagMs: 60_000, checkMs: 200 })
    try {
      await replicas.start()
      assert.equal(replicas.statuses[0]?.state, 'up')
      await pair.standby.freeze()
      // Thawed in 15 s whatever happens: nothing here may wait on it for ever.
      const thawing = setTimeout(() => void pair.standby.thaw(), 15_000)
      try {
        // The check's own query gives up after 2 s (its pool's query timeout).
        await until(() => replicas.statuses[0]?.state === 'down', 10_000, 'the frozen standby to be down')
        assert.equal(replicas.statuses[0]?.lag_seconds, null)
      } finally {
        clearTimeout(thawing)
        await pair.standby.thaw()
      }
      await until(() => replicas.statuses[0]?.state === 'up', 10_000, 'the standby to be up again')
    } finally {
      await replicas.close()
    }
  })

  it("measures a standby's lag from its own readings of the primary, whether or not it hears of imports", async () => {
    const replicas = new Replicas(primary, [pair.standby.url], { maxLagMs: 1000, checkMs: 100 })
    try {
      await replicas.start()
      await pair.applyDelay(30_000)
      await editContract() // never heard: only the readings of the primary's position show the standby behind
      await until(() => replicas.statuses[0]?.state === 'lagging', 15_000, 'the standby to lag')
      const lag = replicas.statuses[0]?.lag_seconds ?? 0
      assert.ok(lag >= 1 && lag < 30, `lag ${lag} s`)
      await pair.applyDelay(0)
      await until(() => replicas.statuses[0]?.state === 'up', 20_000, 'the standby to catch up')
    } finally {
      await pair.applyDelay(0)
      await replicas.close()
    }
  })

  it('reads the floor again while the primary does not answer, and stops asking once closed', async () => {
    let failing = true
    let asked = 0
    const refusing = {
      query: (text: string) => {
        asked++
        return failing ? Promise.reject(new Error('the primary does not answer')) : primary.query(text)
      },
      connect: () => primary.connect(),
      end: async () => {},
    } as unknown as Pool
    const replicas = new Replicas(refusing, [pair.standby.url], { maxLagMs: 60_000, checkMs: 60_000 })
    try {
      await replicas.start()
      await pair.caughtUp()
      const before = asked
      replicas.heard()
      await until(() => asked - before >= 3, 10_000, 'the floor to be read again')
      assert.equal(replicas.pick(), undefined, 'a replica serves while the floor is unknown')
      failing = false
      await until(() => replicas.pick() === 0, 10_000, 'the standby to serve once the floor is read')
      failing = true
      replicas.heard()
    } finally {
      await replicas.close()
    }
    const closed = asked
    await new Promise((resolve) => setTimeout(resolve, 500))
    assert.equal(asked, closed, 'the floor was asked for after close')
  })

  it('keeps the newest floor though an older reading of it arrives later, and rejoins a standby once past it', async () => {
    // The primary, with the answer to one query held back until released: a reading that arrives late.
    let holdNext = false
    let release = () => {}
    let delivered: Promise<unknown> = Promise.resolve()
    const late = {
      query: (text: string) => {
        const answer = primary.query(text)
        if (!holdNext) return answer
        holdNext = false
        const released = new Promise<void>((resolve) => {
          release = resolve
        })
        const held = answer.then(async (result) => {
          await released
          return result
        })
        delivered = held
        return held
      },
      connect: () => primary.connect(),
      end: async () => {},
    } as unknown as Pool
    // Checked once a minute: a standby behind the floor rejoins through the reads that hearing starts.
    const replicas = new Replicas(late, [pair.standby.url], { maxLagMs: 60_000, checkMs: 60_000 })
    try {
      await replicas.start()
      holdNext = true
      replicas.heard() // its reading of the primary's position is held
      await pair.caughtUp()
      await pair.applyDelay(60_000)
      await editContract() // the primary moves past that reading; the standby does not replay it
      replicas.heard()
      await until(() => replicas.statuses[0]?.state === 'up', 10_000, 'the standby to be checked')
      await new Promise((resolve) => setTimeout(resolve, 500)) // the standby read again, behind the new floor
      assert.equal(replicas.pick(), undefined, 'the standby serves before it has replayed the import')
      release()
      await delivered
      await new Promise((resolve) => setImmediate(resolve))
      assert.equal(replicas.pick(), undefined, 'the older reading replaced the newer floor')
      await pair.applyDelay(0)
      await until(() => replicas.pick() === 0, 10_000, 'the standby to serve once it has replayed the import')
    } finally {
      release()
      await pair.applyDelay(0)
      await replicas.close()
    }
  })

  it('sends the public reads of an instance to the standby, and shows it in /ready and the metrics', async () => {
    const { app, base } = await serve({ METRICS_PORT: '0', HOST: '127.0.0.1' })
    try {
      const before = await readsOnStandby()
      for (const path of [
        `/v1/transparency/contracts/${contract.id}`,
        '/v1/transparency/contracts?per_page=3',
        '/v1/transparency/changes?per_page=2',
        '/contratos',
      ])
        assert.equal((await request(`${base}${path}`)).status, 200, path)
      assert.ok((await readsOnStandby()) > before, 'the reads opened connections on the standby')
      const { status, replicas } = await ready(base)
      assert.equal(status, 'ok')
      assert.equal(replicas.length, 1)
      assert.equal(replicas[0]?.state, 'up')
      assert.equal(replicas[0]?.name, `127.0.0.1:${pair.standby.port}/compras`, 'no credentials')
      const port = metricsPortOf(app.metricsServer as NonNullable<typeof app.metricsServer>)
      const metrics = (await request(`http://127.0.0.1:${port}/metrics`)).body
      const label = `replica="127.0.0.1:${pair.standby.port}/compras"`
      assert.match(metrics, new RegExp(`^compras_replica_up\\{${label}\\} 1$`, 'm'))
      assert.match(metrics, new RegExp(`^compras_replica_lag_seconds\\{${label}\\} \\d`, 'm'))
      // The API pool's connections are those of every server it reads from: the standby's count among them.
      const onStandby = (await readsOnStandby()) - before
      const total = Number(
        /^compras_db_pool_connections\{pool="api",state="total"\} (\d+)$/m.exec(metrics)?.[1],
      )
      assert.ok(
        total >= onStandby && onStandby > 0,
        `api pool: ${total} connections, ${onStandby} on the standby`,
      )
    } finally {
      await app.close()
    }
  })

  it('never answers older than an import it has heard of, cached or not, though the standby replays it later', async () => {
    // The standby may stay far behind and still serve (REPLICA_MAX_LAG): only the import's position keeps it out.
    const { app, base } = await serve({ REPLICA_MAX_LAG: '600' })
    try {
      const { next_cursor: next } = JSON.parse(
        (await request(`${base}/v1/transparency/changes?per_page=1000`)).body,
      ).data as FeedPage
      const faces = {
        detail: `/v1/transparency/contracts/${contract.id}`,
        listing: `/v1/transparency/contracts?q=${encodeURIComponent('Objeto alterado')}`,
        feed: `/v1/transparency/changes?after=${next}&with_records=true`,
        history: `/v1/transparency/contracts/${contract.id}/history`,
        page: `/contratos/${contract.id}`,
      }
      // Each face read once, so that it is cached.
      for (const path of Object.values(faces))
        assert.equal((await request(`${base}${path}`)).status, 200, path)
      await pair.applyDelay(30_000)
      const object = await editContract()
      // Once the instance shows the import anywhere, it has heard of it: from then on every face shows it.
      await until(
        async () => (await request(`${base}${faces.detail}`)).body.includes(object),
        10_000,
        'the instance to hear of the import',
      )
      for (let round = 0; round < 3; round++)
        for (const [face, path] of Object.entries(faces)) {
          const { status, body } = await request(`${base}${path}`)
          assert.equal(status, 200, path)
          assert.ok(body.includes(object), `${face} shows the import (round ${round})`)
        }
      assert.notEqual(await onStandby(), object, 'the standby had not replayed it: the primary answered')
      await pair.applyDelay(0)
      await pair.caughtUp()
      assert.equal(await onStandby(), object)
    } finally {
      await pair.applyDelay(0)
      await app.close()
    }
  })

  it("releases a waiting feed reader with the import's entries though the standby has not replayed them", async () => {
    const { app, base } = await serve({ REPLICA_MAX_LAG: '600' })
    try {
      const { next_cursor } = JSON.parse(
        (await request(`${base}/v1/transparency/changes?per_page=1000`)).body,
      ).data as FeedPage
      await pair.applyDelay(30_000)
      const waiting = request(
        `${base}/v1/transparency/changes?after=${next_cursor}&wait=30&with_records=true`,
      )
      await new Promise((resolve) => setTimeout(resolve, 300))
      const imported = Date.now()
      const object = await editContract()
      const page = JSON.parse((await waiting).body).data as FeedPage
      // Released by the import, not by its wait running out (30 s): a margin no slow machine comes near.
      assert.ok(Date.now() - imported < 20_000, 'released by the import')
      const mine = page.data.find((entry) => entry.id === contract.id)
      assert.equal(mine?.change, 'updated')
      assert.equal(mine?.record?.object_details, object)
      // A cursor past what the standby has replayed is not taken for one of a log loaded again: resumed on
      // an instance reading the standby, it answers as if nothing had happened yet.
      const resumed = await request(`${base}/v1/transparency/changes?after=${page.next_cursor}`)
      assert.equal(resumed.status, 200, resumed.body)
    } finally {
      await pair.applyDelay(0)
      await app.close()
    }
  })

  it('takes a lagging standby out of the rotation, and back once it has caught up', async () => {
    const { app, base } = await serve({ REPLICA_MAX_LAG: '1' })
    try {
      await pair.applyDelay(30_000)
      await editContract()
      let lag = 0
      await until(
        async () => {
          const [standby] = (await ready(base)).replicas
          lag = standby?.lag_seconds ?? 0
          return standby?.state === 'lagging'
        },
        20_000,
        'the standby to lag',
      )
      assert.ok(lag >= 1 && lag < 60, `lag ${lag}`)
      assert.equal((await request(`${base}/v1/transparency/contracts/${contract.id}`)).status, 200)
      await pair.applyDelay(0)
      await until(
        async () => (await ready(base)).replicas[0]?.state === 'up',
        20_000,
        'the standby to serve again',
      )
    } finally {
      await pair.applyDelay(0)
      await app.close()
    }
  })

  it('loses no listing when the standby dies under load, and serves from it again once restarted', async () => {
    const { app, base } = await serve()
    try {
      let stop = false
      let failed = 0
      let answered = 0
      // Four clients asking pages the cache does not hold (each from another day), while the standby dies.
      const clients = [1, 2, 3, 4].map(async (client) => {
        for (let k = 0; !stop; k++) {
          const day = new Date(Date.UTC(1990, 0, 1) + (k * 4 + client) * 86_400_000)
            .toISOString()
            .slice(0, 10)
          const { status } = await request(`${base}/v1/transparency/contracts?per_page=5&date_from=${day}`)
          if (status === 200) answered++
          else failed++
        }
      })
      await new Promise((resolve) => setTimeout(resolve, 300))
      await pair.kill()
      await until(
        async () => (await ready(base)).replicas[0]?.state === 'down',
        10_000,
        'the standby to leave',
      )
      await new Promise((resolve) => setTimeout(resolve, 300))
      stop = true
      await Promise.all(clients)
      // A listing is read by single queries, each run again on the primary when the standby failed under it:
      // none is lost. (A read holding a connection of the standby, an export, fails with it.)
      assert.equal(failed, 0, `${failed} of ${answered + failed} requests failed`)
      assert.ok(answered > 0)
      await pair.restart()
      await until(
        async () => (await ready(base)).replicas[0]?.state === 'up',
        20_000,
        'the standby to return',
      )
      // Without an import in between: the reads land on it again (its counters start over with it).
      await readsLandOnStandby(base, (k) => `/v1/transparency/arps?per_page=${k + 1}&page=3`)
    } finally {
      await app.close()
    }
  })

  it('takes a standby that stops answering out within seconds, reading elsewhere meanwhile', async () => {
    const { app, base } = await serve()
    const state = async () => (await ready(base)).replicas[0]?.state
    try {
      assert.equal(await state(), 'up')
      await pair.standby.freeze()
      // Its check times out (2 s): down, and new reads go to the primary.
      await until(async () => (await state()) === 'down', 10_000, 'the frozen standby to leave')
      for (let k = 0; k < 5; k++) {
        const { status } = await request(`${base}/v1/transparency/contracts?per_page=${k + 10}&page=2`)
        assert.equal(status, 200)
      }
      await pair.standby.thaw()
      await until(async () => (await state()) === 'up', 20_000, 'the standby to return')
    } finally {
      await pair.standby.thaw()
      await app.close()
    }
  })

  it('answers the reads in flight on a standby that stops answering within QUERY_TIMEOUT, and reads it again after', async () => {
    const { app, base } = await serve({ QUERY_TIMEOUT: '2', CACHE_MB: '0' })
    const thawed = new Promise((resolve) => setTimeout(resolve, 12_000))
    try {
      for (let k = 0; k < 5; k++) await request(`${base}/v1/transparency/contracts?per_page=${k + 1}`)
      await pair.standby.freeze()
      // The standby thaws in 12 s whatever happens; the reads must not wait for it.
      void thawed.then(() => pair.standby.thaw())
      const asked = Date.now()
      const reads = await Promise.all(
        [1, 2, 3, 4].map(async (k) => {
          const { status } = await request(`${base}/v1/transparency/contracts?per_page=${k + 20}`)
          return { status, ms: Date.now() - asked }
        }),
      )
      for (const read of reads) {
        assert.equal(read.status, 200)
        // QUERY_TIMEOUT and its second of margin, then the primary: far from the 12 s of the freeze.
        assert.ok(read.ms < 8000, `a read waited ${read.ms} ms for a frozen standby`)
      }
      await thawed
      await until(
        async () => (await ready(base)).replicas[0]?.state === 'up',
        20_000,
        'the standby to return',
      )
      // Its pool kept no connection that hung: the reads go to it again at once, with no import in between.
      await readsLandOnStandby(base, (k) => `/v1/transparency/arps?per_page=${k + 30}`)
    } finally {
      await thawed
      await pair.standby.thaw()
      await app.close()
    }
  })

  it('lets a mirror fed by a replica-backed instance during concurrent imports end equal to the dump', async () => {
    const { app, base } = await serve()
    try {
      const mirror = new Map<string, unknown>()
      let cursor: string | undefined
      const follow = async () => {
        for (const _turn of turns(10_000, 'the feed')) {
          const { status, body } = await request(
            `${base}/v1/transparency/changes?per_page=50&with_records=true${cursor ? `&after=${cursor}` : ''}`,
          )
          assert.equal(status, 200, body)
          const page = JSON.parse(body).data as FeedPage
          for (const entry of page.data) {
            const key = `${entry.kind} ${entry.id}`
            if (entry.change === 'withdrawn') mirror.delete(key)
            else mirror.set(key, entry.record)
          }
          cursor = page.next_cursor
          if (!page.has_more) return
        }
      }
      // Two importers at once, each changing records over and over, while the mirror follows.
      const changed = (round: number, which: number): DemoRecord[] =>
        records
          .filter((r) => r.type in PATHS)
          .filter((_, k) => k % 2 === which)
          .map((r) =>
            r.type === 'contract' || r.type === 'direct_contract'
              ? { ...r, object_details: `Rodada ${round}.${which}` }
              : r,
          )
      let importing = true
      const importers = [0, 1].map(async (which) => {
        for (let round = 0; round < 5; round++) {
          const result = await importRecords(primary, [source(ndjson(changed(round, which)))])
          assert.equal(result.ok, true, JSON.stringify(result.problems))
        }
      })
      const following = (async () => {
        while (importing) await follow()
      })()
      // A failed import stops the follower too: the test fails, never hangs.
      await Promise.all(importers).finally(() => {
        importing = false
      })
      await following
      await pair.caughtUp()
      await follow()
      const dumped: Record<string, unknown>[] = []
      for await (const record of dumpRecords(primary, 100)) dumped.push(record)
      const published = dumped.filter((r) => (r.type as string) in PATHS)
      assert.deepEqual(
        [...mirror.keys()].sort(),
        published.map((r) => `${PATHS[r.type as string]} ${r.id}`).sort(),
      )
      for (const [key, record] of mirror) {
        const [kind, id] = key.split(' ')
        const { body } = await request(`${base}/v1/transparency/${kind}/${id}`)
        assert.deepEqual(record, JSON.parse(body).data, key)
      }
    } finally {
      await app.close()
    }
  })
})

describe('reads from two streaming replicas', () => {
  let pair: StandbyPair
  let primary: ServerPool
  const records = demoRecords(
    { organizations: 1, orders: 6, contracts: 30, arps: 2, directContracts: 2, publicCalls: 2 },
    571,
  )

  /**
   * When a standby's compras backends last did anything (epoch seconds; 0: none): a read that lands on it moves
   * it on; a connection the pool closes as idle can only move it back.
   */
  const lastActive = async (url: string) =>
    (
      await query<{ at: number | null }>(
        url,
        `SELECT extract(epoch FROM max(state_change))::float8 AS at FROM pg_stat_activity
         WHERE datname = 'compras' AND application_name = 'compras' AND pid <> pg_backend_pid()`,
      )
    )[0]?.at ?? 0

  before(async () => {
    pair = await startStandbyPair(2)
    primary = createPool(pair.primary.url, { max: 4 })
    await migrate(primary)
    await syncReadModel(primary)
    assert.equal((await importRecords(primary, [source(ndjson(records))])).ok, true)
    await pair.caughtUp()
  })
  after(async () => {
    await primary?.end()
    await pair?.stop()
  })

  it('spreads the reads over both, and sends them all to the other while one lags', async () => {
    const [a, b] = pair.standbys as [StandbyServer, StandbyServer]
    const app = await buildTestApp(
      { pool: primary },
      {
        env: {
          DATABASE_URL: pair.primary.url,
          DATABASE_REPLICA_URLS: `${a.url},${b.url}`,
          REPLICA_MAX_LAG: '1',
          PUBLIC_RATE_LIMIT: '0',
        },
      },
    )
    const base = await listen(app)
    // Pages the cache does not hold: each another per_page.
    let asked = 0
    const uncached = async (n: number) => {
      for (let k = 0; k < n; k++) {
        const { status } = await request(`${base}/v1/transparency/contracts?per_page=${1 + (asked++ % 100)}`)
        assert.equal(status, 200)
      }
    }
    try {
      await uncached(20)
      assert.ok((await lastActive(a.url)) > 0, 'reads landed on the first')
      assert.ok((await lastActive(b.url)) > 0, 'reads landed on the second')
      await b.applyDelay(30_000)
      const contract = first(records, 'contract')
      assert.equal(
        (await importRecords(primary, [source(ndjson([{ ...contract, object_details: 'Mudou' }]))])).ok,
        true,
      )
      const state = async () =>
        (JSON.parse((await request(`${base}/ready`)).body) as { replicas: { state: string }[] }).replicas.map(
          (r) => r.state,
        )
      await until(async () => (await state()).join() === 'up,lagging', 20_000, 'the second to lag')
      const before = await lastActive(b.url)
      const beforeA = await lastActive(a.url)
      await uncached(20)
      assert.ok((await lastActive(b.url)) <= before, 'no read went to the lagging one')
      assert.ok((await lastActive(a.url)) > beforeA, 'the other served them')
      await b.applyDelay(0)
      await until(async () => (await state()).join() === 'up,up', 20_000, 'the second to return')
    } finally {
      await b.applyDelay(0)
      await app.close()
    }
  })
})
