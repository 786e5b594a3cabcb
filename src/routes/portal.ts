import { STATUS_CODES } from 'node:http'
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { MemoryLimiter } from '../auth/rate-limit.js'
import { hasControlCharacter, isUuid } from '../checks.js'
import type { Pool } from '../db/pool.js'
import { isUnavailable } from '../db/pool.js'
import { NotFoundError, ParameterError } from '../errors.js'
import { MESSAGES } from '../messages.js'
import { SECURITY_HEADERS } from '../plugins/security-headers.js'
import { biddingResource, organsNamed } from '../portal/data.js'
import { FAVICON } from '../portal/favicon.js'
import { recordPath } from '../portal/layout.js'
import { type ListingView, listingPage, listingUrl, type Query } from '../portal/listing.js'
import { errorPage, notFoundPage } from '../portal/pages.js'
import { STYLESHEET } from '../portal/style.js'
import type { Answer } from '../readmodel/answer.js'
import { orderFailure, publicFailure } from '../readmodel/envelopes.js'
import type { DocumentStore } from '../readmodel/store.js'
import { type PagePlace, PortalReads } from '../reads/portal-reads.js'
import { answerOf, type Read } from '../reads/read.js'
import { PUBLIC_RESOURCES, type PublicResource } from '../resources/index.js'
import {
  listingParameters,
  type ParameterProblem,
  parameterError,
  sortOf,
  unknownParameter,
} from '../transparency/parameters.js'
import { compileQuery } from '../validation.js'
import { sendAnswer } from './answer.js'
import { publicLimit } from './public-limit.js'

// The citizens' portal: server-rendered pages in Portuguese over the same read path as the API. Pages are
// kept whole in the cache like the API's answers, until the next import.

export interface PortalOptions {
  pool: Pool
  store: DocumentStore
  /** The public per-address limit, shared with the API; none when it is off. */
  publicLimiter?: MemoryLimiter
  publicRateLimit: number
}

const HTML = 'text/html; charset=utf-8'

const ORGAN_NAME_RULE = 'O nome do órgão deve ter de 1 a 200 caracteres, sem caracteres de controle.'

/** Text a person may search for (the search box, an organ's name): at most 200 characters, none of control. */
const isSearchText = (text: string) => text.length <= 200 && !hasControlCharacter(text)

/**
 * The query as the form sent it: one value per name, empty fields left out (a form sends them all). Read up to
 * the first name the page does not take, which is returned as `unknown`: a URL of thousands of names is
 * refused for the first, as the API refuses it, not checked name by name.
 */
function formQuery(
  raw: unknown,
  known?: ReadonlySet<string>,
): { query: Record<string, string>; unknown?: string } {
  const query: Record<string, string> = {}
  for (const [name, value] of Object.entries((raw ?? {}) as Record<string, unknown>)) {
    if (known && !known.has(name)) return { query, unknown: name }
    const text = Array.isArray(value) ? value.at(-1) : value
    if (typeof text === 'string' && text.trim() !== '') query[name] = text.trim()
  }
  return { query }
}

/**
 * The listing's parameters checked one by one, as the API checks them, so that the form can show every
 * problem by its field: the converted values (integers) and the problems by name. Compiled once per resource.
 */
function listingChecker(resource: PublicResource) {
  const { schema, accepts } = listingParameters(resource)
  const validate = compileQuery(schema)
  /** The names the page takes: the listing's parameters, and the organ by name. */
  // The API's parameters but the cursor (the portal's pages go by number), and the organ by name.
  const known = new Set([...Object.keys(accepts).filter((name) => name !== 'cursor'), 'orgao'])
  return (raw: unknown) => {
    const { query: read, unknown } = formQuery(raw, known)
    const { orgao, ...query } = read
    if (unknown !== undefined)
      return { orgao, query, values: {}, errors: { [unknown]: unknownParameter(unknown, accepts).message } }
    const values: Record<string, unknown> = {}
    const errors: Record<string, string> = {}
    for (const [name, value] of Object.entries(query)) {
      if (name === 'with_relations') continue
      const one: Record<string, unknown> = { [name]: value }
      const problems = validate(one)
      if (problems) errors[name] = parameterError(problems[0] as ParameterProblem, accepts).message
      else values[name] = one[name]
    }
    if (values.sort !== undefined) {
      try {
        sortOf(resource, values.sort)
      } catch (error) {
        errors.sort = (error as Error).message
      }
    }
    return { orgao, query, values, errors }
  }
}

/** Where a path belongs, for an answer that no route gives: the order query, the API, or the portal. */
function faceOf(url: string): 'orders' | 'api' | 'portal' {
  const path = url.replace(/\/{2,}/g, '/').toLowerCase()
  if (path === '/external' || path.startsWith('/external/') || path.startsWith('/external?')) return 'orders'
  if (path === '/v1' || path.startsWith('/v1/') || path.startsWith('/v1?')) return 'api'
  return 'portal'
}

const portal: FastifyPluginAsync<PortalOptions> = async (
  app,
  { pool, store, publicLimiter, publicRateLimit },
) => {
  const pages = new PortalReads(pool, store)
  // Pages for people, not operations of the API: the OpenAPI document leaves them out.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true }
  })
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value)
    return payload
  })

  const send = (request: FastifyRequest, reply: FastifyReply, answer: Answer) =>
    sendAnswer(request, reply, answer, HTML)
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).type(HTML).header('Cache-Control', 'no-store').send(body)
  const notFound = (reply: FastifyReply, what = 'A página pedida não existe.') =>
    html(reply, 404, notFoundPage(what))
  /**
   * A page kept in the cache: by its path and the parameters it takes (`taken`), which are all a request may
   * carry, so that a URL made up of other parameters is neither answered nor a cache entry of its own.
   */
  const cachedPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    read: (place: PagePlace) => Read,
    taken: readonly string[] = [],
  ) => {
    const query = (request.query ?? {}) as Record<string, unknown>
    const unknown = Object.keys(query).find((name) => !taken.includes(name))
    if (unknown !== undefined)
      return html(
        reply,
        422,
        errorPage(
          `Parâmetro desconhecido: ${unknown}. ${taken.length > 0 ? `Esta página aceita: ${taken.join(', ')}.` : 'Esta página não aceita parâmetros.'}`,
        ),
      )
    const path = request.url.split('?')[0] as string
    // A repeated parameter is an array: written so that it never reads as one value.
    const parameters = JSON.stringify(taken.map((name) => query[name] ?? null))
    const answer = await answerOf(store, read({ path, parameters }))
    if (answer === undefined) return notFound(reply, 'Registro não encontrado.')
    return send(request, reply, answer)
  }

  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof NotFoundError) return notFound(reply, error.message)
    if (error instanceof ParameterError) return html(reply, 422, errorPage(error.message))
    const unavailable = isUnavailable(error)
    request.log.error({ err: error }, 'portal page failed')
    return html(
      reply,
      unavailable ? 503 : 500,
      errorPage(
        unavailable
          ? 'O banco de dados está indisponível no momento. Tente de novo em alguns segundos.'
          : 'Erro interno do servidor.',
      ),
    )
  })

  // Files every page asks for, outside the per-address limit: cheap to answer, and a page's own.
  app.get('/static/portal.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(STYLESHEET),
  )

  app.get('/favicon.ico', async (_request, reply) =>
    reply.type('image/x-icon').header('Cache-Control', 'public, max-age=86400').send(FAVICON),
  )

  await app.register(pageRoutes)

  /** The pages: each counts toward the public limit, as the API's answers do. */
  async function pageRoutes(app: FastifyInstance) {
    if (publicLimiter)
      app.addHook(
        'onRequest',
        publicLimit(publicLimiter, publicRateLimit, (reply) =>
          reply.type(HTML).header('Cache-Control', 'no-store').send(errorPage(MESSAGES.tooManyRequests)),
        ),
      )

    // Any path no route takes: the portal's 404 page, or under /v1 and /external the envelope of the path,
    // never echoing the path.
    app.setNotFoundHandler(async (request, reply) => {
      const face = faceOf(request.url)
      if (face === 'portal') return notFound(reply)
      const body =
        face === 'orders' ? orderFailure(STATUS_CODES[404] as string) : publicFailure(MESSAGES.routeNotFound)
      return reply.code(404).header('Cache-Control', 'no-store').send(body)
    })

    app.get('/', async (request, reply) => cachedPage(request, reply, (place) => pages.home(place)))

    app.get('/busca', async (request, reply) => {
      const q = formQuery(request.query).query.q
      if (q === undefined) return reply.redirect('/')
      if (!isSearchText(q))
        return html(
          reply,
          422,
          errorPage('A busca aceita um texto de 1 a 200 caracteres, sem caracteres de controle.'),
        )
      return cachedPage(request, reply, (place) => pages.search(place, q), ['q'])
    })

    for (const resource of PUBLIC_RESOURCES) {
      const base = `/${resource.portal.path}`
      const checkListing = listingChecker(resource)
      /** The names a listing page takes (checked by checkListing), in a fixed order for its cache key. */
      const listed = Object.keys(listingParameters(resource).accepts).filter((name) => name !== 'cursor')
      app.get(base, async (request, reply) => {
        const { orgao, query, values, errors } = checkListing(request.query)
        const view = {
          resource,
          query: (orgao === undefined ? query : { ...query, orgao }) as Query,
          errors: errors as Query,
          page: (values.page as number | undefined) ?? 1,
          perPage: (values.per_page as number | undefined) ?? 20,
          sort: (values.sort as string | undefined) ?? resource.defaultSort,
        }
        /** The form without results: a problem by its field, or organs to choose from. */
        const form = async (status: number, change: Partial<ListingView> = {}) =>
          html(
            reply,
            status,
            listingPage({ ...view, choices: await pages.choices(), result: undefined, ...change }),
          )

        if (orgao !== undefined) {
          // An organ by name (the portal's own parameter, not the API's): one match becomes the filter, in the
          // page's canonical URL; several are offered in the form; none is a problem with the field.
          if (!isSearchText(orgao)) return form(422, { errors: { ...errors, orgao: ORGAN_NAME_RULE } })
          const matches = organsNamed((await pages.choices()).organizations, orgao)
          const chosen =
            matches.find((o) => o.id === query.organization_uuid) ??
            (matches.length === 1 ? matches[0] : undefined)
          if (chosen)
            return reply.redirect(
              listingUrl(base, query, { organization_uuid: chosen.id, page: undefined }),
              303,
            )
          if (matches.length === 0)
            return form(422, { errors: { ...errors, orgao: 'Nenhum órgão tem esse nome.' } })
          return form(200, { organMatches: matches })
        }
        if (Object.keys(errors).length > 0) return form(422)
        try {
          return await cachedPage(request, reply, (place) => pages.listing(place, view, values), listed)
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error
          // An organization that does not exist: a problem with that field, shown by it.
          return form(404, { errors: { organization_uuid: 'Organização não encontrada.' } })
        }
      })

      app.get<{ Params: { id: string } }>(`${base}/:id`, async (request, reply) => {
        const id = request.params.id.toLowerCase()
        if (!isUuid(id))
          return notFound(reply, 'Identificador inválido: o endereço deve terminar com um UUID.')
        return cachedPage(request, reply, (place) => pages.record(place, resource, id))
      })

      /** An earlier version of a record: its page as it was, under a banner that says so. */
      app.get<{ Params: { id: string; version: string } }>(
        `${base}/:id/versoes/:version`,
        async (request, reply) => {
          const id = request.params.id.toLowerCase()
          if (!isUuid(id))
            return notFound(reply, 'Identificador inválido: o endereço deve terminar com um UUID.')
          const number = /^[1-9][0-9]{0,8}$/.test(request.params.version)
            ? Number(request.params.version)
            : undefined
          if (number === undefined)
            return notFound(reply, 'Versão inválida: o endereço deve terminar com o número de uma versão.')
          return cachedPage(request, reply, (place) => pages.version(place, resource, id, number))
        },
      )
    }

    /** A bidding by id, whatever its kind (a contract's or ARP's bidding_uuid): the page of its kind. */
    app.get<{ Params: { id: string } }>('/licitacoes/:id', async (request, reply) => {
      const id = request.params.id.toLowerCase()
      const resource = isUuid(id) ? await biddingResource(store, id) : undefined
      if (resource === undefined) return notFound(reply, 'Registro não encontrado.')
      return reply.redirect(recordPath(resource, id))
    })

    app.get<{ Params: { id: string } }>('/orgaos/:id', async (request, reply) => {
      const id = request.params.id.toLowerCase()
      if (!isUuid(id)) return notFound(reply, 'Identificador inválido: o endereço deve terminar com um UUID.')
      return cachedPage(request, reply, (place) => pages.organ(place, id))
    })
  }
}

export default portal
