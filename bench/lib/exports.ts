import { get } from 'node:http'
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

/** The OCDS bulk download (every release as JSON Lines): its rows are its lines, counted as they arrive. */
export function ocdsThroughService(base: string, pid: number) {
  return download(base, pid, 'OCDS releases, JSON Lines (service)', '/v1/ocds/releases.jsonl')
}

/** A download through the running service, timed, with the service's peak memory sampled every 25 ms. */
async function download(base: string, pid: number, name: string, path: string, rows?: number) {
  let peak = residentBytes(pid)
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid))
  }, 25)
  const started = performance.now()
  let lines = 0
  const bytes = await new Promise<number>((resolve, reject) => {
    get(`${base}${path}`, (response) => {
      if (response.statusCode !== 200) reject(new Error(`${path} answered ${response.statusCode}`))
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
      })
      response.on('end', () => resolve(size))
      response.on('error', reject)
    }).on('error', reject)
  })
  const seconds = (performance.now() - started) / 1000
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
