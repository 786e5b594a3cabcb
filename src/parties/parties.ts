import { Type } from 'typebox'
import { NO_CONTROL_PATTERN } from '../checks.js'
import { type Pool, prepared } from '../db/pool.js'
import { NotFoundError } from '../errors.js'
import type { Cursors } from '../queries/cursors.js'
import {
  DEFAULT_PER_PAGE,
  PAGING,
  type Parameters,
  parameters,
  type ValidQuery,
} from '../queries/parameters.js'
import type { AnyField } from '../resources/fields.js'
import {
  type Filters,
  filterParameters,
  filterSql,
  filterValues,
  nameFilter,
  type Parameter,
  searchText,
} from '../resources/filters.js'
import { Order, PUBLIC_RESOURCES, type PublicResource } from '../resources/index.js'
import { day, money, object, publicTaxId } from '../resources/sql.js'

// Who buys and who is paid: the suppliers (companies only) and the organizations, listed and each on a page of
// its own with what it contracted, by kind, year and counterpart. Read from the records as stored, so an
// import's changes and withdrawals are seen at commit; the answers are cached until the next import.

/** `direct-contracts` as `direct_contracts`: a path as a kind's name in a page's figures. */
type Underscored<S extends string> = S extends `${infer A}-${infer B}` ? `${A}_${Underscored<B>}` : S

/** The kinds a page adds up, by name: the public resources' paths, and orders. */
export type TalliedKind = Underscored<PublicResource['path']> | 'orders'

/**
 * A kind of record a page adds up, as its declaration gives it: its rows, main date as a day, value, and its
 * records of one supplier (none: a kind without a supplier of its own). Orders are no public resource.
 */
export interface Tallied {
  readonly kind: TalliedKind
  readonly noun: { readonly singular: string; readonly plural: string }
  readonly table: string
  readonly where: (a: string) => string
  readonly day: (a: string) => string
  readonly value: (a: string) => string
  readonly ofSupplier?: (a: string, supplier: string) => string
  /** Its listing, where it has one. */
  readonly resource?: PublicResource
}

/** A day from a date or instant column: an instant's UTC day. */
const asDay = (field: AnyField, sql: string) =>
  field.kind === 'instant' ? `(${sql} AT TIME ZONE 'UTC')::date` : sql

function tallied(resource: PublicResource): Tallied {
  const date = resource.record.fields[resource.date] as AnyField
  const column = 'column' in date.store ? date.store.column : resource.date
  return {
    kind: resource.path.replaceAll('-', '_') as Underscored<PublicResource['path']>,
    noun: resource.noun,
    table: resource.record.table,
    where: resource.where,
    day: (a) => asDay(date, `${a}.${column}`),
    value: resource.value,
    ofSupplier: resource.ofSupplier,
    resource,
  }
}

const deadline = Order.fields.deadline_delivery as AnyField

/** Every kind a page adds up, in the order pages give them: the public resources, then orders. */
export const TALLIED: readonly Tallied[] = [
  ...PUBLIC_RESOURCES.map(tallied),
  {
    kind: 'orders',
    noun: { singular: 'ordem de fornecimento', plural: 'ordens de fornecimento' },
    table: Order.table,
    where: () => 'true',
    day: (a) => asDay(deadline, `${a}.deadline_delivery`),
    value: (a) => `${a}.amount_total`,
    ofSupplier: (a, supplier) => `${a}.supplier_id = ${supplier}`,
  },
]

/** A kind with a supplier of its own. */
type Supplied = Tallied & { readonly ofSupplier: NonNullable<Tallied['ofSupplier']> }

/** The kinds a supplier's page adds up: those with a supplier of their own. */
export const SUPPLIER_TALLIED = TALLIED.filter((kind): kind is Supplied => kind.ofSupplier !== undefined)

/** A kind by its name (the commitments read the day and value of three of them). */
const tally = (name: string) => TALLIED.find((kind) => kind.kind === name) as Tallied

/** One kind's records that meet a condition (on alias `a`), with their organization, main day and value. */
const tallySql = (kind: Tallied, condition: string) =>
  `SELECT '${kind.kind}' AS kind, a.organization_id, ${kind.day('a')} AS day, ${kind.value('a')} AS value
    FROM ${kind.table} a WHERE ${kind.where('a')} AND ${condition}`

/**
 * Every record of the kinds given that meets a condition (on alias `a` of the kind's own table), with its
 * organization, main day and value. A direct contract is counted once, whole, however many suppliers it has.
 */
const activity = <K extends Tallied>(kinds: readonly K[], condition: (kind: K) => string) =>
  kinds.map((kind) => tallySql(kind, condition(kind))).join('\n  UNION ALL ')

/** The kinds whose records are commitments (`commitments`), each as its rows' `kind`. */
export type CommittedKind = 'contracts' | 'direct_contracts' | 'orders'

/**
 * What was committed, each real once (docs/architecture.md, "Value committed"): a row per commitment, with its
 * kind, record (`ref`: its id, an order's number), supplier, organization, day, value and modality. Contracts at
 * their value; a direct contract that no contract of the same supplier carries, at its finished total when it
 * has one; an order that no contract of the same supplier carries (under an ARP, or under nothing). An ARP's
 * registered value is a ceiling, not a commitment: never here. `condition` limits each part (its table's alias is
 * `x`, the supplier's column `supplier`, the part's kind `kind`). `perSupplier`: a direct contract with several
 * suppliers is a commitment to each (a supplier's page, an organization's ranking); without it, one commitment
 * of the organization (its own total). `narrow` limits the direct contracts' suppliers before the DISTINCT, to the
 * biddings of a SQL set of organizations or of ids (an equality on the organization reaches inside it through the
 * join; a set does not).
 */
export function commitments(
  condition: (supplier: string, kind: CommittedKind) => string,
  perSupplier = true,
  narrow?: { organizations?: string; biddings?: string },
): string {
  const [contracts, direct, orders] = [tally('contracts'), tally('direct_contracts'), tally('orders')]
  const directSupplier = perSupplier ? 'p.supplier_id' : 'NULL::bigint'
  const narrowed = [
    narrow?.organizations === undefined ? undefined : `b.organization_id IN (${narrow.organizations})`,
    narrow?.biddings === undefined ? undefined : `b.id IN (${narrow.biddings})`,
  ].filter((c) => c !== undefined)
  // Each supplier of a direct contract once. The organization is carried along, so that a condition on the
  // bidding's organization reaches inside the DISTINCT (through the join's equality), as one on the supplier does.
  const directFrom = perSupplier
    ? `biddings x JOIN (SELECT DISTINCT bp.bidding_id, bp.supplier_id, b.organization_id
        FROM bidding_providers bp JOIN biddings b ON b.id = bp.bidding_id
        ${narrowed.length === 0 ? '' : `WHERE ${narrowed.join(' AND ')}`}) p
        ON p.bidding_id = x.id AND p.organization_id = x.organization_id`
    : 'biddings x'
  const carried = perSupplier
    ? 'c.bidding_id = x.id AND c.supplier_id = p.supplier_id'
    : 'c.bidding_id = x.id'
  return `
  SELECT 'contracts' AS kind, x.id::text AS ref, x.supplier_id, x.organization_id, ${contracts.day('x')} AS day,
      ${contracts.value('x')} AS value, x.modality_id
    FROM ${contracts.table} x WHERE ${condition('x.supplier_id', 'contracts')}
  UNION ALL SELECT 'direct_contracts', x.id::text, ${directSupplier}, x.organization_id, ${direct.day('x')},
      ${direct.value('x')}, x.modality_id
    FROM ${directFrom} WHERE ${direct.where('x')} AND ${condition(directSupplier, 'direct_contracts')}
      AND NOT EXISTS (SELECT 1 FROM contracts c WHERE ${carried})
  UNION ALL SELECT 'orders', x.number, x.supplier_id, x.organization_id, ${orders.day('x')}, ${orders.value('x')},
      x.modality_id
    FROM ${orders.table} x WHERE ${condition('x.supplier_id', 'orders')}
      AND NOT EXISTS (SELECT 1 FROM contracts c WHERE c.organization_id = x.organization_id
        AND c.contract_number = x.contract_number AND c.supplier_id = x.supplier_id)`
}

/** A kind's figures in a group: how many, their value, and the first and last dates. */
export interface Figures {
  count: number
  value: string
  first: string | null
  last: string | null
}

const NONE: Figures = { count: 0, value: '0.00', first: null, last: null }

const FIGURES = `count(*)::int AS count, ${money('coalesce(sum(value), 0)')} AS value, ${day('min(day)')} AS first,
  ${day('max(day)')} AS last`

/** The figures a page gives: each kind's, and what was committed, each real once (`commitments`). */
export type Figured = Tallied['kind'] | 'committed'

type FigureRow = Figures & { kind: Figured }

/** Which grouping of GROUPING SETS a row is of: over all of a kind, by year, or by the other key. */
interface Grouped {
  grouping: 'total' | 'year' | 'other'
  year: number | null
}

/** A row's grouping, from the GROUPING SETS ((kind), (kind, year), (kind, other)) of the query. */
const GROUPING = (a: string, other?: string) =>
  `CASE WHEN GROUPING(${a}.year) = 0 THEN 'year' ${other ? `WHEN GROUPING(${a}.${other}) = 0 THEN 'other' ` : ''}ELSE 'total' END AS grouping`

/** The records of `activity`, each with its main date's year. */
const dated = (records: string) => `(SELECT r.*, extract(year FROM r.day)::int AS year FROM (${records}) r)`

const of = <R extends Grouped>(rows: readonly R[], grouping: Grouped['grouping']) =>
  rows.filter((r) => r.grouping === grouping)

/** The figures of each kind, in the order given (a kind with no record has zeros). */
function byKind(rows: readonly FigureRow[], kinds: readonly Figured[]): Partial<Record<Figured, Figures>> {
  return Object.fromEntries(
    kinds.map((kind) => {
      const row = rows.find((r) => r.kind === kind)
      return [kind, row ? { count: row.count, value: row.value, first: row.first, last: row.last } : NONE]
    }),
  )
}

/** Rows grouped by a key, each group's figures by kind, in the rows' order of first appearance. */
function grouped<R extends FigureRow>(
  rows: readonly R[],
  key: keyof R,
  kinds: readonly Figured[],
  head: (row: R) => Record<string, unknown>,
): Record<string, unknown>[] {
  const groups = new Map<unknown, R[]>()
  for (const row of rows) groups.set(row[key], [...(groups.get(row[key]) ?? []), row])
  return [...groups.values()].map((group) => ({ ...head(group[0] as R), ...byKind(group, kinds) }))
}

/**
 * The kinds with a supplier of their own (`ofSupplier`), by name for the types of a supplier's page (a public
 * call has none). Checked against the declarations at start: a kind that gains or loses one fails here.
 */
const SUPPLIER_KINDS = [
  'contracts',
  'direct_contracts',
  'arps',
  'orders',
] as const satisfies readonly TalliedKind[]
export type SupplierKind = (typeof SUPPLIER_KINDS)[number]
export type SupplierFigured = SupplierKind | 'committed'
if (
  SUPPLIER_TALLIED.map((kind) => kind.kind)
    .sort()
    .join() !== [...SUPPLIER_KINDS].sort().join()
)
  throw new Error(
    `the kinds with a supplier of their own are not ${SUPPLIER_KINDS.join(', ')}: mend SUPPLIER_KINDS`,
  )

/** What a supplier's page adds up: its kinds, and what was committed to it. */
export const SUPPLIER_FIGURES = [
  ...(SUPPLIER_TALLIED.map((kind) => kind.kind) as SupplierFigured[]),
  'committed',
] as const satisfies readonly SupplierFigured[]

/** What an organization's page adds up: its kinds, and what it committed. */
export const ORGANIZATION_FIGURES: readonly Figured[] = [...TALLIED.map((kind) => kind.kind), 'committed']

/** The commitments of `scope`, as rows of the activity's shape (kind `committed`). */
const committed = (condition: (supplier: string) => string, perSupplier: boolean) =>
  `UNION ALL SELECT 'committed', k.organization_id, k.day, k.value FROM (${commitments(condition, perSupplier)}) k`

/** A CNPJ's 14 digits, from the CNPJ written with or without its punctuation; undefined for any other text. */
export function cnpjDigits(text: string): string | undefined {
  const digits = text.replace(/[.\-/\s]/g, '')
  return /^[0-9]{14}$/.test(digits) ? digits : undefined
}

/**
 * A supplier's page, by its CNPJ's digits (cnpjDigits; '' for a text that is none): NotFoundError unless a
 * company with records has them. A CPF, whole or masked, finds nothing by the same lookup an unknown CNPJ makes
 * (an index of companies alone), so its answer and its time tell nothing of whether a person is a supplier.
 */
export async function supplierData(pool: Pool, digits: string): Promise<string> {
  const { rows: found } = await pool.query<{ id: string; document: string; name: string }>(
    prepared('SELECT id, document, name FROM suppliers WHERE length(document) = 14 AND document = $1', [
      digits,
    ]),
  )
  const supplier = found[0]
  if (supplier === undefined) throw new NotFoundError('record')
  const { rows } = await pool.query<
    FigureRow & Grouped & { organization_id: string; organization_name: string }
  >(
    prepared(
      // One pass over the records, grouped by year, by organization and over all at once.
      `SELECT x.kind, x.year, x.organization_id, g.name AS organization_name, x.grouping, x.count, x.value,
         x.first, x.last
       FROM (SELECT a.kind, a.year, a.organization_id, ${GROUPING('a', 'organization_id')}, ${FIGURES}
             FROM ${dated(`${activity(SUPPLIER_TALLIED, (kind) => kind.ofSupplier('a', '$1'))} ${committed((supplier) => `${supplier} = $1`, true)}`)} a
             GROUP BY GROUPING SETS ((a.kind), (a.kind, a.year), (a.kind, a.organization_id))) x
       LEFT JOIN organizations g ON g.id = x.organization_id AND x.grouping = 'other'
       ORDER BY x.year DESC NULLS LAST, g.name, x.organization_id`,
      [supplier.id],
    ),
  )
  const { rows: names } = await pool.query<{ name: string; first_seen: string; last_seen: string }>(
    prepared(
      `SELECT name, ${day('first_seen')} AS first_seen, ${day('last_seen')} AS last_seen FROM supplier_names
       WHERE supplier_id = $1 ORDER BY last_seen DESC, name`,
      [supplier.id],
    ),
  )
  return JSON.stringify({
    document: supplier.document,
    name: supplier.name,
    names,
    totals: byKind(of(rows, 'total'), SUPPLIER_FIGURES),
    years: grouped(of(rows, 'year'), 'year', SUPPLIER_FIGURES, (r) => ({ year: r.year })),
    organizations: grouped(of(rows, 'other'), 'organization_id', SUPPLIER_FIGURES, (r) => ({
      organization_uuid: r.organization_id,
      organization_name: r.organization_name,
    })),
  })
}

/** How many suppliers an organization's page ranks by contracted value. */
const TOP_SUPPLIERS = 10

/** An organization's page: NotFoundError when none has the id. */
export async function organizationData(pool: Pool, id: string): Promise<string> {
  const { rows: found } = await pool.query<{ id: string; name: string; document: string }>(
    prepared('SELECT id, name, document FROM organizations WHERE id = $1', [id]),
  )
  const organization = found[0]
  if (organization === undefined) throw new NotFoundError('organization')
  const { rows } = await pool.query<FigureRow & Grouped>(
    prepared(
      `SELECT x.kind, x.year, ${GROUPING('x')}, ${FIGURES}
       FROM ${dated(`${activity(TALLIED, () => 'a.organization_id = $1')} ${committed(() => 'x.organization_id = $1', false)}`)} x
       GROUP BY GROUPING SETS ((x.kind), (x.kind, x.year)) ORDER BY x.year DESC NULLS LAST`,
      [id],
    ),
  )
  // Ranked by what the organization committed to each: contracts, direct contracts and orders, each real once.
  const { rows: top } = await pool.query<Record<string, unknown>>(
    prepared(
      `SELECT ${publicTaxId('s.document')} AS document, s.name, length(s.document) = 14 AS company,
         count(*) FILTER (WHERE k.kind = 'contracts')::int AS contracts,
         count(*) FILTER (WHERE k.kind = 'direct_contracts')::int AS direct_contracts,
         count(*) FILTER (WHERE k.kind = 'orders')::int AS orders, ${money('sum(k.value)')} AS value
       FROM (${commitments(() => 'x.organization_id = $1')}) k JOIN suppliers s ON s.id = k.supplier_id
       GROUP BY s.id ORDER BY sum(k.value) DESC, s.document LIMIT ${TOP_SUPPLIERS}`,
      [id],
    ),
  )
  return JSON.stringify({
    uuid: organization.id,
    name: organization.name,
    document: organization.document,
    totals: byKind(of(rows, 'total'), ORGANIZATION_FIGURES),
    years: grouped(of(rows, 'year'), 'year', ORGANIZATION_FIGURES, (r) => ({ year: r.year })),
    top_suppliers: top,
  })
}

// --- Lists ----------------------------------------------------------------------------------------------

const NAME_WORDS: Parameter = [
  Type.String({
    minLength: 3,
    maxLength: 200,
    pattern: NO_CONTROL_PATTERN,
    description: 'Words of the name, in order; accents and case do not matter',
  }),
  'um texto de 3 a 200 caracteres (palavras do nome)',
  searchText,
]

const LIST_CURSOR = (what: string): [ReturnType<typeof Type.String>, string] => [
  Type.String({
    minLength: 1,
    maxLength: 800,
    description: `A page's next_cursor: the next ${what}, by name`,
  }),
  'o next_cursor de uma página anterior desta lista',
]

interface NamedList {
  /** The cursor's sort mark, and the pattern of the id it keeps. */
  mark: string
  id: RegExp
  /** Rows, in name order: the row's JSON (`item`); the cursor keeps its name and `key`, which breaks ties. */
  select: string
  key: string
  table: string
  /** What every row listed meets, over the table by its name. */
  always: readonly string[]
  filters: Filters
}

const LISTS = {
  suppliers: {
    mark: 'suppliers:name',
    id: /^[0-9]{14}$/,
    table: 'suppliers',
    select: `${object([
      ['document', 'document'],
      ['name', 'name'],
    ])}::text AS item`,
    key: 'document',
    // Companies only: a person's CPF is never listed.
    always: ['length(document) = 14'],
    filters: {
      q: { sql: (a, p) => `${a}.id IN ${nameFilter(p)}`, parameter: NAME_WORDS },
      document: {
        sql: (a, p) => `${a}.document = ${p}`,
        parameter: [
          Type.String({ pattern: '^[0-9]{14}$', description: "A company's CNPJ, 14 digits" }),
          'um CNPJ, só os 14 dígitos',
        ],
      },
    },
  },
  organizations: {
    mark: 'organizations:name',
    id: /^[0-9a-f-]{36}$/,
    table: 'organizations',
    select: `${object([
      ['uuid', 'id'],
      ['name', 'name'],
      ['document', 'document'],
    ])}::text AS item`,
    key: 'id::text',
    always: [],
    filters: {
      q: {
        sql: (a, p) => `compras_fold(${a}.name) LIKE compras_name_pattern(${p})`,
        parameter: NAME_WORDS,
      },
    },
  },
} as const satisfies Record<string, NamedList>

/** A named list's parameters: its filters, then its pages by cursor. */
const listParameters = (which: keyof typeof LISTS): Parameters =>
  parameters([...Object.keys(LISTS[which].filters), 'per_page', 'cursor'], {
    ...filterParameters(LISTS[which].filters),
    per_page: PAGING.per_page,
    cursor: LIST_CURSOR(which),
  })

export const SUPPLIER_LIST_PARAMETERS: Parameters = listParameters('suppliers')
export const ORGANIZATION_LIST_PARAMETERS: Parameters = listParameters('organizations')

/** A page of suppliers (companies) or organizations by name, `{"data":[…],"next_cursor":…,"has_more":…}`. */
export async function namedList(
  pool: Pool,
  cursors: Cursors,
  which: keyof typeof LISTS,
  query: ValidQuery,
): Promise<string> {
  const list: NamedList = LISTS[which]
  await cursors.ready()
  const filters = filterSql(list.filters, filterValues(list.filters, query), list.table)
  const values: unknown[] = filters.values
  const conditions = [...list.always, ...filters.conditions]
  if (query.cursor !== undefined) {
    const after = cursors.readListing(query.cursor as string, list.mark, list.id)
    values.push(after.key, after.id)
    conditions.push(`(name, ${list.key}) > ($${values.length - 1}, $${values.length})`)
  }
  const perPage = (query.per_page as number | undefined) ?? DEFAULT_PER_PAGE
  values.push(perPage + 1)
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''
  const { rows } = await pool.query<{ item: string; name: string; key: string }>(
    prepared(
      `SELECT ${list.select}, name, ${list.key} AS key FROM ${list.table} ${where}
       ORDER BY name, ${list.key} LIMIT $${values.length}`,
      values,
    ),
  )
  const more = rows.length > perPage
  const shown = rows.slice(0, perPage)
  // More than a page was found, so the page has a last row.
  const last = shown.at(-1) as { name: string; key: string }
  const next = more ? cursors.listing({ sort: list.mark, key: last.name, id: last.key, page: 1 }) : null
  return `{"data":[${shown.map((r) => r.item).join(',')}],"next_cursor":${JSON.stringify(next)},"has_more":${more}}`
}
