import { Readable } from 'node:stream'
import type { Column } from './columns.js'

export type Separator = ',' | ';'

/** A text cell a spreadsheet would read as a formula (OWASP's list: = + - @ tab carriage return). */
const FORMULA_START = /^[=+\-@\t\r]/
/** Quoted: either separator (a reader may guess the other one), a quote, a line break. */
const NEEDS_QUOTES = /[,;"\n\r]/

/**
 * One field. Text that would start a formula gets a leading apostrophe, as OWASP recommends against CSV
 * injection; it is data, never a formula. Money, dates and numbers are the service's own text forms
 * (a negative amount is not neutralized). RFC 4180 quoting otherwise, quotes doubled.
 */
export function csvField(value: string | null, kind: Column['kind']): string {
  if (value === null) return ''
  const safe = kind === 'text' && FORMULA_START.test(value) ? `'${value}` : value
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/** RFC 4180 CSV, UTF-8 with a byte-order mark (Excel then reads accents right), CRLF line ends. */
export function csvStream(
  columns: readonly Column[],
  rows: AsyncIterable<readonly (string | null)[]>,
  separator: Separator,
): Readable {
  const kinds = columns.map((column) => column.kind)
  return Readable.from(
    (async function* () {
      let chunk = `\uFEFF${columns.map((c) => csvField(c.title, 'text')).join(separator)}\r\n`
      for await (const row of rows) {
        chunk += `${row.map((value, i) => csvField(value, kinds[i] ?? 'text')).join(separator)}\r\n`
        if (chunk.length >= 65_536) {
          yield chunk
          chunk = ''
        }
      }
      if (chunk) yield chunk
    })(),
    { objectMode: false },
  )
}
