// SQL of the filters every listing shares, over the record's alias `a` and the placeholder `p` of the value.

/** Suppliers whose name holds the words of `p` in order (migrations/0006_hardening.sql). */
export const nameFilter = (p: string) =>
  `(SELECT id FROM suppliers WHERE name_folded LIKE compras_name_pattern(${p}))`

/** Portuguese full-text search over the record's search column (its object and names). */
export const searchFilter = (a: string, p: string) =>
  `${a}.search @@ websearch_to_tsquery('compras_pt', ${p})`
