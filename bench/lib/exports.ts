import { execFile } from 'node:child_process'
import { log } from './options.js'
import { residentBytes, run } from './processes.js'

// The export scenarios: every contract as XLSX and CSV through the running service, with its peak memory,
// and the same rows through exceljs's streaming writer, the library ours replaced; and the OCDS bulk download.

export interface ExportFigures {
  name: string
  rows: number
  seconds: number
  rowsPerSecond: number
  peakRssMB: number
  bytes?: number
}

export function exportThroughService(base: string, pid: number, format: 'xlsx' | 'csv', rows: number) {
  return download(
    base,
    pid,
    `export ${format.toUpperCase()} (service)`,
    `/v1/transparency/export?resource=contracts&format=${format}`,
    rows,
  )
}

/** A new mirror's catch-up: the whole public change feed with every record, as JSON Lines, one entry a line. */
export function feedThroughService(base: string, pid: number) {
  return download(
    base,
    pid,
    'change feed with records, JSON Lines (service)',
    '/v1/transparency/changes.jsonl?with_records=true',
  )
}

/** The OCDS bulk download (every release as JSON Lines): its rows are its lines, counted as they arrive. */
export function ocdsThroughService(base: string, pid: number) {
  return download(base, pid, 'OCDS releases, JSON Lines (service)', '/v1/ocds/releases.jsonl')
}

/** The OCDS bulk download with history: every release ever published, the replaced ones too. */
export function ocdsHistoryThroughService(base: string, pid: number) {
  return download(
    base,
    pid,
    'OCDS releases with history, JSON Lines (service)',
    '/v1/ocds/releases.jsonl?history=true',
  )
}

const CLIENT = `
import { get } from 'node:http'
const started = performance.now()
let lines = 0
let bytes = 0
get(process.argv[1], (response) => {
  if (response.statusCode !== 200) { console.error(process.argv[1] + ' answered ' + response.statusCode); process.exit(1) }
  response.on('data', (chunk) => {
    bytes += chunk.length
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
  })
  response.on('end', () => console.log(JSON.stringify({ lines, bytes, seconds: (performance.now() - started) / 1000 })))
}).on('error', (error) => { console.error(error.message); process.exit(1) })
`

/** compras-client's sync() catching up the whole feed with records, in a child process: entries, time, memory. */
const SYNCING = `
const { Compras } = await import(process.argv[2])
const api = new Compras({ baseUrl: process.argv[1] })
const started = performance.now()
let lines = 0
let peak = 0
const rss = []
const sample = () => { const now = process.memoryUsage().rss; peak = Math.max(peak, now); rss.push(now) }
const sampler = setInterval(sample, 100)
for await (const entry of api.changes.sync({ withRecords: true, perPage: 1000, untilCaughtUp: true })) {
  if (entry.cursor) lines++
}
clearInterval(sampler)
sample()
const quarter = rss[Math.floor(rss.length / 4)] ?? peak
console.log(JSON.stringify({ lines, seconds: (performance.now() - started) / 1000, peak, quarter, last: rss.at(-1) }))
`

export interface SyncFigures extends ExportFigures {
  /** The client's resident memory a quarter into the catch-up and at its end, in MB. */
  quarterRssMB: number
  lastRssMB: number
}

/** compras-client's sync() catching the feed up with records, through the running service, beside the raw lines. */
export async function syncThroughClient(base: string): Promise<SyncFigures> {
  const client = new URL('../../client/src/index.ts', import.meta.url).href
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', SYNCING, base, client],
      { maxBuffer: 1 << 20 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  )
  const { lines, seconds, peak, quarter, last } = JSON.parse(out.trim().split('\n').at(-1) as string) as {
    lines: number
    seconds: number
    peak: number
    quarter: number
    last: number
  }
  const figures: SyncFigures = {
    name: 'change feed with records through compras-client sync() (client)',
    rows: lines,
    seconds: Number(seconds.toFixed(2)),
    rowsPerSecond: Math.round(lines / seconds),
    peakRssMB: Math.round(peak / 1e6),
    quarterRssMB: Math.round(quarter / 1e6),
    lastRssMB: Math.round(last / 1e6),
  }
  log(
    `${figures.name}: ${figures.rowsPerSecond} entries/s, the client's RSS ${figures.quarterRssMB} MB a quarter in, ` +
      `${figures.lastRssMB} MB at the end, peak ${figures.peakRssMB} MB`,
  )
  return figures
}

/** Downloads url in a child node process; its summary line: lines, bytes, seconds. */
function fetchInChild(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', CLIENT, url],
      { maxBuffer: 1 << 20 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    )
  })
}

/** A download through the running service, timed, with the service's peak memory sampled every 25 ms. */
async function download(base: string, pid: number, name: string, path: string, rows?: number) {
  let peak = residentBytes(pid)
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid))
  }, 25)
  // The client in a process of its own, as a user's would be: this one holds the whole run's samples, and a
  // gigabyte of chunks through its heap measured its garbage collector more than the service.
  const { lines, bytes, seconds } = JSON.parse(await fetchInChild(`${base}${path}`)) as {
    lines: number
    bytes: number
    seconds: number
  }
  clearInterval(sampler)
  const count = rows ?? lines
  const figures: ExportFigures = {
    name,
    rows: count,
    seconds: Number(seconds.toFixed(2)),
    rowsPerSecond: Math.round(count / seconds),
    peakRssMB: Math.round(peak / 1e6),
    bytes,
  }
  log(`${figures.name}: ${figures.rowsPerSecond} rows/s, peak RSS ${figures.peakRssMB} MB`)
  return figures
}

export async function exportWithExceljs(url: string): Promise<ExportFigures> {
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
