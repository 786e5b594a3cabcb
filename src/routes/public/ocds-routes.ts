import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { failure, ocdsPackage as PACKAGE, TOO_MANY } from '../../answers/schemas.js'
import { NotFoundError } from '../../errors.js'
import { OcdsPackageMetadata, OcdsRecordPackage, OcdsReleasePackage } from '../../ocds/schemas.js'
import { RECORD_PARAMETERS, RELEASE_PARAMETERS } from '../../ocds-packages/packages.js'
import { PublicReads } from '../../reads/public-reads.js'
import type { TransparencyOptions } from '../http/route-options.js'
import { sendAnswer } from '../http/send-answer.js'

// Open Contracting (OCDS 1.1) under /v1/ocds: public like /v1/transparency, with its envelope for errors,
// its limits, CORS and caching. Packages are kept whole in the read path's cache until the next import.

const SCHEMAS = 'https://standard.open-contracting.org/schema/1__1__5'

/** Release and record packages, and one release. */
export const ocdsRoutes: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const reads = new PublicReads(options)
  app.get(
    '/ocds/releases',
    {
      config: { accepts: RELEASE_PARAMETERS.accepts },
      // Packages are sent as the text built for them; the schemas describe them.
      serializerCompiler: () => (data) => JSON.stringify(data),
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
          200: PACKAGE(OcdsReleasePackage, 'A release package'),
          404: failure('`Registro não encontrado.` (an empty page) or `Organização não encontrada.`'),
          422: failure('An unknown or invalid parameter; the message names it and what it accepts'),
          429: TOO_MANY,
        },
      },
    },
    async (request, reply) => {
      const answer = await reads.answer(reads.ocdsReleases(request.query))
      if (answer === undefined) throw new NotFoundError('record')
      return sendAnswer(request, reply, answer)
    },
  )

  app.get(
    '/ocds/records/:ocid',
    {
      config: { accepts: RECORD_PARAMETERS.accepts },
      serializerCompiler: () => (data) => JSON.stringify(data),
      schema: {
        operationId: 'getOcdsRecord',
        tags: ['ocds'],
        summary: 'One contracting process as an OCDS record package',
        description:
          `An OCDS 1.1 record package (${SCHEMAS}/record-package-schema.json): the releases of the process, oldest ` +
          "first, linked by address (each at GET /v1/ocds/releases/{id}: OCDS's linked releases, with their date " +
          'and tags), its compiledRelease (the state they add up to by the OCDS merge routine) and, with ' +
          '`versioned=true`, its versionedRelease (every value each field had, with the release that gave it). Both ' +
          'are made when an import publishes a release, so an answer costs what the state of the process is, not ' +
          'what its history was. A process published before release history has one release from then on. The ' +
          'ocid is OCDS_PREFIX, a hyphen and the UUID of the bidding (or of the contract or ARP that has none), in ' +
          'any letter case.',
        security: [],
        params: Type.Object({
          ocid: Type.String({ maxLength: 100, description: 'The open contracting id, `ocds-xxxxxx-<uuid>`' }),
        }),
        querystring: RECORD_PARAMETERS.schema,
        response: {
          200: PACKAGE(OcdsRecordPackage, 'A record package'),
          404: failure('`Registro não encontrado.`'),
          422: failure('An unknown or invalid parameter'),
          429: TOO_MANY,
        },
      },
    },
    async (request, reply) => {
      // One cache entry per process, whatever the letter case it is asked in.
      const versioned = request.query.versioned === true
      const answer = await reads.answer(reads.ocdsRecord(request.params.ocid, versioned))
      if (answer === undefined) throw new NotFoundError('record')
      return sendAnswer(request, reply, answer)
    },
  )

  app.get(
    '/ocds/releases/:id',
    {
      serializerCompiler: () => (data) => JSON.stringify(data),
      schema: {
        operationId: 'getOcdsRelease',
        tags: ['ocds'],
        summary: 'One release, current or replaced, as a release package of it alone',
        description:
          'Where a record package links its releases. The id is the ocid, a hyphen and the version, as every ' +
          'release has it. A published release never changes, but for a withdrawal: a record withdrawn as ' +
          'published by mistake is taken out of every release that showed it.',
        security: [],
        params: Type.Object({
          id: Type.String({ maxLength: 120, description: 'The release id, `ocds-xxxxxx-<uuid>-<version>`' }),
        }),
        response: {
          200: PACKAGE(OcdsReleasePackage, 'A release package with one release'),
          404: failure('`Registro não encontrado.`'),
          429: TOO_MANY,
        },
      },
    },
    async (request, reply) => {
      const answer = await reads.answer(reads.ocdsRelease(request.params.id))
      if (answer === undefined) throw new NotFoundError('record')
      return sendAnswer(request, reply, answer)
    },
  )

  app.get(
    '/ocds/package.json',
    {
      serializerCompiler: () => (data) => JSON.stringify(data),
      schema: {
        operationId: 'getOcdsPackageMetadata',
        tags: ['ocds'],
        summary: 'The package metadata of this publication, for the bulk download',
        description:
          'The fields every package of this publication carries (uri, version, extensions, publishedDate: the ' +
          "latest release's date, publisher, license, publicationPolicy), without releases: the metadata of " +
          'GET /v1/ocds/releases.jsonl, whose lines are releases only (its Link header points here).',
        security: [],
        response: { 200: PACKAGE(OcdsPackageMetadata, 'The package metadata'), 429: TOO_MANY },
      },
    },
    async (request, reply) => {
      const answer = await reads.answer(reads.ocdsMetadata())
      return sendAnswer(request, reply, answer as NonNullable<typeof answer>)
    },
  )
}
