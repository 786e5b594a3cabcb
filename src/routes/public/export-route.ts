import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { DOWNLOAD_REFUSALS, failure } from '../../answers/schemas.js'
import { CONTENT_TYPES, type ExportFile, openExport } from '../../export/export.js'
import { EXPORT_PARAMETERS, exportRequest } from '../../export/request.js'
import type { TransparencyOptions } from '../http/route-options.js'
import { type OpenedFile, sendDownload } from '../http/send-download.js'

/** The 200 of a file an export streams, in either of its types. */
export const FILE_ANSWER = {
  description: 'The file',
  content: {
    [CONTENT_TYPES.xlsx]: { schema: Type.String({ format: 'binary' }) },
    [CONTENT_TYPES.csv]: { schema: Type.String({ format: 'binary' }) },
  },
}

/** An export's file as sendDownload sends it: its stream, type and attachment name. */
export const fileDownload = (file: ExportFile): OpenedFile => ({
  stream: file.stream,
  headers: {
    'Content-Type': file.contentType,
    'Content-Disposition': `attachment; filename="${file.filename}"`,
  },
})

/** Every record of a listing's filter as a file: GET /v1/transparency/export. */
const exportRoute: FastifyPluginAsyncTypebox<TransparencyOptions> = async (
  app,
  { pool, exportPool, downloads, onExportRows },
) => {
  app.get(
    '/transparency/export',
    {
      config: { accepts: EXPORT_PARAMETERS.accepts },
      schema: {
        operationId: 'exportRecords',
        tags: ['transparency'],
        summary: 'Every record of a listing as an Excel (.xlsx) or CSV file',
        description:
          "Takes the resource, the format, and the filters and sort of that resource's listing with the same " +
          'meaning; returns every matching row, not one page, streamed as an attachment named after the ' +
          'resource and the date. Column titles in Portuguese; in XLSX money and numbers are numeric cells and ' +
          'dates date cells. CSV is RFC 4180, UTF-8 with a byte-order mark; separator=; suits Brazilian Excel. ' +
          'Problems with the parameters are answered in JSON before any byte of the file; a failure in the ' +
          'middle aborts the transfer, so a truncated file never looks complete.',
        security: [],
        querystring: EXPORT_PARAMETERS.schema,
        response: {
          200: FILE_ANSWER,
          404: failure('`Organização não encontrada.`: organization_uuid'),
          422: failure('An unknown or invalid parameter, named in the message'),
          ...DOWNLOAD_REFUSALS,
        },
      },
    },
    async (request, reply) => {
      const what = await exportRequest(pool, request.query)
      return sendDownload(request, reply, downloads, 'export', async (signal) => {
        let counted = 0
        const file = await openExport(exportPool, {
          ...what,
          signal,
          onProgress: (rows) => {
            onExportRows?.(rows - counted)
            counted = rows
          },
        })
        return fileDownload(file)
      })
    },
  )
}

export default exportRoute
