import {
  aborted,
  ComprasError,
  CursorResetError,
  Http,
  type HttpOptions,
  ProtocolError,
  type Query,
  type RequestOptions,
} from './http.js'
import type { components, paths } from './schema.js'
import { type CursorStore, FileCursorStore, MemoryCursorStore } from './stores.js'

// compras-client: every operation of the compras API typed from its OpenAPI document (./schema.ts, generated),
// listings read page after page by cursor, and sync(): a change feed followed from a cursor kept in a store.

export type { components, HttpOptions as ComprasOptions, paths, RequestOptions }
export { ComprasError, CursorResetError, type CursorStore, FileCursorStore, MemoryCursorStore, ProtocolError }

type Schemas = components['schemas']
export type Contract = Schemas['Contract']
/** A direct contract or a public call: one shape for both. */
export type Bidding = Schemas['Bidding']
export type Arp = Schemas['Arp']
export type Order = Schemas['Order']
export type History = Schemas['History']
export type PublicChange = Schemas['PublicChange']
export type OrderChange = Schemas['OrderChange']
export type Lookup = Schemas['Lookup']
export type OcdsRelease = Schemas['OcdsRelease']
export type OcdsReleasePackage = Schemas['OcdsReleasePackage']
export type OcdsRecordPackage = Schemas['OcdsRecordPackage']
export type PriceResearch = Schemas['PriceResearch']
export type PriceItem = PriceResearch['items']['data'][number]
export type SupplierPage = Schemas['SupplierPage']
export type SupplierListItem = Schemas['SupplierList']['data'][number]
export type OrganizationPage = Schemas['OrganizationPage']
export type OrganizationListItem = Schemas['OrganizationList']['data'][number]
export type Flag = Schemas['Flag']
export type FlagSummary = Schemas['FlagSummary']

/** An operation's query parameters. */
type QueryOf<P extends keyof paths> = NonNullable<paths[P]['get']['parameters']['query']>

/** Each public resource's shapes: its record, a page of its listing, a version of it, and its listing's query. */
interface Kinds {
  contracts: {
    record: Contract
    page: Schemas['ContractPage']
    version: Schemas['ContractVersion']
    query: QueryOf<'/v1/transparency/contracts'>
  }
  'direct-contracts': {
    record: Bidding
    page: Schemas['BiddingPage']
    version: Schemas['BiddingVersion']
    query: QueryOf<'/v1/transparency/direct-contracts'>
  }
  'public-calls': {
    record: Bidding
    page: Schemas['BiddingPage']
    version: Schemas['BiddingVersion']
    query: QueryOf<'/v1/transparency/public-calls'>
  }
  arps: {
    record: Arp
    page: Schemas['ArpPage']
    version: Schemas['ArpVersion']
    query: QueryOf<'/v1/transparency/arps'>
  }
}
export type Kind = keyof Kinds

/** What a listing is asked: its filters and sort, and per_page; pages are the client's to follow. */
export type ListQuery<K extends Kind> = Omit<Kinds[K]['query'], 'page' | 'cursor'>
/** A page of a listing, as `data` carries it. */
export type ListPage<K extends Kind> = Kinds[K]['page']
/** An item of a listing. */
export type ListItem<K extends Kind> = Kinds[K]['page']['data'][number]

/** What a listing page has that the client follows. */
interface Paged<T> {
  data: T[]
  next_cursor?: string | null
}

/**
 * Every item of a listing, page after page by cursor (the pages hold still while imports run): iterate it with
 * `for await`, or take `pages()` or `toArray({ limit })`.
 */
export class Listing<T, P extends Paged<T> = Paged<T>> implements AsyncIterable<T> {
  constructor(private readonly read: (cursor: string | undefined) => Promise<P>) {}

  async *pages(): AsyncGenerator<P> {
    let cursor: string | undefined
    do {
      const page = await this.read(cursor)
      yield page
      cursor = page.next_cursor ?? undefined
    } while (cursor !== undefined)
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.data
  }

  /** The items, at most `limit` of them (every one without a limit). */
  async toArray({ limit = Number.POSITIVE_INFINITY }: { limit?: number } = {}): Promise<T[]> {
    const items: T[] = []
    if (limit <= 0) return items
    for await (const item of this) {
      items.push(item)
      if (items.length >= limit) break
    }
    return items
  }
}

/** A public resource: a record by id, its listing, its history and its earlier versions. */
export class Records<K extends Kind> {
  constructor(
    private readonly http: Http,
    readonly kind: K,
  ) {}

  /** The record, as its detail's `data` carries it. */
  async get(id: string, options: RequestOptions = {}): Promise<Kinds[K]['record']> {
    return (
      await this.http.json<{ data: Kinds[K]['record'] }>(
        `/v1/transparency/${this.kind}/${encodeURIComponent(id)}`,
        {},
        options,
      )
    ).data
  }

  /** Every item the listing has for the query, page after page by cursor. */
  list(
    query: ListQuery<K> = {} as ListQuery<K>,
    options: RequestOptions = {},
  ): Listing<ListItem<K>, ListPage<K>> {
    return new Listing(async (cursor) => {
      // Stryker disable next-line ConditionalExpression: { cursor: undefined } is left out of the URL: the same request
      const asked = { ...(query as Query), ...(cursor === undefined ? {} : { cursor }) }
      return (await this.http.json<{ data: ListPage<K> }>(`/v1/transparency/${this.kind}`, asked, options))
        .data
    })
  }

  /** Its versions, oldest first, and what each changed. */
  async history(id: string, options: RequestOptions = {}): Promise<History> {
    return (
      await this.http.json<{ data: History }>(
        `/v1/transparency/${this.kind}/${encodeURIComponent(id)}/history`,
        {},
        options,
      )
    ).data
  }

  /** The record as version `version` (from 1, the oldest) served it. */
  async version(id: string, version: number, options: RequestOptions = {}): Promise<Kinds[K]['version']> {
    return (
      await this.http.json<{ data: Kinds[K]['version'] }>(
        `/v1/transparency/${this.kind}/${encodeURIComponent(id)}/history/${encodeURIComponent(version)}`,
        {},
        options,
      )
    ).data
  }
}

/** What sync() follows from, and how. */
export interface SyncOptions {
  /** Where the cursor is kept: read at the start, written after each page the caller has handled. */
  store?: CursorStore
  /** Stops the sync cleanly: the iteration ends (a page being handled is not saved). */
  signal?: AbortSignal
  /** Entries a page (at most 1,000; 100 by default). */
  perPage?: number
  /** Seconds each request waits for the next import once caught up (at most 30; 25 by default). */
  wait?: number
  /**
   * A cursor the server no longer knows (410: the database was loaded again): `throw` (the default) rejects with
   * CursorResetError; `resync` calls onResync (empty your copy there) and starts over from the beginning.
   */
  onReset?: 'throw' | 'resync'
  onResync?: () => void | Promise<void>
  /** End once the feed has nothing more, instead of waiting for the next import (a catch-up that exits). */
  untilCaughtUp?: boolean
}

export interface PublicSyncOptions extends SyncOptions {
  /** Each created or updated entry with its record as its detail serves it now. */
  withRecords?: boolean
  kinds?: readonly Kind[]
  organizationUuid?: string
  /** Entries changed at this instant or later (ISO 8601), for a first sync that needs no history. */
  since?: string
}

interface FeedPage<E> {
  data: E[]
  next_cursor: string
  has_more: boolean
}

/**
 * Follows a feed from the store's cursor: yields every entry in order, and saves the cursor of a page once the
 * caller has taken its last entry (a crash repeats at most one page, never skips one). Caught up, it waits for
 * the next import on each request. It ends when the signal aborts.
 */
async function* follow<E extends { cursor: string }>(
  read: (after: string | undefined, wait: number, signal: AbortSignal | undefined) => Promise<FeedPage<E>>,
  options: SyncOptions,
  lines?: (after: string | undefined, signal: AbortSignal | undefined) => Promise<Response>,
  maxLineBytes = Number.POSITIVE_INFINITY,
): AsyncGenerator<E> {
  const { store, signal } = options
  const wait = Math.min(30, Math.max(0, options.wait ?? 25))
  let cursor = await store?.get()
  let caughtUp = false
  // First the whole feed after the cursor in one stream of lines, when the service offers it now (one place per
  // address): as fast as the raw download, in flat memory, the cursor saved every perPage entries taken.
  if (lines !== undefined) {
    const every = Math.max(1, options.perPage ?? 100)
    let response: Response | undefined
    try {
      response = await lines(cursor, signal)
    } catch (error) {
      // Stryker disable next-line ConditionalExpression: an aborted sync ends at the loop below all the same
      if (aborted(signal)) return
      if (error instanceof CursorResetError) {
        if (!(options.onReset === 'resync' && cursor !== undefined)) throw error
        await options.onResync?.()
        cursor = undefined
      }
      // Otherwise refused for now (busy, another download of this address) or failed: the pages below, which
      // retry, do the same work.
    }
    if (response?.body) {
      let taken = 0
      let last = cursor
      let whole = false
      try {
        for await (const entry of entriesOf<E>(response.body, maxLineBytes)) {
          yield entry
          last = entry.cursor
          // Stryker disable next-line UpdateOperator: -n % k is 0 exactly when n % k is
          if (++taken % every === 0 && last !== undefined) {
            cursor = last
            // Stryker disable next-line OptionalChaining: without a store, the failure is taken for a cut download, read on by pages from the same place
            await store?.set(cursor)
          }
        }
        whole = true
      } catch {
        // Cut off mid-stream, or a line refused: go on by pages from what was taken, not caught up yet.
        if (aborted(signal)) return
      }
      if (last !== cursor && last !== undefined) {
        cursor = last
        await store?.set(cursor)
      }
      caughtUp = whole
      if (caughtUp && options.untilCaughtUp) return
    }
  }
  while (!signal?.aborted) {
    let page: FeedPage<E>
    const asked = Date.now()
    const waited = caughtUp ? wait : 0
    try {
      page = await read(cursor, waited, signal)
    } catch (error) {
      if (aborted(signal)) return
      if (error instanceof CursorResetError && options.onReset === 'resync' && cursor !== undefined) {
        await options.onResync?.()
        cursor = undefined
        caughtUp = false
        continue
      }
      throw error
    }
    // A page that says more follows but gives the same cursor back would be asked again for ever.
    if (page.has_more && page.next_cursor === cursor)
      throw new ProtocolError(
        200,
        'O feed diz que há mais, mas não avançou o cursor: a sincronização para aqui.',
        undefined,
        page,
      )
    for (const entry of page.data) {
      yield entry
      if (signal?.aborted) return
    }
    // Stryker disable next-line ConditionalExpression: saving the same cursor again changes nothing
    if (page.next_cursor !== cursor) {
      cursor = page.next_cursor
      await store?.set(cursor)
    }
    caughtUp = !page.has_more
    if (caughtUp && options.untilCaughtUp) return
    // Caught up, an empty page that came at once when a wait was asked (a server that does not wait): a pause
    // before the next ask, so that it is never asked in a tight loop.
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: only when the next ask goes out
    if (caughtUp && waited > 0 && page.data.length === 0 && Date.now() - asked < MIN_EMPTY_WAIT_MS)
      await pause(MIN_EMPTY_WAIT_MS, signal)
  }
}

/** The least time between two asks of a caught-up feed that answered empty without waiting. */
const MIN_EMPTY_WAIT_MS = 1000

/** Waits ms, or until the signal aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  // Stryker disable all: only how soon an abort ends a pause of at most a second
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
  // Stryker restore all
}

/** The entries of a JSON Lines body, one a line, parsed as they arrive; a line longer than `limit` is refused. */
async function* entriesOf<E>(body: ReadableStream<Uint8Array>, limit: number): AsyncGenerator<E> {
  const decoder = new TextDecoder()
  const reader = body.getReader()
  let rest = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      rest += decoder.decode(value, { stream: true })
      let end = rest.indexOf('\n')
      let start = 0
      while (end !== -1) {
        if (end > start) yield JSON.parse(rest.slice(start, end)) as E
        start = end + 1
        end = rest.indexOf('\n', start)
      }
      rest = rest.slice(start)
      if (rest.length > limit)
        throw new ProtocolError(200, `Linha grande demais (mais de ${limit} caracteres)`, undefined, null)
    }
    rest += decoder.decode()
    if (rest.trim() !== '') yield JSON.parse(rest) as E
    // Stryker disable next-line BlockStatement: frees the rest of a stream left now rather than when it is collected
  } finally {
    await reader.cancel().catch(() => {})
  }
}

/** The compras API: `new Compras({ baseUrl })`. */
export class Compras {
  private readonly http: Http
  readonly contracts: Records<'contracts'>
  readonly directContracts: Records<'direct-contracts'>
  readonly publicCalls: Records<'public-calls'>
  readonly arps: Records<'arps'>

  constructor(options: HttpOptions) {
    this.http = new Http(options)
    this.contracts = new Records(this.http, 'contracts')
    this.directContracts = new Records(this.http, 'direct-contracts')
    this.publicCalls = new Records(this.http, 'public-calls')
    this.arps = new Records(this.http, 'arps')
  }

  /** An organ's supply orders, with its token. */
  readonly orders = {
    /** The order: the answer's `data`. A number the organ does not have is the spec's 500 "Ordem não encontrada". */
    get: async (number: string, options: RequestOptions & { token: string }): Promise<Order> =>
      (await this.http.json<{ data: Order }>('/external/orders', { order_number: number }, options)).data,
    /** The organ's orders feed, followed from the store's cursor (see sync). */
    changes: (options: SyncOptions & { token: string; since?: string }): AsyncGenerator<OrderChange> =>
      follow<OrderChange>(
        async (after, wait, signal) =>
          (
            await this.http.json<{ data: FeedPage<OrderChange> }>(
              '/external/orders/changes',
              {
                after,
                wait,
                since: after === undefined ? options.since : undefined,
                per_page: options.perPage,
              },
              { token: options.token, signal },
            )
          ).data,
        options,
      ),
  }

  /** The public change feed. */
  readonly changes = {
    /**
     * Every change to a public record, in commit order, from the store's cursor on: created and updated
     * entries (with their record when withRecords), and withdrawals. Caught up, it long-polls for the next import.
     */
    sync: (options: PublicSyncOptions = {}): AsyncGenerator<PublicChange> =>
      follow<PublicChange>(
        async (after, wait, signal) =>
          (
            await this.http.json<{ data: FeedPage<PublicChange> }>(
              '/v1/transparency/changes',
              {
                after,
                wait,
                per_page: options.perPage,
                with_records: options.withRecords === true ? true : undefined,
                kinds: options.kinds,
                organization_uuid: options.organizationUuid,
                since: after === undefined ? options.since : undefined,
              },
              { signal },
            )
          ).data,
        options,
        (after, signal) =>
          this.http.get(
            '/v1/transparency/changes.jsonl',
            {
              after,
              with_records: options.withRecords === true ? true : undefined,
              kinds: options.kinds,
              organization_uuid: options.organizationUuid,
              since: after === undefined ? options.since : undefined,
            },
            { signal, once: true },
          ),
        this.http.maxBodyBytes,
      ),
    /** The feed after `after` as JSON Lines, whole, as a web stream. */
    lines: async (
      query: QueryOf<'/v1/transparency/changes.jsonl'> = {},
      options: RequestOptions = {},
    ): Promise<ReadableStream<Uint8Array>> =>
      bodyOf(await this.http.get('/v1/transparency/changes.jsonl', query, options)),
  }

  /** The price research: what the items actually bought cost, by unit of measurement. */
  readonly prices = {
    /** Each unit's statistics and the first page of the items (a page's `items.next_cursor` goes on). */
    research: async (
      query: QueryOf<'/v1/transparency/prices'>,
      options: RequestOptions = {},
    ): Promise<PriceResearch> =>
      (await this.http.json<{ data: PriceResearch }>('/v1/transparency/prices', query as Query, options))
        .data,
    /** Every item of a research, page after page by cursor (the summary is the research's). */
    items: (
      query: Omit<QueryOf<'/v1/transparency/prices'>, 'cursor'>,
      options: RequestOptions = {},
    ): Listing<PriceItem, PriceResearch['items']> =>
      new Listing(
        async (cursor) =>
          (
            await this.http.json<{ data: PriceResearch }>(
              '/v1/transparency/prices',
              // Stryker disable next-line ConditionalExpression: { cursor: undefined } is left out of the URL: the same request
              { ...(query as Query), ...(cursor === undefined ? {} : { cursor }) },
              options,
            )
          ).data.items,
      ),
    /** The research as a spreadsheet (XLSX) or CSV file, as a web stream. */
    export: async (
      query: QueryOf<'/v1/transparency/prices/export'>,
      options: RequestOptions = {},
    ): Promise<ReadableStream<Uint8Array>> =>
      bodyOf(await this.http.get('/v1/transparency/prices/export', query as Query, options)),
  }

  /** The suppliers that are companies: found by name or CNPJ, and each one's page. */
  readonly suppliers = {
    /** Every supplier the query finds, by name, page after page by cursor. */
    list: (
      query: Omit<QueryOf<'/v1/transparency/suppliers'>, 'cursor'> = {},
      options: RequestOptions = {},
    ): Listing<SupplierListItem, Schemas['SupplierList']> =>
      this.byCursor<Schemas['SupplierList']>('/v1/transparency/suppliers', query as Query, options),
    /** A company's page: what it contracted, by kind, year and organization, and what was committed to it. */
    get: async (cnpj: string, options: RequestOptions = {}): Promise<SupplierPage> =>
      (
        await this.http.json<{ data: SupplierPage }>(
          `/v1/transparency/suppliers/${encodeURIComponent(cnpj)}`,
          {},
          options,
        )
      ).data,
  }

  /** The organizations (public bodies): found by name, and each one's page. */
  readonly organizations = {
    /** Every organization the query finds, by name, page after page by cursor. */
    list: (
      query: Omit<QueryOf<'/v1/transparency/organizations'>, 'cursor'> = {},
      options: RequestOptions = {},
    ): Listing<OrganizationListItem, Schemas['OrganizationList']> =>
      this.byCursor<Schemas['OrganizationList']>('/v1/transparency/organizations', query as Query, options),
    /** An organization's page: what it bought, what it committed, and its top suppliers. */
    get: async (uuid: string, options: RequestOptions = {}): Promise<OrganizationPage> =>
      (
        await this.http.json<{ data: OrganizationPage }>(
          `/v1/transparency/organizations/${encodeURIComponent(uuid)}`,
          {},
          options,
        )
      ).data,
  }

  /** The integrity indicators' flags: each a reason to open a record, never a verdict. */
  readonly indicators = {
    /** Every flag the query finds, newest year first, page after page by cursor. */
    list: (
      query: Omit<QueryOf<'/v1/transparency/indicators'>, 'cursor' | 'format'> = {},
      options: RequestOptions = {},
    ): Listing<Flag, Schemas['FlagPage']> =>
      this.byCursor<Schemas['FlagPage']>('/v1/transparency/indicators', query as Query, options),
    /** Every matching flag in the shape of Cardinal's results (open-contracting/cardinal-rs), at most 50,000. */
    cardinal: async (
      query: Omit<QueryOf<'/v1/transparency/indicators'>, 'cursor' | 'per_page' | 'format'> = {},
      options: RequestOptions = {},
    ): Promise<Schemas['CardinalOutput']> =>
      this.http.json('/v1/transparency/indicators', { ...query, format: 'cardinal' } as Query, options),
    /** How many flags each indicator raised, over all or for an organization, a supplier or a year. */
    summary: async (
      query: QueryOf<'/v1/transparency/indicators/summary'> = {},
      options: RequestOptions = {},
    ): Promise<FlagSummary> =>
      (
        await this.http.json<{ data: FlagSummary }>(
          '/v1/transparency/indicators/summary',
          query as Query,
          options,
        )
      ).data,
  }

  /** The helpers: the ids the filters take, with their names. */
  readonly helpers = {
    biddingModalities: (options: RequestOptions = {}) => this.lookup('bidding-modalities', options),
    biddingStatuses: (options: RequestOptions = {}) => this.lookup('bidding-statuses', options),
    managementStatuses: (options: RequestOptions = {}) => this.lookup('management-statuses', options),
  }

  /** Open Contracting (OCDS 1.1) packages, as the service publishes them. */
  readonly ocds = {
    /** A release package of the latest release of each process, in the order they changed, after `after`. */
    releases: async (
      query: QueryOf<'/v1/ocds/releases'> = {},
      options: RequestOptions = {},
    ): Promise<OcdsReleasePackage> => this.http.json('/v1/ocds/releases', query, options),
    /** The record package of a process: its releases linked, its compiled (and versioned) release. */
    record: async (
      ocid: string,
      query: QueryOf<'/v1/ocds/records/{ocid}'> = {},
      options: RequestOptions = {},
    ): Promise<OcdsRecordPackage> =>
      this.http.json(`/v1/ocds/records/${encodeURIComponent(ocid)}`, query, options),
    /** One release, current or replaced, by its id (where a record's linked releases point). */
    release: async (id: string, options: RequestOptions = {}): Promise<OcdsRelease> => {
      const pkg = await this.http.json<OcdsReleasePackage>(
        `/v1/ocds/releases/${encodeURIComponent(id)}`,
        {},
        options,
      )
      const [release] = pkg.releases
      // Stryker disable next-line all: the service answers 404 itself; a package without releases is none of its answers
      if (release === undefined) throw new ComprasError(404, 'Registro não encontrado.', undefined, pkg)
      return release
    },
    /** Every latest release (with history, every release) as JSON Lines, as a web stream. */
    download: async (
      query: QueryOf<'/v1/ocds/releases.jsonl'> = {},
      options: RequestOptions = {},
    ): Promise<ReadableStream<Uint8Array>> =>
      bodyOf(await this.http.get('/v1/ocds/releases.jsonl', query, options)),
  }

  /** A listing as a spreadsheet or CSV file, as a web stream (one export at a time per address). */
  async export(
    query: QueryOf<'/v1/transparency/export'>,
    options: RequestOptions = {},
  ): Promise<ReadableStream<Uint8Array>> {
    return bodyOf(await this.http.get('/v1/transparency/export', query as Query, options))
  }

  /** A list read page after page by cursor: each page is the answer's `data`. */
  private byCursor<P extends Paged<P['data'][number]>>(
    path: string,
    query: Query,
    options: RequestOptions,
  ): Listing<P['data'][number], P> {
    return new Listing(
      async (cursor) =>
        (
          await this.http.json<{ data: P }>(
            path,
            // Stryker disable next-line ConditionalExpression: { cursor: undefined } is left out of the URL: the same request
            { ...query, ...(cursor === undefined ? {} : { cursor }) },
            options,
          )
        ).data,
    )
  }

  private async lookup(name: string, options: RequestOptions): Promise<Lookup[]> {
    return (await this.http.json<{ data: Lookup[] }>(`/v1/transparency/helpers/${name}`, {}, options)).data
  }
}

function bodyOf(response: Response): ReadableStream<Uint8Array> {
  // Stryker disable next-line all: a 204's, which the service never answers a GET with
  if (response.body === null) throw new ComprasError(response.status, 'Resposta sem corpo', undefined, null)
  return response.body
}
