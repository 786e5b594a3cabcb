import { type TObject, type TSchema, Type } from 'typebox'
import { MAX_NUMBER_LENGTH, NO_CONTROL_PATTERN, normalizeNumber } from '../checks.js'
import { BIDDING_MODALITIES, BIDDING_STATUSES, MANAGEMENT_STATUSES } from '../domain.js'
import { ParameterError } from '../errors.js'
import type { PublicResource } from '../resources/index.js'

// The query parameters of the listings (and of the export, which takes the same filters): their
// schemas, and in Portuguese what each accepts, for the 422 messages.

export const MAX_PER_PAGE = 100
export const DEFAULT_PER_PAGE = 20

/** A query string as its route's schema validated it: each value of the type its parameter declares. */
export type ValidQuery = Readonly<Record<string, unknown>>

/** A parameter's schema and, in Portuguese, what it accepts. */
export type Parameter = readonly [schema: TSchema, accepts: string]

/** The parameters a route takes: the schema of its query string and what each accepts (for 422s). */
export interface Parameters {
  schema: TObject
  accepts: Readonly<Record<string, string>>
}

export const FILTERS: Readonly<Record<string, Parameter>> = {
  organization_uuid: [
    Type.String({ format: 'uuid', description: 'Only records of this organization' }),
    'um UUID',
  ],
  number: [
    Type.String({
      minLength: 1,
      maxLength: MAX_NUMBER_LENGTH,
      pattern: NO_CONTROL_PATTERN,
      description: 'Exact number (surrounding spaces ignored)',
    }),
    `um texto de até ${MAX_NUMBER_LENGTH} caracteres, sem caracteres de controle`,
  ],
  bidding_number: [
    Type.String({
      minLength: 1,
      maxLength: MAX_NUMBER_LENGTH,
      pattern: NO_CONTROL_PATTERN,
      description: 'Exact bidding number (surrounding spaces ignored)',
    }),
    `um texto de até ${MAX_NUMBER_LENGTH} caracteres, sem caracteres de controle`,
  ],
  modality_id: [
    Type.Integer({
      minimum: 1,
      maximum: BIDDING_MODALITIES.length,
      description: 'An id of /helpers/bidding-modalities',
    }),
    'um id de /v1/transparency/helpers/bidding-modalities',
  ],
  status_id: [
    Type.Integer({
      minimum: 1,
      maximum: BIDDING_STATUSES.length,
      description: 'An id of /helpers/bidding-statuses',
    }),
    'um id de /v1/transparency/helpers/bidding-statuses',
  ],
  management_status_id: [
    Type.Integer({
      minimum: 1,
      maximum: MANAGEMENT_STATUSES.length,
      description: 'An id of /helpers/management-statuses',
    }),
    'um id de /v1/transparency/helpers/management-statuses',
  ],
  provider_document: [
    Type.String({
      pattern: '^[0-9]{14}$',
      description:
        "The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF " +
        'has records would reveal the digits that the mask hides. Find a person by provider_name.',
    }),
    'um CNPJ, só os 14 dígitos (um CPF não é aceito, para proteger as pessoas; use provider_name)',
  ],
  provider_name: [
    Type.String({
      minLength: 3,
      maxLength: 200,
      pattern: NO_CONTROL_PATTERN,
      description:
        "Words of the supplier's name, in order; accents and case do not matter (`maria silva` finds " +
        '`Maria da Silva`)',
    }),
    'um texto de 3 a 200 caracteres (palavras do nome do fornecedor)',
  ],
  date_from: [
    Type.String({ format: 'date', description: 'From this day on (the main date of the kind)' }),
    'uma data AAAA-MM-DD',
  ],
  date_to: [Type.String({ format: 'date', description: 'Up to this day, inclusive' }), 'uma data AAAA-MM-DD'],
  updated_since: [
    Type.String({
      format: 'date-time',
      description:
        'Only records whose published document changed at this instant or later (ISO 8601), as the change feed ' +
        'dates them; records published before the feed count as changed when it started',
    }),
    'um instante ISO 8601, como 2026-01-31T12:00:00Z',
  ],
  q: [
    Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: NO_CONTROL_PATTERN,
      description: 'Full-text search over the object and names; accents and case do not matter',
    }),
    'um texto de 1 a 200 caracteres, sem caracteres de controle',
  ],
}

/** How a filter's value is compared: UUIDs in lower case, numbers without surrounding spaces. */
const NORMALIZE: Readonly<Record<string, (value: string) => string>> = {
  organization_uuid: (value) => value.toLowerCase(),
  number: normalizeNumber,
  bidding_number: normalizeNumber,
}

/** The resource's filters present in an (already validated) query, with their values normalized. */
export function filterValues(
  resource: PublicResource,
  query: Readonly<Record<string, unknown>>,
): Record<string, string | number> {
  const filters: Record<string, string | number> = {}
  for (const name of Object.keys(resource.filters)) {
    const value = query[name] as string | number | undefined
    if (value === undefined) continue
    const normalize = NORMALIZE[name]
    filters[name] = normalize && typeof value === 'string' ? normalize(value) : value
  }
  return filters
}

export function sortValues(resource: PublicResource): string[] {
  return Object.keys(resource.sorts).flatMap((name) => [name, `-${name}`])
}

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

function sortParameter(resource: PublicResource): Parameter {
  const sorts = sortValues(resource)
  return [
    Type.String({
      enum: sorts,
      default: resource.defaultSort,
      description: 'A field; a leading - sorts descending',
    }),
    `um destes valores: ${sorts.join(', ')}`,
  ]
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

/** The query parameters a listing accepts: the schema and, in Portuguese, what each accepts. */
export function listingParameters(resource: PublicResource): Parameters {
  const relations = resource.offered
  const all: Record<string, Parameter> = {
    ...PAGING,
    ...FILTERS,
    sort: sortParameter(resource),
    with_relations: [
      Type.String({ description: `Comma-separated relations to add to each item: ${relations.join(', ')}` }),
      `uma lista separada por vírgulas de: ${relations.join(', ')}`,
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
  return {
    schema: Type.Object(properties, { additionalProperties: false }),
    accepts: Object.fromEntries(names.map((name) => [name, (all[name] as Parameter)[1]])),
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
