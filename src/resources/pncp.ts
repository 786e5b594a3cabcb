import {
  type Field,
  type FieldOptions,
  field,
  type Kind,
  owned,
  type Relation,
  type Shape,
  shape,
} from './fields.js'
import { numbered } from './filters.js'

// What a record imported from PNCP (docs/pncp-mapping.md) carries besides the platform's own fields:
// its number and page on PNCP, when PNCP last changed it, and the unit of the organ that published it.
// Declared once, spread into every kind PNCP publishes; the platform's own records leave them out (null).

/** A field an import record may leave out. */
function optional<const K extends Kind>(
  kind: K,
  label: string,
  options: Omit<FieldOptions<true, never, never>, 'nullable'> = {},
): Field<K, true, never> & { readonly optional: true } {
  return { ...field<K, true>(kind, label, { ...options, nullable: true }), optional: true }
}

export const pncpFields = {
  pncp_id: optional('text', 'Número de controle PNCP', {
    maxLength: 100,
    description: 'Its numeroControlePNCP, when it came from PNCP (docs/pncp-mapping.md)',
  }),
  pncp_url: optional('url', 'Página no PNCP', { description: 'Its page on PNCP, when it came from PNCP' }),
  pncp_updated_at: optional('instant', 'Atualizado no PNCP', {
    description:
      'When PNCP last changed it (dataAtualizacaoGlobal): an import never replaces it with an older version',
  }),
  unit_code: optional('text', 'Código da unidade', { maxLength: 100 }),
  unit_name: optional('text', 'Unidade', { maxLength: 300 }),
  unit_city: optional('text', 'Município', { maxLength: 200 }),
  unit_ibge_code: optional('text', 'Código IBGE do município', { maxLength: 20 }),
  unit_uf: optional('text', 'UF', { maxLength: 2 }),
}

/** The PNCP fields, in the order a detail and an export show them. */
export const PNCP_SHOWN = [
  'pncp_id',
  'pncp_url',
  'pncp_updated_at',
  'unit_code',
  'unit_name',
  'unit_city',
  'unit_ibge_code',
  'unit_uf',
] as const satisfies readonly (keyof typeof pncpFields)[]

/** What PNCP tells of a contratação besides the platform's fields (docs/pncp-mapping.md). */
export const pncpBiddingFields = {
  process: optional('text', 'Processo', {
    maxLength: 100,
    description: 'The administrative process (processo)',
  }),
  legal_basis: optional('text', 'Amparo legal', {
    maxLength: 500,
    description: 'The legal basis of the contracting (amparoLegal.nome)',
  }),
  closing_date: optional('instant', 'Encerramento das propostas', {
    description: 'When the proposal period closes (dataEncerramentoProposta)',
  }),
  additional_info: optional('text', 'Informação complementar', { maxLength: 10_000 }),
  origin_url: optional('url', 'Sistema de origem', {
    description: 'The contracting on the system it was run in (linkSistemaOrigem)',
  }),
}

/** The PNCP fields of a contratação, in the order a detail and an export show them (after PNCP_SHOWN). */
export const PNCP_BIDDING_SHOWN = [
  'process',
  'legal_basis',
  'closing_date',
  'additional_info',
  'origin_url',
] as const satisfies readonly (keyof typeof pncpBiddingFields)[]

/** An item of a direct contract or public call, as PNCP publishes it (`.../compras/{ano}/{sequencial}/itens`). */
export const TenderItem = shape({
  name: 'TenderItem',
  description: 'An item of a direct contract or public call, with its estimate',
  table: 'bidding_items',
  alias: 'bi',
  fields: {
    number_item: field('integer', 'Item', { minimum: 1, maximum: 2147483647, description: 'Item number' }),
    description: field('text', 'Descrição', { maxLength: 10_000, description: 'Item description' }),
    unit_measurement: field('text', 'Unidade de medida', { maxLength: 100, description: 'As published' }),
    quantity: field('amount', 'Quantidade', { description: 'Quantity (decimal)' }),
    estimated_amount: field('amount', 'Valor unitário estimado', {
      nullable: true,
      description: 'Estimated unit price; null when not published (a secret budget)',
    }),
    estimated_total: field('money', 'Valor total estimado', { nullable: true }),
  },
})

/**
 * A result of an item: the supplier it went to, with the quantity and unit price homologated
 * (`.../itens/{numeroItem}/resultados`). A price paid or registered: the price research reads it.
 */
export const TenderResult = shape({
  name: 'TenderResult',
  description: 'A result of an item: its supplier, and the quantity and unit price homologated',
  table: 'bidding_results',
  alias: 'br',
  fields: {
    number_item: field('integer', 'Item', {
      minimum: 1,
      maximum: 2147483647,
      description: 'Its item (number_item)',
    }),
    name: field('text', 'Fornecedor', { maxLength: 300, store: { supplier: 'name' } }),
    document: field('taxId', 'CNPJ/CPF', { store: { supplier: 'document' } }),
    quantity: field('amount', 'Quantidade homologada'),
    amount: field('amount', 'Valor unitário homologado'),
    amount_total: field('money', 'Valor total homologado'),
    discount: field('amount', 'Desconto (%)', {
      nullable: true,
      description: 'Discount on the estimate, in percent',
    }),
    result_date: field('date', 'Data do resultado', { nullable: true }),
  },
})

/** Owned children an import record may leave out. */
function optionalOwned<const S extends Shape>(
  label: string,
  of: S,
): Relation<S, true> & { readonly optional: true } {
  return { ...owned(label, of, { column: 'bidding_id' }, { maxItems: MAX_CHILDREN }), optional: true }
}

/** A contratação's items (and results) at most: a registry of medicines may list thousands. */
export const MAX_CHILDREN = 20_000

/** A contratação's items and their results, as PNCP publishes them; the platform's own biddings have none. */
export const pncpBiddingLists = {
  items: optionalOwned('Itens', TenderItem),
  results: optionalOwned('Resultados', TenderResult),
}

/** Every listing's filter by PNCP number. */
export const pncpFilter = { pncp_id: numbered('pncp_id', 'PNCP control number (numeroControlePNCP)') }
