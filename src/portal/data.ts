import type { Pool } from '../db/pool.js'
import { NotFoundError } from '../errors.js'
import type { JsonObject } from '../json.js'
import { type ListResult, LOOKUPS, type LookupRow, list, listQuery, lookup } from '../listings/listing.js'
import { commitments } from '../parties/parties.js'
import { checkOrganization } from '../queries/organization.js'
import { CACHE_KEYS } from '../readmodel/cache-keys.js'
import type { DocumentStore, VersionEntry } from '../readmodel/store.js'
import type { ChoiceList } from '../resources/filters.js'
import { PUBLIC_RESOURCES, type PublicResource } from '../resources/index.js'

// What the portal's pages show, read through the same library calls and cache as the API (no HTTP here).

export interface Choices {
  organizations: LookupOption[]
  /** The closed lists the filters choose from, by their helper's path. */
  lists: Readonly<Record<ChoiceList, LookupRow[]>>
}

export interface LookupOption {
  id: string
  name: string
}

/** Kept in the read path's cache like a page: until the next import. */
async function cached<T>(
  store: DocumentStore,
  key: string,
  build: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const text = await store.through(key, async () => {
    const value = await build()
    return value === undefined ? undefined : JSON.stringify(value)
  })
  return text === undefined ? undefined : (JSON.parse(text) as T)
}

const NAMES = new Intl.Collator('pt-BR')

let lastChoices: { text: string; value: Choices } | undefined

/**
 * The options of the filter form: organs by name, and the helpers' lists. One object per version of the
 * cached text, so that pages share it (and its rendered options, pages.tsx) until the next import.
 */
export async function choices(pool: Pool, store: DocumentStore): Promise<Choices> {
  const text = (await store.through(CACHE_KEYS.choices(), async () =>
    JSON.stringify(await readChoices(pool)),
  )) as string
  if (lastChoices?.text !== text) lastChoices = { text, value: JSON.parse(text) as Choices }
  return lastChoices.value
}

async function readChoices(pool: Pool): Promise<Choices> {
  return {
    // In the order people of Brazil sort names ("São Paulo" before "Sorocaba"), whatever the database's collation.
    organizations: (
      await pool.query<LookupOption>('SELECT id, name FROM organizations ORDER BY id')
    ).rows.sort((a, b) => NAMES.compare(a.name, b.name)),
    lists: Object.fromEntries(
      await Promise.all(
        Object.entries(LOOKUPS).map(async ([path, table]) => [path, await lookup(pool, table)] as const),
      ),
    ) as Record<ChoiceList, LookupRow[]>,
  }
}

/** Text as names are compared: no accents, no case, single spaces. */
function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim()
}

/**
 * The organs a name points to, in name order: those whose whole name is the text (accents and case aside),
 * or else those whose name holds every word of it. The list is the form's, kept until the next import.
 */
export function organizationsNamed(organizations: readonly LookupOption[], text: string): LookupOption[] {
  const wanted = folded(text)
  const names = organizations.map((o) => ({ o, name: folded(o.name) }))
  const exact = names.filter(({ name }) => name === wanted)
  const words = wanted.split(' ')
  const found =
    exact.length > 0 ? exact : names.filter(({ name }) => words.every((word) => name.includes(word)))
  return found.map(({ o }) => o)
}

/** A page of a listing from a validated query, as the API's listing reads it. */
export async function listing(
  pool: Pool,
  store: DocumentStore,
  resource: PublicResource,
  query: Readonly<Record<string, unknown>>,
): Promise<ListResult> {
  const result = await list(pool, resource, listQuery(resource, query), store)
  // As the API: an organization filter that finds nothing because the organization does not exist.
  const organization = query.organization_uuid as string | undefined
  await checkOrganization(pool, organization, result.total > 0)
  return result
}

/** Organization names by id, once per version of the form's choices. */
const namesOf = new WeakMap<Choices, Map<string, string>>()

/** Where a record belongs: its organ, by id and name. */
export interface Owner {
  organization_uuid: string
  organization_name: string
}

/**
 * An organ's name, from the form's choices kept until the next import, so that a page costs no round trip
 * for it; an organ they do not hold yet (an import not yet heard of) is read. Undefined for none.
 */
async function ownerOf(pool: Pool, store: DocumentStore, organizationId: string): Promise<Owner | undefined> {
  const options = await choices(pool, store)
  let names = namesOf.get(options)
  if (names === undefined) {
    names = new Map(options.organizations.map((o) => [o.id, o.name]))
    namesOf.set(options, names)
  }
  const name =
    names.get(organizationId) ??
    (
      await pool.query<{ name: string }>({
        // Stryker disable next-line StringLiteral: the name only spares planning
        name: 'organization-name',
        text: 'SELECT name FROM organizations WHERE id = $1',
        values: [organizationId],
      })
    ).rows[0]?.name
  return name === undefined ? undefined : { organization_uuid: organizationId, organization_name: name }
}

/**
 * One record's detail document (every field of the spec, every relation), its organ and its history, read
 * in one snapshot and one round trip (the batched lookup); undefined when there is none.
 */
export async function recordWithHistory(
  pool: Pool,
  store: DocumentStore,
  resource: PublicResource,
  id: string,
): Promise<{ document: JsonObject; owner: Owner; versions: VersionEntry[] } | undefined> {
  const found = await store.history(resource.path, id)
  if (found === undefined) return undefined
  const owner = await ownerOf(pool, store, found.organizationId)
  if (owner === undefined) return undefined
  return { document: JSON.parse(found.body) as JsonObject, owner, versions: found.versions }
}

/**
 * One earlier version of a record (its document then, its organ and the list of its versions); undefined
 * when there is no record, NotFoundError('version') when there is no such version.
 */
export async function recordVersion(
  pool: Pool,
  store: DocumentStore,
  resource: PublicResource,
  id: string,
  version: number,
): Promise<
  { document: JsonObject; owner: Owner; shown: Omit<VersionEntry, 'changes'>; latest: number } | undefined
> {
  const read = await store.version(resource.path, id, version)
  if (read === undefined) return undefined
  const shown = read.versions[version - 1]
  if (shown === undefined || read.document === undefined) throw new NotFoundError('version')
  const owner = await ownerOf(pool, store, read.organizationId)
  if (owner === undefined) return undefined
  return { document: JSON.parse(read.document) as JsonObject, owner, shown, latest: read.versions.length }
}

/** The public resource whose record has this id: a bidding is a direct contract or a public call. */
export async function biddingResource(store: DocumentStore, id: string): Promise<PublicResource | undefined> {
  for (const resource of PUBLIC_RESOURCES.filter((r) => r.record.table === 'biddings')) {
    // Found or not, without decoding the document.
    if ((await store.ownedDetail(resource.path, id)) !== undefined) return resource
  }
  return undefined
}

export interface KindSummary {
  resource: PublicResource
  result: ListResult
}

/** The total of each kind, and its newest records, optionally of one organization. */
export function summaries(
  pool: Pool,
  store: DocumentStore,
  filters: Record<string, string>,
  latest: number,
): Promise<KindSummary[]> {
  return Promise.all(
    PUBLIC_RESOURCES.map(async (resource) => ({
      resource,
      result: await listing(pool, store, resource, { ...filters, per_page: latest }),
    })),
  )
}

export interface OrganizationView {
  id: string
  name: string
  document: string
  /** Committed value (parties.ts, `commitments`) per month of its main date, oldest first, the last 24 months. */
  months: { month: string; total: number; count: number }[]
}

/** An organ and its committed value per month over the 24 months up to `now`, or undefined. */
export function organizationOf(
  pool: Pool,
  store: DocumentStore,
  id: string,
  now = new Date(),
): Promise<OrganizationView | undefined> {
  const month = now.toISOString().slice(0, 7)
  return cached<OrganizationView>(store, CACHE_KEYS.organizationPage(id, month), async () => {
    const { rows } = await pool.query<{ id: string; name: string; document: string }>(
      'SELECT id, name, document FROM organizations WHERE id = $1',
      [id],
    )
    const found = rows[0]
    if (found === undefined) return undefined
    // What it committed each month, each real once (as its page's `committed`).
    const { rows: months } = await pool.query<{ month: string; total: string; count: number }>(
      `SELECT to_char(m, 'YYYY-MM') AS month, coalesce(sum(k.value), 0)::text AS total, count(k.day)::int AS count
       FROM generate_series(date_trunc('month', $2::date) - interval '23 months', date_trunc('month', $2::date),
         interval '1 month') AS m
       LEFT JOIN (${commitments(() => 'x.organization_id = $1', false)}) k
         ON k.day >= m AND k.day < m + interval '1 month'
       GROUP BY m ORDER BY m`,
      [id, `${month}-01`],
    )
    return { ...found, months: months.map((m) => ({ ...m, total: Number(m.total) })) }
  })
}
