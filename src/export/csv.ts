import { Readable } from 'node:stream'
import type { Column } from './columns.js'

export type Separator = ',' | ';'

/** A cell a spreadsheet would read as a formula (OWASP's list: = + - @ tab carriage return). */
const FORMULA_START = /^[=+\-@\t\r]/
/** Quoted: either separator (a reader may guess the other one), a quote, a line break. */
const NEEDS_QUOTES = /[,;"\n\r]/

/**
 * One field. A value that would start a formula gets a leading apostrophe, as OWASP recommends against CSV
 * injection; it is data, never a formula. (Only text can: money, dates and numbers never start with those
 * characters.) RFC 4180 quoting otherwise, quotes doubled; null is an empty field.
 */
export function csvField(value: string | null): string {
  if (value === null) return ''
  const safe = FORMULA_START.test(value) ? `'${value}` : value
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/** RFC 4180 CSV, UTF-8 with a byte-order mark (Excel then reads accents right), CRLF line ends. */
export function csvStream(
  columns: readonly Column[],
  rows: AsyncIterable<readonly (string | null)[]>,
  separator: Separator,
): Readable {
  return Readable.from(
    (async function* () {
      let chunk = `\uFEFF${columns.map((c) => csvField(c.title)).join(separator)}\r\n`
      for await (const row of rows) {
        chunk += `${row.map(csvField).join(separator)}\r\n`
        // Stryker disable next-line EqualityOperator,ConditionalExpression: a flush at another size writes the same bytes
        if (chunk.length >= 65_536) {
          yield chunk
          chunk = ''
        }
      }
      // Stryker disable next-line ConditionalExpression: an empty last chunk adds no byte
      if (chunk) yield chunk
    })(),
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: string chunks are the same bytes in either mode
    { objectMode: false },
  )
}
