import { type TSchema, Type } from 'typebox'
import { MAX_NUMBER_LENGTH, NO_CONTROL_PATTERN, normalizeNumber } from '../checks.js'
import { BIDDING_MODALITIES, BIDDING_STATUSES, MANAGEMENT_STATUSES } from '../domain.js'

// The listings' filters, each declared once: its SQL over the record's alias `a` and the placeholder `p` of
// its value, its query parameter (schema, and in Portuguese what it accepts, for the 422 messages), how its
// value is compared, and how the portal's form asks for it. The API, the export and the portal take them
// from the resources.

/**
 * A query parameter's schema, in Portuguese what it accepts, and how a valid value is read (UUIDs in lower case,
 * search text as the search reads it): the value the query takes and the one its cache key holds. Without a
 * reading, a value is taken as validated.
 */
export type Parameter = readonly [schema: TSchema, accepts: string, read?: (value: string) => string]

/**
 * Search text as a full-text or name search reads it: Latin letters in lower case, runs of spaces as one, no
 * space at either end. (Only what the search itself folds: two spellings of one question, never two questions.)
 */
export function searchText(value: string): string {
  return value
    .replace(/[A-ZÀ-ÖØ-Þ]/g, (letter) => letter.toLowerCase())
    .replace(/\s+/g, ' ')
    .trim()
}

/** A SQL condition for one filter, over the record's alias `a`; `p` is the placeholder of its value. */
export type FilterSql = (a: string, p: string) => string

/** The closed lists a filter's value is chosen from (the helper endpoints' paths). */
export type ChoiceList = 'bidding-modalities' | 'bidding-statuses' | 'management-statuses'

/**
 * How the portal's form asks for a filter: typed in (`search`, `text`, `date`), chosen from a list (a helper's,
 * or a few fixed values with their Portuguese names), or the organ (found by name, then chosen).
 */
export type FormInput =
  | { readonly label: string; readonly input: 'search' | 'text' | 'date' }
  | { readonly label: string; readonly choices: ChoiceList }
  | { readonly label: string; readonly options: readonly { readonly id: string; readonly name: string }[] }
  | { readonly label: string; readonly input: 'organization' }

export interface Filter {
  readonly sql: FilterSql
  /** Its query parameter (and how a value is read): the same for every resource that has a filter of this name. */
  readonly parameter: Parameter
  /** On the portal's form; a filter without one is the API's alone. */
  readonly form?: FormInput
}

/** A question's filters, by parameter name: a listing's, the price research's, the OCDS releases'... */
export type Filters<N extends string = string> = Readonly<Record<N, Filter>>

/** Filter name → value, as its parameter read it. */
export type FilterValues<N extends string = string> = Readonly<Partial<Record<N, string | number>>>

/** A valid value as its parameter reads it (a UUID in lower case, search text as the search reads it). */
export function readValue(parameter: Parameter, value: string | number): string | number {
  const read = parameter[2]
  return read !== undefined && typeof value === 'string' ? read(value) : value
}

/** The query parameters of declared filters, by name: what a question's parameters list takes from them. */
export function filterParameters(declared: Filters): Record<string, Parameter> {
  return Object.fromEntries(Object.entries(declared).map(([name, filter]) => [name, filter.parameter]))
}

// Every question applies its declared filters through the two functions below: the values of a validated query,
// then the statement's conditions and values. A statement's text depends only on which filters are present, so
// it can be kept; the values are never part of it.

/** The declared filters that a validated query has, each value as its parameter reads it, in declared order. */
export function filterValues<N extends string>(
  declared: Filters<N>,
  query: Readonly<Record<string, unknown>>,
): FilterValues<N> {
  const values: Partial<Record<N, string | number>> = {}
  for (const name of Object.keys(declared) as N[]) {
    const value = query[name] as string | number | undefined
    if (value !== undefined) values[name] = readValue(declared[name].parameter, value)
  }
  return values
}

/**
 * The conditions of the filters `values` holds, over the row alias `a`, in declared order: each its SQL text with
 * its value's placeholder (`$first`, then on), and the values in that order. `names` are the filters present:
 * what a statement's text depends on, and may be kept by.
 */
export function filterSql<N extends string>(
  declared: Filters<N>,
  values: FilterValues<N>,
  a: string,
  first = 1,
): { names: N[]; conditions: string[]; values: (string | number)[] } {
  // A value of a filter the question does not declare is a bug of its caller: never a question left unfiltered.
  for (const name of Object.keys(values))
    if (!Object.hasOwn(declared, name)) throw new Error(`unknown filter ${name}`)
  const names = (Object.keys(declared) as N[]).filter((name) => values[name] !== undefined)
  return {
    names,
    conditions: names.map((name, i) => declared[name].sql(a, `$${first + i}`)),
    values: names.map((name) => values[name] as string | number),
  }
}

/** A record's number or its bidding's, exact: `what` says which, for the document. */
const numberParameter = (what: string): Parameter => [
  Type.String({
    minLength: 1,
    maxLength: MAX_NUMBER_LENGTH,
    pattern: NO_CONTROL_PATTERN,
    description: `Exact ${what} (surrounding spaces ignored)`,
  }),
  `um texto de até ${MAX_NUMBER_LENGTH} caracteres, sem caracteres de controle`,
  normalizeNumber,
]

/** How many ids each closed list has. */
const CHOICES: Readonly<Record<ChoiceList, number>> = {
  'bidding-modalities': BIDDING_MODALITIES.length,
  'bidding-statuses': BIDDING_STATUSES.length,
  'management-statuses': MANAGEMENT_STATUSES.length,
}

/** Suppliers whose name holds the words of `p` in order (migrations/0006_hardening.sql). */
export const nameFilter = (p: string) =>
  `(SELECT id FROM suppliers WHERE name_folded LIKE compras_name_pattern(${p}))`

/** Portuguese full-text search over the record's search column (its object and names). */
export const search: Filter = {
  sql: (a, p) => `${a}.search @@ websearch_to_tsquery('compras_pt', ${p})`,
  parameter: [
    Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: NO_CONTROL_PATTERN,
      description: 'Full-text search over the object and names; accents and case do not matter',
    }),
    'um texto de 1 a 200 caracteres, sem caracteres de controle',
    searchText,
  ],
  form: { label: 'Busca (objeto, nomes)', input: 'search' },
}

export const organization: Filter = {
  sql: (a, p) => `${a}.organization_id = ${p}::uuid`,
  parameter: [
    Type.String({ format: 'uuid', description: 'Only records of this organization' }),
    'um UUID',
    (value) => value.toLowerCase(),
  ],
  form: { label: 'Órgão', input: 'organization' },
}

/** The record's own number, exact, with no place on the form (numbers are found by search there). */
export const numbered = (column: string, what = 'number'): Filter => ({
  sql: (a, p) => `${a}.${column} = ${p}`,
  parameter: numberParameter(what),
})

/** The number of the record's bidding, exact, with no place on the form. */
export const biddingNumbered = (column: string): Filter => ({
  sql: (a, p) => `${a}.${column} = ${p}`,
  parameter: numberParameter('bidding number'),
})

/** An id of a closed list, stored in a smallint column. */
export const chosen = (column: string, label: string, choices: ChoiceList): Filter => ({
  sql: (a, p) => `${a}.${column} = ${p}::smallint`,
  parameter: [
    Type.Integer({ minimum: 1, maximum: CHOICES[choices], description: `An id of /helpers/${choices}` }),
    `um id de /v1/transparency/helpers/${choices}`,
  ],
  form: { label, choices },
})

/** The supplier's CNPJ and name, for records with a supplier of their own (`a_s` is its join). */
export const supplierFilters = {
  provider_document: {
    sql: (a, p) => `${a}_s.document = ${p}`,
    parameter: [
      Type.String({
        pattern: '^[0-9]{14}$',
        description:
          "The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF " +
          'has records would reveal the digits that the mask hides. Find a person by provider_name.',
      }),
      'um CNPJ, só os 14 dígitos (um CPF não é aceito, para proteger as pessoas; use provider_name)',
    ],
    form: { label: 'CNPJ do fornecedor (14 dígitos)', input: 'text' },
  },
  provider_name: {
    sql: (a, p) => `${a}.supplier_id IN ${nameFilter(p)}`,
    parameter: [
      Type.String({
        minLength: 3,
        maxLength: 200,
        pattern: NO_CONTROL_PATTERN,
        description:
          "Words of the supplier's name, in order; accents and case do not matter (`maria silva` finds " +
          '`Maria da Silva`)',
      }),
      'um texto de 3 a 200 caracteres (palavras do nome do fornecedor)',
      searchText,
    ],
    form: { label: 'Nome do fornecedor', input: 'text' },
  },
} satisfies Record<string, Filter>

/**
 * Records whose published document changed at `p` or later, as the change log dates them
 * (migrations/0015_change_log.sql): `resource` is the public resource's path.
 */
export const changedSince = (resource: string): Filter => ({
  parameter: [
    Type.String({
      format: 'date-time',
      description:
        'Only records whose published document changed at this instant or later (ISO 8601), as the change feed ' +
        'dates them; records published before the feed count as changed when it started',
    }),
    'um instante ISO 8601, como 2026-01-31T12:00:00Z',
  ],
  sql: (a, p) =>
    `${a}.id IN (SELECT c.id FROM public_changes c WHERE c.resource = '${resource}' AND c.changed_at >= ${p}::timestamptz)`,
})

/** date_from and date_to over a date column, both days included; `label` is the column's. */
export function dateRange(
  column: string,
  label: string,
  to: FilterSql = (a, p) => `${a}.${column} <= ${p}::date`,
) {
  return {
    date_from: {
      sql: (a: string, p: string) => `${a}.${column} >= ${p}::date`,
      parameter: [
        Type.String({ format: 'date', description: 'From this day on (the main date of the kind)' }),
        'uma data AAAA-MM-DD',
      ],
      form: { label: `${label}: de`, input: 'date' },
    },
    date_to: {
      sql: to,
      parameter: [
        Type.String({ format: 'date', description: 'Up to this day, inclusive' }),
        'uma data AAAA-MM-DD',
      ],
      form: { label: `${label}: até`, input: 'date' },
    },
  } satisfies Record<string, Filter>
}
