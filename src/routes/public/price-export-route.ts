import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { DOWNLOAD_REFUSALS, failure } from '../../answers/schemas.js'
import type { ExportFormat } from '../../export/export.js'
import { openPriceExport, PRICE_EXPORT_PARAMETERS } from '../../prices/export.js'
import { priceQuery } from '../../prices/research.js'
import { PublicReads } from '../../reads/public-reads.js'
import type { TransparencyOptions } from '../http/route-options.js'
import { sendDownload } from '../http/send-download.js'
import { FILE_ANSWER, fileDownload } from './export-route.js'

/** The price research as a file: GET /v1/transparency/prices/export. */
export const priceExportRoute: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const { exportPool, downloads, cursors, publication } = options
  const reads = new PublicReads(options)
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
          'under the query, the moment it was made and the address it can be made again at (under PUBLIC_URL), so ' +
          'that it can be attached to a purchase process; then every matching item. CSV holds the items. ' +
          'Streamed, and bounded as the exports are (one at a time per address, EXPORT_CONCURRENCY at once, ' +
          'EXPORT_TIMEOUT), and as the research is (RESEARCH_MAX_ITEMS: a research too broad is answered 422 ' +
          'before any byte of the file).',
        security: [],
        querystring: PRICE_EXPORT_PARAMETERS.schema,
        response: {
          200: FILE_ANSWER,
          404: failure('`Organização não encontrada.`: organization_uuid'),
          422: failure(
            'An unknown or invalid parameter, named in the message; or `Pesquisa ampla demais...`',
          ),
          ...DOWNLOAD_REFUSALS,
        },
      },
    },
    async (request, reply) => {
      const query = await priceQuery(cursors, request.query)
      // The research's summary (kept for its filters), before any byte: too broad or unknown organization is
      // answered in JSON, and the file streams only the items.
      const { summary, fences } = await reads.prices.summary(query, request.client, request.signal)
      // Where the same research is answered in JSON: this service's address, without the file's own parameters.
      const search = new URLSearchParams(request.url.split('?')[1] ?? '')
      search.delete('format')
      search.delete('separator')
      const source = `${publication.publicUrl}/v1/transparency/prices?${search}`
      return sendDownload(request, reply, downloads, 'price export', async (signal) => {
        const file = await openPriceExport(exportPool, {
          query,
          summary,
          fences,
          format: request.query.format as ExportFormat,
          separator: request.query.separator === ';' ? ';' : ',',
          source,
          asked: request.query,
          signal,
        })
        return fileDownload(file)
      })
    },
  )
}
