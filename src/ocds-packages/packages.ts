import { Type } from 'typebox'
import type { OcdsConfig } from '../config.js'
import { openCursor, textChunks } from '../db/cursor.js'
import type { Pool } from '../db/pool.js'
import { ParameterError } from '../errors.js'
import { release, releaseId } from '../ocds/mapping.js'
import { type Release, versionedRelease } from '../ocds/merge.js'
import { STORED_PREFIX } from '../ocds/releases.js'
import type { Cursors } from '../queries/cursors.js'
import { checkOrganization } from '../queries/organization.js'
import {
  DEFAULT_PER_PAGE,
  PAGING,
  type Parameter,
  parameters,
  type ValidQuery,
} from '../queries/parameters.js'
import {
  type Filters,
  type FilterValues,
  filterParameters,
  filterSql,
  filterValues,
  organization,
} from '../resources/filters.js'

// Reading the stored releases and wrapping them in OCDS packages, without HTTP: the routes, the CLI and
// the benchmark call these. A release is its ocid joined to its stored tail (releases.ts).

/** The releases' filters, over ocds_releases `r`: a release is dated by its last change, in UTC. */
const RELEASE_FILTERS = {
  organization_uuid: organization,
  date_from: {
    sql: (a, p) => `${a}.date >= ${p}::date AT TIME ZONE 'UTC'`,
    parameter: [
      Type.String({ format: 'date', description: 'Releases dated (last changed) from this day on, in UTC' }),
      'uma data AAAA-MM-DD',
    ],
  },
  date_to: {
    sql: (a, p) => `${a}.date < (${p}::date + 1) AT TIME ZONE 'UTC'`,
    parameter: [
      Type.String({
        format: 'date',
        description: 'Releases dated (last changed) up to this day, inclusive, in UTC',
      }),
      'uma data AAAA-MM-DD',
    ],
  },
} satisfies Filters

type ReleaseFilterName = keyof typeof RELEASE_FILTERS

const OCDS_FILTERS: Readonly<Record<string, Parameter>> = {
  ...PAGING,
  ...filterParameters(RELEASE_FILTERS),
}

/** What GET /v1/ocds/releases takes. */
export const RELEASE_PARAMETERS = parameters(
  ['page', 'per_page', 'organization_uuid', 'date_from', 'date_to', 'after'],
  {
    ...OCDS_FILTERS,
    after: [
      Type.String({
        maxLength: 80,
        description:
          'Read the processes in the order their releases changed, oldest change first, after this cursor ' +
          '(links.next carries the next one); empty (`after=`) to start from the first, as a request with ' +
          'neither `after` nor `page` does. A process whose release changes again moves past the cursor, so a ' +
          'crawler that follows links.next misses no change. Not with `page`',
      }),
      'um cursor de links.next, ou vazio para começar do início',
    ],
  },
)

/** What a record takes. */
export const RECORD_PARAMETERS = parameters(['versioned'], {
  versioned: [
    Type.Boolean({
      description: "With the process's versionedRelease: every value each field had, and whence",
    }),
    'true ou false',
  ],
})

/** What the bulk download takes: the same filters, every page. */
export const BULK_PARAMETERS = parameters(['organization_uuid', 'date_from', 'date_to', 'history'], {
  ...OCDS_FILTERS,
  history: [
    Type.Boolean({
      description:
        'Every release ever published, the ones a later change replaced too, in the order they were published ' +
        "(oldest first), instead of each process's current release newest change first",
    }),
    'true ou false',
  ],
})

/** The releases' filters asked, as their parameters read them. */
export type ReleaseFilters = FilterValues<ReleaseFilterName>

/** What a page of releases is asked. */
export type ReleaseQuery = ReleaseFilters & { page?: number; per_page?: number; after?: string }

/** The filters of a validated query (of the pages, or of the bulk download). */
export function releaseFilters(query: ValidQuery): ReleaseFilters {
  return filterValues(RELEASE_FILTERS, query)
}

/** A page's query from its validated parameters. */
export function releaseQuery(query: ValidQuery): ReleaseQuery {
  return {
    ...releaseFilters(query),
    page: query.page as number | undefined,
    per_page: query.per_page as number | undefined,
    after: query.after as string | undefined,
  }
}

/** The filters' condition over ocds_releases r, and their values, of a query that may ask more (a page, history). */
function filtered(query: ReleaseFilters): { where: string; values: unknown[] } {
  const filters: Partial<Record<ReleaseFilterName, string | number>> = {}
  for (const name of Object.keys(RELEASE_FILTERS) as ReleaseFilterName[]) filters[name] = query[name]
  const { conditions, values } = filterSql(RELEASE_FILTERS, filters, 'r')
  return { where: conditions.length > 0 ? conditions.join(' AND ') : 'true', values }
}

const ORDER = 'r.date DESC, r.process_id'

/** The package metadata every package starts with, in the schema's order (uri and publishedDate vary). */
function metadata(config: OcdsConfig, uri: string, publishedDate: string, extensions: readonly string[]) {
  const publisher: Record<string, string> = { name: config.publisherName }
  if (config.publisherUri) publisher.uri = config.publisherUri
  const head: Record<string, unknown> = {
    uri,
    version: '1.1',
    extensions,
    publishedDate,
    publisher,
    license: config.license,
  }
  if (config.publicationPolicy) head.publicationPolicy = config.publicationPolicy
  return JSON.stringify(head).slice(0, -1)
}

export interface Publication {
  config: OcdsConfig
  /** The address clients reach the service at (PUBLIC_URL), for the packages' links. */
  publicUrl: string
}

/** The milestone-value extension's address (extension.ts), which every package declares. */
export const extensionUrl = (publicUrl: string) => `${publicUrl}/v1/ocds/extension/extension.json`

/**
 * One page of releases as a release package. With `page`, newest change first, `links.next` and `links.prev`
 * by page number (pages drift as releases change). Otherwise (`after`, or neither), in the order the releases
 * changed after that cursor (from the start when none), `links.next` by cursor on every page, the last one
 * too, so that a crawler that follows it from the first URL never drifts and knows where to resume: a page
 * past the end has no release. Undefined when a page by number is empty (a package holds at least one
 * release). NotFoundError when the organization does not exist; ParameterError for a bad cursor or for
 * `page` with `after`; CursorGone for a cursor of another log.
 */
export async function releasePage(
  pool: Pool,
  publication: Publication,
  cursors: Cursors,
  query: ReleaseQuery,
  now = new Date(),
): Promise<string | undefined> {
  await cursors.ready()
  if (query.page !== undefined && query.after !== undefined)
    // Stryker disable next-line StringLiteral: the parameter's name is not served; the message names both
    throw new ParameterError('after', 'Parâmetros em conflito: page e after. Use um ou outro.')
  const byChange = query.page === undefined
  const after =
    query.after === undefined || query.after === '' ? 0 : cursors.read('releases', query.after, 'after')
  const page = query.page ?? 1
  const perPage = query.per_page ?? DEFAULT_PER_PAGE
  const { where, values } = filtered(query)
  const { rows } = await pool.query<{
    process_id: string
    version: number
    tail: string
    date: string
    seq: string
  }>(
    `SELECT r.process_id, r.version, r.tail, to_char(r.date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS date, r.seq::text
     FROM ocds_releases r WHERE ${where}${byChange ? ` AND r.seq > $${values.length + 3}` : ''}
     ORDER BY ${byChange ? 'r.seq' : ORDER}
     LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
    [...values, perPage + 1, byChange ? 0 : (page - 1) * perPage, ...(byChange ? [after] : [])],
  )
  if (rows.length === 0) {
    await checkOrganization(pool, query.organization_uuid as string | undefined)
    if (!byChange) return undefined
  }
  const more = rows.length > perPage
  const shown = more ? rows.slice(0, perPage) : rows
  const url = (place: { page: number } | { after: string }) => {
    const search = new URLSearchParams()
    for (const name of ['organization_uuid', 'date_from', 'date_to'] as const) {
      const v = query[name]
      if (v !== undefined) search.set(name, String(v))
    }
    if ('page' in place) search.set('page', String(place.page))
    else search.set('after', place.after)
    search.set('per_page', String(perPage))
    return `${publication.publicUrl}/v1/ocds/releases?${search}`
  }
  const links: Record<string, string> = {}
  if (byChange) {
    const last = shown.at(-1)
    links.next = url({ after: last ? cursors.position('releases', last.seq) : (query.after ?? '') })
  } else {
    if (more) links.next = url({ page: page + 1 })
    if (page > 1) links.prev = url({ page: page - 1 })
  }
  // The newest release's date: the package is the same bytes until the data changes (its ETag holds). A page
  // past the end is dated when it is made.
  const newest =
    shown.length > 0
      ? // Stryker disable next-line EqualityOperator: between equal dates either is the date
        shown.reduce((a, b) => (b.date > a.date ? b : a)).date
      : `${now.toISOString().slice(0, 19)}Z`
  const head = metadata(
    publication.config,
    byChange ? url({ after: query.after ?? '' }) : url({ page }),
    newest,
    [extensionUrl(publication.publicUrl)],
  )
  const releases = shown.map((r) => release(publication.config.prefix, r.process_id, r.version, r.tail))
  return `${head},"releases":[${releases.join(',')}],"links":${JSON.stringify(links)}}`
}

/** The process id an ocid names under this publisher's prefix; undefined for another prefix or a bad id. */
export function processIdOf(prefix: string, ocid: string): string | undefined {
  if (!ocid.startsWith(`${prefix}-`)) return undefined
  const id = ocid.slice(prefix.length + 1).toLowerCase()
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id) ? id : undefined
}

/** A release's address: a package of it alone, with its id as the fragment (as OCDS links a release). */
export const releaseUrl = (publicUrl: string, id: string) =>
  `${publicUrl}/v1/ocds/releases/${encodeURIComponent(id)}#${id}`

/** A stored tail's date and tags, read off its start: `"date":"...","tag":[...],`. */
function dateAndTags(tail: string): { date: string; tag: string[] } {
  // Stryker disable next-line Regex: a stored tail starts with its date and tags
  const match = /^"date":("[^"]*"),"tag":(\[[^\]]*\])/.exec(tail)
  // Stryker disable next-line ConditionalExpression,StringLiteral: never met (as above), and without it the next line fails alike
  if (match === null) throw new Error('a stored release without its date and tags')
  return { date: JSON.parse(match[1] as string) as string, tag: JSON.parse(match[2] as string) as string[] }
}

/** Text stored under the placeholder ocid prefix (STORED_PREFIX), under the publisher's. */
const published = (text: string, prefix: string, processId: string) =>
  text.replaceAll(`${STORED_PREFIX}-${processId}`, `${prefix}-${processId}`)

/**
 * A record package of one process: its releases linked by address, oldest first (each at GET
 * /v1/ocds/releases/{id}), its compiled release (the state they add up to, by the OCDS merge) and, when asked,
 * its versioned release; both made by the import, or, for a process with one small release, from that release
 * here. What a request costs is bounded by the process's state and the number of its releases, not by the
 * releases' sizes. Undefined for an unknown ocid.
 */
export async function recordPackage(
  pool: Pool,
  publication: Publication,
  ocid: string,
  // Stryker disable next-line BooleanLiteral: every caller says which
  versioned = false,
): Promise<string | undefined> {
  const { prefix } = publication.config
  const id = processIdOf(prefix, ocid)
  // Stryker disable next-line ConditionalExpression: a null id finds no row: the same answer, at the cost of a query
  if (id === undefined) return undefined
  const { rows } = await pool.query<{
    version: number
    tail: string
    compiled: string | null
    versioned: string | null
    linked: [number, string][]
  }>({
    // Stryker disable next-line StringLiteral: the name only spares planning; an unnamed statement answers the same
    name: 'ocds-record',
    text: `SELECT r.version, r.tail, r.compiled, CASE WHEN $2 THEN r.versioned END AS versioned,
        (SELECT json_agg(json_build_array(v.version, left(v.tail, 400)) ORDER BY v.version)
         FROM ocds_release_versions v WHERE v.process_id = r.process_id) AS linked
      FROM ocds_releases r WHERE r.process_id = $1`,
    values: [id, versioned],
  })
  const row = rows[0]
  if (row === undefined) return undefined
  const canonical = `${prefix}-${id}`
  // The versioned release only when asked (the row's is null when not: recordText would make one).
  const record = recordText(publication, id, { ...row, versioned: versioned ? row.versioned : undefined })
  const current = dateAndTags(row.tail)
  const head = metadata(
    publication.config,
    `${publication.publicUrl}/v1/ocds/records/${encodeURIComponent(canonical)}${versioned ? '?versioned=true' : ''}`,
    current.date,
    [extensionUrl(publication.publicUrl)],
  )
  return `${head},"records":[${record}]}`
}

/** A process's stored release and what a record of it reads: its compiled and versioned releases, its older ones. */
export interface StoredProcess {
  version: number
  tail: string
  compiled: string | null
  versioned?: string | null
  /** Its older releases, oldest first: each version with its tail (or the start of it, with its date and tags). */
  linked: [number, string][] | null
}

/**
 * A process's record, as a record package holds it: its releases linked by address, oldest first, its compiled
 * release (the state they add up to, made by the import, or, for a process with one small release, from that
 * release), and its versioned release when the row carries one.
 */
export function recordText(publication: Publication, id: string, row: StoredProcess): string {
  const { prefix } = publication.config
  const canonical = `${prefix}-${id}`
  const current = dateAndTags(row.tail)
  const links = [...(row.linked ?? []), [row.version, row.tail] as [number, string]].map(
    ([version, tail]) => {
      return { url: releaseUrl(publication.publicUrl, releaseId(prefix, id, version)), ...dateAndTags(tail) }
    },
  )
  // One release and none kept: the compiled release is that release, named as the merge names it.
  const compiled =
    row.compiled !== null
      ? published(row.compiled, prefix, id)
      : // The rest of the release after its date and tags: a date holds no "],", so the first one ends the tags.
        `{"ocid":"${canonical}","id":"${canonical}-${current.date}","date":"${current.date}","tag":["compiled"],` +
        row.tail.slice(row.tail.indexOf('],') + 2)
  const record = [
    `{"ocid":${JSON.stringify(canonical)}`,
    `"releases":${JSON.stringify(links)}`,
    `"compiledRelease":${compiled}`,
  ]
  if (row.versioned !== undefined)
    record.push(
      `"versionedRelease":${
        row.versioned !== null
          ? published(row.versioned, prefix, id)
          : JSON.stringify(
              versionedRelease([JSON.parse(release(prefix, id, row.version, row.tail)) as Release]),
            )
      }`,
    )
  return `${record.join(',')}}`
}

/**
 * One release, current or replaced, as a release package of it alone: where a record's linked releases
 * point. Undefined for an id that names none.
 */
export async function releasePackage(
  pool: Pool,
  publication: Publication,
  asked: string,
): Promise<string | undefined> {
  const { prefix } = publication.config
  const match = /^(.*)-([1-9][0-9]{0,8})$/.exec(asked.toLowerCase())
  const id = match ? processIdOf(prefix, match[1] as string) : undefined
  if (!match || id === undefined) return undefined
  const version = Number(match[2])
  const { rows } = await pool.query<{ tail: string }>({
    name: 'ocds-release',
    text: `SELECT tail FROM ocds_releases WHERE process_id = $1 AND version = $2
      UNION ALL SELECT tail FROM ocds_release_versions WHERE process_id = $1 AND version = $2`,
    values: [id, version],
  })
  const row = rows[0]
  if (row === undefined) return undefined
  const canonical = releaseId(prefix, id, version)
  const head = metadata(
    publication.config,
    `${publication.publicUrl}/v1/ocds/releases/${encodeURIComponent(canonical)}`,
    dateAndTags(row.tail).date,
    [extensionUrl(publication.publicUrl)],
  )
  return `${head},"releases":[${release(prefix, id, version, row.tail)}]}`
}

/**
 * Every release of the filters, one JSON a line, read through a cursor on `pool` (one of the export's, whose
 * statement timeout bounds it): the bulk download. Each process's current release, newest change first; with
 * `history`, every release ever published (the ones later replaced too) in the order they were published,
 * oldest first. NotFoundError when the organization does not exist.
 */
export async function releaseLines(
  pool: Pool,
  prefix: string,
  filters: ReleaseFilters & { history?: boolean },
  onProgress?: (releases: number) => void,
  signal?: AbortSignal,
) {
  await checkOrganization(pool, filters.organization_uuid as string | undefined)
  const { where, values } = filtered(filters)
  const text = filters.history
    ? `SELECT r.process_id, r.version, r.tail FROM (
         SELECT process_id, version, organization_id, date, seq, tail FROM ocds_release_versions
         UNION ALL SELECT process_id, version, organization_id, date, seq, tail FROM ocds_releases) r
       WHERE ${where} ORDER BY r.seq`
    : `SELECT r.process_id, r.version, r.tail FROM ocds_releases r WHERE ${where} ORDER BY ${ORDER}`
  const cursor = await openCursor<[string, number, string]>(
    pool,
    text,
    values,
    // A release is 4 kB on average: 200 at a time keeps the read ahead near a megabyte.
    { rowMode: 'array', batchSize: 200, onProgress, signal },
  )
  const lines = textChunks(cursor.rows, ([id, version, tail]) => `${release(prefix, id, version, tail)}\n`)
  return { lines, releaseWith: cursor.releaseWith }
}

/**
 * The package metadata of this publication, without releases: what the bulk download's lines belong to. Its
 * publishedDate is the latest release's date (now, when there is none).
 */
export async function packageMetadata(
  pool: Pool,
  publication: Publication,
  now = new Date(),
): Promise<string> {
  const { rows } = await pool.query<{ date: string | null }>(
    `SELECT to_char(max(date) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS date FROM ocds_releases`,
  )
  const head = metadata(
    publication.config,
    `${publication.publicUrl}/v1/ocds/package.json`,
    rows[0]?.date ?? `${now.toISOString().slice(0, 19)}Z`,
    [extensionUrl(publication.publicUrl)],
  )
  return `${head}}`
}
