import { migrate } from '../db/migrate.js'
import { MAX_REPORTED_PROBLEMS } from '../import/importer.js'
import { HarvestError, type HarvestKind, harvest, STATE_FILE } from '../pncp/harvest.js'
import { importPncp } from '../pncp/import.js'
import { PNCP_KINDS, type PncpKind } from '../pncp/mapping.js'
import { syncReadModel } from '../readmodel/build.js'
import { fail, UsageError, withDatabase } from './common.js'
import { IMPORT_PHASES } from './import.js'
import { ProgressLine } from './progress.js'

/** PNCP's kinds first, in their own order; the platform's types as the import counts them. */
const order = (name: string) => {
  const at = (PNCP_KINDS as readonly string[]).indexOf(name)
  return at === -1 ? PNCP_KINDS.length : at
}

export async function pncpImportCommand(
  paths: string[],
  options: { kind?: PncpKind; rejects?: string },
): Promise<void> {
  await withDatabase(async (db) => {
    await migrate(db.pool)
    await syncReadModel(db.pool)
    const line = new ProgressLine(process.stderr, 'lines')
    const run = await importPncp(db.pool, paths, {
      ...options,
      onProgress: ({ phase, records }) => line.update(records, undefined, IMPORT_PHASES[phase]),
    }).catch((error: Error) => {
      if (/^cannot read /.test(error.message)) throw new UsageError(error.message)
      throw error
    })
    line.end()
    const list = (counts: Partial<Record<string, number>>) =>
      Object.entries(counts)
        .sort(([a], [b]) => order(a) - order(b))
        .filter(([, n]) => (n ?? 0) > 0)
        .map(([kind, n]) => `${n} ${kind}`)
        .join(', ')
    const print = (text: string) => process.stdout.write(`${text}\n`)
    if (!run.ok) {
      for (const p of run.problems.slice(0, MAX_REPORTED_PROBLEMS))
        process.stderr.write(`${p.file}:#${p.line}: ${p.field}: ${p.reason}\n`)
      const more = run.problems.length - MAX_REPORTED_PROBLEMS
      if (more > 0)
        process.stderr.write(`... and ${more} more (only the first ${MAX_REPORTED_PROBLEMS} are listed)\n`)
      process.stderr.write(`nothing was imported: ${run.problems.length} problem(s)\n`)
      process.exitCode = 1
      return
    }
    const written = list(run.result.counts)
    print(
      `read ${list(run.read) || 'no records'}; imported ${written || 'nothing new'} (${run.result.seconds.toFixed(1)} s)`,
    )
    if (run.unchanged > 0)
      print(`${run.unchanged} file(s) unchanged since an import took them whole: not read again`)
    if (options.rejects !== undefined)
      print(`refused ${run.rejected} record(s), written to ${options.rejects}`)
    if (run.unknown.size > 0) {
      const fields = [...run.unknown].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} (${n})`)
      print(`fields compras does not read: ${fields.join(', ')}`)
    }
  })
}

export async function pncpHarvestCommand(options: {
  from?: string
  to?: string
  sinceLast?: boolean
  uf?: string
  cnpj?: string
  modalities?: number[]
  kinds?: HarvestKind[]
  out: string
  rate: number
  timeout: number
  import?: boolean
}): Promise<void> {
  const line = new ProgressLine(process.stderr, 'pages')
  // Off a terminal, one line a minute.
  let logged = performance.now()
  const started = performance.now()
  const result = await harvest({
    ...options,
    baseUrl: process.env.PNCP_URL,
    itemsUrl: process.env.PNCP_ITEMS_URL,
    onProgress: (p) => {
      line.update(p.pages, p.known > 0 ? p.pages / p.known : undefined, `${p.records} records`)
      if (!line.active && performance.now() - logged >= 60_000) {
        logged = performance.now()
        const minutes = (performance.now() - started) / 60_000
        process.stderr.write(
          `harvest: ${p.pages} of ${p.known} pages known, ${p.records} records, ${Math.round(p.fetched / minutes)} pages/min\n`,
        )
      }
    },
  }).catch((error: Error) => {
    line.end()
    fail(error instanceof HarvestError ? new UsageError(error.message) : error)
    return undefined
  })
  if (result === undefined) return
  line.end()
  process.stdout.write(
    `harvested ${result.from} to ${result.to}: ${result.pages} pages (${result.fetched} fetched now), ${result.records} records in ${options.out}\n`,
  )
  if (result.missing.length > 0) {
    for (const m of result.missing.slice(0, MAX_REPORTED_PROBLEMS))
      process.stderr.write(`missing ${m.path}: ${m.reason} (${m.url})\n`)
    process.stderr.write(
      `${result.missing.length} page(s) missing, listed in ${options.out}/${STATE_FILE}: run the same command again to fetch them\n`,
    )
    process.exitCode = 1
  }
  if (options.import) await pncpImportCommand([options.out], { rejects: `${options.out}/rejects.ndjson` })
}
