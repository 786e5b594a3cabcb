import { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { EXTENSION, EXTENSION_RELEASE_SCHEMA } from '../ocds/extension.js'
import {
  BULK_PARAMETERS,
  RECORD_PARAMETERS,
  RELEASE_PARAMETERS,
  type ReleaseFilters,
  recordPackage,
  releaseLines,
  releasePage,
} from '../ocds/publish.js'
import { NotFoundError } from '../transparency/errors.js'
import { CACHE_CONTROL, sendAnswer } from './answer.js'
import type { TransparencyOptions } from './options.js'
import { failure, TOO_MANY } from './schemas.js'
import { sendDownload } from './transfer.js'

// Open Contracting (OCDS 1.1) under /v1/ocds: public like /v1/transparency, with its envelope for errors,
// its limits, CORS and caching. Packages are kept whole in the read path's cache until the next import.

const OCDS_JSON = 'application/json; charset=utf-8'
const PACKAGE = (what: string) => ({
  description: what,
  content: { [OCDS_JSON]: { schema: Type.Object({}, { additionalProperties: true }) } },
})
const SCHEMAS = 'https://standard.open-contracting.org/schema/1__1__5'

/** Release and record packages, and the milestone-value extension. */
export const ocdsRoutes: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const { pool, store, publication, cursors } = options
  app.get(
    '/ocds/releases',
    {
      config: { accepts: RELEASE_PARAMETERS.accepts },
      schema: {
        operationId: 'listOcdsReleases',
        tags: ['ocds'],
        summary: 'A page of OCDS releases: one per contracting process, newest change first',
        description:
          `An OCDS 1.1 release package (${SCHEMAS}/release-package-schema.json). A contracting process is a ` +
          'direct contract or public call with its ARPs, contracts and supply orders; a contract or ARP with no ' +
          'bidding is a process of its own. Each release here is the latest of its process: every change to a ' +
          'process is published as a new release, whose `id` is the ocid and its version number, whose `date` ' +
          'is when the change was imported (date_from and date_to filter on it) and whose `tag` says what changed. ' +
          'A published release never changes; the earlier ones are in the record (/v1/ocds/records/{ocid}) and ' +
          'in the bulk download with history=true. `links.next` and `links.prev` give the neighbouring pages ' +
          'with the same filters; with `after`, the processes come in the order their releases changed, for a ' +
          'crawler that syncs incrementally. A page past the last (or a filter that matches nothing) answers ' +
          '404, since a package holds at least one release. Field by field: docs/ocds-mapping.md.',
        security: [],
        querystring: RELEASE_PARAMETERS.schema,
        response: {
          200: PACKAGE('A release package'),
          404: failure('`Registro não encontrado.` (an empty page) or `Organização não encontrada.`'),
          422: failure('An unknown or invalid parameter; the message names it and what it accepts'),
          429: TOO_MANY,
        },
      },
    },
    async (request, reply) => {
      const query = request.query as ReleaseFilters & { page?: number; per_page?: number; after?: string }
      const answer = await store.answer(`ocds\u0000${request.url}`, () =>
        releasePage(pool, publication, cursors, query),
      )
      if (answer === undefined) throw new NotFoundError('record')
      return sendAnswer(request, reply, answer)
    },
  )

  app.get(
    '/ocds/records/:ocid',
    {
      config: { accepts: RECORD_PARAMETERS.accepts },
      schema: {
        operationId: 'getOcdsRecord',
        tags: ['ocds'],
        summary: 'One contracting process as an OCDS record package',
        description:
          `An OCDS 1.1 record package (${SCHEMAS}/record-package-schema.json): every release of the process, ` +
          'oldest first, its compiledRelease (the state they add up to by the OCDS merge routine) and, with ' +
          '`versioned=true`, its versionedRelease (every value each field had, with the release that gave it). ' +
          'A process published before release history has one release from then on. The ocid is OCDS_PREFIX, ' +
          'a hyphen and the UUID of the bidding (or of the contract or ARP that has none).',
        security: [],
        params: Type.Object({
          ocid: Type.String({ maxLength: 100, description: 'The open contracting id, `ocds-xxxxxx-<uuid>`' }),
        }),
        querystring: RECORD_PARAMETERS.schema,
        response: {
          200: PACKAGE('A record package'),
          404: failure('`Registro não encontrado.`'),
          422: failure('An unknown or invalid parameter'),
          429: TOO_MANY,
        },
      },
    },
    async (request, reply) => {
      const { ocid } = request.params
      const versioned = (request.query as { versioned?: boolean }).versioned === true
      const answer = await store.answer(`ocdsr\u0000${ocid}\u0000${versioned}`, () =>
        recordPackage(pool, publication, ocid, versioned),
      )
      if (answer === undefined) throw new NotFoundError('record')
      return sendAnswer(request, reply, answer)
    },
  )

  const files = [
    ['extension.json', EXTENSION, 'The milestone-value extension: its metadata'],
    ['release-schema.json', EXTENSION_RELEASE_SCHEMA, "The extension's patch of the release schema"],
  ] as const
  for (const [file, body, summary] of files) {
    app.get(
      `/ocds/extension/${file}`,
      {
        schema: {
          operationId: file === 'extension.json' ? 'getOcdsExtension' : 'getOcdsExtensionSchema',
          tags: ['ocds'],
          summary,
          description:
            'OCDS 1.1 has no value on a milestone; compras adds one, so that a supply order (a delivery ' +
            "milestone) shows what it is worth. Every package lists this extension's address.",
          security: [],
          response: { 200: PACKAGE(summary), 429: TOO_MANY },
        },
      },
      async (_request, reply) => reply.header('Cache-Control', CACHE_CONTROL).type(OCDS_JSON).send(body),
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
          429: failure('One export at a time per address, or over PUBLIC_RATE_LIMIT requests a minute'),
          503: failure('EXPORT_CONCURRENCY exports already running (Retry-After), or EXPORT_TIMEOUT passed'),
        },
      },
    },
    async (request, reply) => {
      const filters = request.query as ReleaseFilters & { history?: boolean }
      return sendDownload(request, reply, downloads, 'OCDS bulk download', async () => {
        const bulk = await releaseLines(exportPool, publication.config.prefix, filters)
        const stream = Readable.from(bulk.lines, { objectMode: false })
        bulk.releaseWith(stream)
        const day = new Date().toISOString().slice(0, 10)
        return {
          stream,
          headers: {
            'Content-Type': 'application/x-ndjson; charset=utf-8',
            'Content-Disposition': `attachment; filename="ocds-releases${filters.history ? '-history' : ''}-${day}.jsonl"`,
          },
        }
      })
    },
  )
}
