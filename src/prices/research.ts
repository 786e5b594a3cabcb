import { Type } from 'typebox'
import { NO_CONTROL_PATTERN } from '../checks.js'
import { cancellable } from '../db/cancel.js'
import { inTransaction, type Pool, prepared } from '../db/pool.js'
import { PRICE_SOURCES } from '../domain.js'
import type { Cursors } from '../queries/cursors.js'
import { checkOrganization } from '../queries/organization.js'
import {
  DEFAULT_PER_PAGE,
  PAGING,
  type Parameter,
  type Parameters,
  parameters,
  sortParameter,
  type ValidQuery,
} from '../queries/parameters.js'
import { type Sort, sortBy } from '../queries/sorts.js'
import { type AnyField, servedFrom } from '../resources/fields.js'
import {
  chosen,
  dateRange,
  type Filter,
  type FilterValues,
  filterParameters,
  filterSql,
  filterValues,
  organization,
  search,
  searchText,
  supplierFilters,
} from '../resources/filters.js'
import { PriceItem, type PriceItemName } from '../resources/price.js'
import { object } from '../resources/sql.js'
import { statisticsSql } from './statistics.js'

// The price research (GET /v1/transparency/prices, its export and the portal's /precos): the unit prices paid or
// registered whose item's description holds the words asked (order items, and the results of contratações
// imported from PNCP), with each normalized unit's statistics (never mixing units) and the prices themselves,
// a page at a time. Read off the view price_rows (migrations/0021_prices.sql, 0025_pncp_items.sql), whose
// tables every import keeps in step with the orders and biddings it wrote or withdrew.
//
// Quartiles are by linear interpolation between the closest ranks, as PostgreSQL's percentile_cont and
// spreadsheets' QUARTIL.INC / QUARTILE.INC compute them, here in exact decimals; outliers lie outside
// [p25 − 1.5 × IQR, p75 + 1.5 × IQR]; money is rounded half up to two decimals.

/** The research's filters, each over price_rows `p`: as the listings' filters of the same names. */
export const PRICE_FILTERS = {
  q: {
    ...search,
    sql: (a, p) =>
      `${a}.description_id IN (SELECT id FROM item_descriptions WHERE search @@ websearch_to_tsquery('compras_pt', ${p}))`,
    parameter: [
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: NO_CONTROL_PATTERN,
        description:
          "Words of the item's description, matched as the listings' q is: Portuguese stems, accents and case " +
          'aside ("caneta azul" finds "Caneta esferográfica azul"); websearch syntax ("-", "or", quotes)',
      }),
      'um texto de 1 a 200 caracteres, sem caracteres de controle (palavras da descrição do item)',
      searchText,
    ],
    form: { label: 'Descrição do item', input: 'search' },
  },
  unit: {
    sql: (a, p) => `${a}.unit = compras_unit(${p})`,
    parameter: [
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: NO_CONTROL_PATTERN,
        description:
          'The unit of measurement (UN, CX, PCT...), normalized as the prices are: Unidade, UNID and und. are UN',
      }),
      'uma unidade de medida (UN, CX...)',
    ],
    form: { label: 'Unidade de medida', input: 'text' },
  },
  source: {
    sql: (a, p) => `${a}.source = CASE ${p} WHEN 'order' THEN 1 ELSE 2 END`,
    parameter: [
      Type.String({
        pattern: `^(${PRICE_SOURCES.join('|')})$`,
        description:
          'Where the prices come from: order (supply orders) or result (results of contratações, PNCP)',
      }),
      'order (ordens de fornecimento) ou result (resultados de contratações)',
    ],
    form: {
      label: 'Origem',
      options: [
        { id: 'order', name: 'Ordens de fornecimento' },
        { id: 'result', name: 'Resultados de contratações (PNCP)' },
      ],
    },
  },
  organization_uuid: { ...organization, sql: (a, p) => `${a}.organization_id = ${p}::uuid` },
  provider_document: {
    ...supplierFilters.provider_document,
    sql: (a, p) => `${a}.supplier_id = (SELECT id FROM suppliers WHERE document = ${p})`,
  },
  provider_name: supplierFilters.provider_name,
  modality_id: chosen('modality_id', 'Modalidade', 'bidding-modalities'),
  ...dateRange('day', 'Data do preço'),
} satisfies Record<string, Filter>

type PriceFilterName = keyof typeof PRICE_FILTERS

/** The items' sorts, by name: price_rows' columns, which are never null. */
const PRICE_SORTS = {
  amount: { key: (a) => `${a}.amount`, type: 'numeric', nullable: false },
  date: { key: (a) => `${a}.day`, type: 'date', nullable: false },
} satisfies Record<string, Sort>

type PriceSortName = keyof typeof PRICE_SORTS
/** A sort of the items: a name of PRICE_SORTS, `-` first for descending. */
export type PriceSort = PriceSortName | `-${PriceSortName}`

/** The research's query parameters: the filters, the items' sort, and their pages by cursor. */
export const PRICE_PARAMETER_LIST: Readonly<Record<string, Parameter>> = {
  ...filterParameters(PRICE_FILTERS),
  sort: sortParameter(
    Object.keys(PRICE_SORTS),
    'amount',
    "The items' order: by unit price or by the order's date",
  ),
  per_page: PAGING.per_page,
  cursor: [
    Type.String({
      minLength: 1,
      maxLength: 800,
      description: "The items' next_cursor: the next page of items, for the same query and sort",
    }),
    'o next_cursor de uma página anterior desta pesquisa, com a mesma ordenação',
  ],
}

export const PRICE_PARAMETERS: Parameters = parameters(
  [...Object.keys(PRICE_FILTERS), 'sort', 'per_page', 'cursor'],
  PRICE_PARAMETER_LIST,
  ['q'],
)

/** A price research asked: its filters (as their parameters read them), the items' sort, and where their page starts. */
export interface PriceQuery {
  filters: FilterValues<PriceFilterName>
  sort: PriceSort
  perPage: number
  /** After this price (its sort key as text, and `source-ref-position`). */
  after?: { key: string; id: string }
}

// Stryker disable next-line Regex: a cursor is signed, so no id this service did not write reaches the pattern
const ITEM_ID = /^[12]-[0-9]{1,19}-[0-9]{1,5}$/

/** The research a validated query asks for; ParameterError for a cursor this service did not give. */
export async function priceQuery(cursors: Cursors, query: ValidQuery): Promise<PriceQuery> {
  const filters = filterValues(PRICE_FILTERS, query)
  const sort = ((query.sort as string | undefined) ?? 'amount') as PriceSort
  // Stryker disable next-line LogicalOperator: the schema's default fills per_page; this is the type's fallback
  const perPage = (query.per_page as number | undefined) ?? DEFAULT_PER_PAGE
  if (query.cursor === undefined) return { filters, sort, perPage }
  await cursors.ready()
  const cursor = cursors.readListing(query.cursor as string, `prices:${sort}`, ITEM_ID)
  // Stryker disable next-line ConditionalExpression: a signed price cursor always has a key; this narrows the type
  if (cursor.key === null) throw cursors.refused()
  return { filters, sort, perPage, after: { key: cursor.key, id: cursor.id } }
}

/** The canonical text of a research's filters: what its summary depends on, and is kept under. */
export function filtersKey(query: PriceQuery): string {
  const pairs = (Object.keys(PRICE_FILTERS) as PriceFilterName[])
    .filter((name) => query.filters[name] !== undefined)
    .map((name) => `${name}=${encodeURIComponent(String(query.filters[name]))}`)
  // Stryker disable next-line StringLiteral: each value is encoded, so the names alone already part them
  return pairs.join('&')
}

/**
 * Each item field's stored value, over the price row `p` and ITEM_FROM's joins: for an order's item its order
 * `o` and item `i`; for a result `r` its item `bi` and bidding `b`.
 */
export const ITEM_RAW: Readonly<Record<PriceItemName, string>> = {
  source: `CASE p.source WHEN 1 THEN 'order' ELSE 'result' END`,
  description: 'coalesce(i.description, bi.description)',
  brand: 'i.brand',
  unit_measurement: 'coalesce(i.unit_measurement, bi.unit_measurement)',
  unit: 'p.unit',
  quantity: 'coalesce(i.quantity::numeric, r.quantity)',
  amount: 'coalesce(i.amount, r.amount)',
  amount_total: 'coalesce(i.amount_total, r.amount_total)',
  date: 'p.day',
  order_number: 'o.number',
  deadline_delivery: 'o.deadline_delivery',
  status_title: 'os.name',
  bidding_id: 'b.id',
  bidding_type: 'b.kind',
  bidding_number: 'b.number',
  organization_uuid: 'p.organization_id',
  organization_name: 'g.name',
  provider_name: 's.name',
  provider_document: 's.document',
  contract_number: 'o.contract_number',
  contract_id: 'c.id',
  arp_number: 'o.arp_number',
  arp_id: 'a.id',
  outlier: 'NOT (p.amount BETWEEN f.lo AND f.hi)',
}

export const ITEM_NAMES = Object.keys(PriceItem.fields) as PriceItemName[]

/** The item fields' served SQL (money as text, instants in UTC, a CPF masked), in PriceItem's order. */
const itemColumns = (): [PriceItemName, string][] =>
  ITEM_NAMES.map((name) => [name, servedFrom(PriceItem.fields[name] as AnyField, ITEM_RAW[name])])

/** What an item's fields read, for price rows `p` with their unit's fences `f`. */
const ITEM_FROM = `JOIN fences f ON f.unit = p.unit
  LEFT JOIN orders o ON p.source = 1 AND o.id = p.ref
  LEFT JOIN order_items i ON p.source = 1 AND i.order_id = p.ref AND i.position = p.position
  LEFT JOIN order_statuses os ON os.id = o.status_id
  LEFT JOIN price_results pr ON p.source = 2 AND pr.ref = p.ref
  LEFT JOIN bidding_results r ON r.bidding_id = pr.bidding_id AND r.position = pr.position
  LEFT JOIN biddings b ON b.id = pr.bidding_id
  LEFT JOIN bidding_items bi ON bi.bidding_id = r.bidding_id AND bi.number_item = r.number_item
  JOIN organizations g ON g.id = p.organization_id
  JOIN suppliers s ON s.id = p.supplier_id
  LEFT JOIN contracts c ON c.organization_id = o.organization_id AND c.contract_number = o.contract_number
  LEFT JOIN arps a ON a.organization_id = o.organization_id AND a.number = o.arp_number`

/** A price row is served with what it prices: its order's item, or its result (as an inner join would). */
const PRICED = '(i.order_id IS NOT NULL OR r.bidding_id IS NOT NULL)'

/** The items' order over price rows `p`, and what their cursor keeps, for a sort. */
const ordered = (sort: PriceSort) => sortBy(PRICE_SORTS, sort, 'p')

/** A research's filters over price_rows `p`: the WHERE condition, `$1`… their values in declared order. */
function matching(query: Pick<PriceQuery, 'filters'>): { where: string; values: (string | number)[] } {
  const { conditions, values } = filterSql(PRICE_FILTERS, query.filters, 'p')
  // q is required, so a research has one condition at least.
  return { where: conditions.join(' AND '), values }
}

/**
 * The statement of a research's summary: each unit's statistics and fences, or only `too_broad` when more than
 * `$n+1` prices match. The matching rows are read at most one past the bound, so a research that matches
 * everything costs the bound, not the table.
 */
function summaryStatement(where: string, n: number, firstPage?: PriceSort): string {
  const bound = `$${n + 1}`
  // Counted once: a condition on a count in each CTE would count the rows again in each.
  const within = `(SELECT n FROM counted) <= ${bound}`
  // The first page, when asked, is read off the rows matched (not the table again), in the page's own way.
  const page =
    firstPage === undefined
      ? ''
      : `, fences AS (SELECT unit, lo, hi FROM stats),
    ${pageOf('matched', 'TRUE', firstPage, `$${n + 2}`)}`
  const pageColumns = firstPage === undefined ? '' : `, ${pageColumnsOf(firstPage, `$${n + 2}`)}`
  return `WITH matched AS MATERIALIZED (
      SELECT p.unit, p.amount, p.quantity, p.organization_id, p.supplier_id, p.source, p.ref, p.position, p.day
      FROM price_rows p WHERE ${where} LIMIT ${bound} + 1),
    counted AS (SELECT count(*)::int AS n FROM matched),
    sorted AS (
      SELECT unit, count(*)::int AS n, array_agg(amount ORDER BY amount) AS a, sum(amount) AS total,
        sum(amount * quantity) / nullif(sum(quantity), 0) AS weighted_mean
      FROM matched WHERE ${within} GROUP BY unit),
    -- The distinct pairs first (hashed, a few per unit), then counted: count(DISTINCT) would sort every row.
    buyers AS (SELECT unit, count(*)::int AS n
      FROM (SELECT DISTINCT unit, organization_id FROM matched WHERE ${within}) x GROUP BY unit),
    sellers AS (SELECT unit, count(*)::int AS n
      FROM (SELECT DISTINCT unit, supplier_id FROM matched WHERE ${within}) x GROUP BY unit),
    quartiles AS (
      SELECT sorted.*, total / n AS mean, compras_quantile(a, 0.25) AS p25, compras_quantile(a, 0.5) AS median,
        compras_quantile(a, 0.75) AS p75
      FROM sorted),
    stats AS (
      SELECT q.*, b.n AS organizations, v.n AS suppliers, p25 - 1.5 * (p75 - p25) AS lo,
        p75 + 1.5 * (p75 - p25) AS hi
      FROM quartiles q JOIN buyers b ON b.unit = q.unit JOIN sellers v ON v.unit = q.unit),
    -- The prices inside the fences are a run of the sorted array. Binary search (width_bucket counts the prices
    -- at most a value) finds the ends of the two runs outside them: only those are read, and the run inside sums
    -- to the total less theirs.
    outside AS (
      SELECT f.unit, t.below, t.above, f.total - t.sum AS kept
      FROM stats f, LATERAL (
        SELECT count(*) FILTER (WHERE x < f.lo)::int AS below, count(*) FILTER (WHERE x > f.hi)::int AS above,
          coalesce(sum(x) FILTER (WHERE x < f.lo OR x > f.hi), 0) AS sum
        FROM unnest(f.a[1 : width_bucket(f.lo, f.a)] || f.a[width_bucket(f.hi, f.a) + 1 : f.n]) x) t),
    kept AS (
      SELECT f.unit, f.n - x.below - x.above AS n, x.kept / (f.n - x.below - x.above) AS mean,
        f.a[x.below + 1 : f.n - x.above] AS a
      FROM stats f JOIN outside x ON x.unit = f.unit)${page}
  SELECT NOT ${within} AS too_broad, ${SUMMARY} AS summary,
    coalesce((SELECT json_agg(json_build_array(f.unit, f.lo::text, f.hi::text) ORDER BY f.unit) FROM stats f),
      '[]')::text AS fences${pageColumns}`
}

/** The summary's entries, one per unit, most items first, as one JSON array. */
const SUMMARY = `coalesce((SELECT json_agg(${object([['unit', 'f.unit'], ...statisticsSql()])} ORDER BY f.n DESC, f.unit)
  FROM stats f JOIN kept k ON k.unit = f.unit), '[]')::text`

/** Each unit's fences, [unit, lo, hi] with exact decimals as text: what marks an item outside them. */
export type Fences = readonly (readonly [unit: string, lo: string, hi: string])[]

/** A research's summary as kept: the summary's JSON text and the fences, or too broad to be computed. */
export type Summary = { tooBroad: false; summary: string; fences: Fences } | { tooBroad: true }

/** The fences as a table `fences` (unit, lo, hi), from their JSON text in placeholder `p`. */
const fencesFrom = (p: string) =>
  `fences AS (SELECT f->>0 AS unit, (f->>1)::numeric AS lo, (f->>2)::numeric AS hi FROM json_array_elements(${p}::json) f)`

/** The order of a sort's prices, `direction` ASC or DESC: its key, then the price's source, ref and position. */
const orderOf = (sort: PriceSort, direction: 'ASC' | 'DESC') =>
  `${ordered(sort).key} ${direction}, p.source ${direction}, p.ref ${direction}, p.position ${direction}`

/**
 * The CTEs `page` (the rows of a page and one more, when more follow) and `shown` (the page's rows) of the rows
 * `from` (price_rows, or the rows a summary matched) that meet `where`, by sort, `perPage` a placeholder.
 */
const pageOf = (from: string, where: string, sort: PriceSort, perPage: string) => `page AS MATERIALIZED (
      SELECT p.source, p.ref, p.position, p.unit, p.amount, p.day, p.organization_id, p.supplier_id FROM ${from} p
      WHERE ${where} ORDER BY ${orderOf(sort, ordered(sort).direction)} LIMIT ${perPage} + 1),
    shown AS (SELECT p.* FROM page p ORDER BY ${orderOf(sort, ordered(sort).direction)} LIMIT ${perPage})`

/** The columns of a page (`more`, `items` as JSON text, the `last` item's key and id), over pageOf's CTEs. */
function pageColumnsOf(sort: PriceSort, perPage: string): string {
  const order = ordered(sort)
  const reverse = orderOf(sort, order.direction === 'ASC' ? 'DESC' : 'ASC')
  return `(SELECT count(*) FROM page) > ${perPage} AS more,
    coalesce((SELECT json_agg(${object(itemColumns())} ORDER BY ${orderOf(sort, order.direction)})
      FROM shown p ${ITEM_FROM} WHERE ${PRICED}), '[]')::text AS items,
    (SELECT json_build_array(${order.key}::text, p.source || '-' || p.ref || '-' || p.position) FROM shown p
      ORDER BY ${reverse} LIMIT 1)::text AS last`
}

/** The statement of a page of a research's items, given its fences: as JSON text, with whether more follow. */
function pageStatement(where: string, n: number, sort: PriceSort, after: boolean): string {
  const order = ordered(sort)
  const past = order.direction === 'DESC' ? '<' : '>'
  const keyset = after
    ? `AND (${order.key}, p.source, p.ref, p.position) ${past} ($${n + 3}::${order.type}, $${n + 4}::smallint, $${n + 5}::bigint, $${n + 6}::smallint)`
    : ''
  return `WITH ${fencesFrom(`$${n + 2}`)},
    ${pageOf('price_rows', `${where} ${keyset}`, sort, `$${n + 1}`)}
  SELECT ${pageColumnsOf(sort, `$${n + 1}`)}`
}

/**
 * Every item of a research, in its sort's order, each as the SELECT list `select` over ITEM_RAW's names, given
 * its summary's fences: the statement and its values, for a cursor to read (the export).
 */
export function priceItemsSql(
  query: PriceQuery,
  fences: Fences,
  select: string,
): { sql: string; values: unknown[] } {
  const { where, values } = matching(query)
  const by = orderOf(query.sort, ordered(query.sort).direction)
  return {
    // The matching rows first (OFFSET 0 keeps them a subquery of their own, read off the index): past a dozen
    // joins the planner keeps the written order, and would read every price before the words' condition.
    sql: `WITH ${fencesFrom(`$${values.length + 1}`)}
      SELECT ${select} FROM (SELECT * FROM price_rows p WHERE ${where} OFFSET 0) p ${ITEM_FROM}
      WHERE ${PRICED} ORDER BY ${by}`,
    values: [...values, JSON.stringify(fences)],
  }
}

/**
 * Memory for a research's sorts (its prices, organizations and suppliers, per unit), for its transaction only: a
 * common description's hundreds of thousands of prices are sorted in memory instead of spilled to disk.
 */
const RESEARCH_WORK_MEM = '64MB'

/** A page's row as its statements give it: whether more follow, its items as JSON text, its last key and id. */
type PageRow = { more: boolean; items: string; last: string | null }

/** A page's JSON text, `{"data":[…],"next_cursor":…,"has_more":…}`, from its row, the cursor signed by sort. */
function pageText(cursors: Cursors, sort: PriceSort, row: PageRow): string {
  let next: string | null = null
  if (row.more) {
    // More than a page matched, so the page has a last item.
    const [key, id] = JSON.parse(row.last as string) as [string, string]
    next = cursors.listing({ sort: `prices:${sort}`, key, id, page: 1 })
  }
  return `{"data":${row.items},"next_cursor":${JSON.stringify(next)},"has_more":${row.more}}`
}

/** The first page of a research's items that a summary's statement reads too, off the rows it matched. */
export interface FirstPage {
  cursors: Cursors
  sort: PriceSort
  perPage: number
}

/**
 * A research's summary: each unit's statistics and fences, computed in a transaction of its own with
 * RESEARCH_WORK_MEM, or `tooBroad` when more than `limit` items match. With `firstPage`, the same statement
 * reads that page too (`page`, as priceItems gives it), so that a research asked for the first time reads its
 * rows once. Cancelled in PostgreSQL when `signal` aborts. NotFoundError for an organization filter that names
 * none.
 */
export async function priceSummary(
  pool: Pool,
  query: Pick<PriceQuery, 'filters'>,
  limit: number,
  signal?: AbortSignal,
  firstPage?: FirstPage,
): Promise<{ summary: Summary; page?: string }> {
  const { where, values } = matching(query)
  if (firstPage) await firstPage.cursors.ready()
  type Row = { too_broad: boolean; summary: string; fences: string } & Partial<PageRow>
  const asked = firstPage === undefined ? [] : [firstPage.perPage]
  const row = await cancellable(pool, signal, (client) =>
    inTransaction(client, async () => {
      // Stryker disable next-line StringLiteral: memory for the sort, not the answer (its effect is the bench's)
      await client.query(`SET LOCAL work_mem = '${RESEARCH_WORK_MEM}'`)
      const statement = prepared(summaryStatement(where, values.length, firstPage?.sort), [
        ...values,
        limit,
        ...asked,
      ])
      const { rows } = await client.query<Row>(statement)
      return rows[0] as Row
    }),
  )
  if (row.too_broad) return { summary: { tooBroad: true } }
  // Stryker disable next-line ConditionalExpression: asking whether a matched organization exists answers yes
  await checkOrganization(pool, query.filters.organization_uuid as string | undefined, row.summary !== '[]')
  const summary: Summary = { tooBroad: false, summary: row.summary, fences: JSON.parse(row.fences) as Fences }
  if (firstPage === undefined) return { summary }
  return { summary, page: pageText(firstPage.cursors, firstPage.sort, row as PageRow) }
}

/** A summary as the cache keeps it (text), and back. */
export const summaryText = (summary: Summary): string => JSON.stringify(summary)
export const summaryOf = (text: string): Summary => JSON.parse(text) as Summary

/**
 * A page of a research's items, given its summary's fences, as JSON text:
 * `{"data":[…],"next_cursor":…,"has_more":…}`.
 */
export async function priceItems(
  pool: Pool,
  cursors: Cursors,
  query: PriceQuery,
  fences: Fences,
  signal?: AbortSignal,
): Promise<string> {
  const { where, values } = matching(query)
  await cursors.ready()
  const placing = query.after ? [query.after.key, ...query.after.id.split('-')] : []
  const statement = prepared(pageStatement(where, values.length, query.sort, query.after !== undefined), [
    ...values,
    query.perPage,
    JSON.stringify(fences),
    ...placing,
  ])
  // A cursor is signed under its sort (priceQuery), so its key is always a value of the sort's type.
  const row = await cancellable(
    pool,
    signal,
    async (client) => (await client.query<PageRow>(statement)).rows[0] as PageRow,
  )
  return pageText(cursors, query.sort, row)
}
