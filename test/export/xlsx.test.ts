import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { buffer } from 'node:stream/consumers'
import { describe, it } from 'node:test'
import ExcelJS from 'exceljs'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import JSZip from 'jszip'
import type { Column, ColumnKind } from '../../src/export/columns.js'
import { escapeXml, xlsxStream } from '../../src/export/xlsx.js'

describe('xlsx writer', () => {
  it('escapes XML specials and drops characters XML cannot hold', () => {
    assert.equal(escapeXml('a & b < c > "d"'), 'a &amp; b &lt; c &gt; &quot;d&quot;')
    assert.equal(escapeXml('bell\u0007 and form\u000c feed'), 'bell and form feed')
    assert.equal(escapeXml('tab\tand\nnewline'), 'tab\tand\nnewline')
    // Text made only of what needs escaping, and a carriage return a reader would otherwise turn into \n.
    assert.equal(escapeXml('&'), '&amp;')
    assert.equal(escapeXml('<>"\r'), '&lt;&gt;&quot;&#13;')
    assert.equal(escapeXml('\u0000'), '')
  })

  it('writes a sheet that a real reader opens, with text, numbers, dates and more than 26 columns', async () => {
    const columns: Column[] = [
      { title: 'Texto', kind: 'text', sql: '' },
      { title: 'Valor', kind: 'money', sql: '' },
      { title: 'Dia', kind: 'date', sql: '' },
      ...Array.from({ length: 27 }, (_, i): Column => ({ title: `C${i}`, kind: 'integer', sql: '' })),
    ]
    async function* rows() {
      yield [
        '  espaços & <tags>\u0001',
        '1234.50',
        '45000',
        ...Array.from({ length: 27 }, (_, i) => String(i)),
      ]
      yield [null, null, null, ...Array.from({ length: 27 }, () => null)]
    }
    const bytes = await buffer(xlsxStream('Folha', columns, rows()))
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer)
    const sheet = workbook.getWorksheet('Folha') as ExcelJS.Worksheet
    assert.equal(sheet.getCell('A1').value, 'Texto')
    assert.equal(sheet.getCell('A2').value, '  espaços & <tags>')
    assert.equal(sheet.getCell('B2').value, 1234.5)
    assert.deepEqual(sheet.getCell('C2').value, new Date('2023-03-15T00:00:00Z'))
    assert.equal(sheet.getCell('AD2').value, 26)
    assert.equal(sheet.getCell('A3').value, null)
  })
})

// The package read part by part against the OOXML structure (ECMA-376 part 2, Open Packaging), not through a
// reader that forgives: every part where a relationship or an override says, with its type and namespace,
// counts that match their lists, and the sheet's styles, widths, frozen header and cell references.

const NS = {
  main: 'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
  rel: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  pkgRel: 'http://schemas.openxmlformats.org/package/2006/relationships',
  types: 'http://schemas.openxmlformats.org/package/2006/content-types',
}
const REPEATED = new Set([
  'Default',
  'Override',
  'Relationship',
  'sheet',
  'numFmt',
  'font',
  'fill',
  'border',
  'xf',
  'cellStyle',
  'col',
  'row',
  'c',
])
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (name) => REPEATED.has(name),
})
type Node = Record<string, unknown>
type Cell = {
  r: string
  s?: string
  t?: string
  is?: { t: string | { '#text': string; 'xml:space'?: string } }
  v?: string
}

async function readPackage(
  bytes: Buffer,
): Promise<{ names: string[]; part(name: string): Promise<Node>; zip: JSZip }> {
  const zip = await JSZip.loadAsync(bytes)
  const names = Object.keys(zip.files).sort()
  return {
    names,
    zip,
    async part(name) {
      const file = zip.file(name)
      assert.ok(file, `the package has ${name}`)
      const xml = await file.async('string')
      assert.equal(XMLValidator.validate(xml), true, `${name} is well-formed XML`)
      assert.ok(
        xml.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'),
        `${name} declares UTF-8`,
      )
      const parsed = parser.parse(xml) as Node
      assertNoMixedContent(parsed, name)
      return parsed
    },
  }
}

/**
 * No element of these parts mixes text with child elements (SpreadsheetML has no mixed content): text
 * between cells or rows, as a wrong separator or a stray chunk would leave, makes the sheet invalid.
 */
function assertNoMixedContent(node: unknown, where: string): void {
  if (Array.isArray(node)) {
    for (const child of node) assertNoMixedContent(child, where)
    return
  }
  if (typeof node !== 'object' || node === null) return
  const entries = Object.entries(node as Node)
  const children = entries.filter(([key, value]) => key !== '#text' && typeof value === 'object')
  const text = (node as Node)['#text']
  if (children.length > 0 && typeof text === 'string')
    assert.equal(text.trim(), '', `${where}: text beside the elements ${children.map(([k]) => k).join(', ')}`)
  for (const [key, value] of children) assertNoMixedContent(value, `${where} ${key}`)
}

const textOf = (cell: Cell) => {
  const t = cell.is?.t
  return typeof t === 'object' ? t['#text'] : t
}
const spaceOf = (cell: Cell) => {
  const t = cell.is?.t
  return typeof t === 'object' ? t['xml:space'] : undefined
}

describe('xlsx package, part by part', () => {
  const kinds: ColumnKind[] = ['text', 'money', 'date', 'datetime', 'boolean', 'integer']
  const columns: Column[] = kinds.map((kind) => ({ title: `Coluna ${kind}`, kind, sql: '' }))
  const sheetName = 'Contratos & "ARPs" <2026>'
  const rowsOf = (n: number) =>
    (async function* () {
      for (let i = 0; i < n; i++) {
        yield [
          i === 0 ? '  espaços nas pontas ' : `texto ${i} ${'x'.repeat(40)}`,
          '1234.50',
          '45000',
          '45000.5',
          'Sim',
          String(i),
        ]
      }
    })()

  it('places every part where its relationship and content type say, in the OOXML namespaces', async () => {
    const pkg = await readPackage(await buffer(xlsxStream(sheetName, columns, rowsOf(2))))
    assert.deepEqual(pkg.names, [
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ])
    // Fixed entry dates: the same rows give the same bytes.
    const dates = new Set(Object.values(pkg.zip.files).map((f) => f.date.getTime()))
    assert.equal(dates.size, 1)
    assert.ok(([...dates][0] as number) < Date.UTC(1981, 0, 1), "entries dated at the zip format's epoch")

    const types = (await pkg.part('[Content_Types].xml')).Types as Node
    assert.equal(types.xmlns, NS.types)
    const defaults = Object.fromEntries((types.Default as Node[]).map((d) => [d.Extension, d.ContentType]))
    assert.deepEqual(defaults, {
      rels: 'application/vnd.openxmlformats-package.relationships+xml',
      xml: 'application/xml',
    })
    const overrides = Object.fromEntries((types.Override as Node[]).map((o) => [o.PartName, o.ContentType]))
    assert.deepEqual(overrides, {
      '/xl/workbook.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
      '/xl/worksheets/sheet1.xml':
        'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml',
      '/xl/styles.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml',
    })
    for (const name of Object.keys(overrides)) assert.ok(pkg.names.includes(name.slice(1)), `${name} exists`)

    const rootRels = (await pkg.part('_rels/.rels')).Relationships as Node
    assert.equal(rootRels.xmlns, NS.pkgRel)
    assert.deepEqual(rootRels.Relationship, [
      { Id: 'rId1', Type: `${NS.rel}/officeDocument`, Target: 'xl/workbook.xml' },
    ])

    const workbook = (await pkg.part('xl/workbook.xml')).workbook as Node
    assert.equal(workbook.xmlns, NS.main)
    assert.equal(workbook['xmlns:r'], NS.rel)
    const sheets = (workbook.sheets as Node).sheet as Node[]
    assert.deepEqual(sheets, [{ name: sheetName, sheetId: '1', 'r:id': 'rId1' }])

    const bookRels = (await pkg.part('xl/_rels/workbook.xml.rels')).Relationships as Node
    assert.equal(bookRels.xmlns, NS.pkgRel)
    const relationships = bookRels.Relationship as Node[]
    const byId = Object.fromEntries(relationships.map((r) => [r.Id, r]))
    assert.deepEqual(byId.rId1, { Id: 'rId1', Type: `${NS.rel}/worksheet`, Target: 'worksheets/sheet1.xml' })
    const styles = relationships.filter((r) => r.Type === `${NS.rel}/styles`)
    assert.deepEqual(styles, [{ Id: 'rId2', Type: `${NS.rel}/styles`, Target: 'styles.xml' }])
  })

  it('styles: counts that match their lists, a bold header, the day, date-time and money formats', async () => {
    const pkg = await readPackage(await buffer(xlsxStream(sheetName, columns, rowsOf(1))))
    const styles = (await pkg.part('xl/styles.xml')).styleSheet as Node
    assert.equal(styles.xmlns, NS.main)
    const list = (name: string, item: string) => {
      const node = styles[name] as Node
      const items = node[item] as Node[]
      assert.equal(node.count, String(items.length), `${name} count`)
      return items
    }
    const formats = Object.fromEntries(list('numFmts', 'numFmt').map((f) => [f.numFmtId, f.formatCode]))
    assert.deepEqual(formats, { '164': 'dd/mm/yyyy', '165': 'dd/mm/yyyy hh:mm:ss' })
    const fonts = list('fonts', 'font')
    list('fills', 'fill')
    list('borders', 'border')
    list('cellStyleXfs', 'xf')
    list('cellStyles', 'cellStyle')
    const xfs = list('cellXfs', 'xf')

    const sheet = (await pkg.part('xl/worksheets/sheet1.xml')).worksheet as Node
    const rows = (sheet.sheetData as Node).row as Node[]
    const header = (rows[0] as Node).c as Cell[]
    for (const cell of header) {
      const xf = xfs[Number(cell.s)] as Node
      assert.equal(xf.applyFont, '1')
      assert.ok('b' in (fonts[Number(xf.fontId)] as Node), 'the header is bold')
    }
    const cells = Object.fromEntries(((rows[1] as Node).c as Cell[]).map((c) => [c.r.replace(/\d+$/, ''), c]))
    const format = (letter: string) => {
      const xf = xfs[Number(cells[letter]?.s ?? 0)] as Node
      return { id: xf.numFmtId, applied: xf.applyNumberFormat }
    }
    assert.deepEqual(format('B'), { id: '4', applied: '1' }, 'money: #,##0.00')
    assert.deepEqual(format('C'), { id: '164', applied: '1' }, 'a day')
    assert.deepEqual(format('D'), { id: '165', applied: '1' }, 'a date-time')
    assert.equal(cells.F?.s, undefined, 'an integer has the default style')
    assert.equal(cells.E?.s, undefined, 'a boolean is text of the default style')
  })

  it('sheet: a frozen header, widths by kind, inline text that keeps its outer spaces, numbers as values', async () => {
    const pkg = await readPackage(await buffer(xlsxStream(sheetName, columns, rowsOf(2))))
    const sheet = (await pkg.part('xl/worksheets/sheet1.xml')).worksheet as Node
    assert.equal(sheet.xmlns, NS.main)
    const view = (sheet.sheetViews as Node).sheetView as Node
    assert.equal(view.workbookViewId, '0')
    assert.deepEqual(view.pane, { ySplit: '1', topLeftCell: 'A2', activePane: 'bottomLeft', state: 'frozen' })
    assert.deepEqual(
      ((sheet.cols as Node).col as Node[]).map((c) => [c.min, c.max, c.width, c.customWidth]),
      [
        ['1', '1', '30', '1'],
        ['2', '2', '16', '1'],
        ['3', '3', '12', '1'],
        ['4', '4', '20', '1'],
        ['5', '5', '10', '1'],
        ['6', '6', '10', '1'],
      ],
    )
    const rows = (sheet.sheetData as Node).row as Node[]
    assert.deepEqual(
      rows.map((r) => r.r),
      ['1', '2', '3'],
    )
    const header = (rows[0] as Node).c as Cell[]
    assert.deepEqual(
      header.map((c) => [c.r, c.t, textOf(c)]),
      columns.map((c, i) => [`${'ABCDEF'[i]}1`, 'inlineStr', c.title]),
    )
    const [spaced, ...values] = (rows[1] as Node).c as Cell[]
    assert.deepEqual(
      [spaced?.r, spaced?.t, textOf(spaced as Cell), spaceOf(spaced as Cell)],
      ['A2', 'inlineStr', '  espaços nas pontas ', 'preserve'],
    )
    assert.deepEqual(
      values.map((c) => [c.r, c.t, c.v ?? textOf(c)]),
      [
        ['B2', undefined, '1234.50'],
        ['C2', undefined, '45000'],
        ['D2', undefined, '45000.5'],
        ['E2', 'inlineStr', 'Sim'],
        ['F2', undefined, '0'],
      ],
    )
    const plain = ((rows[2] as Node).c as Cell[])[0] as Cell
    assert.equal(spaceOf(plain), undefined, 'text without outer spaces needs no xml:space')
    assert.equal(textOf(plain), `texto 1 ${'x'.repeat(40)}`)
  })

  it('names cells past Z as spreadsheets do (AA, AZ, BA, ZZ, AAA)', async () => {
    const wide: Column[] = Array.from({ length: 703 }, (_, i) => ({
      title: `C${i}`,
      kind: 'integer',
      sql: '',
    }))
    const pkg = await readPackage(
      await buffer(
        xlsxStream(
          'Larga',
          wide,
          (async function* () {
            yield wide.map((_, i) => String(i))
          })(),
        ),
      ),
    )
    const sheet = (await pkg.part('xl/worksheets/sheet1.xml')).worksheet as Node
    const cells = ((sheet.sheetData as Node).row as Node[])[1]?.c as Cell[]
    const ref = (i: number) => (cells[i] as Cell).r
    assert.deepEqual([0, 25, 26, 51, 52, 701, 702].map(ref), ['A2', 'Z2', 'AA2', 'AZ2', 'BA2', 'ZZ2', 'AAA2'])
  })

  it('streams a sheet of many chunks whole, row after row', async () => {
    const n = 3000
    const pkg = await readPackage(await buffer(xlsxStream(sheetName, columns, rowsOf(n))))
    const file = pkg.zip.file('xl/worksheets/sheet1.xml') as JSZip.JSZipObject
    assert.ok((await file.async('string')).length > 3 * 65_536, 'more than one chunk')
    const rows = ((await pkg.part('xl/worksheets/sheet1.xml')).worksheet as Node).sheetData as Node
    const all = rows.row as Node[]
    assert.equal(all.length, n + 1)
    all.forEach((row, i) => {
      assert.equal(row.r, String(i + 1))
      if (i > 0) assert.equal(((row.c as Cell[])[5] as Cell).v, String(i - 1))
    })
  })

  it('sends the sheet while its rows are still being read', async () => {
    // Random text deflates little, so the sheet's first chunks show in the output at once; a writer that
    // held the sheet until its last row would send only the small fixed parts before the rows end.
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    async function* slowRows() {
      for (let i = 0; i < 3000; i++)
        yield [randomBytes(48).toString('hex'), '1.00', '1', '1', 'Sim', String(i)]
      await held
      yield ['último', '1.00', '1', '1', 'Sim', '3000']
    }
    const output = xlsxStream(sheetName, columns, slowRows())
    const chunks: Buffer[] = []
    let received = 0
    output.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      received += chunk.length
    })
    const ended = once(output, 'end')
    const deadline = Date.now() + 10_000
    while (received < 100_000 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20))
    const beforeEnd = received
    release()
    await ended
    assert.ok(beforeEnd >= 100_000, `only ${beforeEnd} bytes sent before the rows ended`)
    const rows = (
      (await (await readPackage(Buffer.concat(chunks))).part('xl/worksheets/sheet1.xml')).worksheet as Node
    ).sheetData as Node
    assert.equal((rows.row as Node[]).length, 3002)
  })

  it('fails the stream when the rows fail', async () => {
    async function* failing() {
      yield ['a', '1', '1', '1', 'Sim', '1']
      throw new Error('a leitura das linhas falhou')
    }
    await assert.rejects(buffer(xlsxStream(sheetName, columns, failing())), /a leitura das linhas falhou/)
  })
})
