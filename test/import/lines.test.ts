import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { describe, it } from 'node:test'
import { type Line, MAX_LINE_BYTES, readLines } from '../../src/import/lines.js'

async function lines(chunks: (string | Buffer)[]): Promise<Line[]> {
  const out: Line[] = []
  for await (const line of readLines(
    Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))),
  )) {
    out.push(line)
  }
  return out
}

describe('readLines', () => {
  it('numbers lines across chunk boundaries and skips blank ones', async () => {
    assert.deepEqual(await lines(['a\nb', 'c\n\n', 'd']), [
      { number: 1, text: 'a' },
      { number: 2, text: 'bc' },
      { number: 4, text: 'd' },
    ])
  })

  it('splits a multi-byte character across chunks correctly', async () => {
    const bytes = Buffer.from('ção\n')
    assert.deepEqual(await lines([bytes.subarray(0, 2), bytes.subarray(2)]), [{ number: 1, text: 'ção' }])
  })

  it('drops a leading byte-order mark and a CR before LF', async () => {
    assert.deepEqual(await lines(['\uFEFFa\r\nb\r\n']), [
      { number: 1, text: 'a' },
      { number: 2, text: 'b' },
    ])
  })

  it('reports invalid UTF-8 for its line only', async () => {
    assert.deepEqual(await lines([Buffer.from([0x61, 0x0a, 0xff, 0xfe, 0x0a, 0x62])]), [
      { number: 1, text: 'a' },
      { number: 2, error: 'line is not valid UTF-8' },
      { number: 3, text: 'b' },
    ])
  })

  it('reports a line over the limit without holding it', async () => {
    const big = 'x'.repeat(64 * 1024)
    const chunks = [...Array.from({ length: MAX_LINE_BYTES / big.length + 2 }, () => big), '\nok\n']
    assert.deepEqual(await lines(chunks), [
      { number: 1, error: `line is longer than ${MAX_LINE_BYTES} bytes` },
      { number: 2, text: 'ok' },
    ])
  })
  it('reports a line over the limit that arrives in one chunk, or whose last piece takes it over', async () => {
    const tooLong = { number: 1, error: `line is longer than ${MAX_LINE_BYTES} bytes` }
    const whole = `${'x'.repeat(MAX_LINE_BYTES + 1)}\nok\n`
    assert.deepEqual(await lines([whole]), [tooLong, { number: 2, text: 'ok' }])
    const split = ['x'.repeat(MAX_LINE_BYTES - 10), `${'x'.repeat(11)}\nok\n`]
    assert.deepEqual(await lines(split), [tooLong, { number: 2, text: 'ok' }])
    // At the limit exactly, a line is read.
    const [atLimit] = await lines(['x'.repeat(MAX_LINE_BYTES - 10), `${'x'.repeat(10)}\n`])
    assert.equal(atLimit && 'text' in atLimit ? atLimit.text.length : -1, MAX_LINE_BYTES)
  })
})
