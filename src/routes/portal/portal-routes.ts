// The citizens' portal: server-rendered pages in Portuguese over the same read path as the API. Pages are
// kept whole in the cache like the API's answers, until the next import.

import { STATUS_CODES } from 'node:http'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import { isUuid } from '../../checks.js'
import { isCancelled, isUnavailable } from '../../db/pool.js'
import { NotFoundError, ParameterError, Refused } from '../../errors.js'
import { FLAG_FILTERS, FLAG_PARAMETERS } from '../../indicators/flags.js'
import { MESSAGES } from '../../messages.js'
import { cnpjDigits, ORGANIZATION_LIST_PARAMETERS, SUPPLIER_LIST_PARAMETERS } from '../../parties/parties.js'
import { SECURITY_HEADERS } from '../../plugins/security-headers.js'
import { biddingResource } from '../../portal/data.js'
import { FAVICON } from '../../portal/favicon.js'
import { formQuery, isSearchText } from '../../portal/form.js'
import { recordPath } from '../../portal/layout.js'
import { errorPage } from '../../portal/pages.js'
import { STYLESHEET, STYLESHEET_HREF } from '../../portal/style.js'
import { PRICE_FILTERS, PRICE_PARAMETERS } from '../../prices/research.js'
import { parameterError } from '../../queries/parameters.js'
import { compileQuery } from '../../query-validation.js'
import { orderFailure, publicFailure } from '../../readmodel/envelopes.js'
import { PortalReads } from '../../reads/portal-reads.js'
import type { Filter } from '../../resources/filters.js'
import { publicLimit } from '../http/public-limit.js'
import type { PortalOptions } from '../http/route-options.js'
import { retryAfter } from '../public/failures.js'
import { recordPages } from './portal-record-routes.js'
import { HTML, html, notFound, pageSender } from './portal-replies.js'

/** What the price panel's form sends (its filters, as PRICE_FILTERS declares them), and the organs' search. */
const PRICE_FORM = Object.keys(PRICE_FILTERS)
const ORGANIZATIONS_FORM = ['q', 'cursor']
const SUPPLIERS_FORM = ['q', 'cursor']
// The panel without a description is its form: nothing is required of it.
const checkPrices = compileQuery({
  ...PRICE_PARAMETERS.schema,
  properties: Object.fromEntries(PRICE_FORM.map((name) => [name, PRICE_PARAMETERS.schema.properties[name]])),
  required: [],
})
const checkOrganizationSearch = compileQuery(ORGANIZATION_LIST_PARAMETERS.schema)
/**
 * What the flags' page takes: its form's declared filters (FLAG_FILTERS that have a place on it), the cursor, and
 * the record a record's page leads from (`record`, the flags that name it).
 */
const INDICATORS_FORM = [
  ...Object.entries(FLAG_FILTERS)
    .filter(([, filter]) => (filter as Filter).form !== undefined)
    .map(([name]) => name),
  'record',
  'cursor',
]
const checkIndicators = compileQuery({
  ...FLAG_PARAMETERS.schema,
  properties: Object.fromEntries(
    INDICATORS_FORM.map((name) => [name, FLAG_PARAMETERS.schema.properties[name]]),
  ),
})
const checkSuppliers = compileQuery(SUPPLIER_LIST_PARAMETERS.schema)

/** A form's fields as sent: text values only (a repeated field is refused by its check), '' when absent. */
function formValues(query: unknown, names: readonly string[]): Record<string, string> {
  const given = (query ?? {}) as Record<string, unknown>
  return Object.fromEntries(
    names.map((name) => [name, typeof given[name] === 'string' ? (given[name] as string).trim() : '']),
  )
}

/** Where a path belongs, for an answer that no route gives: the order query, the API, or the portal. */
function faceOf(url: string): 'orders' | 'api' | 'portal' {
  const path = url.replace(/\/{2,}/g, '/').toLowerCase()
  if (path === '/external' || path.startsWith('/external/') || path.startsWith('/external?')) return 'orders'
  if (path === '/v1' || path.startsWith('/v1/') || path.startsWith('/v1?')) return 'api'
  return 'portal'
}

const portal: FastifyPluginAsync<PortalOptions> = async (app, options) => {
  const { pool, store, cursors, publicLimiter, publicRateLimit, researches } = options
  const pages = new PortalReads(pool, store, cursors, researches)
  // Pages for people, not operations of the API: the OpenAPI document leaves them out.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true }
  })
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value)
    return payload
  })

  const cachedPage = pageSender(store)

  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof NotFoundError) return notFound(reply, error.message)
    if (error instanceof ParameterError) return html(reply, 422, errorPage(error.message))
    if (error instanceof Refused) {
      const after = retryAfter(error)
      if (after !== undefined) reply.header('Retry-After', after)
      return html(reply, error.reason === 'address' ? 429 : 503, errorPage(error.message))
    }
    if (isCancelled(error)) {
      request.log.warn({ err: error }, 'portal page cancelled: past QUERY_TIMEOUT')
      return html(reply.header('Retry-After', 5), 503, errorPage(MESSAGES.queryTimeout))
    }
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
  // The pages link it by its content's hash: that address never changes its answer.
  app.get('/static/portal.css', async (request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header(
        'Cache-Control',
        request.url === STYLESHEET_HREF ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      )
      .send(STYLESHEET),
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

    await app.register(recordPages, options)

    /** A bidding by id, whatever its kind (a contract's or ARP's bidding_uuid): the page of its kind. */
    app.get<{ Params: { id: string } }>('/licitacoes/:id', async (request, reply) => {
      const id = request.params.id.toLowerCase()
      const resource = isUuid(id) ? await biddingResource(store, id) : undefined
      if (resource === undefined) return notFound(reply, 'Registro não encontrado.')
      return reply.redirect(recordPath(resource, id))
    })

    /** The price panel: the form, and with a description the research. */
    app.get('/precos', async (request, reply) => {
      const asked = formValues(request.query, PRICE_FORM)
      const values = Object.fromEntries(Object.entries(asked).filter(([, v]) => v !== ''))
      const problem = checkPrices(values)
      if (problem)
        return html(reply, 422, errorPage(parameterError(problem[0], PRICE_PARAMETERS.accepts).message))
      return cachedPage(
        request,
        reply,
        (place) => pages.research(place, asked, values, request.client),
        PRICE_FORM,
      )
    })

    app.get('/fornecedores', async (request, reply) => {
      const asked = formValues(request.query, SUPPLIERS_FORM)
      const q = asked.q ?? ''
      // A CNPJ is looked up as its digits; any other text is words of a name, at least three letters.
      if (q !== '' && cnpjDigits(q) === undefined) {
        const problem = checkSuppliers({ q })
        if (problem)
          return html(
            reply,
            422,
            errorPage(parameterError(problem[0], SUPPLIER_LIST_PARAMETERS.accepts).message),
          )
      }
      const cursor = asked.cursor === '' ? undefined : asked.cursor
      return cachedPage(request, reply, (place) => pages.suppliers(place, q, cursor), SUPPLIERS_FORM)
    })

    app.get<{ Params: { cnpj: string } }>('/fornecedores/:cnpj', async (request, reply) =>
      cachedPage(request, reply, (place) => pages.supplier(place, request.params.cnpj)),
    )
    // A CNPJ written whole, its slash included: the page of its digits.
    app.get<{ Params: { root: string; branch: string } }>(
      '/fornecedores/:root/:branch',
      async (request, reply) => {
        const digits = cnpjDigits(`${request.params.root}/${request.params.branch}`)
        if (digits === undefined) return notFound(reply, 'Registro não encontrado.')
        return reply.redirect(`/fornecedores/${digits}`, 301)
      },
    )

    app.get('/indicadores', async (request, reply) => {
      const asked = formValues(request.query, INDICATORS_FORM)
      // The check reads the year's digits as the number the API takes.
      const values = Object.fromEntries(Object.entries(asked).filter(([, v]) => v !== ''))
      const problem = checkIndicators(values)
      if (problem)
        return html(reply, 422, errorPage(parameterError(problem[0], FLAG_PARAMETERS.accepts).message))
      return cachedPage(request, reply, (place) => pages.indicators(place, asked, values), INDICATORS_FORM)
    })

    app.get<{ Params: { code: string } }>('/indicadores/:code', async (request, reply) =>
      cachedPage(request, reply, (place) => pages.indicator(place, request.params.code)),
    )

    app.get('/orgaos', async (request, reply) => {
      const asked = formValues(request.query, ORGANIZATIONS_FORM)
      const values = Object.fromEntries(Object.entries(asked).filter(([, v]) => v !== ''))
      const problem = checkOrganizationSearch(values)
      if (problem)
        return html(
          reply,
          422,
          errorPage(parameterError(problem[0], ORGANIZATION_LIST_PARAMETERS.accepts).message),
        )
      return cachedPage(request, reply, (place) => pages.organizations(place, values), ORGANIZATIONS_FORM)
    })

    app.get<{ Params: { id: string } }>('/orgaos/:id', async (request, reply) => {
      const id = request.params.id.toLowerCase()
      if (!isUuid(id)) return notFound(reply, 'Identificador inválido: o endereço deve terminar com um UUID.')
      return cachedPage(request, reply, (place) => pages.organization(place, id))
    })
  }
}

export default portal
