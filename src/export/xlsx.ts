import { Readable } from 'node:stream'
import { ZipFile } from 'yazl'
import type { Column, ColumnKind } from './columns.js'

// A streaming XLSX writer: the sheet's XML is written row by row as the rows arrive and deflated into
// the zip as it goes, so memory stays flat for any number of rows. Text goes in as inline strings
// (no shared-strings table to hold in memory); numbers and dates as numeric cells with a format.

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships'

/** Cell style ids of styles.xml. */
const STYLE: Record<ColumnKind | 'header', number> = {
  text: 0,
  taxId: 0,
  boolean: 0,
  integer: 0,
  date: 1,
  datetime: 2,
  money: 3,
  header: 4,
}
const WIDTH: Record<ColumnKind, number> = {
  text: 30,
  taxId: 20,
  boolean: 10,
  integer: 10,
  date: 12,
  datetime: 20,
  money: 16,
}

const contentTypes = (sheets: number) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheetNumbers(
  sheets,
)
  .map(
    (n) =>
      `<Override PartName="/xl/worksheets/sheet${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
  )
  .join(
    '',
  )}<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`

const sheetNumbers = (sheets: number) => Array.from({ length: sheets }, (_, i) => i + 1)

const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`

const workbookRels = (sheets: number) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="${PKG_REL}">${sheetNumbers(sheets)
  .map((n) => `<Relationship Id="rId${n}" Type="${REL}/worksheet" Target="worksheets/sheet${n}.xml"/>`)
  .join('')}<Relationship Id="rId${sheets + 1}" Type="${REL}/styles" Target="styles.xml"/></Relationships>`

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="${MAIN}"><numFmts count="2"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/><numFmt numFmtId="165" formatCode="dd/mm/yyyy hh:mm:ss"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`

function workbook(names: readonly string[]): string {
  const sheets = names.map(
    (name, i) => `<sheet name="${escapeXml(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`,
  )
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>${sheets.join('')}</sheets></workbook>`
}

// Characters XML 1.0 cannot hold are dropped; the special ones are escaped, a carriage return too (a
// reader would otherwise normalize it into a line feed).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const NEEDS_WORK = /[&<>"\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g
const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\r': '&#13;',
}

export function escapeXml(text: string): string {
  // Stryker disable next-line ConditionalExpression: the fast path for text with nothing to escape; the replace gives the same
  if (!NEEDS_WORK.test(text)) return text
  return text.replace(INVALID, '').replace(/[&<>"\r]/g, (c) => ENTITY[c] as string)
}

function columnLetters(index: number): string {
  let letters = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters
  return letters
}

function textCell(ref: string, text: string, style: number): string {
  const space = text !== text.trim() ? ' xml:space="preserve"' : ''
  return `<c r="${ref}"${style ? ` s="${style}"` : ''} t="inlineStr"><is><t${space}>${escapeXml(text)}</t></is></c>`
}

/** A sheet of a workbook: its rows under its columns' titles, after the lines of its preamble if any. */
export interface Sheet {
  name: string
  columns: readonly Column[]
  rows: AsyncIterable<readonly (string | null)[]>
  /** Lines of text above the titles (what the sheet is, when it was made), then an empty row. */
  preamble?: readonly string[]
}

/** The sheet's XML, in chunks of about 64 KiB. Values come formatted by columnSql(column, 'xlsx'). */
async function* sheet({ columns, rows, preamble = [] }: Sheet): AsyncGenerator<string> {
  const letters = columns.map((_, i) => columnLetters(i))
  const cols = columns
    .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${WIDTH[c.kind]}" customWidth="1"/>`)
    .join('')
  const lines = preamble.map((line, i) => `<row r="${i + 1}">${textCell(`A${i + 1}`, line, 0)}</row>`)
  // The titles' row: after the preamble and an empty row, if there is one.
  const head = preamble.length > 0 ? preamble.length + 2 : 1
  let chunk =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}">` +
    `<sheetViews><sheetView workbookViewId="0"><pane ySplit="${head}" topLeftCell="A${head + 1}" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>` +
    `<cols>${cols}</cols><sheetData>${lines.join('')}<row r="${head}">` +
    columns.map((c, i) => textCell(`${letters[i]}${head}`, c.title, STYLE.header)).join('') +
    '</row>'
  let r = head
  for await (const row of rows) {
    r++
    let xml = `<row r="${r}">`
    // Stryker disable next-line EqualityOperator: a row has one value per column; the one past the end is undefined, skipped
    for (let i = 0; i < columns.length; i++) {
      const value = row[i]
      if (value == null) continue
      const kind = (columns[i] as Column).kind
      const ref = `${letters[i]}${r}`
      // A tax id is text: its leading zeros are part of it.
      if (kind === 'text' || kind === 'taxId' || kind === 'boolean') xml += textCell(ref, value, 0)
      else xml += `<c r="${ref}"${STYLE[kind] ? ` s="${STYLE[kind]}"` : ''}><v>${value}</v></c>`
    }
    chunk += `${xml}</row>`
    // Stryker disable next-line EqualityOperator,ConditionalExpression: a flush at another size writes the same bytes (held whole: the test of streaming)
    if (chunk.length >= 65_536) {
      yield chunk
      chunk = ''
    }
  }
  yield `${chunk}</sheetData></worksheet>`
}

/** An XLSX file of one sheet, streamed as the rows are read. A failing row source fails the stream. */
export function xlsxStream(
  sheetName: string,
  columns: readonly Column[],
  rows: AsyncIterable<readonly (string | null)[]>,
): Readable {
  return xlsxWorkbook([{ name: sheetName, columns, rows }])
}

/** An XLSX file of its sheets, in order, each streamed as its rows are read. A failing source fails the stream. */
export function xlsxWorkbook(sheets: readonly Sheet[]): Readable {
  const zip = new ZipFile()
  const options = { compressionLevel: 1, mtime: new Date(0) }
  zip.addBuffer(Buffer.from(contentTypes(sheets.length)), '[Content_Types].xml', options)
  zip.addBuffer(Buffer.from(ROOT_RELS), '_rels/.rels', options)
  zip.addBuffer(Buffer.from(workbook(sheets.map((s) => s.name))), 'xl/workbook.xml', options)
  zip.addBuffer(Buffer.from(workbookRels(sheets.length)), 'xl/_rels/workbook.xml.rels', options)
  zip.addBuffer(Buffer.from(STYLES), 'xl/styles.xml', options)
  const output = zip.outputStream as Readable
  for (const [i, each] of sheets.entries()) {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: string chunks are the same bytes in either mode
    const sheetStream = Readable.from(sheet(each), { objectMode: false })
    sheetStream.on('error', (error) => output.destroy(error))
    zip.addReadStream(sheetStream, `xl/worksheets/sheet${i + 1}.xml`, options)
  }
  zip.end()
  return output
}
