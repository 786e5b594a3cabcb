import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { DOWNLOAD_REFUSALS, failure, Success, TOO_MANY } from '../../answers/schemas.js'
import type { ExportFormat } from '../../export/export.js'
import { FLAG_EXPORT_PARAMETERS, openFlagExport } from '../../export/flags.js'
import { FLAG_PARAMETERS, FLAG_SUMMARY_PARAMETERS } from '../../indicators/flags.js'
import { CardinalOutput, FlagPage, FlagSummary } from '../../indicators/schemas.js'
import { checkOrganization } from '../../queries/organization.js'
import { PublicReads } from '../../reads/public-reads.js'
import type { Read } from '../../reads/read.js'
import type { TransparencyOptions } from '../http/route-options.js'
import { sendRead } from '../http/send-answer.js'
import { sendDownload } from '../http/send-download.js'
import { FILE_ANSWER, fileDownload } from './export-route.js'

// Where to look first: the integrity indicators' flags (src/indicators), a page at a time and counted by code.

const INVALID = failure('An unknown or invalid parameter; the message names it and what it accepts')
const NO_ORGANIZATION = failure('`Organização não encontrada.`: organization_uuid')

const ABOUT =
  'Each flag is a reason to open a record, never a verdict: a rule of Lei 14.133/2021 or of the Open ' +
  "Contracting Partnership's red flags, with the record's own figures. docs/indicators.md gives each code's " +
  'rule, legal basis and known false positives. Computed at each import for the organizations it touched.'

export const indicatorRoutes: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const reads = new PublicReads(options)
  const send = (request: FastifyRequest, reply: FastifyReply, read: Read) =>
    sendRead(reads, request, reply, read)

  app.get(
    '/transparency/indicators',
    {
      config: { accepts: FLAG_PARAMETERS.accepts },
      schema: {
        operationId: 'listIndicators',
        tags: ['transparency'],
        summary: 'Integrity indicators (red flags): the flagged records, with their reasons',
        description: `${ABOUT} Newest year first, by cursor.`,
        security: [],
        querystring: FLAG_PARAMETERS.schema,
        response: {
          200: Type.Union([Success(FlagPage, 'A page of flags'), CardinalOutput], {
            description: "A page of flags; with format=cardinal, every matching flag in Cardinal's shape",
          }),
          404: NO_ORGANIZATION,
          422: INVALID,
          429: TOO_MANY,
        },
      },
    },
    async (request, reply) => send(request, reply, reads.indicators(request.query)),
  )

  app.get(
    '/transparency/indicators/summary',
    {
      config: { accepts: FLAG_SUMMARY_PARAMETERS.accepts },
      schema: {
        operationId: 'summarizeIndicators',
        tags: ['transparency'],
        summary:
          'Integrity indicators counted by code, over all or for an organization, a supplier or a year',
        description: ABOUT,
        security: [],
        querystring: FLAG_SUMMARY_PARAMETERS.schema,
        response: {
          200: Success(FlagSummary, 'How many flags each indicator raised'),
          404: NO_ORGANIZATION,
          422: INVALID,
          429: TOO_MANY,
        },
      },
    },
    async (request, reply) => send(request, reply, reads.indicatorSummary(request.query)),
  )
}

/** The flags as a file: registered with the other files, whose scope tags, compresses and caches them. */
export const indicatorExportRoute: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const { exportPool, downloads, publication, pool } = options
  app.get(
    '/transparency/indicators/export',
    {
      config: { accepts: FLAG_EXPORT_PARAMETERS.accepts },
      schema: {
        operationId: 'exportIndicators',
        tags: ['transparency'],
        summary: 'The integrity flags as an Excel (.xlsx) or CSV file',
        description:
          `${ABOUT} A row per flag, newest year first, with the listing's filters: its code, indicator, year, ` +
          "organ, suppliers, reason and the API's address of each record it names. Streamed, and bounded as " +
          'the exports are (one at a time per address, EXPORT_CONCURRENCY at once, EXPORT_TIMEOUT).',
        security: [],
        querystring: FLAG_EXPORT_PARAMETERS.schema,
        response: { 200: FILE_ANSWER, 404: NO_ORGANIZATION, 422: INVALID, ...DOWNLOAD_REFUSALS },
      },
    },
    async (request, reply) => {
      // An unknown organization is answered in JSON, before any byte of the file.
      await checkOrganization(pool, request.query.organization_uuid as string | undefined)
      return sendDownload(request, reply, downloads, 'indicators export', async (signal) =>
        fileDownload(
          await openFlagExport(exportPool, {
            query: request.query,
            format: request.query.format as ExportFormat,
            separator: request.query.separator === ';' ? ';' : ',',
            publicUrl: publication.publicUrl,
            signal,
          }),
        ),
      )
    },
  )
}
