// SQL that builds JSON, and the served forms of values. Every face that reads a resource (documents,
// listings, exports, the dump) writes its SQL with these, so a value has one served form.

/** A field of a JSON object built in SQL: its name and the SQL of its value. */
export type JsonField = readonly [name: string, sql: string]

export const money = (sql: string) => `round(${sql}, 2)::text`
export const day = (sql: string) => `to_char(${sql}, 'YYYY-MM-DD')`
export const instant = (sql: string) => `to_char(${sql} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
/**
 * A number as a JSON number written as JavaScript writes it (String(n)), so that a stored document is what
 * JSON.stringify would make of it: the decimal rounded to the nearest double, its shortest digits, and
 * JavaScript's exponent rules (PostgreSQL's float8 writes 1e+15 and 1.23e-05, JavaScript 1000000000000000
 * and 0.0000123, and 1.23e-7 where PostgreSQL writes 1.23e-07). Null stays null. Checked against
 * JavaScript for the amounts the import takes (0 to 1e15, any digits; test/resources/sql.test.ts): past
 * 2^53 PostgreSQL's float8 may write other digits than JavaScript's for the same text.
 */
export const jsNumber = (sql: string) => {
  const x = `(${sql})`
  const f = `${x}::float8`
  // The first case is nearly every amount: one conversion, and no JSON to parse.
  return `CASE WHEN ${x} >= 0.0001 AND ${x} < 999999999999999 OR ${x} = 0 THEN to_json(${f})
    WHEN abs(${f}) < 1e-6 THEN replace(${f}::text, 'e-0', 'e-')::json
    WHEN abs(${f}) >= 1e21 THEN to_json(${f})
    ELSE ${f}::text::numeric::text::json END`
}
/** 12345678901 → ***.456.789-** : only the middle digits of a CPF are public. */
export const maskedCpf = (sql: string) =>
  `'***.' || substr(${sql}, 4, 3) || '.' || substr(${sql}, 7, 3) || '-**'`
/** A supplier's tax id: a CNPJ in full, a CPF (a person) masked. */
export const publicTaxId = (sql: string) =>
  `CASE WHEN length(${sql}) = 11 THEN ${maskedCpf(sql)} ELSE ${sql} END`

/**
 * A JSON object of the fields, in their order, written compact (no space after `:` or `,`): the documents
 * are stored as the bytes they are served as. json_build_object would write `"a" : 1, "b" : 2`.
 */
export function object(fields: readonly JsonField[]): string {
  return `(SELECT row_to_json(j) FROM (SELECT ${fields.map(([name, sql]) => `${sql} AS "${name}"`).join(', ')}) j)`
}

/** A JSON array of the rows of a subquery, in order, compact; [] when there are none. */
export function array(element: string, from: string, orderBy: string): string {
  return `coalesce((SELECT array_to_json(array_agg(${element} ORDER BY ${orderBy})) ${from}), '[]'::json)`
}
