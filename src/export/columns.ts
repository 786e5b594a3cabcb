import { type AnyField, exportedSql } from '../resources/fields.js'
import { PUBLIC_RESOURCES, type PublicResource } from '../resources/index.js'

/** How a column's value is written: XLSX cell type and number format, CSV text form. */
export type ColumnKind = 'text' | 'money' | 'integer' | 'date' | 'datetime' | 'boolean' | 'taxId'

export interface Column {
  title: string
  kind: ColumnKind
  /** The SQL of the public value; formatting per file type is added by columnSql. */
  sql: string
}

const EXCEL_EPOCH = `DATE '1899-12-30'`

/**
 * The column's SQL for one file type. XLSX gets what goes into a cell's <v>: numbers as text, dates as
 * Excel serial days (UTC); CSV gets the API's text forms. `ptBr` is the CSV for spreadsheets in Portuguese
 * (Brazil), the one with `;`: money with the decimal comma they read as a number, a CNPJ written as people
 * write it (`01.234.567/0001-89`), which they keep as text, where its digits alone would become a number that
 * loses its leading zeros, and dates as they read dates (`31/12/2025`). Either way the row is already formatted when it leaves PostgreSQL, so the writers
 * only escape and concatenate.
 */
export function columnSql(column: Column, format: 'xlsx' | 'csv', ptBr = false): string {
  const { sql } = column
  switch (column.kind) {
    case 'money':
      return ptBr ? `replace(round(${sql}, 2)::text, '.', ',')` : `round(${sql}, 2)::text`
    case 'taxId':
      return ptBr
        ? `regexp_replace(${sql}, '^([0-9]{2})([0-9]{3})([0-9]{3})([0-9]{4})([0-9]{2})$', '\\1.\\2.\\3/\\4-\\5')`
        : sql
    case 'integer':
      return `${sql}::text`
    case 'boolean':
      return `CASE WHEN ${sql} THEN 'Sim' ELSE 'Não' END`
    case 'date':
      if (format === 'xlsx') return `(${sql} - ${EXCEL_EPOCH})::text`
      return `to_char(${sql}, '${ptBr ? 'DD/MM/YYYY' : 'YYYY-MM-DD'}')`
    case 'datetime':
      if (format === 'xlsx') return `round((extract(epoch FROM ${sql}) / 86400 + 25569)::numeric, 10)::text`
      // In pt-BR as a spreadsheet reads a moment (to the second); otherwise ISO 8601 to the microsecond.
      return ptBr
        ? `to_char(${sql} AT TIME ZONE 'UTC', 'DD/MM/YYYY HH24:MI:SS')`
        : `to_char(${sql} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
    default:
      return sql
  }
}

const KIND: Partial<Record<AnyField['kind'], ColumnKind>> = {
  money: 'money',
  amount: 'money',
  integer: 'integer',
  boolean: 'boolean',
  date: 'date',
  instant: 'datetime',
  taxId: 'taxId',
}

/** The unit a column title names, so that a reader knows it: R$ for money, UTC for a timestamp. */
const UNIT: Partial<Record<ColumnKind, string>> = { money: ' (R$)', datetime: ' (UTC)' }

/** How a field's column is written. */
export const columnKind = (f: AnyField): ColumnKind => KIND[f.kind] ?? 'text'

/** A column's title: its label, and the unit its values are in. */
export const columnTitle = (label: string, kind: ColumnKind) => `${label}${UNIT[kind] ?? ''}`

/** A resource's export columns, from its fields: the title is the field's Portuguese label. */
export function exportColumns(resource: PublicResource): Column[] {
  const a = resource.record.alias
  return resource.exported.map((name) => {
    const f = resource.record.fields[name] as AnyField
    const kind = columnKind(f)
    return { title: columnTitle(f.label, kind), kind, sql: exportedSql(f, a) }
  })
}

/** Every public resource's export columns, by path. */
export const EXPORT_COLUMNS: Readonly<Record<PublicResource['path'], readonly Column[]>> = Object.fromEntries(
  PUBLIC_RESOURCES.map((resource) => [resource.path, exportColumns(resource)]),
) as unknown as Record<PublicResource['path'], readonly Column[]>
