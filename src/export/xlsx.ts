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

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`

const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`

const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="${MAIN}"><numFmts count="2"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/><numFmt numFmtId="165" formatCode="dd/mm/yyyy hh:mm:ss"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`

function workbook(sheetName: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`
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

/** The sheet's XML, in chunks of about 64 KiB. Values come formatted by columnSql(column, 'xlsx'). */
async function* sheet(
  columns: readonly Column[],
  rows: AsyncIterable<readonly (string | null)[]>,
): AsyncGenerator<string> {
  const letters = columns.map((_, i) => columnLetters(i))
  const cols = columns
    .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${WIDTH[c.kind]}" customWidth="1"/>`)
    .join('')
  let chunk =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}">` +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    `<cols>${cols}</cols><sheetData><row r="1">` +
    columns.map((c, i) => textCell(`${letters[i]}1`, c.title, STYLE.header)).join('') +
    '</row>'
  let r = 1
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
  const zip = new ZipFile()
  const options = { compressionLevel: 1, mtime: new Date(0) }
  zip.addBuffer(Buffer.from(CONTENT_TYPES), '[Content_Types].xml', options)
  zip.addBuffer(Buffer.from(ROOT_RELS), '_rels/.rels', options)
  zip.addBuffer(Buffer.from(workbook(sheetName)), 'xl/workbook.xml', options)
  zip.addBuffer(Buffer.from(WORKBOOK_RELS), 'xl/_rels/workbook.xml.rels', options)
  zip.addBuffer(Buffer.from(STYLES), 'xl/styles.xml', options)
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: string chunks are the same bytes in either mode
  const sheetStream = Readable.from(sheet(columns, rows), { objectMode: false })
  const output = zip.outputStream as Readable
  sheetStream.on('error', (error) => output.destroy(error))
  zip.addReadStream(sheetStream, 'xl/worksheets/sheet1.xml', options)
  zip.end()
  return output
}
