// The listings' filters: each one's SQL over the record's alias `a` and the placeholder `p` of its value, and
// how the portal's form asks for it. The API's parameter schemas are in src/transparency/parameters.ts.

/** A SQL condition for one filter, over the record's alias `a`; `p` is the placeholder of its value. */
export type FilterSql = (a: string, p: string) => string

/** The closed lists a filter's value is chosen from (the helper endpoints' paths). */
export type ChoiceList = 'bidding-modalities' | 'bidding-statuses' | 'management-statuses'

/**
 * How the portal's form asks for a filter: typed in (`search`, `text`, `date`), chosen from a list, or the
 * organ (found by name, then chosen).
 */
export type FormInput =
  | { readonly label: string; readonly input: 'search' | 'text' | 'date' }
  | { readonly label: string; readonly choices: ChoiceList }
  | { readonly label: string; readonly input: 'organization' }

export interface Filter {
  readonly sql: FilterSql
  /** On the portal's form; a filter without one is the API's alone. */
  readonly form?: FormInput
}

/** Suppliers whose name holds the words of `p` in order (migrations/0006_hardening.sql). */
export const nameFilter = (p: string) =>
  `(SELECT id FROM suppliers WHERE name_folded LIKE compras_name_pattern(${p}))`

/** Portuguese full-text search over the record's search column (its object and names). */
export const search: Filter = {
  sql: (a, p) => `${a}.search @@ websearch_to_tsquery('compras_pt', ${p})`,
  form: { label: 'Busca (objeto, nomes)', input: 'search' },
}

export const organization: Filter = {
  sql: (a, p) => `${a}.organization_id = ${p}::uuid`,
  form: { label: 'Órgão', input: 'organization' },
}

/** Equal to a column, with no place on the form (numbers are found by search there). */
export const equal = (column: string): Filter => ({ sql: (a, p) => `${a}.${column} = ${p}` })

/** An id of a closed list, stored in a smallint column. */
export const chosen = (column: string, label: string, choices: ChoiceList): Filter => ({
  sql: (a, p) => `${a}.${column} = ${p}::smallint`,
  form: { label, choices },
})

/** Typed in the form's text box. */
export const typed = (label: string, sql: FilterSql) =>
  ({ sql, form: { label, input: 'text' } }) satisfies Filter

/** The supplier's CNPJ and name, for records with a supplier of their own (`a_s` is its join). */
export const supplierFilters = {
  provider_document: typed('CNPJ do fornecedor (14 dígitos)', (a, p) => `${a}_s.document = ${p}`),
  provider_name: typed('Nome do fornecedor', (a, p) => `${a}.supplier_id IN ${nameFilter(p)}`),
}

/**
 * Records whose published document changed at `p` or later, as the change log dates them
 * (migrations/0015_change_log.sql): `resource` is the public resource's path.
 */
export const changedSince = (resource: string): Filter => ({
  sql: (a, p) =>
    `${a}.id IN (SELECT c.id FROM public_changes c WHERE c.resource = '${resource}' AND c.changed_at >= ${p}::timestamptz)`,
})

/** date_from and date_to over a date column, both days included; `label` is the column's. */
export function dateRange(
  column: string,
  label: string,
  to: FilterSql = (a, p) => `${a}.${column} <= ${p}::date`,
) {
  return {
    date_from: {
      sql: (a: string, p: string) => `${a}.${column} >= ${p}::date`,
      form: { label: `${label}: de`, input: 'date' },
    },
    date_to: { sql: to, form: { label: `${label}: até`, input: 'date' } },
  } satisfies Record<string, Filter>
}
