// `npm run bench`: loads a demo dataset, starts the real service (`compras serve`) and a bare node:http
// baseline as separate processes, drives both with autocannon from this process, and writes the
// figures to bench/results/SCALE.{md,json}. A measurement, never a pass/fail test.
//
// Database: BENCH_DATABASE_URL (any database on the server; the bench creates its own next to it) or,
// without it, an embedded PostgreSQL under $TMPDIR/compras-bench (BENCH_DATA_DIR). The dataset is kept and reused by later runs of
// the same scale; --reload loads it again.
import { type ChildProcess, spawn } from 'node:child_process'
import {
  chmodSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { get } from 'node:http'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import autocannon from 'autocannon'
import { Command, InvalidArgumentError, Option } from 'commander'
import { issueToken } from '../src/auth/tokens.js'
import { openEmbedded } from '../src/db/embedded.js'
import { createPool, type Pool } from '../src/db/pool.js'
import { SCALES, type Scale } from '../src/demo/generator.js'
import { ORDER_RATE_LIMIT } from '../src/routes/orders.js'

const ITEMS_PER_ORDER = 5
const BIN = path.resolve('bin/compras.js')

function positive(value: string): number {
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a positive number')
  return n
}

const program = new Command('bench')
  .description('benchmark the service against a bare node:http server on this machine')
  .addOption(
    new Option('--scale <scale>', 'demo dataset scale').choices(Object.keys(SCALES)).default('large'),
  )
  .option('--connections <n>', 'concurrent connections of the load generator', positive, 32)
  .option('--duration <seconds>', 'measured seconds per scenario', positive, 10)
  .option('--warmup <seconds>', 'warm-up seconds before each scenario (0: none)', Number, 3)
  .option('--reload', 'load the dataset again even when the database already holds it')
  .option('--out <dir>', 'where the results go', 'bench/results')
  .addOption(
    new Option('--generator <name>', 'load generator (default: wrk when installed, else autocannon)').choices(
      ['wrk', 'autocannon'],
    ),
  )
  .option('--only <text>', 'run only the scenarios whose name contains this (a quick look; no export)')
  .parse()
const options = program.opts<{
  scale: Scale
  connections: number
  duration: number
  warmup: number
  reload?: boolean
  out: string
  only?: string
  generator?: 'wrk' | 'autocannon'
}>()

const counts = SCALES[options.scale]
const log = (line: string) => process.stdout.write(`${line}\n`)

// ---------------------------------------------------------------------------------------------------
// Processes and plumbing

const children = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL')
})

function run(
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

async function freePort(): Promise<number> {
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

function fetchText(
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

function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1]
  return kb ? Number(kb) * 1024 : 0
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

// ---------------------------------------------------------------------------------------------------
// The dataset

interface LoadFigures {
  orders: number
  seconds: number
  ordersPerSecond: number
  reused: boolean
}

async function prepareDataset(adminUrl: string): Promise<{ url: string; load: LoadFigures }> {
  const name = `compras_bench_${options.scale}`
  const url = withDatabase(adminUrl, name)
  const admin = createPool(adminUrl, { max: 1 })
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (exists.rowCount === 1 && !options.reload) {
      const pool = createPool(url, { max: 1 })
      try {
        // jsonb orders keys its own way: compare in SQL.
        const { rows } = await pool.query<{ seconds: string }>(
          'SELECT seconds FROM bench_dataset WHERE counts = $1::jsonb',
          [JSON.stringify(counts)],
        )
        const marker = rows[0]
        if (marker) {
          const seconds = Number(marker.seconds)
          log(`dataset: reusing ${name} (loaded earlier in ${seconds.toFixed(1)} s; --reload loads it again)`)
          return {
            url,
            load: { orders: counts.orders, seconds, ordersPerSecond: counts.orders / seconds, reused: true },
          }
        }
      } catch {
        // No marker: a load that did not finish. Load again.
      } finally {
        await pool.end()
      }
    }
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }

  const env = { DATABASE_URL: url }
  await run(process.execPath, [BIN, 'migrate'], env)
  const file = path.join(os.tmpdir(), `compras-bench-${options.scale}-${process.pid}.ndjson`)
  log(`dataset: generating ${options.scale} (${JSON.stringify(counts)}, ${ITEMS_PER_ORDER} items per order)`)
  const generated = performance.now()
  await run(
    process.execPath,
    [BIN, 'demo', '--scale', options.scale, '--items', String(ITEMS_PER_ORDER), '--seed', '1', '--out', file],
    env,
  )
  log(`dataset: generated in ${((performance.now() - generated) / 1000).toFixed(1)} s; importing`)
  const started = performance.now()
  try {
    await run(process.execPath, [BIN, 'import', file], env)
  } finally {
    rmSync(file, { force: true })
  }
  const seconds = (performance.now() - started) / 1000
  const pool = createPool(url, { max: 1 })
  try {
    await pool.query('CREATE TABLE bench_dataset (counts jsonb NOT NULL, seconds numeric NOT NULL)')
    await pool.query('INSERT INTO bench_dataset VALUES ($1, $2)', [JSON.stringify(counts), seconds])
    await pool.query('VACUUM ANALYZE')
  } finally {
    await pool.end()
  }
  log(`dataset: imported in ${seconds.toFixed(1)} s (${Math.round(counts.orders / seconds)} orders/s)`)
  return {
    url,
    load: { orders: counts.orders, seconds, ordersPerSecond: counts.orders / seconds, reused: false },
  }
}

interface Samples {
  orders: Entry[]
  contracts: Entry[]
  filtered: Entry[]
  search: Entry[]
}

async function loadSamples(pool: Pool): Promise<Samples> {
  // New tokens each run: deleting old ones would make PostgreSQL check access_log for each.
  const organizations = await pool.query<{ id: string }>('SELECT id FROM organizations ORDER BY id')
  const tokens = new Map<string, { token: string; index: number }>()
  for (const { id } of organizations.rows)
    tokens.set(id, { token: (await issueToken(pool, id, 'bench')).token, index: tokens.size })
  const orders = await pool.query<{ organization_id: string; number: string }>(
    'SELECT organization_id, number FROM orders',
  )
  const contracts = await pool.query<{ id: string }>('SELECT id FROM contracts')
  const pairs = await pool.query<{ organization_id: string; modality_id: number }>(
    'SELECT DISTINCT organization_id, modality_id FROM contracts',
  )
  const objects = await pool.query<{ object_details: string }>(
    'SELECT object_details FROM contracts TABLESAMPLE SYSTEM (10) LIMIT 500',
  )
  const words = [
    ...new Set(objects.rows.flatMap((row) => row.object_details.toLowerCase().match(/\p{L}{5,}/gu) ?? [])),
  ]
  const open = (path: string): Entry => ({ path, authorization: '', token: -1 })
  return {
    orders: orders.rows.map((row) => {
      const token = tokens.get(row.organization_id) as { token: string; index: number }
      return {
        path: `/external/orders?order_number=${encodeURIComponent(row.number)}`,
        authorization: token.token,
        token: token.index,
      }
    }),
    contracts: contracts.rows.map((row) => open(`/v1/transparency/contracts/${row.id}`)),
    filtered: pairs.rows.map((row) =>
      open(
        `/v1/transparency/contracts?organization_uuid=${row.organization_id}&modality_id=${row.modality_id}`,
      ),
    ),
    search: (words.length > 0 ? words : ['material']).map((word) =>
      open(`/v1/transparency/contracts?q=${encodeURIComponent(word)}`),
    ),
  }
}

// ---------------------------------------------------------------------------------------------------
// Scenarios

const random = (n: number) => Math.floor(Math.random() * n)

/** One request a scenario may send; token is the index of its token (-1: none, no limit to keep). */
interface Entry {
  path: string
  authorization: string
  token: number
}

/** How a scenario picks its requests: hotShare of them from a hot subset of hotFraction of the entries. */
interface Mix {
  hotShare: number
  hotFraction: number
}

const UNIFORM: Mix = { hotShare: 0, hotFraction: 0 }

/**
 * No token may go over its limit: the load generator keeps each token under ORDER_RATE_LIMIT - 5 per
 * calendar second (the service's window), with a margin for requests that cross a second's edge.
 */
const TOKEN_BUDGET = ORDER_RATE_LIMIT - 5

/** The machine's CPU time so far, from /proc/stat: all of it, and what the hypervisor gave to others. */
function cpuTimes(): { total: number; steal: number } {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number)
    return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 }
  } catch {
    return { total: 0, steal: 0 }
  }
}

/** Share of the CPU time between two readings that a virtual machine's host took for others. */
function stealPercent(before: { total: number; steal: number }, after: { total: number; steal: number }) {
  const total = after.total - before.total
  return total > 0 ? Math.round(((after.steal - before.steal) / total) * 100) : 0
}

interface ScenarioResult {
  name: string
  /** CPU time the virtual machine's host took for others while the scenario ran: how noisy the run was. */
  stealPercent?: number
  requestsPerSecond: number
  p50: number
  p99: number
  requests: number
  errors: number
  ratio?: number
}

const INSTALLED_WRK = ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((file) => existsSync(file))
if (options.generator === 'wrk' && !INSTALLED_WRK) program.error('wrk is not installed (apt install wrk)')
const WRK = options.generator === 'autocannon' ? undefined : INSTALLED_WRK

/** wrk (C, cheap per request) when installed; autocannon otherwise, whose own cost caps the figures lower. */
async function drive(
  name: string,
  base: string,
  entries: Entry[],
  mix: Mix = UNIFORM,
): Promise<ScenarioResult> {
  if (options.only && !name.startsWith('baseline') && !name.includes(options.only))
    return { name, requestsPerSecond: 0, p50: 0, p99: 0, requests: 0, errors: 0 }
  const once = WRK
    ? (seconds: number) => driveWrk(base, entries, mix, seconds)
    : (seconds: number) => driveAutocannon(base, entries, mix, seconds)
  if (options.warmup > 0) await once(options.warmup)
  const before = cpuTimes()
  const result = { name, ...(await once(options.duration)), stealPercent: 0 }
  result.stealPercent = stealPercent(before, cpuTimes())
  log(
    `${name}: ${result.requestsPerSecond} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.errors} errors, ` +
      `${result.stealPercent}% CPU stolen`,
  )
  return result
}

let entriesFile: { entries: Entry[]; file: string } | undefined

async function driveWrk(base: string, entries: Entry[], mix: Mix, seconds: number) {
  if (entriesFile?.entries !== entries) {
    const file = path.join(os.tmpdir(), `compras-bench-${process.pid}.tsv`)
    writeFileSync(file, entries.map((e) => `${e.path}\t${e.authorization}\t${e.token}\n`).join(''))
    entriesFile = { entries, file }
  }
  const out = await run(
    WRK as string,
    [
      '-t1',
      `-c${options.connections}`,
      `-d${seconds}s`,
      '--timeout',
      '10s',
      '-s',
      'bench/wrk-requests.lua',
      base,
      '--',
      entriesFile.file,
      String(mix.hotShare),
      String(mix.hotFraction),
      String(TOKEN_BUDGET),
    ],
    {},
    'pipe',
  )
  const line = out.trim().split('\n').at(-1) as string
  const figures = JSON.parse(line) as {
    requests: number
    durationUs: number
    errors: number
    non2xx: number
    p50Us: number
    p99Us: number
  }
  return {
    requestsPerSecond: Math.round(figures.requests / (figures.durationUs / 1e6)),
    p50: Number((figures.p50Us / 1000).toFixed(1)),
    p99: Number((figures.p99Us / 1000).toFixed(1)),
    requests: figures.requests,
    errors: figures.errors + figures.non2xx,
  }
}

async function driveAutocannon(base: string, entries: Entry[], mix: Mix, seconds: number) {
  const hot = Array.from({ length: Math.max(1, Math.round(entries.length * mix.hotFraction)) }, () =>
    random(entries.length),
  )
  const second = new Float64Array(TOKEN_BUDGET > 0 ? 1 + Math.max(...entries.map((e) => e.token)) : 0)
  const used = new Uint16Array(second.length)
  const pick = (): Entry => {
    let entry = entries[0] as Entry
    for (let attempt = 0; attempt < 50; attempt++) {
      entry = entries[
        Math.random() < mix.hotShare ? (hot[random(hot.length)] as number) : random(entries.length)
      ] as Entry
      if (entry.token < 0) return entry
      const now = Math.floor(Date.now() / 1000)
      if (second[entry.token] !== now) {
        second[entry.token] = now
        used[entry.token] = 0
      }
      if ((used[entry.token] as number) < TOKEN_BUDGET) {
        used[entry.token] = (used[entry.token] as number) + 1
        break
      }
    }
    return entry
  }
  const result = await autocannon({
    url: base,
    connections: options.connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => {
          const entry = pick()
          return {
            ...request,
            path: entry.path,
            headers: entry.authorization ? { authorization: entry.authorization } : {},
          }
        },
      },
    ],
  })
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  }
}

interface ExportFigures {
  name: string
  rows: number
  seconds: number
  rowsPerSecond: number
  peakRssMB: number
  bytes?: number
}

async function exportThroughService(base: string, pid: number, format: 'xlsx' | 'csv', rows: number) {
  let peak = residentBytes(pid)
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid))
  }, 25)
  const started = performance.now()
  const bytes = await new Promise<number>((resolve, reject) => {
    get(`${base}/v1/transparency/export?resource=contracts&format=${format}`, (response) => {
      if (response.statusCode !== 200) reject(new Error(`export answered ${response.statusCode}`))
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
      })
      response.on('end', () => resolve(size))
      response.on('error', reject)
    }).on('error', reject)
  })
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  const figures: ExportFigures = {
    name: `export ${format.toUpperCase()} (service)`,
    rows,
    seconds: Number(seconds.toFixed(2)),
    rowsPerSecond: Math.round(rows / seconds),
    peakRssMB: Math.round(peak / 1e6),
    bytes,
  }
  log(`${figures.name}: ${figures.rowsPerSecond} rows/s, peak RSS ${figures.peakRssMB} MB`)
  return figures
}

async function exportWithExceljs(url: string): Promise<ExportFigures> {
  const out = await run(
    process.execPath,
    ['--import', 'tsx', 'bench/export-writers.ts', 'exceljs'],
    { BENCH_DATABASE_URL: url },
    'pipe',
  )
  const result = JSON.parse(out.trim().split('\n').at(-1) as string) as ExportFigures & { writer: string }
  const figures: ExportFigures = {
    name: 'export XLSX (exceljs streaming writer)',
    rows: result.rows,
    seconds: result.seconds,
    rowsPerSecond: result.rowsPerSecond,
    peakRssMB: result.peakRssMB,
  }
  log(`${figures.name}: ${figures.rowsPerSecond} rows/s, peak RSS ${figures.peakRssMB} MB`)
  return figures
}

// ---------------------------------------------------------------------------------------------------
// The run

async function startService(url: string, logFile: string) {
  const port = await freePort()
  // BENCH_SERVE_NODE_ARGS: options for the service's node, e.g. --cpu-prof to see where its time goes.
  const nodeArgs = process.env.BENCH_SERVE_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  const child = spawn(process.execPath, [...nodeArgs, BIN, 'serve'], {
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  const sink = createWriteStream(logFile)
  child.stdout.pipe(sink)
  child.stderr.pipe(sink)
  const base = `http://127.0.0.1:${port}`
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null)
      throw new Error(`compras serve exited with ${child.exitCode}; see ${logFile}`)
    const ready = await fetchText(`${base}/ready`).catch(() => undefined)
    if (ready?.status === 200) return { child, base }
    await sleep(100)
  }
  throw new Error(`compras serve did not become ready; see ${logFile}`)
}

async function startBaseline(bytes: number) {
  const child = spawn(process.execPath, ['bench/baseline-server.mjs', String(bytes)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.add(child)
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))
    child.on('exit', (code) => reject(new Error(`baseline server exited with ${code}`)))
  })
  return { child, base: `http://127.0.0.1:${port}` }
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))])
  children.delete(child)
}

async function postgresVersion(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ server_version: string }>('SHOW server_version')
  return rows[0]?.server_version ?? 'unknown'
}

interface Target {
  scenario: string
  goal: string
  met: boolean
  seen: string
}

function targets(results: Map<string, ScenarioResult>, exports: Map<string, ExportFigures>): Target[] {
  const list: Target[] = []
  const ratio = (name: string, minimum: number, p99Under?: number) => {
    const result = results.get(name)
    if (!result) return
    const ratioMet = (result.ratio ?? 0) >= minimum
    const p99Met = p99Under === undefined || result.p99 < p99Under
    list.push({
      scenario: name,
      goal: `≥ ${minimum * 100}% of baseline${p99Under ? `, p99 < ${p99Under} ms` : ''}`,
      met: ratioMet && p99Met && result.errors === 0,
      seen: `${Math.round((result.ratio ?? 0) * 100)}%, p99 ${result.p99} ms, ${result.errors} errors`,
    })
  }
  const latency = (name: string, p99Under: number) => {
    const result = results.get(name)
    if (!result) return
    list.push({
      scenario: name,
      goal: `p99 < ${p99Under} ms`,
      met: result.p99 < p99Under && result.errors === 0,
      seen: `p99 ${result.p99} ms, ${result.errors} errors`,
    })
  }
  ratio('order query, random', 0.3, 25)
  ratio('order query, skewed', 0.7)
  ratio('contract detail', 0.3)
  latency('contracts page 1, organization + modality', 30)
  latency('contracts page 500', 60)
  latency('contracts q search', 60)
  const xlsx = exports.get('xlsx')
  const exceljs = exports.get('exceljs')
  const csv = exports.get('csv')
  if (xlsx && exceljs)
    list.push({
      scenario: 'export XLSX',
      goal: '≥ 2× exceljs rows/s, peak RSS < 300 MB',
      met: xlsx.rowsPerSecond >= 2 * exceljs.rowsPerSecond && xlsx.peakRssMB < 300,
      seen: `${(xlsx.rowsPerSecond / exceljs.rowsPerSecond).toFixed(1)}× exceljs, ${xlsx.peakRssMB} MB`,
    })
  if (csv)
    list.push({
      scenario: 'export CSV',
      goal: 'peak RSS < 300 MB',
      met: csv.peakRssMB < 300,
      seen: `${csv.peakRssMB} MB`,
    })
  return list
}

function markdown(report: Report): string {
  const lines = [
    `# Benchmark: ${report.scale} dataset`,
    '',
    `Run ${report.date} on ${report.machine.cpus} × ${report.machine.cpu}, ${report.machine.memoryGB} GB, ` +
      `${report.machine.os}, Node.js ${report.machine.node}, PostgreSQL ${report.machine.postgres} (${report.machine.database}).`,
    `Command: \`${report.command}\`. Load generator ${report.loadGenerator}, ${report.connections} connections, ${report.warmup} s warm-up, ` +
      `${report.duration} s measured per scenario.`,
    '',
    `Dataset: ${Object.entries(report.counts)
      .map(([k, v]) => `${v.toLocaleString('en')} ${k}`)
      .join(', ')}, ${ITEMS_PER_ORDER} items per order. ` +
      `Import: ${report.load.seconds.toFixed(1)} s, ${Math.round(report.load.ordersPerSecond).toLocaleString('en')} orders/s` +
      `${report.load.reused ? ' (from the run that loaded it)' : ''}; goal 20,000 orders/s.`,
    '',
    '| Scenario | req/s | × baseline | p50 ms | p99 ms | errors | CPU stolen |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...report.scenarios.map(
      (s) =>
        `| ${s.name} | ${s.requestsPerSecond.toLocaleString('en')} | ${s.ratio === undefined ? '' : `${Math.round(s.ratio * 100)}%`} | ${s.p50} | ${s.p99} | ${s.errors} | ${s.stealPercent ?? 0}% |`,
    ),
    '',
    `The service's resident memory after the load scenarios: ${report.rssAfterLoadMB} MB. Each export below ran ` +
      'on a freshly started service.',
    '',
    '| Export | rows | rows/s | peak RSS MB |',
    '|---|---:|---:|---:|',
    ...report.exports.map(
      (e) =>
        `| ${e.name} | ${e.rows.toLocaleString('en')} | ${e.rowsPerSecond.toLocaleString('en')} | ${e.peakRssMB} |`,
    ),
    '',
    '| Target | goal | seen | met |',
    '|---|---|---|---|',
    ...report.targets.map((t) => `| ${t.scenario} | ${t.goal} | ${t.seen} | ${t.met ? 'yes' : '**no**'} |`),
    '',
  ]
  return lines.join('\n')
}

interface Report {
  scale: Scale
  date: string
  command: string
  machine: {
    cpu: string
    cpus: number
    memoryGB: number
    os: string
    node: string
    postgres: string
    database: string
  }
  loadGenerator: string
  connections: number
  warmup: number
  duration: number
  counts: typeof counts
  load: LoadFigures
  scenarios: ScenarioResult[]
  /** The service's resident memory when the load scenarios ended. */
  rssAfterLoadMB: number
  exports: ExportFigures[]
  targets: Target[]
}

async function main() {
  let adminUrl = process.env.BENCH_DATABASE_URL
  let release: (() => Promise<void>) | undefined
  let database = 'BENCH_DATABASE_URL'
  if (!adminUrl) {
    // Under the system's temporary folder: the embedded server's unprivileged user must reach it when we
    // run as root, and a later run finds the dataset there again.
    const dataDir = process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), 'compras-bench')
    mkdirSync(dataDir, { recursive: true })
    chmodSync(dataDir, 0o755)
    const embedded = await openEmbedded(dataDir, 'command')
    adminUrl = embedded.adminUrl
    release = () => embedded.release()
    database = `embedded in ${dataDir}`
    log(`database: embedded PostgreSQL in ${dataDir}`)
  }
  try {
    const { url, load } = await prepareDataset(adminUrl)
    const pool = createPool(url, { max: 2 })
    const samples = await loadSamples(pool)
    const postgres = await postgresVersion(pool)
    await pool.end()
    mkdirSync(options.out, { recursive: true })

    const service = await startService(url, path.join(options.out, `serve-${options.scale}.log`))
    const results: ScenarioResult[] = []
    const exports = new Map<string, ExportFigures>()
    let rssAfterLoadMB = 0
    try {
      const first = samples.orders[0] as Entry
      const sample = await fetchText(`${service.base}${first.path}`, { authorization: first.authorization })
      if (sample.status !== 200) throw new Error(`an order query answered ${sample.status}: ${sample.body}`)
      const bodyBytes = Buffer.byteLength(sample.body)

      // The baseline runs first and again last; this machine's capacity drifts, and the ratios use the
      // better of the two, so drift never flatters the service.
      const runBaseline = async (name: string) => {
        const baseline = await startBaseline(bodyBytes)
        try {
          return await drive(name, baseline.base, [{ path: '/', authorization: '', token: -1 }])
        } finally {
          await stop(baseline.child)
        }
      }
      results.push(await runBaseline(`baseline (node:http, ${bodyBytes} bytes)`))
      results.push(await drive('order query, random', service.base, samples.orders))
      results.push(
        await drive('order query, skewed', service.base, samples.orders, {
          hotShare: 0.9,
          hotFraction: 0.01,
        }),
      )
      results.push(await drive('contract detail', service.base, samples.contracts))
      results.push(await drive('contracts page 1, organization + modality', service.base, samples.filtered))
      results.push(
        await drive('contracts page 500', service.base, [
          { path: '/v1/transparency/contracts?page=500', authorization: '', token: -1 },
        ]),
      )
      results.push(await drive('contracts q search', service.base, samples.search))
      const again = await runBaseline('baseline, again after the scenarios')
      const baselineRate = Math.max(results[0]?.requestsPerSecond ?? 1, again.requestsPerSecond, 1)
      for (const result of results.slice(1)) result.ratio = result.requestsPerSecond / baselineRate
      results.push(again)

      rssAfterLoadMB = Math.round(residentBytes(service.child.pid as number) / 1e6)
      log(`service resident memory after the load scenarios: ${rssAfterLoadMB} MB`)
    } finally {
      await stop(service.child)
    }
    if (options.only) return
    // Each export on a service of its own, as the export issue measured it: what the export itself needs,
    // not what the load before it left in V8's heap (reported above as rssAfterLoadMB).
    const rows = samples.contracts.length
    for (const format of ['xlsx', 'csv'] as const) {
      const fresh = await startService(url, path.join(options.out, `serve-${options.scale}-${format}.log`))
      try {
        exports.set(format, await exportThroughService(fresh.base, fresh.child.pid as number, format, rows))
      } finally {
        await stop(fresh.child)
      }
    }
    exports.set('exceljs', await exportWithExceljs(url))

    const byName = new Map(results.map((r) => [r.name, r]))
    const report: Report = {
      scale: options.scale,
      date: new Date().toISOString().slice(0, 16).replace('T', ' '),
      command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(
        ' ',
      ),
      machine: {
        cpu: os.cpus()[0]?.model ?? 'unknown',
        cpus: os.cpus().length,
        memoryGB: Math.round(os.totalmem() / 2 ** 30),
        os: `${os.type()} ${os.release()}`,
        node: process.versions.node,
        postgres,
        database,
      },
      loadGenerator: WRK ? 'wrk, 1 thread' : 'autocannon',
      connections: options.connections,
      warmup: options.warmup,
      duration: options.duration,
      counts,
      load,
      scenarios: results,
      rssAfterLoadMB,
      exports: [...exports.values()],
      targets: targets(byName, exports),
    }
    const base = path.join(options.out, options.scale)
    writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`)
    writeFileSync(`${base}.md`, markdown(report))
    log('')
    for (const target of report.targets)
      log(`${target.met ? 'met    ' : 'NOT MET'}  ${target.scenario}: ${target.goal} (seen ${target.seen})`)
    log(`\nresults: ${base}.md and ${base}.json`)
  } finally {
    if (entriesFile) rmSync(entriesFile.file, { force: true })
    await release?.()
  }
}

await main()
