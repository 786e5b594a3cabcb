// SQL that builds JSON, and the served forms of values. Every face that reads a resource (documents,
// listings, exports, the dump) writes its SQL with these, so a value has one served form.

/** A field of a JSON object built in SQL: its name and the SQL of its value. */
export type JsonField = readonly [name: string, sql: string]

export const money = (sql: string) => `round(${sql}, 2)::text`
export const day = (sql: string) => `to_char(${sql}, 'YYYY-MM-DD')`
export const instant = (sql: string) => `to_char(${sql} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
/** 12345678901 → ***.456.789-** : only the middle digits of a CPF are public. */
export const maskedCpf = (sql: string) =>
  `'***.' || substr(${sql}, 4, 3) || '.' || substr(${sql}, 7, 3) || '-**'`
/** A supplier's tax id: a CNPJ in full, a CPF (a person) masked. */
export const publicTaxId = (sql: string) =>
  `CASE WHEN length(${sql}) = 11 THEN ${maskedCpf(sql)} ELSE ${sql} END`

export function object(fields: readonly JsonField[]): string {
  return `json_build_object(${fields.map(([name, sql]) => `'${name}', ${sql}`).join(', ')})`
}

/** A JSON array of the rows of a subquery, in order; [] when there are none. */
export function array(element: string, from: string, orderBy: string): string {
  return `coalesce((SELECT json_agg(${element} ORDER BY ${orderBy}) ${from}), '[]'::json)`
}
