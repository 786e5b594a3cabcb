import { type Field, type FieldOptions, field, type Kind } from './fields.js'
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

/** Every listing's filter by PNCP number. */
export const pncpFilter = { pncp_id: numbered('pncp_id', 'PNCP control number (numeroControlePNCP)') }
