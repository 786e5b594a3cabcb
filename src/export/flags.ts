import { openCursor } from '../db/cursor.js'
import type { Pool } from '../db/pool.js'
import { FLAG_FILTERS, flagConditions, flagWhere } from '../indicators/flags.js'
import { type FlagFigures, type Indicator, indicatorOf } from '../indicators/indicators.js'
import { type Parameters, parameters } from '../queries/parameters.js'
import { filterParameters } from '../resources/filters.js'
import { publicTaxId } from '../resources/sql.js'
import { type Column, columnSql } from './columns.js'
import { csvStream, type Separator } from './csv.js'
import { CONTENT_TYPES, type ExportFile, type ExportFormat } from './export.js'
import { FILE_PARAMETERS } from './request.js'
import { xlsxWorkbook } from './xlsx.js'

// The integrity flags as a file (GET /v1/transparency/indicators/export): a row per flag, newest year first,
// with its indicator, organ, suppliers, reason and the API's address of each record it names, streamed from a
// cursor as the exports' rows are. The reason is the declaration's sentence, made from the row's figures.

export const FLAG_EXPORT_PARAMETERS: Parameters = parameters(
  ['format', 'separator', ...Object.keys(FLAG_FILTERS)],
  { ...FILE_PARAMETERS, ...filterParameters(FLAG_FILTERS) },
  ['format'],
)

/** Made from the declaration, not read: the indicator's title and the flag's reason. */
const DECLARED = "''"

/** Where the declared cells go: the columns titled so. */
const TITLE = 'Indicador'
const REASON = 'Motivo'

/** The file's columns; `records` names the API's address the records are read at. */
const columns = (api: string): readonly Column[] => [
  { title: 'Código', kind: 'text', sql: 'f.code' },
  { title: TITLE, kind: 'text', sql: DECLARED },
  { title: 'Ano', kind: 'integer', sql: 'f.year' },
  { title: 'Órgão', kind: 'text', sql: 'g.name' },
  { title: 'CNPJ do órgão', kind: 'taxId', sql: 'g.document' },
  {
    title: 'Fornecedores',
    kind: 'text',
    sql: `(SELECT string_agg(s.name || ' (' || ${publicTaxId('s.document')} || ')', '; ' ORDER BY s.document)
      FROM suppliers s WHERE s.id = ANY (f.supplier_ids))`,
  },
  { title: REASON, kind: 'text', sql: DECLARED },
  {
    title: 'Registros',
    kind: 'text',
    sql: `(SELECT string_agg('${api.replaceAll("'", "''")}/v1/transparency/' || (r->>'resource') || '/' || (r->>'id'), ' '
      ORDER BY n) FROM jsonb_array_elements(f.records) WITH ORDINALITY AS x(r, n))`,
  },
]

export interface FlagExportRequest {
  query: Readonly<Record<string, unknown>>
  format: ExportFormat
  separator: Separator
  /** The service's address (PUBLIC_URL), for the records' links. */
  publicUrl: string
  signal?: AbortSignal
}

/** The flags as a file, streamed: the first batch is read before it is returned. */
export async function openFlagExport(
  pool: Pool,
  request: FlagExportRequest,
  now = new Date(),
): Promise<ExportFile> {
  const { format } = request
  const ptBr = format === 'csv' && request.separator === ';'
  const shown = columns(request.publicUrl)
  const [title, reason] = [TITLE, REASON].map((name) =>
    shown.findIndex((column) => column.title === name),
  ) as [number, number]
  const { conditions, values } = flagConditions(FLAG_FILTERS, request.query)
  // The figures last, for the reason; not a column of the file.
  const select = [...shown.map((column) => columnSql(column, format, ptBr)), 'f.figures::text'].join(', ')
  const cursor = await openCursor<(string | null)[]>(
    pool,
    `SELECT ${select} FROM integrity_flags f JOIN organizations g ON g.id = f.organization_id ${flagWhere(conditions)}
     ORDER BY f.year DESC, f.key`,
    values,
    { rowMode: 'array', signal: request.signal },
  )
  const rows = (async function* () {
    for await (const row of cursor.rows) {
      const indicator = indicatorOf(row[0] as string) as Indicator
      const figures = JSON.parse(row.at(-1) as string) as FlagFigures
      const cells = row.slice(0, -1)
      cells[title] = indicator.title
      cells[reason] = indicator.reason(figures)
      yield cells
    }
  })()
  const stream =
    format === 'csv'
      ? csvStream(shown, rows, request.separator)
      : xlsxWorkbook([
          {
            name: 'Sinais',
            columns: shown,
            rows,
            preamble: [
              'Sinais de alerta: indícios para abrir um processo, nunca vereditos (docs/indicators.md)',
              `Feita em: ${now.toISOString()} (UTC)`,
            ],
          },
        ])
  cursor.releaseWith(stream)
  return {
    stream,
    filename: `sinais-de-alerta-${now.toISOString().slice(0, 10)}.${format}`,
    contentType: CONTENT_TYPES[format],
  }
}
