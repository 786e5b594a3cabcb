import { Type } from 'typebox'
import type { Pool } from '../db/pool.js'
import { ParameterError } from '../errors.js'
import { listQuery } from '../listings/listing.js'
import { checkOrganization } from '../queries/organization.js'
import {
  FILTERS,
  type Parameter,
  type ParameterProblem,
  parameterError,
  parameters,
  type ValidQuery,
} from '../queries/parameters.js'
import { compileQuery } from '../query-validation.js'
import { PUBLIC_RESOURCES, publicResource } from '../resources/index.js'
import type { ExportFormat, ExportRequest } from './export.js'

// GET /v1/transparency/export and `compras export` take the same parameters: the resource, the format,
// and the filters and sort of that resource's listing, with the same meaning.

const RESOURCE_PATHS = PUBLIC_RESOURCES.map((r) => r.path)

/** What every export takes: the file type, and the CSV's separator. */
export const FILE_PARAMETERS: Readonly<Record<'format' | 'separator', Parameter>> = {
  format: [Type.String({ enum: ['xlsx', 'csv'], description: 'The file type' }), 'xlsx ou csv'],
  separator: [
    Type.String({
      enum: [',', ';'],
      description:
        'CSV field separator. Default `,`, with money as `1234.56`, a CNPJ as its 14 digits and dates in ISO ' +
        '8601. `;` suits spreadsheets in Portuguese (Brazil): money then has the decimal comma, `1234,56`, which ' +
        'they read as a number; a CNPJ is written as people write it, `01.234.567/0001-89`, which they keep as ' +
        'text (its digits alone would become a number without its leading zeros); and a date is `31/12/2025`, an ' +
        'instant `31/12/2025 23:59:59` (UTC, as the column says), which they read as dates.',
    }),
    'vírgula (,) ou ponto e vírgula (;)',
  ],
}

export const EXPORT_PARAMETERS = parameters(
  ['resource', 'format', 'separator', ...Object.keys(FILTERS), 'sort'],
  {
    resource: [
      Type.String({ enum: RESOURCE_PATHS, description: 'What to export' }),
      `um destes valores: ${RESOURCE_PATHS.join(', ')}`,
    ],
    ...FILE_PARAMETERS,
    ...FILTERS,
    sort: [
      Type.String({ description: "One of the resource listing's sort values; newest first by default" }),
      'um valor de sort da listagem do recurso',
    ],
  },
  ['resource', 'format'],
)

/** Checks the parameters against the chosen resource and builds the request (ParameterError, NotFoundError). */
export async function exportRequest(
  pool: Pool,
  query: ValidQuery,
): Promise<Omit<ExportRequest, 'onProgress'>> {
  const resource = publicResource(query.resource as string)
  if (!resource) throw parameterError(undefined, EXPORT_PARAMETERS.accepts)
  const accepted = ['resource', 'format', 'separator', ...Object.keys(resource.filters), 'sort']
  const accepts = Object.fromEntries(
    accepted.map((name) => [name, EXPORT_PARAMETERS.accepts[name] as string]),
  )
  // A filter of another resource: known to the export, but not for this resource.
  for (const name of Object.keys(FILTERS)) {
    if (query[name] !== undefined && !(name in resource.filters))
      throw new ParameterError(
        name,
        `Parâmetro não se aplica a ${resource.path}: ${name}. Aceitos para ${resource.path}: ${Object.keys(accepts).join(', ')}.`,
      )
  }
  const { filters, sort } = listQuery(resource, query)
  await checkOrganization(pool, filters.organization_uuid as string | undefined)
  return {
    resource,
    format: query.format as ExportFormat,
    separator: query.separator === ';' ? ';' : ',',
    filters,
    sort,
  }
}

const validateExport = compileQuery(EXPORT_PARAMETERS.schema)

/** The schema check the HTTP route gets from Fastify, for callers outside HTTP (the CLI). */
export function checkExportParameters(query: Record<string, unknown>): void {
  const errors = validateExport(query)
  if (errors) throw parameterError(errors[0] as ParameterProblem, EXPORT_PARAMETERS.accepts)
}
