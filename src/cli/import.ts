import { createReadStream } from 'node:fs'
import { access } from 'node:fs/promises'
import { migrate } from '../db/migrate.js'
import { type ImportSource, importRecords, MAX_REPORTED_PROBLEMS } from '../import/importer.js'
import { syncReadModel } from '../readmodel/build.js'
import { UsageError, withDatabase } from './common.js'

export async function importCommand(files: string[]): Promise<void> {
  await withDatabase(async (db) => {
    for (const file of files) {
      if (file === '-') continue
      await access(file).catch(() => {
        throw new UsageError(`cannot read ${file}`)
      })
    }
    const sources: ImportSource[] = files.map((file) => ({
      name: file,
      stream: file === '-' ? process.stdin : createReadStream(file),
    }))
    await migrate(db.pool)
    await syncReadModel(db.pool)
    const progress = process.stderr.isTTY
      ? (records: number) => process.stderr.write(`\rread ${records.toLocaleString('en')} records`)
      : undefined
    const result = await importRecords(db.pool, sources, { onProgress: progress })
    if (progress) process.stderr.write('\n')
    if (!result.ok) {
      for (const p of result.problems) process.stderr.write(`${p.file}:${p.line}: ${p.field}: ${p.reason}\n`)
      const more = result.problemCount - result.problems.length
      if (more > 0)
        process.stderr.write(`... and ${more} more (only the first ${MAX_REPORTED_PROBLEMS} are listed)\n`)
      process.stderr.write(
        `nothing was imported: ${result.problemCount} problem(s) in ${result.lines} records\n`,
      )
      process.exitCode = 1
      return
    }
    const summary = Object.entries(result.counts)
      .filter(([, n]) => n > 0)
      .map(([type, n]) => `${n} ${type}`)
      .join(', ')
    const rate = Math.round(result.lines / result.seconds)
    process.stdout.write(
      `imported ${summary || 'nothing'} (${result.lines} records in ${result.seconds.toFixed(1)} s, ${rate}/s)\n`,
    )
  })
}
