import type { Readable } from 'node:stream'

export const MAX_LINE_BYTES = 1024 * 1024

export type Line = { number: number; text: string } | { number: number; error: string }

const decoder = new TextDecoder('utf-8', { fatal: true })

/**
 * Splits a byte stream into numbered lines without holding more than one line in memory.
 * A line over MAX_LINE_BYTES or with invalid UTF-8 comes out as an error for that line.
 * Blank lines are skipped; a UTF-8 byte-order mark at the start is dropped. onBytes hears of each chunk read.
 */
export async function* readLines(input: Readable, onBytes?: (bytes: number) => void): AsyncGenerator<Line> {
  let pending: Buffer[] = []
  let pendingBytes = 0
  let tooLong = false
  let number = 0
  let first = true

  const finish = (chunks: Buffer[]): Line | undefined => {
    number++
    if (tooLong) return { number, error: `line is longer than ${MAX_LINE_BYTES} bytes` }
    let bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
    if (first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3)
    first = false
    let text: string
    try {
      text = decoder.decode(bytes)
    } catch {
      return { number, error: 'line is not valid UTF-8' }
    }
    if (text.endsWith('\r')) text = text.slice(0, -1)
    return text.trim() === '' ? undefined : { number, text }
  }

  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    onBytes?.(buffer.length)
    let start = 0
    for (;;) {
      const end = buffer.indexOf(0x0a, start)
      if (end === -1) break
      const piece = buffer.subarray(start, end)
      // A line that arrived whole in one chunk, or whose last piece takes it past the limit.
      if (pendingBytes + piece.length > MAX_LINE_BYTES) tooLong = true
      const line = finish(pendingBytes === 0 ? [piece] : [...pending, piece])
      pending = []
      pendingBytes = 0
      tooLong = false
      if (line) yield line
      start = end + 1
    }
    if (start < buffer.length) {
      const rest = buffer.subarray(start)
      pendingBytes += rest.length
      if (pendingBytes > MAX_LINE_BYTES) {
        tooLong = true
        pending = []
      } else {
        pending.push(Buffer.from(rest)) // copy: the stream may reuse its buffer
      }
    }
  }
  if (pendingBytes > 0 || tooLong) {
    const line = finish(pending)
    if (line) yield line
  }
}
