import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { ExportFormat } from '../export/export.js'
import { openPriceExport, PRICE_EXPORT_PARAMETERS } from '../export/prices.js'
import { failure } from '../reads/answer-schemas.js'
import { checkOrganization } from '../transparency/listing.js'
import { priceQuery } from '../transparency/prices.js'
import { FILE_ANSWER, fileDownload, RETRY_AFTER } from './export-route.js'
import type { TransparencyOptions } from './route-options.js'
import { sendDownload } from './send-download.js'

/** The price research as a file: GET /v1/transparency/prices/export. */
export const priceExportRoute: FastifyPluginAsyncTypebox<TransparencyOptions> = async (
  app,
  { pool, exportPool, downloads, cursors },
) => {
  app.get(
    '/transparency/prices/export',
    {
      config: { accepts: PRICE_EXPORT_PARAMETERS.accepts },
      schema: {
        operationId: 'exportPrices',
        tags: ['transparency'],
        summary: 'The price research as an Excel (.xlsx) or CSV file',
        description:
          "Takes the research's parameters with the same meaning. XLSX has two sheets: the summary per unit, " +
          'under the query, the moment it was made and the address it can be made again at, so that it can be ' +
          'attached to a purchase process; then every matching item. CSV holds the items. Streamed, and bounded ' +
          'as the exports are (one at a time per address, EXPORT_CONCURRENCY at once, EXPORT_TIMEOUT).',
        security: [],
        querystring: PRICE_EXPORT_PARAMETERS.schema,
        response: {
          200: FILE_ANSWER,
          404: failure('`Organização não encontrada.`: organization_uuid'),
          422: failure('An unknown or invalid parameter, named in the message'),
          429: failure('One export at a time per address, or over PUBLIC_RATE_LIMIT requests a minute'),
          503: failure(
            'EXPORT_CONCURRENCY exports already running (Retry-After), or EXPORT_TIMEOUT passed',
            RETRY_AFTER,
          ),
        },
      },
    },
    async (request, reply) => {
      const query = await priceQuery(cursors, request.query)
      await checkOrganization(pool, query.filters.organization_uuid as string | undefined)
      // Where the same research is answered in JSON: this address without the file's own parameters.
      const source = new URL(request.url, `${request.protocol}://${request.host}`)
      source.pathname = source.pathname.replace(/\/export$/, '')
      source.searchParams.delete('format')
      source.searchParams.delete('separator')
      return sendDownload(request, reply, downloads, 'price export', async () => {
        const file = await openPriceExport(exportPool, cursors, {
          query,
          format: request.query.format as ExportFormat,
          separator: request.query.separator === ';' ? ';' : ',',
          source: source.toString(),
          asked: request.query,
        })
        return fileDownload(file)
      })
    },
  )
}
