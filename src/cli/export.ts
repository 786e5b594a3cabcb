import { createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import { openExport } from '../export/export.js'
import { checkExportParameters, EXPORT_PARAMETERS, exportRequest } from '../export/request.js'
import { withDatabase } from './common.js'
import { ProgressLine } from './progress.js'

/** CLI option (camelCase, as commander gives it) → query parameter of GET /v1/transparency/export. */
export const EXPORT_OPTIONS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.keys(EXPORT_PARAMETERS.accepts).map((name) => [
    name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
    name,
  ]),
)

export async function exportCommand(
  options: Record<string, string | undefined> & { out: string },
): Promise<void> {
  await withDatabase(async (db) => {
    const query: Record<string, unknown> = {}
    for (const [option, parameter] of Object.entries(EXPORT_OPTIONS)) {
      if (options[option] !== undefined) query[parameter] = options[option]
    }
    checkExportParameters(query)
    const request = await exportRequest(db.pool, query)
    const line = new ProgressLine(process.stderr, 'rows')
    const file = await openExport(db.pool, { ...request, onProgress: (rows) => line.update(rows) })
    try {
      await pipeline(file.stream, createWriteStream(options.out))
    } catch (error) {
      await rm(options.out, { force: true }) // never leave a truncated file that looks complete
      throw error
    } finally {
      line.end()
    }
    process.stdout.write(`wrote ${options.out}\n`)
  })
}
