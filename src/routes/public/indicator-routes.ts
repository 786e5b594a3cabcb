import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { failure, Success, TOO_MANY } from '../../answers/schemas.js'
import { FLAG_PARAMETERS, FLAG_SUMMARY_PARAMETERS } from '../../indicators/flags.js'
import { CardinalOutput, FlagPage, FlagSummary } from '../../indicators/schemas.js'
import type { Answer } from '../../readmodel/answer.js'
import { PublicReads } from '../../reads/public-reads.js'
import type { TransparencyOptions } from '../http/route-options.js'
import { sendAnswer } from '../http/send-answer.js'

// Where to look first: the integrity indicators' flags (src/indicators), a page at a time and counted by code.

const INVALID = failure('An unknown or invalid parameter; the message names it and what it accepts')
const NO_ORGANIZATION = failure('`Organização não encontrada.`: organization_uuid')

const ABOUT =
  'Each flag is a reason to open a record, never a verdict: a rule of Lei 14.133/2021 or of the Open ' +
  "Contracting Partnership's red flags, with the record's own figures. docs/indicators.md gives each code's " +
  'rule, legal basis and known false positives. Computed at each import for the organizations it touched.'

export const indicatorRoutes: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const reads = new PublicReads(options)

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
    async (request, reply) =>
      sendAnswer(
        request,
        reply,
        (await reads.answer(reads.indicators(request.query), () => request.signal)) as Answer,
      ),
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
    async (request, reply) =>
      sendAnswer(
        request,
        reply,
        (await reads.answer(reads.indicatorSummary(request.query), () => request.signal)) as Answer,
      ),
  )
}
