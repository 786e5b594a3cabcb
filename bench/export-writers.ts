// Export writers side by side on the same rows: our streaming XLSX writer and exceljs's streaming
// WorkbookWriter, each reading the contracts of BENCH_DATABASE_URL through the same cursor query.
// Usage: BENCH_DATABASE_URL=postgres://... npx tsx bench/export-writers.ts [xlsx|csv|exceljs]
// Run one writer per process so that peak resident memory is its own.
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import ExcelJS from 'exceljs'
import QueryStream from 'pg-query-stream'
import { createPool } from '../src/db/pool.js'
import { columnSql, EXPORT_COLUMNS } from '../src/export/columns.js'
import { openExport } from '../src/export/export.js'
import { PUBLIC_RESOURCES as RESOURCES } from '../src/resources/index.js'
import { from } from '../src/resources/json.js'

const url = process.env.BENCH_DATABASE_URL
if (!url) throw new Error('set BENCH_DATABASE_URL')
const which = process.argv[2] ?? 'xlsx'
const pool = createPool(url)
const resource = RESOURCES.find((r) => r.path === 'contracts')
if (!resource) throw new Error('no contracts resource')
let peak = 0
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss)
}, 50)
let bytes = 0
const sink = () =>
  new Writable({
    write(chunk, _encoding, callback) {
      bytes += chunk.length
      callback()
    },
  })
const started = performance.now()
let rows = 0
if (which === 'exceljs') {
  const columns = EXPORT_COLUMNS.contracts
  const client = await pool.connect()
  const query = client.query(
    new QueryStream(
      `SELECT ${columns.map((c) => columnSql(c, 'csv')).join(', ')} FROM ${from(resource.record)} ORDER BY c.date_start DESC, c.id DESC`,
      [],
      { batchSize: 2000, rowMode: 'array' },
    ),
  )
  const out = sink()
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useSharedStrings: false,
    useStyles: true,
  })
  const sheet = workbook.addWorksheet('Contratos')
  sheet.columns = columns.map((c) => ({ header: c.title, width: 20 }))
  for await (const row of query as AsyncIterable<(string | null)[]>) {
    const values = row.map((value, i) => {
      const kind = columns[i]?.kind
      if (value === null) return null
      if (kind === 'money') return Number(value)
      if (kind === 'date') return new Date(`${value}T00:00:00Z`)
      return value
    })
    sheet.addRow(values).commit()
    rows++
  }
  await workbook.commit()
  client.release()
} else {
  const file = await openExport(pool, {
    resource,
    format: which === 'csv' ? 'csv' : 'xlsx',
    separator: ',',
    filters: {},
    sort: resource.defaultSort,
    onProgress: (n) => {
      rows = n
    },
  })
  await pipeline(file.stream, sink())
}
const seconds = (performance.now() - started) / 1000
clearInterval(sampler)
peak = Math.max(peak, process.memoryUsage().rss)
console.log(
  JSON.stringify({
    writer: which,
    rows,
    seconds: Number(seconds.toFixed(2)),
    rowsPerSecond: Math.round(rows / seconds),
    megabytes: Number((bytes / 1e6).toFixed(1)),
    peakRssMB: Math.round(peak / 1e6),
  }),
)
await pool.end()
