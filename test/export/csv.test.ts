import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parse } from 'csv-parse/sync'
import type { Column } from '../../src/export/columns.js'
import { csvField, csvStream } from '../../src/export/csv.js'

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  let out = ''
  for await (const chunk of stream) out += chunk
  return out
}

describe('csv writer', () => {
  it('writes fields as RFC 4180 and a spreadsheet reads them back as data', () => {
    assert.equal(csvField(null), '')
    assert.equal(csvField(''), '')
    assert.equal(csvField('plain text'), 'plain text')
    assert.equal(csvField('a "quoted" word'), '"a ""quoted"" word"')
    assert.equal(csvField('two\r\nlines'), '"two\r\nlines"')
    assert.equal(csvField('x;y'), '"x;y"')
    assert.equal(csvField('x,y'), '"x,y"')
    for (const start of ['=', '+', '-', '@', '\t']) assert.equal(csvField(`${start}1`), `'${start}1`)
    assert.equal(csvField('\r1'), `"'\r1"`)
    assert.equal(csvField('=1+1;2'), `"'=1+1;2"`)
    assert.equal(csvField('1234.50'), '1234.50')
  })

  it('streams every row, past many internal flushes, byte for byte what a reader parses back', async () => {
    const columns: Column[] = [
      { title: 'Número', kind: 'text', sql: '' },
      { title: 'Objeto; com separador', kind: 'text', sql: '' },
      { title: 'Valor', kind: 'money', sql: '' },
    ]
    const rows = Array.from({ length: 6000 }, (_, i) => [
      String(i),
      i % 7 === 0 ? null : `Objeto ${i}, "aspas"\ne linha ${'x'.repeat(i % 50)}`,
      `${i}.${String(i % 100).padStart(2, '0')}`,
    ])
    for (const separator of [',', ';'] as const) {
      const out = await text(
        csvStream(
          columns,
          (async function* () {
            yield* rows
          })(),
          separator,
        ),
      )
      assert.ok(out.length > 3 * 65_536, 'more than three internal flushes')
      assert.ok(out.startsWith('\uFEFFNúmero'))
      assert.ok(out.endsWith('\r\n'))
      const parsed = parse(out, { bom: true, delimiter: separator }) as string[][]
      assert.deepEqual(
        parsed[0],
        columns.map((c) => c.title),
      )
      assert.deepEqual(
        parsed.slice(1),
        rows.map((row) => row.map((value) => value ?? '')),
      )
    }
  })
})
