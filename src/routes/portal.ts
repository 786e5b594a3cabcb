import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { hasControlCharacter, isUuid } from '../checks.js'
import type { Pool } from '../db/pool.js'
import { isUnavailable } from '../db/pool.js'
import {
  biddingResource,
  choices,
  listing,
  organ,
  organsNamed,
  ownedDetail,
  summaries,
} from '../portal/data.js'
import { FAVICON } from '../portal/favicon.js'
import { recordPath } from '../portal/layout.js'
import { type ListingView, listingPage, listingUrl, type Query } from '../portal/listing.js'
import { detailPage, errorPage, homePage, notFoundPage, organPage, searchPage } from '../portal/pages.js'
import { STYLESHEET } from '../portal/style.js'
import type { Answer } from '../readmodel/answer.js'
import type { DocumentStore } from '../readmodel/store.js'
import { PUBLIC_RESOURCES, type PublicResource } from '../resources/index.js'
import { NotFoundError, ParameterError } from '../transparency/errors.js'
import {
  listingParameters,
  type ParameterProblem,
  parameterError,
  sortOf,
} from '../transparency/parameters.js'
import { compileQuery } from '../validation.js'
import { sendAnswer } from './answer.js'

// The citizens' portal: server-rendered pages in Portuguese over the same read path as the API. Pages are
// kept whole in the cache like the API's answers, until the next import.

export interface PortalOptions {
  pool: Pool
  store: DocumentStore
}

const HTML = 'text/html; charset=utf-8'

/** On every page: nothing but our own files, never framed, no sniffing, no referrer sent elsewhere. */
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; " +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
}

const ORGAN_NAME_RULE = 'O nome do órgão deve ter de 1 a 200 caracteres, sem caracteres de controle.'

/** Text a person may search for (the search box, an organ's name): at most 200 characters, none of control. */
const isSearchText = (text: string) => text.length <= 200 && !hasControlCharacter(text)

/** The query as the form sent it: one value per name, empty fields left out (a form sends them all). */
function formQuery(raw: unknown): Record<string, string> {
  const query: Record<string, string> = {}
  for (const [name, value] of Object.entries((raw ?? {}) as Record<string, unknown>)) {
    const text = Array.isArray(value) ? value.at(-1) : value
    if (typeof text === 'string' && text.trim() !== '') query[name] = text.trim()
  }
  return query
}

/**
 * The listing's parameters checked one by one, as the API checks them, so that the form can show every
 * problem by its field: the converted values (integers) and the problems by name. Compiled once per resource.
 */
function listingChecker(resource: PublicResource) {
  const { schema, accepts } = listingParameters(resource)
  const validate = compileQuery(schema)
  return (query: Record<string, string>) => {
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
    return { values, errors }
  }
}

const portal: FastifyPluginAsync<PortalOptions> = async (app, { pool, store }) => {
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
  /** A page kept in the cache by its URL. */
  const cachedPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    build: () => Promise<string | undefined>,
  ) => {
    const answer = await store.answer(`p\u0000${request.url}`, build)
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

  app.get('/static/portal.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(STYLESHEET),
  )

  app.get('/favicon.ico', async (_request, reply) =>
    reply.type('image/x-icon').header('Cache-Control', 'public, max-age=86400').send(FAVICON),
  )

  app.get('/', async (request, reply) =>
    cachedPage(request, reply, async () => homePage(await summaries(pool, store, {}, 5))),
  )

  app.get('/busca', async (request, reply) => {
    const q = formQuery(request.query).q
    if (q === undefined) return reply.redirect('/')
    if (!isSearchText(q))
      return html(
        reply,
        422,
        errorPage('A busca aceita um texto de 1 a 200 caracteres, sem caracteres de controle.'),
      )
    return cachedPage(request, reply, async () => searchPage(q, await summaries(pool, store, { q }, 5)))
  })

  for (const resource of PUBLIC_RESOURCES) {
    const base = `/${resource.portal.path}`
    const checkListing = listingChecker(resource)
    app.get(base, async (request, reply) => {
      const { orgao, ...query } = formQuery(request.query)
      const { values, errors } = checkListing(query)
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
          listingPage({ ...view, choices: await choices(pool, store), result: undefined, ...change }),
        )

      if (orgao !== undefined) {
        // An organ by name (the portal's own parameter, not the API's): one match becomes the filter, in the
        // page's canonical URL; several are offered in the form; none is a problem with the field.
        if (!isSearchText(orgao)) return form(422, { errors: { ...errors, orgao: ORGAN_NAME_RULE } })
        const matches = organsNamed((await choices(pool, store)).organizations, orgao)
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
        return await cachedPage(request, reply, async () =>
          listingPage({
            ...view,
            choices: await choices(pool, store),
            result: await listing(pool, store, resource, values),
          }),
        )
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error
        // An organization that does not exist: a problem with that field, shown by it.
        return form(404, { errors: { organization_uuid: 'Organização não encontrada.' } })
      }
    })

    app.get<{ Params: { id: string } }>(`${base}/:id`, async (request, reply) => {
      const id = request.params.id.toLowerCase()
      if (!isUuid(id)) return notFound(reply, 'Identificador inválido: o endereço deve terminar com um UUID.')
      return cachedPage(request, reply, async () => {
        const found = await ownedDetail(pool, store, resource, id)
        return found === undefined ? undefined : detailPage(resource, id, found.document, found.owner)
      })
    })
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
    return cachedPage(request, reply, async () => {
      const found = await organ(pool, store, id)
      if (found === undefined) return undefined
      return organPage(found, await summaries(pool, store, { organization_uuid: id }, 5))
    })
  })
}

export default portal
