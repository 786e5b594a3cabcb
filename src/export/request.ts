import { Type } from 'typebox'
import type { Pool } from '../db/pool.js'
import { compileQuery } from '../plugins/validation.js'
import {
  describeProblem,
  FILTERS,
  filterValues,
  type ParameterProblem,
  parameters,
  sortValues,
  TransparencyError,
  unknownParameter,
} from '../transparency/parameters.js'
import { organizationExists } from '../transparency/repository.js'
import { RESOURCES } from '../transparency/resources.js'
import { MESSAGES } from '../transparency/schemas.js'
import type { ExportFormat, ExportRequest } from './export.js'

// GET /v1/transparency/export and `compras export` take the same parameters: the resource, the format,
// and the filters and sort of that resource's listing, with the same meaning.

const RESOURCE_PATHS = RESOURCES.map((r) => r.path)

export const EXPORT_PARAMETERS = parameters(
  ['resource', 'format', 'separator', ...Object.keys(FILTERS), 'sort'],
  {
    resource: [
      Type.String({ enum: RESOURCE_PATHS, description: 'What to export' }),
      `um destes valores: ${RESOURCE_PATHS.join(', ')}`,
    ],
    format: [Type.String({ enum: ['xlsx', 'csv'], description: 'The file type' }), 'xlsx ou csv'],
    separator: [
      Type.String({ enum: [',', ';'], description: 'CSV field separator; ; for Brazilian Excel. Default ,' }),
      'vírgula (,) ou ponto e vírgula (;)',
    ],
    ...FILTERS,
    sort: [
      Type.String({ description: "One of the resource listing's sort values; newest first by default" }),
      'um valor de sort da listagem do recurso',
    ],
  },
  ['resource', 'format'],
)

/** Checks the parameters against the chosen resource and builds the request; a problem is a 422 or 404. */
export async function exportRequest(
  pool: Pool,
  query: Record<string, unknown>,
): Promise<Omit<ExportRequest, 'onProgress'>> {
  const resource = RESOURCES.find((r) => r.path === query.resource)
  if (!resource) throw new TransparencyError(422, describeProblem(undefined, EXPORT_PARAMETERS.accepts))
  const accepted = ['resource', 'format', 'separator', ...Object.keys(resource.filters), 'sort']
  const accepts = Object.fromEntries(
    accepted.map((name) => [name, EXPORT_PARAMETERS.accepts[name] as string]),
  )
  for (const name of Object.keys(FILTERS)) {
    if (query[name] !== undefined && !(name in resource.filters))
      throw new TransparencyError(422, unknownParameter(name, accepts))
  }
  const filters = filterValues(resource, query)
  const sort = (query.sort as string | undefined) ?? resource.defaultSort
  if (!sortValues(resource).includes(sort)) {
    throw new TransparencyError(
      422,
      `Parâmetro inválido: sort. Aceita um destes valores: ${sortValues(resource).join(', ')}.`,
    )
  }
  if (filters.organization_uuid && !(await organizationExists(pool, filters.organization_uuid as string))) {
    throw new TransparencyError(404, MESSAGES.organizationNotFound)
  }
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
  if (errors) {
    throw new TransparencyError(
      422,
      describeProblem(errors[0] as ParameterProblem, EXPORT_PARAMETERS.accepts),
    )
  }
}
