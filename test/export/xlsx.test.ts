import assert from 'node:assert/strict'
import { buffer } from 'node:stream/consumers'
import { describe, it } from 'node:test'
import ExcelJS from 'exceljs'
import type { Column } from '../../src/export/columns.js'
import { escapeXml, xlsxStream } from '../../src/export/xlsx.js'

describe('xlsx writer', () => {
  it('escapes XML specials and drops characters XML cannot hold', () => {
    assert.equal(escapeXml('a & b < c > "d"'), 'a &amp; b &lt; c &gt; &quot;d&quot;')
    assert.equal(escapeXml('bell\u0007 and form\u000c feed'), 'bell and form feed')
    assert.equal(escapeXml('tab\tand\nnewline'), 'tab\tand\nnewline')
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
