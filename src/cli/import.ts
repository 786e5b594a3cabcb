import { createReadStream } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import { migrate } from '../db/migrate.js'
import {
  type ImportProgress,
  type ImportSource,
  importRecords,
  MAX_REPORTED_PROBLEMS,
} from '../import/importer.js'
import { syncReadModel } from '../readmodel/build.js'
import { UsageError, withDatabase } from './common.js'
import { ProgressLine } from './progress.js'

/** What the progress line says of each phase of an import after reading. */
export const IMPORT_PHASES: Readonly<Record<ImportProgress['phase'], string | undefined>> = {
  reading: undefined,
  checking: 'checking links',
  writing: 'writing',
  documents: 'building documents',
}

export async function importCommand(files: string[]): Promise<void> {
  await withDatabase(async (db) => {
    for (const file of files) {
      if (file === '-') continue
      await access(file).catch(() => {
        throw new UsageError(`cannot read ${file}`)
      })
    }
    const sources: ImportSource[] = await Promise.all(
      files.map(async (file) =>
        file === '-'
          ? { name: file, stream: process.stdin }
          : { name: file, stream: createReadStream(file), size: (await stat(file)).size },
      ),
    )
    await migrate(db.pool)
    await syncReadModel(db.pool)
    const line = new ProgressLine(process.stderr, 'records')
    const result = await importRecords(db.pool, sources, {
      onProgress: ({ phase, records, bytes, totalBytes }) =>
        line.update(records, totalBytes ? bytes / totalBytes : undefined, IMPORT_PHASES[phase]),
    })
    line.end()
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
    const list = (counts: Record<string, number>) =>
      Object.entries(counts)
        .filter(([, n]) => n > 0)
        .map(([type, n]) => `${n} ${type}`)
        .join(', ')
    const written = list(result.counts)
    const withdrawn = list(result.withdrawn)
    const summary = [written && `imported ${written}`, withdrawn && `withdrew ${withdrawn}`].filter(Boolean)
    const rate = Math.round(result.lines / result.seconds)
    process.stdout.write(
      `${summary.join('; ') || 'imported nothing'} (${result.lines} records in ${result.seconds.toFixed(1)} s, ${rate}/s)\n`,
    )
  })
}
