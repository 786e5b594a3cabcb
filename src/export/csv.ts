import { Readable } from 'node:stream'
import type { Column } from './columns.js'

export type Separator = ',' | ';'

function field(value: string | null, separator: Separator): string {
  if (value === null) return ''
  // RFC 4180: a field holding the separator, a quote or a line break is quoted, quotes doubled.
  if (value.includes(separator) || value.includes('"') || value.includes('\n') || value.includes('\r')) {
    return `"${value.replaceAll('"', '""')}"`
  }
  return value
}

/** RFC 4180 CSV, UTF-8 with a byte-order mark (Excel then reads accents right), CRLF line ends. */
export function csvStream(
  columns: readonly Column[],
  rows: AsyncIterable<readonly (string | null)[]>,
  separator: Separator,
): Readable {
  return Readable.from(
    (async function* () {
      let chunk = `\uFEFF${columns.map((c) => field(c.title, separator)).join(separator)}\r\n`
      for await (const row of rows) {
        chunk += `${row.map((value) => field(value, separator)).join(separator)}\r\n`
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
