import { type Pool, prepared } from '../db/pool.js'
import { capitalized, fieldText } from '../format.js'
import type { JsonObject } from '../json.js'
import { listingSql } from '../listings/listing.js'
import { checkOrganization } from '../queries/organization.js'
import { type Parameters, parameters, type ValidQuery } from '../queries/parameters.js'
import type { AnyField } from '../resources/fields.js'
import { filterValues } from '../resources/filters.js'
import type { PublicResource } from '../resources/index.js'

// Atom 1.0 feeds (RFC 4287) of any listing's question: the newest records that match a listing's filters, by
// their last change in the change log (migrations/0015_change_log.sql), one entry a record, for feed readers. No
// HTTP here: the route and the portal's links are the faces. An entry says, in Portuguese, what the portal's
// listing shows of the record (its declared `portal.listed` fields, formatted as the portal formats them).

/** A feed has the records last changed, this many. */
export const FEED_ENTRIES = 50

/** The date in every tag: URI (RFC 4151): when compras began minting them; an id never changes. */
const TAG_DATE = '2026'

const ATOM_TYPE = 'application/atom+xml'

/** Where a feed's links point and who publishes it. */
export interface FeedSite {
  /** PUBLIC_URL: the address clients reach the service at. */
  publicUrl: string
  /** The publisher's name (OCDS_PUBLISHER_NAME). */
  publisher: string
}

const FEED_PARAMETERS = new Map<PublicResource, Parameters>()

/** What a feed takes: its listing's filters, nothing of pages or order. */
export function feedParameters(resource: PublicResource): Parameters {
  let made = FEED_PARAMETERS.get(resource)
  if (made === undefined) {
    const all = Object.fromEntries(Object.entries(resource.filters).map(([name, f]) => [name, f.parameter]))
    made = parameters(Object.keys(resource.filters), all)
    FEED_PARAMETERS.set(resource, made)
  }
  return made
}

// XML 1.0 allows no control character but tab, newline and carriage return (lone surrogates: toWellFormed).
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML refuses are control characters
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }

/** Text as XML character data or an attribute's value: escaped, and what XML cannot hold left out. */
export const xmlText = (text: string) =>
  text
    .toWellFormed()
    .replace(NOT_XML, '')
    .replace(/[&<>"]/g, (c) => ESCAPES[c] as string)

/** An element with text, its attributes escaped. */
function element(name: string, text: string, attributes: Readonly<Record<string, string>> = {}): string {
  return `<${name}${attributesOf(attributes)}>${xmlText(text)}</${name}>`
}
const attributesOf = (attributes: Readonly<Record<string, string>>) =>
  Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${xmlText(value)}"`)
    .join('')
const empty = (name: string, attributes: Readonly<Record<string, string>>) =>
  `<${name}${attributesOf(attributes)}/>`

/** The authority of the tag: URIs, PUBLIC_URL's host (without its port, which a tag cannot hold). */
const authority = (publicUrl: string) => new URL(publicUrl).hostname

/** The stable id of a record in every feed: `tag:HOST,2026:contracts/UUID`. */
export const entryId = (site: FeedSite, resource: PublicResource, id: string) =>
  `tag:${authority(site.publicUrl)},${TAG_DATE}:${resource.path}/${id}`

interface FeedRow {
  item: string
  organization: string
  updated: string
}

/** A query's filters as a URL's query (the canonical one: declared order, as read), for the feed's own links. */
function queryOf(resource: PublicResource, query: ValidQuery): string {
  const values = filterValues(resource.filters, query)
  const pairs = Object.keys(resource.filters)
    .filter((name) => values[name] !== undefined)
    .map((name) => [name, String(values[name])])
  return new URLSearchParams(pairs).toString()
}

/** The filters asked, for people: "q = computador; organization_uuid = …". */
const filtersText = (query: string) =>
  [...new URLSearchParams(query).entries()].map(([name, value]) => `${name} = ${value}`).join('; ')

/** A record's entry: what its listing shows of it, in Portuguese, and where its page is. */
function entry(resource: PublicResource, site: FeedSite, row: FeedRow): string {
  const item = JSON.parse(row.item) as JsonObject
  const fields = resource.record.fields
  const numberField = resource.record.placement.number
  const id = String(item.id)
  const number = numberField === undefined ? id : String(item[numberField] ?? id)
  const text = (name: string) => fieldText(fields[name] as AnyField, item[name])
  const summary = resource.portal.listed
    .filter((name) => name !== numberField)
    .map((name) => `${(fields[name] as AnyField).label}: ${text(name)}`)
    .join(' · ')
  const status = text(resource.status)
  return [
    '<entry>',
    element('id', entryId(site, resource, id)),
    element('title', `${capitalized(resource.noun.singular)} ${number} · ${row.organization}`),
    element('updated', row.updated),
    empty('link', {
      rel: 'alternate',
      type: 'text/html',
      href: `${site.publicUrl}/${resource.portal.path}/${id}`,
    }),
    empty('link', {
      rel: 'related',
      type: 'application/json',
      href: `${site.publicUrl}/v1/transparency/${resource.path}/${id}`,
    }),
    empty('category', {
      scheme: `${site.publicUrl}/v1/transparency`,
      term: resource.path,
      label: capitalized(resource.noun.singular),
    }),
    empty('category', {
      scheme: `${site.publicUrl}/v1/transparency/${resource.path}#${resource.status}`,
      term: status,
      label: `${(fields[resource.status] as AnyField).label}: ${status}`,
    }),
    element('summary', summary, { type: 'text' }),
    '</entry>',
  ].join('')
}

/**
 * The statement of a feed: the records that meet the listing's filters, each at its last entry in the change log,
 * newest first, FEED_ENTRIES of them, with what an entry shows (the listing's item as the read model keeps it, the
 * organization's name, the instant of the change). Either way round the plan may go: off the log's order, or off
 * the filters' indexes then sorted.
 */
function feedSql(resource: PublicResource, query: ValidQuery): { text: string; values: unknown[] } {
  const listing = listingSql(resource, {
    filters: filterValues(resource.filters, query),
    sort: resource.defaultSort,
  })
  const a = resource.record.alias
  const limit = `$${listing.values.length + 1}`
  return {
    text: `WITH newest AS MATERIALIZED (
        SELECT ${a}.id, change_.seq, change_.changed_at FROM ${listing.rowsFrom}
        JOIN public_changes change_ ON change_.resource = '${resource.path}' AND change_.id = ${a}.id
        WHERE ${listing.where} AND NOT EXISTS (SELECT 1 FROM public_changes later_
          WHERE later_.resource = change_.resource AND later_.id = change_.id AND later_.seq > change_.seq)
        ORDER BY change_.seq DESC LIMIT ${limit})
      SELECT d.item, g.name AS organization,
        to_char(n.changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated
      FROM newest n JOIN detail_documents d ON d.resource = '${resource.path}' AND d.id = n.id
      JOIN organizations g ON g.id = d.organization_id
      ORDER BY n.seq DESC`,
    values: [...listing.values, FEED_ENTRIES],
  }
}

/** When the change log last moved: a feed without entries is as new as that. */
const LAST_CHANGE = `SELECT to_char(coalesce(last_change, 'epoch') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at
  FROM change_log_identity`

/**
 * The Atom feed of a listing's question, as XML text: the newest FEED_ENTRIES records that match its filters by
 * their last change, each linked to its portal page and its detail, with the feed's own address (`self`) and the
 * portal's listing of the same question (`alternate`). NotFoundError for an organization filter that names none.
 */
export async function atomFeed(
  pool: Pool,
  site: FeedSite,
  resource: PublicResource,
  query: ValidQuery,
): Promise<string> {
  const statement = feedSql(resource, query)
  const { rows } = await pool.query<FeedRow>(prepared(statement.text, statement.values))
  await checkOrganization(pool, query.organization_uuid as string | undefined, rows.length > 0)
  const updated =
    rows[0]?.updated ??
    (await pool.query<{ at: string }>(LAST_CHANGE)).rows[0]?.at ??
    '1970-01-01T00:00:00.000000Z'
  const asked = queryOf(resource, query)
  const within = asked === '' ? '' : `?${asked}`
  const plural = capitalized(resource.noun.plural)
  return [
    '<?xml version="1.0" encoding="utf-8"?>\n',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="pt-BR">',
    element('id', `tag:${authority(site.publicUrl)},${TAG_DATE}:${resource.path}.atom${within}`),
    element('title', `${plural} · ${site.publisher}`),
    element(
      'subtitle',
      `Os ${FEED_ENTRIES} ${resource.noun.plural} alterados por último` +
        (asked === '' ? '.' : ` que atendem a: ${filtersText(asked)}.`),
    ),
    element('updated', updated),
    empty('link', {
      rel: 'self',
      type: ATOM_TYPE,
      href: `${site.publicUrl}/v1/transparency/${resource.path}.atom${within}`,
    }),
    empty('link', {
      rel: 'alternate',
      type: 'text/html',
      href: `${site.publicUrl}/${resource.portal.path}${within}`,
    }),
    `<author>${element('name', site.publisher)}</author>`,
    element('generator', 'compras'),
    ...rows.map((row) => entry(resource, site, row)),
    '</feed>\n',
  ].join('')
}

/** The feed's address of a listing's filters (as the portal's forms send them), for a page's links. */
export const feedPath = (resource: PublicResource, filters: Readonly<Record<string, string>>) => {
  const pairs = Object.entries(filters).filter(([name, value]) => value !== '' && name in resource.filters)
  const query = new URLSearchParams(pairs).toString()
  return `/v1/transparency/${resource.path}.atom${query === '' ? '' : `?${query}`}`
}
