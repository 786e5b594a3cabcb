import { createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { openExport } from '../export/export.js'
import { checkExportParameters, EXPORT_PARAMETERS, exportRequest } from '../export/request.js'
import { BULK_PARAMETERS, releaseFilters, releaseLines } from '../ocds-packages/packages.js'
import { type ParameterProblem, parameterError } from '../queries/parameters.js'
import { compileQuery } from '../query-validation.js'
import { withDatabase } from './common.js'
import { ProgressLine } from './progress.js'

/** CLI option (camelCase, as commander gives it) → query parameter of GET /v1/transparency/export. */
export const EXPORT_OPTIONS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.keys(EXPORT_PARAMETERS.accepts).map((name) => [
    name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
    name,
  ]),
)

const validateBulk = compileQuery(BULK_PARAMETERS.schema)

function checkBulkParameters(query: Record<string, unknown>): void {
  const errors = validateBulk(query)
  if (errors) throw parameterError(errors[0] as ParameterProblem, BULK_PARAMETERS.accepts)
}

export async function exportCommand(
  options: Record<string, string | undefined> & { out: string },
): Promise<void> {
  await withDatabase(async (db, config) => {
    const query: Record<string, unknown> = {}
    for (const [option, parameter] of Object.entries(EXPORT_OPTIONS)) {
      if (options[option] !== undefined) query[parameter] = options[option]
    }
    let stream: Readable
    let line: ProgressLine
    if (query.resource === 'ocds') {
      // The OCDS bulk download: the filters GET /v1/ocds/releases.jsonl takes.
      const { resource: _, ...filters } = query
      checkBulkParameters(filters)
      line = new ProgressLine(process.stderr, 'releases')
      const bulk = await releaseLines(db.pool, config.ocds.prefix, releaseFilters(filters), (n) =>
        line.update(n),
      )
      stream = Readable.from(bulk.lines, { objectMode: false })
      bulk.releaseWith(stream)
    } else {
      checkExportParameters(query)
      const request = await exportRequest(db.pool, query)
      line = new ProgressLine(process.stderr, 'rows')
      stream = (await openExport(db.pool, { ...request, onProgress: (rows) => line.update(rows) })).stream
    }
    try {
      await pipeline(stream, createWriteStream(options.out))
    } catch (error) {
      await rm(options.out, { force: true }) // never leave a truncated file that looks complete
      throw error
    } finally {
      line.end()
    }
    process.stdout.write(`wrote ${options.out}\n`)
  })
}
