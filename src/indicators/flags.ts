import { type Static, Type } from 'typebox'
import { type Pool, prepared } from '../db/pool.js'
import { ParameterError } from '../errors.js'
import type { Cursors } from '../queries/cursors.js'
import { checkOrganization } from '../queries/organization.js'
import {
  DEFAULT_PER_PAGE,
  PAGING,
  type Parameters,
  parameters,
  type ValidQuery,
} from '../queries/parameters.js'
import {
  type Filters,
  filterParameters,
  filterSql,
  filterValues,
  organization,
  type Parameter,
  supplierFilters,
} from '../resources/filters.js'
import { PUBLIC_RESOURCES } from '../resources/index.js'
import { publicTaxId } from '../resources/sql.js'
import {
  type CardinalGroup,
  type FlagFigures,
  INDICATOR_CODES,
  INDICATORS,
  type Indicator,
  indicatorOf,
} from './indicators.js'
import type { Flag, FlagPage, FlagSummary } from './schemas.js'

// The flags as the API gives them: a page of them, newest year first, filtered by code, organization,
// supplier and year; and their counts by code. Read from integrity_flags, which the import keeps
// (src/indicators/project.ts); the answers are cached until the next import.

/** The years a flag may have: the `year` filter's range. */
export const FIRST_YEAR = 1990
export const LAST_YEAR = 2100

/** The kinds of record a flag may name: the public resources' paths, and organizations. */
const RECORD_KINDS = [...PUBLIC_RESOURCES.map((resource) => resource.path), 'organizations']

/** The filters of the flags' questions, each declared once (src/resources/filters.ts). */
export const FLAG_FILTERS = {
  code: {
    sql: (a, p) => `${a}.code = ${p}`,
    parameter: [
      Type.String({ enum: [...INDICATOR_CODES], description: "An indicator's code (docs/indicators.md)" }),
      `um destes códigos: ${INDICATOR_CODES.join(', ')}`,
    ],
    form: {
      label: 'Indicador',
      options: (INDICATORS as readonly Indicator[]).map((i) => ({ id: i.code, name: i.title })),
    },
  },
  organization_uuid: organization,
  provider_document: {
    ...supplierFilters.provider_document,
    sql: (a, p) => `${a}.supplier_ids @> ARRAY[(SELECT id FROM suppliers WHERE document = ${p})]`,
  },
  record: {
    sql: (a, p) =>
      `${a}.records @> jsonb_build_array(jsonb_build_object('resource', split_part(${p}, '/', 1), 'id', split_part(${p}, '/', 2)))`,
    parameter: [
      Type.String({
        pattern: `^(${RECORD_KINDS.join('|')})/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`,
        description:
          'The flags that name one record: its kind and id, `contracts/<uuid>` (direct-contracts, public-calls, ' +
          'arps, organizations alike); a detail gives the same flags beside its data',
      }),
      `um registro como contracts/<uuid> (${RECORD_KINDS.join(', ')})`,
      (value) => value.toLowerCase(),
    ],
  },
  year: {
    sql: (a, p) => `${a}.year = ${p}::int`,
    parameter: [
      Type.Integer({
        minimum: FIRST_YEAR,
        maximum: LAST_YEAR,
        description: "The flag's year: its record's (a direct contract's date, a contract's start...)",
      }),
      `um ano, de ${FIRST_YEAR} a ${LAST_YEAR}`,
    ],
    form: { label: 'Ano', input: 'text' },
  },
} satisfies Filters

/** The summary's filters: the page's but the code, which the summary counts by. */
const SUMMARY_FILTERS = {
  organization_uuid: FLAG_FILTERS.organization_uuid,
  provider_document: FLAG_FILTERS.provider_document,
  record: FLAG_FILTERS.record,
  year: FLAG_FILTERS.year,
} satisfies Filters

const FLAG_CURSOR: [ReturnType<typeof Type.String>, string] = [
  Type.String({ minLength: 1, maxLength: 800, description: "A page's next_cursor: the next flags" }),
  'o next_cursor de uma página anterior desta lista',
]

/** At most this many flags in one answer of Cardinal's shape, which has no pages. */
export const CARDINAL_MAX = 50_000

const FORMAT: Parameter = [
  Type.String({
    enum: ['json', 'cardinal'],
    default: 'json',
    description:
      '`cardinal`: every matching flag (no pages, at most 50,000) in the output shape of the Open Contracting ' +
      "Partnership's Cardinal (open-contracting/cardinal-rs), without the envelope: OCID, Buyer and Tenderer, " +
      'each id to {code: decimal}, and Meta with the quartiles and fence of the comparisons between organizations',
  }),
  'json ou cardinal',
]

export const FLAG_PARAMETERS: Parameters = parameters(
  [...Object.keys(FLAG_FILTERS), 'per_page', 'cursor', 'format'],
  {
    ...filterParameters(FLAG_FILTERS),
    per_page: PAGING.per_page,
    cursor: FLAG_CURSOR,
    format: FORMAT,
  },
)

export const FLAG_SUMMARY_PARAMETERS: Parameters = parameters(
  Object.keys(SUMMARY_FILTERS),
  filterParameters(SUMMARY_FILTERS),
)

/**
 * The WHERE of a question over the flags (alias `f`): its declared filters' conditions and their values, in declared
 * order, and the organization it names, checked once the flags are read (a flag found proves it exists).
 */
export function flagConditions(
  declared: Filters,
  query: ValidQuery,
): { conditions: string[]; values: unknown[]; organization: string | undefined } {
  const values = filterValues(declared, query)
  const filters = filterSql(declared, values, 'f')
  return {
    conditions: filters.conditions,
    values: filters.values,
    organization: values.organization_uuid as string | undefined,
  }
}

/** The conditions as a WHERE clause, or none. */
export const flagWhere = (conditions: readonly string[]) =>
  conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''

/** The cursor's mark, and what a flag's key looks like. */
const MARK = 'indicators:year'
const KEY = /^[A-Z0-9-]+(:[0-9A-Za-z-]+)+$/

/** Where a record a flag names is read on the API. */
const link = (resource: string, id: string) => `/v1/transparency/${resource}/${id}`

interface FlagRow {
  key: string
  code: string
  year: number
  organization_id: string
  organization_name: string
  providers: { document: string; name: string }[]
  records: { resource: string; id: string }[]
  figures: FlagFigures
}

/** A flag as the API gives it. */
export type FlagAnswer = Static<typeof Flag>

/** A flag as the API gives it: its indicator's code and title, its reason, figures and records. */
function flag(row: FlagRow): FlagAnswer {
  const indicator = indicatorOf(row.code) as Indicator
  return {
    code: row.code,
    title: indicator.title,
    reason: indicator.reason(row.figures),
    year: row.year,
    organization_uuid: row.organization_id,
    organization_name: row.organization_name,
    providers: row.providers,
    figures: row.figures,
    records: row.records.map((r) => ({ kind: r.resource, id: r.id, link: link(r.resource, r.id) })),
  }
}

/** The flags with what an answer shows of them (organization's name, suppliers), over alias `f`. */
const FLAGS = `SELECT f.key, f.code, f.year, f.organization_id, g.name AS organization_name, f.records, f.figures,
    coalesce((SELECT json_agg(json_build_object('document', ${publicTaxId('s.document')}, 'name', s.name)
                ORDER BY s.document)
              FROM suppliers s WHERE s.id = ANY (f.supplier_ids)), '[]') AS providers
  FROM integrity_flags f JOIN organizations g ON g.id = f.organization_id`

/** The flags that name a record, newest year first (its detail and its page give them). */
export async function recordFlags(pool: Pool, resource: string, id: string): Promise<FlagAnswer[]> {
  const { rows } = await pool.query<FlagRow>(
    prepared(`${FLAGS} WHERE ${FLAG_FILTERS.record.sql('f', '$1')} ORDER BY f.year DESC, f.key`, [
      `${resource}/${id}`,
    ]),
  )
  return rows.map(flag)
}

/** A page of flags, newest year first. */
export type FlagList = Static<typeof FlagPage>

/** How many flags each indicator raised. */
export type FlagCounts = Static<typeof FlagSummary>

/** A page of flags, newest year first, `{"data":[…],"next_cursor":…,"has_more":…}`. */
export async function flagPage(pool: Pool, cursors: Cursors, query: ValidQuery): Promise<string> {
  return JSON.stringify(await flagList(pool, cursors, query))
}

/** How many flags each indicator raised, as JSON text. */
export async function flagSummary(pool: Pool, query: ValidQuery): Promise<string> {
  return JSON.stringify(await flagCounts(pool, query))
}

/** A page of flags, newest year first. */
export async function flagList(pool: Pool, cursors: Cursors, query: ValidQuery): Promise<FlagList> {
  await cursors.ready()
  const { conditions, values: params, organization } = flagConditions(FLAG_FILTERS, query)
  if (query.cursor !== undefined) {
    const after = cursors.readListing(query.cursor as string, MARK, KEY)
    params.push(Number(after.key), after.id)
    // Newest year first, then by key: after (year, key) in that order.
    conditions.push(
      `(f.year < $${params.length - 1} OR (f.year = $${params.length - 1} AND f.key > $${params.length}))`,
    )
  }
  const perPage = (query.per_page as number | undefined) ?? DEFAULT_PER_PAGE
  params.push(perPage + 1)
  const { rows } = await pool.query<FlagRow>(
    prepared(`${FLAGS} ${flagWhere(conditions)} ORDER BY f.year DESC, f.key LIMIT $${params.length}`, params),
  )
  await checkOrganization(pool, organization, rows.length > 0)
  const more = rows.length > perPage
  const shown = rows.slice(0, perPage)
  const last = shown.at(-1) as FlagRow
  const next = more ? cursors.listing({ sort: MARK, key: String(last.year), id: last.key, page: 1 }) : null
  return { data: shown.map(flag), next_cursor: next, has_more: more }
}

/** How many flags each indicator raised, in declared order (zeros included), and over all. */
export async function flagCounts(pool: Pool, query: ValidQuery): Promise<FlagCounts> {
  const { conditions, values, organization } = flagConditions(SUMMARY_FILTERS, query)
  const { rows } = await pool.query<{ code: string; count: number }>(
    prepared(
      `SELECT f.code, count(*)::int AS count FROM integrity_flags f ${flagWhere(conditions)} GROUP BY f.code`,
      values,
    ),
  )
  await checkOrganization(pool, organization, rows.length > 0)
  const counts = new Map(rows.map((row) => [row.code, row.count]))
  const byCode = (INDICATORS as readonly Indicator[]).map((i) => ({
    code: i.code,
    title: i.title,
    count: counts.get(i.code) ?? 0,
  }))
  return { total: byCode.reduce((sum, c) => sum + c.count, 0), by_code: byCode }
}

/** Cardinal's output: each group's ids, each id's decimal by code. */
type CardinalGroups = Record<CardinalGroup, Record<string, Record<string, number>>>

/**
 * Every flag the query finds, as Cardinal writes its results (docs/indicators.md, "Cardinal"): a flag about a
 * record under the ocid of its process (`prefix` and the process's id), one about an organ under its OCDS buyer
 * id (`BR-CNPJ-` and the CNPJ), one about suppliers under each company's (a person has no id there). Where two
 * flags of a code meet under one id, the greater value stands. Meta gives the quartiles and upper fence of the
 * comparisons between organizations, of the newest year among the flags. ParameterError past CARDINAL_MAX.
 */
export async function cardinalOutput(pool: Pool, prefix: string, query: ValidQuery): Promise<string> {
  const { conditions, values, organization } = flagConditions(FLAG_FILTERS, query)
  const { rows } = await pool.query<{
    code: string
    year: number
    figures: FlagFigures
    buyer: string
    tenderers: string[]
    process: string | null
  }>(
    prepared(
      `SELECT f.code, f.year, f.figures, g.document AS buyer,
         ARRAY(SELECT s.document FROM suppliers s WHERE s.id = ANY (f.supplier_ids) AND length(s.document) = 14
               ORDER BY 1) AS tenderers,
         CASE f.records->0->>'resource'
           WHEN 'organizations' THEN NULL
           WHEN 'contracts' THEN (SELECT coalesce(c.bidding_id, c.id) FROM contracts c
                                  WHERE c.id = (f.records->0->>'id')::uuid)::text
           WHEN 'arps' THEN (SELECT coalesce(a.bidding_id, a.id) FROM arps a
                             WHERE a.id = (f.records->0->>'id')::uuid)::text
           ELSE f.records->0->>'id' END AS process
       FROM integrity_flags f JOIN organizations g ON g.id = f.organization_id ${flagWhere(conditions)}
       ORDER BY f.year DESC, f.key LIMIT $${values.length + 1}`,
      [...values, CARDINAL_MAX + 1],
    ),
  )
  await checkOrganization(pool, organization, rows.length > 0)
  if (rows.length > CARDINAL_MAX)
    throw new ParameterError(
      'format',
      `Mais de ${CARDINAL_MAX.toLocaleString('pt-BR')} sinais para o formato cardinal: filtre por ano, código ou órgão.`,
    )
  const groups: CardinalGroups = { OCID: {}, Buyer: {}, Tenderer: {} }
  const meta: Record<string, { q1: number; q3: number; upper_fence: number }> = {}
  const put = (group: CardinalGroup, id: string, code: string, value: number) => {
    groups[group][id] ??= {}
    const results = groups[group][id] as Record<string, number>
    results[code] = Math.max(results[code] ?? Number.NEGATIVE_INFINITY, Math.round(value * 10_000) / 10_000)
  }
  for (const row of rows) {
    const indicator = indicatorOf(row.code) as Indicator
    const value = indicator.cardinal.value(row.figures)
    for (const group of indicator.cardinal.groups) {
      if (group === 'OCID' && row.process !== null) put(group, `${prefix}-${row.process}`, row.code, value)
      if (group === 'Buyer') put(group, `BR-CNPJ-${row.buyer}`, row.code, value)
      if (group === 'Tenderer')
        for (const cnpj of row.tenderers) put(group, `BR-CNPJ-${cnpj}`, row.code, value)
    }
    // Rows come newest year first: the first of a comparison between organizations is its newest year's. (R017's
    // fences are each description's, no one figure of the rule.)
    if (indicator.scope.kind === 'all' && meta[row.code] === undefined)
      meta[row.code] = {
        q1: Number(row.figures.q1),
        q3: Number(row.figures.q3),
        upper_fence: Number(row.figures.fence),
      }
  }
  return JSON.stringify({ ...groups, Meta: meta })
}
