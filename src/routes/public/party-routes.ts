import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { failure, Success, TOO_MANY } from '../../answers/schemas.js'
import { ORGANIZATION_LIST_PARAMETERS, SUPPLIER_LIST_PARAMETERS } from '../../parties/parties.js'
import { OrganizationList, OrganizationPage, SupplierList, SupplierPage } from '../../parties/schemas.js'
import { PRICE_PARAMETERS } from '../../prices/research.js'
import { PriceResearch } from '../../prices/schemas.js'
import { PublicReads } from '../../reads/public-reads.js'
import type { Read } from '../../reads/read.js'
import type { TransparencyOptions } from '../http/route-options.js'
import { sendRead } from '../http/send-answer.js'

// What things cost and who is paid: the price research, and the suppliers' and organizations' lists and
// pages. Each route declares its read and sends its answer.

const INVALID = failure('An unknown or invalid parameter; the message names it and what it accepts')

export const partyRoutes: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  const reads = new PublicReads(options)
  const send = (request: FastifyRequest, reply: FastifyReply, read: Read) =>
    sendRead(reads, request, reply, read)

  app.get(
    '/transparency/prices',
    {
      config: { accepts: PRICE_PARAMETERS.accepts },
      schema: {
        operationId: 'researchPrices',
        tags: ['transparency'],
        summary: 'Price research: the unit prices actually paid for items like these',
        description:
          "The unit prices whose item's description holds q's words: every item of every published supply " +
          'order (source order) and every homologated result of a contratação imported from PNCP (source ' +
          "result), with each unit of measurement's statistics (units are never mixed; spellings of one unit, " +
          'UN, Unidade, UNID, und., are normalized into it, docs/pncp-mapping.md) and the prices a page at a ' +
          "time. A price's date is an order's delivery deadline (deadline_delivery), the one date every order " +
          "has, or a result's date; date_from and date_to take its day in UTC. Quartiles are by linear interpolation between the closest ranks, as PostgreSQL's " +
          "percentile_cont and spreadsheets' QUARTILE.INC compute them; outliers lie outside " +
          '[p25 − 1.5 × IQR, p75 + 1.5 × IQR], and `sanitized` gives the figures without them. Money is text with ' +
          'two decimals, rounded half up. A q that matches nothing gives empty parts.',
        security: [],
        querystring: PRICE_PARAMETERS.schema,
        response: {
          200: Success(PriceResearch, 'The statistics per unit and a page of items'),
          404: failure('`Organização não encontrada.`: organization_uuid'),
          422: INVALID,
          429: TOO_MANY,
        },
      },
    },
    async (request, reply) => send(request, reply, reads.research(request.query, request.client)),
  )

  app.get(
    '/transparency/suppliers',
    {
      config: { accepts: SUPPLIER_LIST_PARAMETERS.accepts },
      schema: {
        operationId: 'listSuppliers',
        tags: ['transparency'],
        summary: 'Suppliers that are companies (CNPJ), by name',
        description: 'A supplier who is a person (CPF) is not listed and has no page.',
        security: [],
        querystring: SUPPLIER_LIST_PARAMETERS.schema,
        response: { 200: Success(SupplierList, 'A page of suppliers'), 422: INVALID, 429: TOO_MANY },
      },
    },
    async (request, reply) => send(request, reply, reads.parties('suppliers', request.query)),
  )

  app.get(
    '/transparency/suppliers/:cnpj',
    {
      schema: {
        operationId: 'getSupplier',
        tags: ['transparency'],
        summary: "A company's page: what it contracted, by kind, year and organization",
        description:
          'Contracts, ARPs, direct contracts and supply orders of the company: count, value, first and last ' +
          'dates, over all, by year and by organization; and `committed`, the one figure that adds money up, ' +
          'each real once: its contracts, its direct contracts that no contract of its carries (at their finished ' +
          'total when they have one), its orders that no contract of its carries. The kinds overlap (an order ' +
          "executes a contract or an ARP) and an ARP's value is a ceiling: never add them. A direct contract " +
          'counts whole for each of its suppliers. Only companies have pages: a CPF, whole or masked, is answered ' +
          "exactly as an unknown CNPJ (404), so that no one can confirm a person's document.",
        security: [],
        params: Type.Object({
          cnpj: Type.String({
            maxLength: 30,
            description:
              'The CNPJ: 14 digits, with or without its punctuation (`00.234.050/0001-33` as it is written, its ' +
              'slash included)',
          }),
        }),
        response: {
          200: Success(SupplierPage, "The company's page"),
          404: failure('`Registro não encontrado.`: no company has this CNPJ'),
          429: TOO_MANY,
        },
      },
    },
    async (request, reply) => send(request, reply, reads.supplier(request.params.cnpj)),
  )

  // A CNPJ written whole, with the slash of its punctuation (`00.234.050/0001-33`): the same page.
  app.get(
    '/transparency/suppliers/:root/:branch',
    {
      schema: {
        hide: true,
        params: Type.Object({ root: Type.String({ maxLength: 30 }), branch: Type.String({ maxLength: 30 }) }),
      },
    },
    async (request, reply) =>
      send(request, reply, reads.supplier(`${request.params.root}/${request.params.branch}`)),
  )

  app.get(
    '/transparency/organizations',
    {
      config: { accepts: ORGANIZATION_LIST_PARAMETERS.accepts },
      schema: {
        operationId: 'listOrganizations',
        tags: ['transparency'],
        summary: 'Organizations (public bodies), by name',
        security: [],
        querystring: ORGANIZATION_LIST_PARAMETERS.schema,
        response: { 200: Success(OrganizationList, 'A page of organizations'), 422: INVALID, 429: TOO_MANY },
      },
    },
    async (request, reply) => send(request, reply, reads.parties('organizations', request.query)),
  )

  app.get(
    '/transparency/organizations/:uuid',
    {
      schema: {
        operationId: 'getOrganization',
        tags: ['transparency'],
        summary:
          "An organization's page: what it bought, by kind and year, what it committed, and its top suppliers",
        security: [],
        params: Type.Object({
          uuid: Type.String({ format: 'uuid', description: "The organization's UUID" }),
        }),
        response: {
          200: Success(OrganizationPage, "The organization's page"),
          400: failure('`Identificador inválido.`: the id is not a UUID'),
          404: failure('`Organização não encontrada.`'),
          429: TOO_MANY,
        },
      },
    },
    async (request, reply) => send(request, reply, reads.organization(request.params.uuid.toLowerCase())),
  )
}
