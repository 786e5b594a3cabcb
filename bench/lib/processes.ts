import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { get } from 'node:http'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { loadConfig } from '../../src/config.js'

// The processes a run starts (the service, the baseline, the CLI), and the plumbing to talk to them.

export const BIN = path.resolve('bin/compras.js')

const children = new Set<ChildProcess>()

process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL')
})

/** Runs a command to completion; its standard output when piped. */
export function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdout: 'inherit' | 'pipe' = 'inherit',
) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', stdout, 'inherit'],
    })
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
    )
  })
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

export function fetchText(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        body += chunk
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
      response.on('error', reject)
    }).on('error', reject)
  })
}

export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1]
  return kb ? Number(kb) * 1024 : 0
}

/** A new empty database of that name on the server of adminUrl (dropped first if it is there): its URL. */
export async function freshDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
  return withDatabase(adminUrl, name)
}

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

/** What the benchmark sets for the service over the environment it runs in. */
const SERVICE_ENV = {
  HOST: '127.0.0.1',
  REDIS_URL: '',
  // One address sends all the load: the per-address limit on the public routes would measure itself.
  PUBLIC_RATE_LIMIT: '0',
  // The address its links name (OCDS, feeds): the bare server's, whatever port each listens on.
  PUBLIC_URL: 'http://localhost:3000',
}

/** The service's configuration, as it reads it from this environment with the benchmark's settings. */
const serviceConfig = () => loadConfig({ ...process.env, ...SERVICE_ENV })

/**
 * The service's settings that shape the figures (its memory and its connections), as the service will read
 * them from this environment: a run with CACHE_MB=0, say, says so in its report.
 */
export function serviceSettings(): string {
  const config = serviceConfig()
  return [`CACHE_MB ${config.cacheMb}`, `DATABASE_POOL_SIZE ${config.databasePoolSize}`].join(', ')
}

/**
 * `compras serve` of a build (bin: its bin/compras.js; this checkout's by default) on DATABASE_URL url, its
 * output in logFile; resolves once /ready answers.
 */
export async function startService(
  url: string,
  logFile: string,
  bin = BIN,
  env: Readonly<Record<string, string>> = {},
) {
  const port = await freePort()
  // BENCH_SERVE_NODE_ARGS: options for the service's node, e.g. --cpu-prof to see where its time goes.
  const nodeArgs = process.env.BENCH_SERVE_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  const child = spawn(process.execPath, [...nodeArgs, bin, 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      ...SERVICE_ENV,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  const sink = createWriteStream(logFile)
  child.stdout.pipe(sink)
  child.stderr.pipe(sink)
  const base = `http://127.0.0.1:${port}`
  // Up to ten minutes: a build whose read model differs rebuilds it when it starts.
  for (let attempt = 0; attempt < 6000; attempt++) {
    if (child.exitCode !== null)
      throw new Error(`compras serve exited with ${child.exitCode}; see ${logFile}`)
    const ready = await fetchText(`${base}/ready`).catch(() => undefined)
    if (ready?.status === 200) return { child, base }
    await sleep(100)
  }
  throw new Error(`compras serve did not become ready; see ${logFile}`)
}

/**
 * The bare server (bench/bare-server.ts): the service's library calls behind node:http, with the service's
 * cache memory, on the dataset at url: the service's own reads (src/reads), compiled by build:bench.
 */
export function startBareServer(url: string) {
  const cacheBytes = serviceConfig().cacheMb * 1024 * 1024
  return startBare(['dist-bench/bench/bare-server.js', url, String(cacheBytes)])
}

/**
 * Builds a git ref of this repository in a worktree of its own (npm ci, which builds), for --compare: its
 * bin/compras.js, and what removes the worktree.
 */
export async function buildRef(
  ref: string,
): Promise<{ bin: string; dist: string; commit: string; remove: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'compras-compare-'))
  const commit = (await run('git', ['rev-parse', '--short', `${ref}^{commit}`], {}, 'pipe')).trim()
  await run('git', ['worktree', 'add', '--detach', dir, commit], {}, 'pipe')
  const remove = async () => {
    await run('git', ['worktree', 'remove', '--force', dir], {}, 'pipe').catch(() => {})
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await run('npm', ['ci', '--no-audit', '--no-fund', '--prefix', dir], {}, 'pipe')
  } catch (error) {
    await remove()
    throw error
  }
  return { bin: path.join(dir, 'bin/compras.js'), dist: path.join(dir, 'dist'), commit, remove }
}

/** A bare server of bench/ (plain JavaScript) that prints its port once listening. */
async function startBare(args: string[]) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  children.add(child)
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))
    child.on('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)))
  })
  return { child, base: `http://127.0.0.1:${port}` }
}

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))])
  children.delete(child)
}
