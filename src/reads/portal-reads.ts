import type { Pool } from '../db/pool.js'
import { NotFoundError, TooBroad } from '../errors.js'
import { flagCounts, flagList, recordFlags } from '../indicators/flags.js'
import { indicatorOf } from '../indicators/indicators.js'
import { cnpjDigits, namedList, organizationData, supplierData } from '../parties/parties.js'
import {
  type Choices,
  choices,
  listing,
  organizationOf,
  recordVersion,
  recordWithHistory,
  summaries,
} from '../portal/data.js'
import { indicatorPage, indicatorsPage } from '../portal/indicators.js'
import { type ListingView, listingPage } from '../portal/listing.js'
import { detailPage, homePage, organizationPage, searchPage } from '../portal/pages.js'
import {
  type OrganizationListView,
  organizationsPage,
  type PriceResearchView,
  pricePage,
  type SupplierListView,
  type SupplierView,
  supplierPage,
  suppliersPage,
  type TopSupplier,
} from '../portal/prices.js'
import { PriceReads, type ResearchLimits } from '../prices/reads.js'
import { priceQuery } from '../prices/research.js'
import type { Cursors } from '../queries/cursors.js'
import type { ValidQuery } from '../queries/parameters.js'
import { CACHE_KEYS } from '../readmodel/cache-keys.js'
import type { DocumentStore } from '../readmodel/store.js'
import type { PublicResource } from '../resources/index.js'
import type { Read } from './read.js'

// The portal's pages, each a read as the API's answers are: kept whole until the next import, under the
// page's path and the values of the parameters it takes (its `place`, which the route reads off the URL).

/** Where a page is kept: its path as asked, and the values of the parameters it takes, as JSON. */
export interface PagePlace {
  path: string
  parameters: string
}

/** Summaries a page shows of each kind: the newest five. */
const SUMMARIES = 5
/** Items the price panel shows (the file has them all), and organs or suppliers a page of their list. */
const PANEL_ITEMS = 50
const ORGANIZATIONS_SHOWN = 100
/** The flags a page of /indicadores shows. */
const FLAGS_SHOWN = 20

export class PortalReads {
  private readonly prices: PriceReads

  constructor(
    private readonly pool: Pool,
    private readonly store: DocumentStore,
    private readonly cursors: Cursors,
    researches: ResearchLimits,
  ) {
    this.prices = new PriceReads(pool, store, cursors, researches)
  }

  private read(place: PagePlace, build: Read['build']): Read {
    return { key: CACHE_KEYS.page(place.path, place.parameters), build }
  }

  /** The options of the filter form: organs by name and the closed lists. */
  choices(): Promise<Choices> {
    return choices(this.pool, this.store)
  }

  /** The home page: the newest records of each kind. */
  home(place: PagePlace): Read {
    return this.read(place, async () => homePage(await summaries(this.pool, this.store, {}, SUMMARIES)))
  }

  /** The search page for a text. */
  search(place: PagePlace, q: string): Read {
    return this.read(place, async () =>
      searchPage(q, await summaries(this.pool, this.store, { q }, SUMMARIES)),
    )
  }

  /** A listing page with its results, from the values its form checked. */
  listing(place: PagePlace, view: Omit<ListingView, 'choices' | 'result'>, values: ValidQuery): Read {
    return this.read(place, async () =>
      listingPage({
        ...view,
        choices: await this.choices(),
        result: await listing(this.pool, this.store, view.resource, values),
      }),
    )
  }

  /** A record's page with its history; undefined when there is no record. */
  record(place: PagePlace, resource: PublicResource, id: string): Read {
    return this.read(place, async () => {
      const found = await recordWithHistory(this.pool, this.store, resource, id)
      return (
        found &&
        detailPage(resource, id, found.document, found.owner, {
          history: found.versions,
          flags: await recordFlags(this.pool, resource.path, id),
        })
      )
    })
  }

  /** An earlier version of a record, under a banner that says so. */
  version(place: PagePlace, resource: PublicResource, id: string, version: number): Read {
    return this.read(place, async () => {
      const found = await recordVersion(this.pool, this.store, resource, id, version)
      return found && detailPage(resource, id, found.document, found.owner, found)
    })
  }

  /** An organ's page: what it bought this month and its newest records. */
  organization(place: PagePlace, id: string): Read {
    return this.read(place, async () => {
      const found = await organizationOf(this.pool, this.store, id)
      if (found === undefined) return undefined
      const { top_suppliers } = JSON.parse(await organizationData(this.pool, id)) as {
        top_suppliers: TopSupplier[]
      }
      return organizationPage(
        found,
        await summaries(this.pool, this.store, { organization_uuid: id }, SUMMARIES),
        top_suppliers,
        await flagCounts(this.pool, { organization_uuid: id }),
      )
    })
  }

  /**
   * The price panel: the form as asked, and with a q the research (its first items by price); a research too
   * broad to compute is said under the form. `address` is the asking client's, for the research's places.
   */
  research(
    place: PagePlace,
    asked: Readonly<Record<string, string>>,
    values: ValidQuery,
    address: string,
  ): Read {
    return this.read(place, async (signal) => {
      const { lists, organizations } = await this.choices()
      const organization = organizations.find((o) => o.id === values.organization_uuid)?.name
      const panel = { asked, lists, ...(organization === undefined ? {} : { organization }) }
      if (values.q === undefined) return pricePage(panel)
      const query = await priceQuery(this.cursors, { ...values, per_page: PANEL_ITEMS })
      try {
        const research = JSON.parse(await this.prices.research(query, address, signal)) as PriceResearchView
        return pricePage({ ...panel, research })
      } catch (error) {
        if (error instanceof TooBroad) return pricePage({ ...panel, problem: error.message })
        throw error
      }
    })
  }

  /** A company's page; undefined for anything else (a CPF included). */
  supplier(place: PagePlace, cnpj: string): Read {
    return this.read(place, async () => {
      try {
        const digits = cnpjDigits(cnpj) ?? ''
        const page = await supplierData(this.pool, digits)
        return supplierPage(
          JSON.parse(page) as SupplierView,
          await flagCounts(this.pool, { provider_document: digits }),
        )
      } catch (error) {
        if (error instanceof NotFoundError) return undefined
        throw error
      }
    })
  }

  /**
   * The suppliers that are companies, by a part of their name or by their CNPJ (`q` as typed), a page at a time;
   * nothing is listed before something is typed.
   */
  suppliers(place: PagePlace, q: string, cursor: string | undefined): Read {
    return this.read(place, async () => {
      if (q === '') return suppliersPage({ q, data: [], next: null })
      const digits = cnpjDigits(q)
      const query = {
        ...(digits === undefined ? { q } : { document: digits }),
        ...(cursor === undefined ? {} : { cursor }),
        per_page: ORGANIZATIONS_SHOWN,
      }
      const list = JSON.parse(await namedList(this.pool, this.cursors, 'suppliers', query)) as {
        data: SupplierListView['data']
        next_cursor: string | null
      }
      return suppliersPage({ q, data: list.data, next: list.next_cursor })
    })
  }

  /** The integrity flags, filtered as asked, with their counts by indicator. */
  indicators(place: PagePlace, asked: Readonly<Record<string, string>>, values: ValidQuery): Read {
    return this.read(place, async () => {
      const { organizations } = await this.choices()
      const organization = organizations.find((o) => o.id === values.organization_uuid)?.name
      // Counted by indicator over the same organization, supplier, record and year: every code, this page or not.
      const counted = {
        organization_uuid: values.organization_uuid,
        provider_document: values.provider_document,
        record: values.record,
        year: values.year,
      }
      return indicatorsPage({
        asked,
        counts: await flagCounts(this.pool, counted),
        list: await flagList(this.pool, this.cursors, { ...values, per_page: FLAGS_SHOWN }),
        ...(organization === undefined ? {} : { organization }),
      })
    })
  }

  /** An indicator's page; undefined for a code that names none. */
  indicator(place: PagePlace, code: string): Read {
    return this.read(place, async () => {
      const indicator = indicatorOf(code)
      if (indicator === undefined) return undefined
      const counts = await flagCounts(this.pool, {})
      return indicatorPage(indicator, counts.by_code.find((c) => c.code === code)?.count ?? 0)
    })
  }

  /** The organs by name, a page at a time. */
  organizations(place: PagePlace, values: ValidQuery): Read {
    return this.read(place, async () => {
      const list = JSON.parse(
        await namedList(this.pool, this.cursors, 'organizations', {
          ...values,
          per_page: ORGANIZATIONS_SHOWN,
        }),
      ) as { data: OrganizationListView['data']; next_cursor: string | null }
      return organizationsPage({
        q: (values.q as string | undefined) ?? '',
        data: list.data,
        next: list.next_cursor,
      })
    })
  }
}
