import type { Pool } from '../db/pool.js'
import { NotFoundError } from '../errors.js'
import { atomFeed, type FeedSite, feedParameters } from '../feeds/atom.js'
import {
  FEED_PAGE_PARAMETERS,
  type FeedPage,
  type PublicFeedQuery,
  publicFeedPage,
} from '../feeds/change-feeds.js'
import { historyText, versionText } from '../history/history.js'
import {
  cardinalOutput,
  FLAG_PARAMETERS,
  FLAG_SUMMARY_PARAMETERS,
  flagPage,
  flagSummary,
  recordFlags,
} from '../indicators/flags.js'
import { LOOKUPS, listingData, lookup } from '../listings/listing.js'
import {
  type Publication,
  packageMetadata,
  RELEASE_PARAMETERS,
  recordPackage,
  releasePackage,
  releasePage,
  releaseQuery,
} from '../ocds-packages/packages.js'
import {
  cnpjDigits,
  namedList,
  ORGANIZATION_LIST_PARAMETERS,
  organizationData,
  SUPPLIER_LIST_PARAMETERS,
  supplierData,
} from '../parties/parties.js'
import { PriceReads, type ResearchLimits } from '../prices/reads.js'
import { PRICE_PARAMETERS, priceQuery } from '../prices/research.js'
import type { Cursors } from '../queries/cursors.js'
import { checkOrganization } from '../queries/organization.js'
import { canonicalQuery, listingParameters, type ValidQuery } from '../queries/parameters.js'
import { type Answer, FeedAnswer } from '../readmodel/answer.js'
import { CACHE_KEYS } from '../readmodel/cache-keys.js'
import { PUBLIC_CHANGES, PUBLIC_DETAIL, PUBLIC_SUCCESS } from '../readmodel/envelopes.js'
import type { Asker, DocumentStore } from '../readmodel/store.js'
import type { PublicResource } from '../resources/index.js'
import { answerOf, type Read } from './read.js'

// The answers of the public API (/v1), each a read: its cache key and how its bytes are built.
// A read that finds nothing builds undefined, and the route answers its 404; the domain errors a read throws
// (NotFoundError, ParameterError, CursorGone) are the routes' to map.

export interface ReadServices {
  pool: Pool
  store: DocumentStore
  cursors: Cursors
  publication: Publication
  /** How price researches are bounded. */
  researches: ResearchLimits
}

/** A page of the public feed, kept until the next import, or read again by a waiting request. */
export interface FeedRead extends Read {
  /** The page read now, without the cache: what a waiting request reads until entries come. */
  readonly page: () => Promise<FeedPage>
}

export class PublicReads {
  private readonly pool: Pool
  private readonly store: DocumentStore
  private readonly cursors: Cursors
  private readonly publication: Publication
  private readonly feedSite: FeedSite
  readonly prices: PriceReads

  constructor({ pool, store, cursors, publication, researches }: ReadServices) {
    this.pool = pool
    this.store = store
    this.cursors = cursors
    this.publication = publication
    this.feedSite = { publicUrl: publication.publicUrl, publisher: publication.config.publisherName }
    this.prices = new PriceReads(pool, store, cursors, researches)
  }

  /** The answer of a read; `signal`, the request's, lets a read that costs much stop when nobody waits. */
  answer(read: Read, signal?: Asker): Promise<Answer | undefined> {
    return answerOf(this.store, read, signal)
  }

  /** A record's detail (operations 2–5). */
  detail(resource: PublicResource, id: string): Read {
    return {
      key: CACHE_KEYS.detail(resource.path, id),
      build: async () => {
        const body = await this.store.detail(resource.path, id)
        return body === undefined
          ? undefined
          : PUBLIC_DETAIL.text(body, JSON.stringify(await recordFlags(this.pool, resource.path, id)))
      },
    }
  }

  /** A record's history, or with a version that version whole; NotFoundError('version') past the last. */
  history(resource: PublicResource, id: string, version: number | undefined): Read {
    return {
      key: CACHE_KEYS.history(resource.path, id, version),
      build: async () => {
        if (version === undefined) {
          const history = await this.store.history(resource.path, id)
          return history && PUBLIC_SUCCESS.text(historyText(resource, id, history.versions))
        }
        const read = await this.store.version(resource.path, id, version)
        if (read === undefined) return undefined
        const entry = read.versions[version - 1]
        if (entry === undefined || read.document === undefined) throw new NotFoundError('version')
        return PUBLIC_SUCCESS.text(versionText(resource, id, entry, read.document))
      },
    }
  }

  /** A listing page, kept under its canonical query. */
  listing(resource: PublicResource, query: ValidQuery): Read {
    return {
      key: CACHE_KEYS.listing(resource.path, canonicalQuery(listingParameters(resource), query)),
      build: async () =>
        PUBLIC_SUCCESS.text(await listingData(this.pool, this.store, this.cursors, resource, query)),
    }
  }

  /** The Atom feed of a listing's filters, kept under its canonical query. */
  atom(resource: PublicResource, query: ValidQuery): Read {
    return {
      key: CACHE_KEYS.atom(resource.path, canonicalQuery(feedParameters(resource), query)),
      build: async () => atomFeed(this.pool, this.feedSite, resource, query),
    }
  }

  /** A helper's list of ids and names. */
  helper(path: keyof typeof LOOKUPS): Read {
    return {
      key: CACHE_KEYS.helper(path),
      build: async () => PUBLIC_SUCCESS.text(JSON.stringify(await lookup(this.pool, LOOKUPS[path]))),
    }
  }

  /**
   * A page of the public change feed, kept under its canonical query (`wait` aside); NotFoundError when it is
   * empty for an organization that does not exist.
   */
  changes(query: ValidQuery, feed: PublicFeedQuery, perPage: number): FeedRead {
    const page = async () => {
      const found = await publicFeedPage(this.pool, this.cursors, feed, perPage)
      await checkOrganization(this.pool, feed.organizationId, found.count > 0)
      return found
    }
    return {
      key: CACHE_KEYS.feed(canonicalQuery(FEED_PAGE_PARAMETERS, query, ['wait'])),
      build: async () => {
        const found = await page()
        return new FeedAnswer(PUBLIC_CHANGES.page(found), found.count)
      },
      page,
    }
  }

  /** A page of OCDS releases, under its canonical query; undefined past the last page by number. */
  ocdsReleases(query: ValidQuery): Read {
    return {
      key: CACHE_KEYS.ocdsPage(canonicalQuery(RELEASE_PARAMETERS, query)),
      build: () => releasePage(this.pool, this.publication, this.cursors, releaseQuery(query)),
    }
  }

  /** A process's record package, under its ocid in lower case. */
  ocdsRecord(ocid: string, versioned: boolean): Read {
    const id = ocid.toLowerCase()
    return {
      key: CACHE_KEYS.ocdsRecord(id, versioned),
      build: () => recordPackage(this.pool, this.publication, id, versioned),
    }
  }

  /** One release, current or replaced, as a package of it alone. */
  ocdsRelease(releaseId: string): Read {
    const id = releaseId.toLowerCase()
    return { key: CACHE_KEYS.ocdsRelease(id), build: () => releasePackage(this.pool, this.publication, id) }
  }

  /**
   * A price research: each unit's statistics (kept for its filters) and a page of the items, kept under its
   * canonical query. `address` is the asking client's, for the research's places.
   */
  research(query: ValidQuery, address: string): Read {
    return {
      key: CACHE_KEYS.listing('prices', canonicalQuery(PRICE_PARAMETERS, query)),
      build: async (signal) =>
        PUBLIC_SUCCESS.text(
          await this.prices.research(await priceQuery(this.cursors, query), address, signal),
        ),
    }
  }

  /** A page of suppliers (companies) or organizations by name, kept under its canonical query. */
  parties(which: 'suppliers' | 'organizations', query: ValidQuery): Read {
    const parameters = which === 'suppliers' ? SUPPLIER_LIST_PARAMETERS : ORGANIZATION_LIST_PARAMETERS
    return {
      key: CACHE_KEYS.listing(which, canonicalQuery(parameters, query)),
      build: async () => PUBLIC_SUCCESS.text(await namedList(this.pool, this.cursors, which, query)),
    }
  }

  /** A page of integrity flags, kept under its canonical query. */
  indicators(query: ValidQuery): Read {
    return {
      key: CACHE_KEYS.listing('indicators', canonicalQuery(FLAG_PARAMETERS, query)),
      build: async () =>
        query.format === 'cardinal'
          ? // Cardinal's shape, as its tools read it: no envelope.
            await cardinalOutput(this.pool, this.publication.config.prefix, query)
          : PUBLIC_SUCCESS.text(await flagPage(this.pool, this.cursors, query)),
    }
  }

  /** The integrity flags counted by code, kept under its canonical query. */
  indicatorSummary(query: ValidQuery): Read {
    return {
      key: CACHE_KEYS.listing('indicators/summary', canonicalQuery(FLAG_SUMMARY_PARAMETERS, query)),
      build: async () => PUBLIC_SUCCESS.text(await flagSummary(this.pool, query)),
    }
  }

  /** A supplier's page, under the CNPJ's digits (NotFoundError for a CPF or an unknown CNPJ). */
  supplier(cnpj: string): Read {
    // Any other text is looked up all the same, as '', so that it takes as long as a CNPJ no company has.
    const digits = cnpjDigits(cnpj) ?? ''
    return {
      key: CACHE_KEYS.detail('suppliers', digits),
      build: async () => PUBLIC_SUCCESS.text(await supplierData(this.pool, digits)),
    }
  }

  /** An organization's page (NotFoundError when none has the id). */
  organization(id: string): Read {
    return {
      key: CACHE_KEYS.detail('organizations', id),
      build: async () => PUBLIC_SUCCESS.text(await organizationData(this.pool, id)),
    }
  }

  /** The publication's package metadata. */
  ocdsMetadata(): Read {
    return { key: CACHE_KEYS.ocdsMetadata(), build: () => packageMetadata(this.pool, this.publication) }
  }
}
