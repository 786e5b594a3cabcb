import type { FastifyInstance } from 'fastify'
import { isUuid } from '../../checks.js'
import { NotFoundError } from '../../errors.js'
import { organizationsNamed } from '../../portal/data.js'
import { isSearchText, listingChecker, ORGANIZATION_NAME_RULE } from '../../portal/form.js'
import { type ListingView, listingPage, listingUrl, type Query } from '../../portal/listing.js'
import { listingParameters } from '../../queries/parameters.js'
import { PortalReads } from '../../reads/portal-reads.js'
import { PUBLIC_RESOURCES } from '../../resources/index.js'
import type { PortalOptions } from '../http/route-options.js'
import { html, notFound, pageSender } from './portal-replies.js'

/** Each public resource's pages: its listing with the filter form, a record's page, and its earlier versions. */
export async function recordPages(app: FastifyInstance, { pool, store, cursors, researches }: PortalOptions) {
  const pages = new PortalReads(pool, store, cursors, researches)
  const cachedPage = pageSender(store)
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
        if (!isSearchText(orgao)) return form(422, { errors: { ...errors, orgao: ORGANIZATION_NAME_RULE } })
        const matches = organizationsNamed((await pages.choices()).organizations, orgao)
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
        return form(200, { organizationMatches: matches })
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
      if (!isUuid(id)) return notFound(reply, 'Identificador inválido: o endereço deve terminar com um UUID.')
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
}
