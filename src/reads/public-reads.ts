import type { Pool } from '../db/pool.js'
import { NotFoundError } from '../errors.js'
import type { Answer } from '../readmodel/answer.js'
import { CACHE_KEYS } from '../readmodel/cache-keys.js'
import { PUBLIC_CHANGES, PUBLIC_SUCCESS } from '../readmodel/envelopes.js'
import type { DocumentStore } from '../readmodel/store.js'
import type { PublicResource } from '../resources/index.js'
import { type FeedPage, type PublicFeedQuery, publicFeedPage } from '../transparency/change-feeds.js'
import type { Cursors } from '../transparency/cursors.js'
import { historyText, versionText } from '../transparency/history.js'
import { checkOrganization, LOOKUPS, listingData, lookup } from '../transparency/listing.js'
import {
  type Publication,
  packageMetadata,
  type ReleaseQuery,
  recordPackage,
  releasePackage,
  releasePage,
} from '../transparency/ocds-packages.js'
import type { ValidQuery } from '../transparency/parameters.js'
import { namedList, organizationData, supplierData } from '../transparency/parties.js'
import { priceQuery, priceResearch } from '../transparency/prices.js'
import { answerOf, type Read } from './read.js'

// The answers of the public API (/v1), each a read: its cache key and how its bytes are built.
// A read that finds nothing builds undefined, and the route answers its 404; the domain errors a read throws
// (NotFoundError, ParameterError, CursorGone) are the routes' to map.

export interface ReadServices {
  pool: Pool
  store: DocumentStore
  cursors: Cursors
  publication: Publication
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

  constructor({ pool, store, cursors, publication }: ReadServices) {
    this.pool = pool
    this.store = store
    this.cursors = cursors
    this.publication = publication
  }

  /** The answer of a read. */
  answer(read: Read): Promise<Answer | undefined> {
    return answerOf(this.store, read)
  }

  /** A record's detail (operations 2–5). */
  detail(resource: PublicResource, id: string): Read {
    return {
      key: CACHE_KEYS.detail(resource.path, id),
      build: async () => {
        const body = await this.store.detail(resource.path, id)
        return body === undefined ? undefined : PUBLIC_SUCCESS.text(body)
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

  /** A listing page, kept under its URL as sent. */
  listing(resource: PublicResource, url: string, query: ValidQuery): Read {
    return {
      key: CACHE_KEYS.listing(url),
      build: async () =>
        PUBLIC_SUCCESS.text(await listingData(this.pool, this.store, this.cursors, resource, query)),
    }
  }

  /** A helper's list of ids and names. */
  helper(path: keyof typeof LOOKUPS): Read {
    return {
      key: CACHE_KEYS.helper(path),
      build: async () => PUBLIC_SUCCESS.text(JSON.stringify(await lookup(this.pool, LOOKUPS[path]))),
    }
  }

  /** A page of the public change feed; NotFoundError when it is empty for an organization that does not exist. */
  changes(url: string, feed: PublicFeedQuery, perPage: number): FeedRead {
    const page = async () => {
      const found = await publicFeedPage(this.pool, this.cursors, feed, perPage)
      await checkOrganization(this.pool, feed.organizationId, found.count > 0)
      return found
    }
    return { key: CACHE_KEYS.feed(url), build: async () => PUBLIC_CHANGES.page(await page()), page }
  }

  /** A page of OCDS releases; undefined past the last page by number. */
  ocdsReleases(url: string, query: ReleaseQuery): Read {
    return {
      key: CACHE_KEYS.ocdsPage(url),
      build: () => releasePage(this.pool, this.publication, this.cursors, query),
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

  /** A price research: each unit's statistics and a page of the items, kept under its URL as sent. */
  prices(url: string, query: ValidQuery): Read {
    return {
      key: CACHE_KEYS.listing(url),
      build: async () =>
        PUBLIC_SUCCESS.text(
          await priceResearch(this.pool, this.cursors, await priceQuery(this.cursors, query)),
        ),
    }
  }

  /** A page of suppliers (companies) or organizations by name, kept under its URL as sent. */
  parties(which: 'suppliers' | 'organizations', url: string, query: ValidQuery): Read {
    return {
      key: CACHE_KEYS.listing(url),
      build: async () => PUBLIC_SUCCESS.text(await namedList(this.pool, this.cursors, which, query)),
    }
  }

  /** A supplier's page, under the path's CNPJ as sent (NotFoundError for a CPF or an unknown CNPJ). */
  supplier(cnpj: string): Read {
    return {
      key: CACHE_KEYS.detail('suppliers', cnpj),
      build: async () => PUBLIC_SUCCESS.text(await supplierData(this.pool, cnpj)),
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
