import { type TObject, Type } from 'typebox'
import { ParameterError } from '../errors.js'
import type { Parameter } from '../resources/filters.js'
import { PUBLIC_RESOURCES, type PublicResource } from '../resources/index.js'

// The query parameters of the listings (and of the export, which takes the same filters): their
// schemas, and in Portuguese what each accepts, for the 422 messages.

export const MAX_PER_PAGE = 100
export const DEFAULT_PER_PAGE = 20

/** A query string as its route's schema validated it: each value of the type its parameter declares. */
export type ValidQuery = Readonly<Record<string, unknown>>

export type { Parameter } from '../resources/filters.js'

/**
 * The parameters a route takes: the schema of its query string, what each accepts (for 422s), their names in
 * declared order, and how each value is read (`read`, for those that declare it).
 */
export interface Parameters {
  schema: TObject
  accepts: Readonly<Record<string, string>>
  names: readonly string[]
  read: Readonly<Record<string, (value: string) => string>>
}

/** The order the export's document lists the filters in: every resource's filter names, each once. */
const FILTER_ORDER = [
  'organization_uuid',
  'number',
  'bidding_number',
  'modality_id',
  'status_id',
  'management_status_id',
  'provider_document',
  'provider_name',
  'date_from',
  'date_to',
  'updated_since',
  'pncp_id',
  'q',
] as const

/**
 * Every filter's parameter, by name, from the resources' filters (src/resources/filters.ts): what the export
 * takes, across its resources. A name means one parameter whatever the resource.
 */
export const FILTERS: Readonly<Record<string, Parameter>> = (() => {
  const declared = new Map(
    PUBLIC_RESOURCES.flatMap((resource) =>
      Object.entries(resource.filters).map(([name, filter]) => [name, filter.parameter] as const),
    ),
  )
  const unordered = [...declared.keys()].filter((name) => !(FILTER_ORDER as readonly string[]).includes(name))
  if (unordered.length > 0) throw new Error(`filters missing from FILTER_ORDER: ${unordered.join(', ')}`)
  return Object.fromEntries(FILTER_ORDER.map((name) => [name, declared.get(name) as Parameter]))
})()

/**
 * A validated query's canonical text: its parameters in declared order, defaults filled in (the schema's), each
 * value as its parameter reads it, `omit` left out. Two spellings of one question (parameter order, case and
 * spaces of a search, `%65`, `per_page=020`, the default sort written out) have one text: the cache keeps their
 * answer once.
 */
export function canonicalQuery(
  parameters: Parameters,
  query: ValidQuery,
  omit: readonly string[] = [],
): string {
  let text = ''
  for (const name of parameters.names) {
    const value = query[name]
    if (value === undefined || omit.includes(name)) continue
    const read = parameters.read[name]
    const shown = read !== undefined && typeof value === 'string' ? read(value) : String(value)
    text += `${text === '' ? '' : '&'}${name}=${encodeURIComponent(shown)}`
  }
  return text
}

/** The values a `sort` takes over sorts named `names`: each name ascending, `-` and the name descending. */
export const sortValuesOf = (names: readonly string[]): string[] =>
  names.flatMap((name) => [name, `-${name}`])

/** A sort's name and direction. */
export function sortDirection<N extends string>(sort: N | `-${N}`): { name: N; direction: 'ASC' | 'DESC' } {
  return sort.startsWith('-')
    ? { name: sort.slice(1) as N, direction: 'DESC' }
    : { name: sort as N, direction: 'ASC' }
}

/**
 * The `sort` parameter of a question whose sorts are named `names` (a listing's fields, the price research's
 * keys): one of sortValuesOf(names), `fallback` when none is asked. The listings and the research take it alike.
 */
export function sortParameter(names: readonly string[], fallback: string, description: string): Parameter {
  const values = sortValuesOf(names)
  return [
    Type.String({
      enum: values,
      default: fallback,
      description: `${description}; a leading - sorts descending`,
    }),
    `um destes valores: ${values.join(', ')}`,
  ]
}

export const sortValues = (resource: PublicResource): string[] => sortValuesOf(Object.keys(resource.sorts))

/** The sort a query asks for, checked against the resource's; the default when none. */
export function sortOf(resource: PublicResource, sort: unknown): string {
  const value = (sort as string | undefined) ?? resource.defaultSort
  if (!sortValues(resource).includes(value))
    throw new ParameterError(
      'sort',
      `Parâmetro inválido: sort. Aceita um destes valores: ${sortValues(resource).join(', ')}.`,
    )
  return value
}

/** A page of a listing: `page` and `per_page`. */
export const PAGING: Readonly<Record<'page' | 'per_page', Parameter>> = {
  page: [
    // At most 15 digits (src/query-validation.ts): any page that far is past the data, and empty.
    // No default in the schema: a page asked for is told apart from none (page and cursor do not go together).
    Type.Integer({ minimum: 1, description: 'Page number, from 1 (at most 15 digits); 1 when not given' }),
    'um número inteiro a partir de 1',
  ],
  per_page: [
    Type.Integer({
      minimum: 1,
      maximum: MAX_PER_PAGE,
      default: DEFAULT_PER_PAGE,
      description: `Page size, 1 to ${MAX_PER_PAGE}`,
    }),
    `um número inteiro de 1 a ${MAX_PER_PAGE}`,
  ],
}

/**
 * A query parameter that takes a comma-separated list of these values: validated as text here (its message
 * names the unknown ones), published in the OpenAPI document as an array of them (style form, explode false).
 */
export const LIST = 'x-list'

/** Each resource's listing parameters, made once: a cached page's key is read through them on every request. */
const LISTING_PARAMETERS = new Map<PublicResource, Parameters>()

/** The query parameters a listing accepts: the schema and, in Portuguese, what each accepts. */
export function listingParameters(resource: PublicResource): Parameters {
  let made = LISTING_PARAMETERS.get(resource)
  if (made === undefined) {
    made = makeListingParameters(resource)
    LISTING_PARAMETERS.set(resource, made)
  }
  return made
}

function makeListingParameters(resource: PublicResource): Parameters {
  const relations = resource.offered
  const all: Record<string, Parameter> = {
    ...PAGING,
    ...Object.fromEntries(Object.entries(resource.filters).map(([name, filter]) => [name, filter.parameter])),
    sort: sortParameter(Object.keys(resource.sorts), resource.defaultSort, 'A field'),
    with_relations: [
      Type.String({
        description: `Comma-separated relations to add to each item: ${relations.join(', ')}`,
        [LIST]: relations,
      }),
      `uma lista separada por vírgulas de: ${relations.join(', ')}`,
      (raw) => parseRelations(resource, raw).join(','),
    ],
    cursor: [
      Type.String({
        minLength: 1,
        maxLength: 800,
        description:
          "A page's next_cursor: the next page, after that page's last row (keyset), instead of `page` (not with " +
          'it). Read by cursor, the pages hold still while imports add and change records: a record that is there ' +
          'for the whole read, its sort value unchanged, is shown once. The same sort must be asked. Cursors are ' +
          "signed: one that this service did not give (or made for another sort, or another database's) is refused",
      }),
      'o next_cursor de uma página anterior, com a mesma ordenação',
    ],
  }
  const names = ['page', 'per_page', ...Object.keys(resource.filters), 'sort', 'with_relations', 'cursor']
  return parameters(names, all)
}

/** The Parameters of `names`, each declared in `all`; `required` must be given. */
export function parameters(
  names: readonly string[],
  all: Readonly<Record<string, Parameter>>,
  required: readonly string[] = [],
): Parameters {
  const properties = Object.fromEntries(
    names.map((name) => {
      const schema = (all[name] as Parameter)[0]
      return [name, required.includes(name) ? schema : Type.Optional(schema)]
    }),
  )
  const read: Record<string, (value: string) => string> = {}
  for (const name of names) {
    const reads = (all[name] as Parameter)[2]
    if (reads !== undefined) read[name] = reads
  }
  return {
    schema: Type.Object(properties, { additionalProperties: false }),
    accepts: Object.fromEntries(names.map((name) => [name, (all[name] as Parameter)[1]])),
    names,
    read,
  }
}

/**
 * The relations with_relations asks for, each once, in the order the resource offers them (the order its
 * items add them in), whatever order the client wrote them in.
 */
export function parseRelations(resource: PublicResource, raw: string | undefined): string[] {
  if (raw === undefined) return []
  const names = [
    ...new Set(
      raw
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ]
  const accepted: readonly string[] = resource.offered
  const unknown = names.filter((name) => !accepted.includes(name))
  if (unknown.length > 0) {
    throw new ParameterError(
      'with_relations',
      `Parâmetro inválido: with_relations. Relação desconhecida: ${unknown.join(', ')}. Aceita: ${accepted.join(', ')}.`,
    )
  }
  return accepted.filter((name) => names.includes(name))
}

export interface ParameterProblem {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
}

/** The error for a parameter that failed its schema: it names the parameter and what it accepts. */
export function parameterError(
  problem: ParameterProblem | undefined,
  accepts: Readonly<Record<string, string>>,
): ParameterError {
  if (problem?.keyword === 'additionalProperties') {
    return unknownParameter(String(problem.params.additionalProperty), accepts)
  }
  const name = problem?.instancePath.replace(/^\//, '') || String(problem?.params.missingProperty ?? '')
  if (problem?.keyword === 'required')
    return new ParameterError(name, `Parâmetro obrigatório: ${name}. Aceita ${accepts[name] ?? 'um valor'}.`)
  return new ParameterError(name, `Parâmetro inválido: ${name}. Aceita ${accepts[name] ?? 'outro valor'}.`)
}

export function unknownParameter(name: string, accepts: Readonly<Record<string, string>>): ParameterError {
  return new ParameterError(
    name,
    `Parâmetro desconhecido: ${name}. Aceitos: ${Object.keys(accepts).join(', ')}.`,
  )
}
