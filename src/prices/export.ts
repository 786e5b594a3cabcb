import { openCursor } from '../db/cursor.js'
import type { Pool } from '../db/pool.js'
import { type Column, columnKind, columnSql, columnTitle } from '../export/columns.js'
import { csvStream, type Separator } from '../export/csv.js'
import { CONTENT_TYPES, type ExportFile, type ExportFormat } from '../export/export.js'
import { FILE_PARAMETERS } from '../export/request.js'
import { xlsxWorkbook } from '../export/xlsx.js'
import { type Parameters, parameters } from '../queries/parameters.js'
import type { AnyField } from '../resources/fields.js'
import { exportedFrom } from '../resources/fields.js'
import { PriceItem } from '../resources/price.js'
import {
  type Fences,
  ITEM_NAMES,
  ITEM_RAW,
  PRICE_FILTERS,
  PRICE_PARAMETER_LIST,
  type PriceQuery,
  priceItemsSql,
} from './research.js'
import { PRICE_STATISTICS, SANITIZED_NAMES, STATISTIC_NAMES, sanitizedLabel } from './statistics.js'

// The price research as a file (GET /v1/transparency/prices/export): in XLSX, the summary per unit under
// what was asked, when and where (so that it can be attached to a purchase process), then every item; in CSV,
// the items. The items are streamed from a cursor, as the exports' rows are.

export const PRICE_EXPORT_PARAMETERS: Parameters = parameters(
  ['format', 'separator', ...Object.keys(PRICE_FILTERS), 'sort'],
  { ...FILE_PARAMETERS, ...PRICE_PARAMETER_LIST },
  ['q', 'format'],
)

/** The items' columns: the fields' Portuguese labels, their public values before the file's formatting. */
export const PRICE_ITEM_COLUMNS: readonly Column[] = ITEM_NAMES.map((name) => {
  const f = PriceItem.fields[name] as AnyField
  const kind = columnKind(f)
  return { title: columnTitle(f.label, kind), kind, sql: exportedFrom(f, ITEM_RAW[name]) }
})

/** The summary's columns, in the order of the API's summary: the unit, each statistic, then those without the outliers. */
const SUMMARY_COLUMNS: readonly (Omit<Column, 'sql'> & { key: string })[] = [
  { key: 'unit', title: 'Unidade de medida', kind: 'text' },
  ...STATISTIC_NAMES.map((name) => {
    const { kind, label } = PRICE_STATISTICS[name]
    return { key: name, title: columnTitle(label, kind), kind }
  }),
  ...SANITIZED_NAMES.map((name) => {
    const { kind, label } = PRICE_STATISTICS[name]
    return { key: `sanitized.${name}`, title: columnTitle(sanitizedLabel(label), kind), kind }
  }),
]

export interface PriceExportRequest {
  query: PriceQuery
  /** The research's summary as the API gives it (JSON text), and its fences: computed once, before the file. */
  summary: string
  fences: Fences
  format: ExportFormat
  separator: Separator
  /** The address the research can be made again at (the API's URL of the research, under PUBLIC_URL). */
  source: string
  /** The query's parameters as asked, for the preamble. */
  asked: Readonly<Record<string, unknown>>
  /** Aborts when the file's client has gone: its query is cancelled in PostgreSQL. */
  signal?: AbortSignal
}

type SummaryEntry = Record<string, unknown> & { sanitized: Record<string, unknown> }

/** The price research as a file, its items streamed: the first batch is read before it is returned. */
export async function openPriceExport(
  pool: Pool,
  request: PriceExportRequest,
  now = new Date(),
): Promise<ExportFile> {
  const { format, query } = request
  const ptBr = format === 'csv' && request.separator === ';'
  const select = PRICE_ITEM_COLUMNS.map((column) => columnSql(column, format, ptBr)).join(', ')
  const { sql, values } = priceItemsSql(query, request.fences, select)
  const cursor = await openCursor<(string | null)[]>(pool, sql, values, {
    rowMode: 'array',
    signal: request.signal,
  })
  let stream: ExportFile['stream']
  if (format === 'csv') stream = csvStream(PRICE_ITEM_COLUMNS, cursor.rows, request.separator)
  else {
    const summaryRows = (JSON.parse(request.summary) as SummaryEntry[]).map((entry) =>
      SUMMARY_COLUMNS.map(({ key }) => {
        const [head, tail] = key.split('.') as [string, string | undefined]
        const value = tail === undefined ? entry[head] : entry.sanitized[tail]
        return value === null || value === undefined ? null : String(value)
      }),
    )
    const asked = Object.entries(request.asked)
      .filter(([name]) => name !== 'format' && name !== 'separator')
      .map(([name, value]) => `${name}=${String(value)}`)
      .join('; ')
    stream = xlsxWorkbook([
      {
        name: 'Resumo',
        columns: SUMMARY_COLUMNS.map((column) => ({ ...column, sql: '' })),
        rows: (async function* () {
          yield* summaryRows
        })(),
        preamble: [
          'Pesquisa de preços: preços unitários pagos em ordens de fornecimento publicadas',
          `Consulta: ${asked}`,
          `Feita em: ${now.toISOString()} (UTC)`,
          `Fonte: ${request.source}`,
          'Quartis por interpolação linear (QUARTIL.INC); fora da faixa: abaixo de Q1 − 1,5 × AIQ ou acima de Q3 + 1,5 × AIQ.',
        ],
      },
      { name: 'Itens', columns: PRICE_ITEM_COLUMNS, rows: cursor.rows },
    ])
  }
  cursor.releaseWith(stream)
  return {
    stream,
    filename: `pesquisa-de-precos-${now.toISOString().slice(0, 10)}.${format}`,
    contentType: CONTENT_TYPES[format],
  }
}
