import type { Pool } from '../db/pool.js'
import { Refused, TooBroad } from '../errors.js'
import type { Gate } from '../gate.js'
import type { Cursors } from '../queries/cursors.js'
import { CACHE_KEYS } from '../readmodel/cache-keys.js'
import type { DocumentStore } from '../readmodel/store.js'
import {
  type Fences,
  type FirstPage,
  filtersKey,
  type PriceQuery,
  priceItems,
  priceSummary,
  summaryOf,
  summaryText,
} from './research.js'

// The price research's reads, for the API, the portal and the file: its summary (each unit's statistics and
// fences) is computed once per set of filters and kept until the next import, so that the pages of its items,
// the panel and the file reuse it. Each statement that computes runs on one of the research's places (a
// bounded number per instance, one per address), is cancelled when nobody waits for it, and is refused past
// its bound of items.

/** How researches are bounded: places to compute them (per instance, one per address), and items at most. */
export interface ResearchLimits {
  gate: Gate
  /** A research that matches more items than this is too broad (422): RESEARCH_MAX_ITEMS. */
  maxItems: number
}

/** A computed summary: its JSON text and its fences. */
export interface ResearchSummary {
  summary: string
  fences: Fences
}

export class PriceReads {
  constructor(
    private readonly pool: Pool,
    private readonly store: DocumentStore,
    private readonly cursors: Cursors,
    private readonly limits: ResearchLimits,
  ) {}

  /** Runs a computing statement on a research place of `address`: Refused when none is free. */
  private async placed<T>(address: string, run: () => Promise<T>): Promise<T> {
    const leave = this.limits.gate.enter(address)
    if (typeof leave === 'string') throw new Refused('research', leave)
    try {
      return await run()
    } finally {
      leave()
    }
  }

  /**
   * The summary of a research's filters, kept until the next import (too broad included): TooBroad when more
   * than the bound of items match, NotFoundError for an organization filter that names none. With `firstPage`,
   * a summary computed now reads that page too, off the same rows: `page` then holds it (never when the summary
   * was kept, or computed for another asker).
   */
  async summary(
    query: PriceQuery,
    address: string,
    signal?: AbortSignal,
    firstPage?: FirstPage,
  ): Promise<ResearchSummary & { page?: string }> {
    let page: string | undefined
    const text = await this.store.through(
      CACHE_KEYS.priceSummary(filtersKey(query)),
      (aborted) =>
        this.placed(address, async () => {
          const computed = await priceSummary(this.pool, query, this.limits.maxItems, aborted, firstPage)
          page = computed.page
          return summaryText(computed.summary)
        }),
      signal,
    )
    const summary = summaryOf(text)
    if (summary.tooBroad) throw new TooBroad(this.limits.maxItems)
    return { summary: summary.summary, fences: summary.fences, page }
  }

  /**
   * The research's data as JSON text, `{"summary":[…],"items":{"data":[…],"next_cursor":…,"has_more":…}}`:
   * the summary kept for its filters, and a page of its items (read with the summary when both are computed
   * now, the first page asked with filters not yet kept).
   */
  async research(query: PriceQuery, address: string, signal?: AbortSignal): Promise<string> {
    const first =
      query.after === undefined
        ? { cursors: this.cursors, sort: query.sort, perPage: query.perPage }
        : undefined
    const { summary, fences, page } = await this.summary(query, address, signal, first)
    if (page !== undefined) return `{"summary":${summary},"items":${page}}`
    const items = await this.placed(address, () => priceItems(this.pool, this.cursors, query, fences, signal))
    return `{"summary":${summary},"items":${items}}`
  }
}
