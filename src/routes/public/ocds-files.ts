import { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import {
  DOWNLOAD_REFUSALS,
  failure,
  OCDS_JSON,
  ocdsPackage as PACKAGE,
  TOO_MANY,
} from '../../answers/schemas.js'
import { EXTENSION_README, EXTENSION_RELEASE_SCHEMA, extensionMetadata } from '../../ocds/extension.js'
import { BULK_PARAMETERS, releaseFilters, releaseLines } from '../../ocds-packages/packages.js'
import type { TransparencyOptions } from '../http/route-options.js'
import { CACHE_CONTROL } from '../http/send-answer.js'
import { sendDownload } from '../http/send-download.js'

// The OCDS files: the milestone-value extension's (fixed, kept by clients an hour) and the bulk download of
// every release, streamed in the scope that compresses.

/** The milestone-value extension: its metadata, its patch of the release schema, its documentation. */
export const ocdsExtensionRoutes: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const { publication } = options
  const files = [
    [
      'extension.json',
      JSON.stringify(extensionMetadata(publication.publicUrl)),
      OCDS_JSON,
      'The milestone-value extension: its metadata',
    ],
    [
      'release-schema.json',
      JSON.stringify(EXTENSION_RELEASE_SCHEMA),
      OCDS_JSON,
      "The extension's patch of the release schema",
    ],
    [
      'README.md',
      EXTENSION_README,
      'text/markdown; charset=utf-8',
      "The extension's documentation (its documentationUrl)",
    ],
  ] as const
  for (const [file, body, type, summary] of files) {
    app.get(
      `/ocds/extension/${file}`,
      {
        schema: {
          operationId:
            file === 'extension.json'
              ? 'getOcdsExtension'
              : file === 'README.md'
                ? 'getOcdsExtensionDocumentation'
                : 'getOcdsExtensionSchema',
          tags: ['ocds'],
          summary,
          description:
            'OCDS 1.1 has no value on a milestone; compras adds one, so that a supply order (a delivery ' +
            "milestone) shows what it is worth. Every package lists this extension's address.",
          security: [],
          response: {
            200:
              type === OCDS_JSON
                ? PACKAGE(Type.Object({}, { additionalProperties: true }), summary)
                : { description: summary, content: { [type]: { schema: Type.String() } } },
            429: TOO_MANY,
          },
        },
      },
      async (_request, reply) =>
        (reply as FastifyReply).header('Cache-Control', CACHE_CONTROL).type(type).send(body),
    )
  }
}

/** The bulk download: every release, one a line, streamed (in the scope that compresses). */
export const ocdsBulkRoute: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const { exportPool, downloads, publication } = options
  app.get(
    '/ocds/releases.jsonl',
    {
      config: { accepts: BULK_PARAMETERS.accepts },
      schema: {
        operationId: 'downloadOcdsReleases',
        tags: ['ocds'],
        summary: 'Every OCDS release, one JSON a line (JSON Lines): the latest of each process, or all',
        description:
          'The bulk download: every release GET /v1/ocds/releases would page through, with the same filters, ' +
          'newest change first, one release per line, streamed (gzip or br on request). With history=true, ' +
          'every release ever published, the ones later changes replaced too, in the order they were ' +
          "published (oldest first), so that a process's releases come in order. It counts as an export: EXPORT_CONCURRENCY " +
          'at once per instance, one per address, each at most EXPORT_TIMEOUT seconds. A failure in the ' +
          'middle aborts the transfer, so a cut file never looks complete.',
        security: [],
        querystring: BULK_PARAMETERS.schema,
        response: {
          200: {
            description: 'The releases, one a line',
            content: { 'application/x-ndjson': { schema: Type.String() } },
          },
          404: failure('`Organização não encontrada.`: organization_uuid'),
          422: failure('An unknown or invalid parameter, named in the message'),
          ...DOWNLOAD_REFUSALS,
        },
      },
    },
    async (request, reply) => {
      const filters = { ...releaseFilters(request.query), history: request.query.history === true }
      return sendDownload(request, reply, downloads, 'OCDS bulk download', async (signal) => {
        const bulk = await releaseLines(exportPool, publication.config.prefix, filters, undefined, signal)
        const stream = Readable.from(bulk.lines, { objectMode: false })
        bulk.releaseWith(stream)
        const day = new Date().toISOString().slice(0, 10)
        return {
          stream,
          headers: {
            // The package metadata the releases belong to.
            Link: `<${publication.publicUrl}/v1/ocds/package.json>; rel="describedby"`,
            'Content-Type': 'application/x-ndjson; charset=utf-8',
            'Content-Disposition': `attachment; filename="ocds-releases${filters.history ? '-history' : ''}-${day}.jsonl"`,
          },
        }
      })
    },
  )
}
