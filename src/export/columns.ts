import type { Resource } from '../transparency/resources.js'
import { publicDocument } from '../transparency/sql.js'

/** How a column's value is written: XLSX cell type and number format, CSV text form. */
export type ColumnKind = 'text' | 'money' | 'integer' | 'date' | 'datetime' | 'boolean'

export interface Column {
  title: string
  kind: ColumnKind
  /** The SQL of the raw value; formatting per file type is added by columnSql. */
  sql: string
}

const EXCEL_EPOCH = `DATE '1899-12-30'`

/**
 * The column's SQL for one file type. XLSX gets what goes into a cell's <v>: numbers as text, dates as
 * Excel serial days (UTC); CSV gets the API's text forms. Either way the row is already formatted when it
 * leaves PostgreSQL, so the writers only escape and concatenate.
 */
export function columnSql(column: Column, format: 'xlsx' | 'csv'): string {
  const { sql } = column
  switch (column.kind) {
    case 'money':
      return `round(${sql}, 2)::text`
    case 'integer':
      return `${sql}::text`
    case 'boolean':
      return `CASE WHEN ${sql} THEN 'Sim' ELSE 'Não' END`
    case 'date':
      return format === 'xlsx' ? `(${sql} - ${EXCEL_EPOCH})::text` : `to_char(${sql}, 'YYYY-MM-DD')`
    case 'datetime':
      return format === 'xlsx'
        ? `round((extract(epoch FROM ${sql}) / 86400 + 25569)::numeric, 10)::text`
        : `to_char(${sql} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
    default:
      return sql
  }
}

const contractColumns: Column[] = [
  { title: 'Identificador', kind: 'text', sql: 'c.id::text' },
  { title: 'Organização (UUID)', kind: 'text', sql: 'c.organization_id::text' },
  { title: 'Número do contrato', kind: 'text', sql: 'c.contract_number' },
  { title: 'Objeto', kind: 'text', sql: 'c.object_details' },
  { title: 'Valor total (R$)', kind: 'money', sql: 'c.amount_total' },
  { title: 'Fornecedor', kind: 'text', sql: 's.name' },
  { title: 'CNPJ/CPF do fornecedor', kind: 'text', sql: publicDocument('s.document') },
  { title: 'Contratante', kind: 'text', sql: 'c.contractor_company_name' },
  { title: 'Modalidade', kind: 'text', sql: 'm.name' },
  { title: 'Título do termo', kind: 'text', sql: 'c.term_title' },
  { title: 'Número da licitação', kind: 'text', sql: 'c.bidding_number' },
  { title: 'Licitação (UUID)', kind: 'text', sql: 'c.bidding_id::text' },
  { title: 'Início da vigência', kind: 'date', sql: 'c.date_start' },
  { title: 'Fim da vigência', kind: 'date', sql: 'c.date_end' },
  { title: 'Situação de gestão', kind: 'text', sql: 'ms.name' },
]

const biddingColumns: Column[] = [
  { title: 'Identificador', kind: 'text', sql: 'b.id::text' },
  { title: 'Organização (UUID)', kind: 'text', sql: 'b.organization_id::text' },
  { title: 'Número', kind: 'text', sql: 'b.number' },
  { title: 'Modalidade', kind: 'text', sql: 'm.name' },
  { title: 'Orçamento sigiloso', kind: 'boolean', sql: 'b.budget_secret' },
  { title: 'Situação', kind: 'text', sql: 'st.name' },
  { title: 'Registro de preços', kind: 'boolean', sql: 'b.register_price' },
  { title: 'Data de abertura (UTC)', kind: 'datetime', sql: 'b.opening_date' },
  { title: 'Objeto', kind: 'text', sql: 'b.object_details' },
  { title: 'Órgão', kind: 'text', sql: 'b.company_name' },
  { title: 'Modo de disputa', kind: 'text', sql: 'b.electronic_dispute_mode' },
  { title: 'Forma de adjudicação', kind: 'text', sql: 'b.adjudication_mode' },
  { title: 'Critério de julgamento', kind: 'text', sql: 'b.judgment_criteria' },
  { title: 'Autoridade competente', kind: 'text', sql: 'b.competent_authority' },
  { title: 'Agente de contratação', kind: 'text', sql: 'b.agent' },
  {
    title: 'Valor estimado (R$)',
    kind: 'money',
    sql: 'CASE WHEN b.budget_secret THEN NULL ELSE b.sum_amount_total END',
  },
  { title: 'Valor homologado (R$)', kind: 'money', sql: 'b.sum_amount_total_finish' },
]

const arpColumns: Column[] = [
  { title: 'Identificador', kind: 'text', sql: 'a.id::text' },
  { title: 'Organização (UUID)', kind: 'text', sql: 'a.organization_id::text' },
  { title: 'Número da ata', kind: 'text', sql: 'a.number' },
  { title: 'Objeto', kind: 'text', sql: 'a.object_details' },
  { title: 'Valor total (R$)', kind: 'money', sql: 'a.amount_total' },
  { title: 'Órgão', kind: 'text', sql: 'a.company_name' },
  { title: 'Fornecedor', kind: 'text', sql: 's.name' },
  { title: 'CNPJ/CPF do fornecedor', kind: 'text', sql: publicDocument('s.document') },
  { title: 'Representante do fornecedor', kind: 'text', sql: 'a.representative_name' },
  { title: 'Modalidade', kind: 'text', sql: 'm.name' },
  { title: 'Número da licitação', kind: 'text', sql: 'a.bidding_number' },
  { title: 'Licitação (UUID)', kind: 'text', sql: 'a.bidding_id::text' },
  { title: 'Data de assinatura', kind: 'date', sql: 'a.date_signature' },
  { title: 'Data de vencimento', kind: 'date', sql: 'a.date_expiration' },
  { title: 'Situação de gestão', kind: 'text', sql: 'ms.name' },
]

export const EXPORT_COLUMNS: Record<Resource['path'], readonly Column[]> = {
  contracts: contractColumns,
  'direct-contracts': biddingColumns,
  'public-calls': biddingColumns,
  arps: arpColumns,
}
