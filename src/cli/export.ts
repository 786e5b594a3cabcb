import { createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import { openExport } from '../export/export.js'
import { checkExportParameters, exportRequest } from '../export/request.js'
import { TransparencyError } from '../transparency/parameters.js'
import { UsageError, withDatabase } from './common.js'

/** CLI option (camelCase, as commander gives it) → query parameter of GET /v1/transparency/export. */
export const EXPORT_OPTIONS = {
  resource: 'resource',
  format: 'format',
  separator: 'separator',
  organizationUuid: 'organization_uuid',
  number: 'number',
  biddingNumber: 'bidding_number',
  modalityId: 'modality_id',
  statusId: 'status_id',
  managementStatusId: 'management_status_id',
  providerDocument: 'provider_document',
  providerName: 'provider_name',
  dateFrom: 'date_from',
  dateTo: 'date_to',
  q: 'q',
  sort: 'sort',
} as const

export async function exportCommand(
  options: Record<string, string | undefined> & { out: string },
): Promise<void> {
  await withDatabase(async (db) => {
    const query: Record<string, unknown> = {}
    for (const [option, parameter] of Object.entries(EXPORT_OPTIONS)) {
      if (options[option] !== undefined) query[parameter] = options[option]
    }
    let request: Awaited<ReturnType<typeof exportRequest>>
    try {
      checkExportParameters(query)
      request = await exportRequest(db.pool, query)
    } catch (error) {
      if (error instanceof TransparencyError) throw new UsageError(error.message)
      throw error
    }
    const tty = process.stderr.isTTY
    const file = await openExport(db.pool, {
      ...request,
      onProgress: tty
        ? (rows) => process.stderr.write(`\rwrote ${rows.toLocaleString('en')} rows`)
        : undefined,
    })
    try {
      await pipeline(file.stream, createWriteStream(options.out))
    } catch (error) {
      await rm(options.out, { force: true }) // never leave a truncated file that looks complete
      throw error
    } finally {
      if (tty) process.stderr.write('\n')
    }
    process.stdout.write(`wrote ${options.out}\n`)
  })
}
