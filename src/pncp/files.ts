import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'

// PNCP's JSON as its consultation API serves it, saved to files: a page envelope (`data`, `totalRegistros`,
// `totalPaginas`, `numeroPagina`, `paginasRestantes`, `empty`), a bare array of records, or one record.

/** A file larger than this is refused: a page of PNCP's API is about 100 KB. */
export const MAX_FILE_BYTES = 256 * 1024 * 1024

/** The files the paths name: a file as it is, a directory's `.json` files, recursively, in name order. */
export async function pncpFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = []
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined)
    if (info === undefined) throw new Error(`cannot read ${path}`)
    if (!info.isDirectory()) {
      files.push(path)
      continue
    }
    const entries = await readdir(path, { recursive: true, withFileTypes: true })
    const found = entries
      .filter((e) => e.isFile() && e.name.endsWith('.json') && !e.name.startsWith('.'))
      .map((e) => join(e.parentPath, e.name))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    for (const file of found) files.push(file) // a spread of 200,000 arguments overflows the stack
  }
  return files
}

/** A file's records, or why it holds none that can be read. */
export type FileRecords = { records: unknown[] } | { error: string }

/** The records of one file's text. */
export function recordsOf(text: string): FileRecords {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const start = body.trimStart()
  if (start === '') return { error: 'the file is empty' }
  if (start.startsWith('<'))
    return { error: 'the file is an HTML page, not JSON (PNCP answers errors and 429 as HTML)' }
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch (error) {
    return { error: `invalid JSON (a truncated file?): ${(error as Error).message}` }
  }
  if (Array.isArray(value)) return { records: value }
  if (value === null || typeof value !== 'object') return { error: 'the file holds no JSON object or array' }
  const object = value as Record<string, unknown>
  if ('data' in object || 'totalRegistros' in object || 'empty' in object) {
    if (object.empty === true && (object.data === undefined || object.data === null)) return { records: [] }
    if (!Array.isArray(object.data)) return { error: "a page envelope whose 'data' is not an array" }
    return { records: object.data }
  }
  return { records: [object] }
}

/** Reads one file's records; `size`, when known, spares a look at the file first. */
export async function readRecords(path: string, size?: number): Promise<FileRecords> {
  const bytes = size ?? (await stat(path).catch(() => ({ size: 0 }))).size
  if (bytes > MAX_FILE_BYTES)
    return { error: `the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB; split it into pages` }
  let text: string
  try {
    text = DECODER.decode(await readFile(path))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return { error: code === undefined ? 'the file is not valid UTF-8' : `the file cannot be read (${code})` }
  }
  return recordsOf(text)
}

const DECODER = new TextDecoder('utf-8', { fatal: true })

/**
 * Reads files ahead of their use, a few at a time: the files of a harvest are many and small, and read one
 * after another the import waited on each. `get` is called in the list's order; each file is read once.
 */
export class ReadAhead {
  private readonly pending = new Map<number, Promise<FileRecords>>()
  private next = 0

  constructor(
    private readonly files: readonly { path: string; size: number }[],
    private readonly depth = 16,
  ) {}

  /** The records of the file at `index` of the list. */
  get(index: number): Promise<FileRecords> {
    this.next = Math.max(this.next, index)
    while (this.next < this.files.length && this.next <= index + this.depth) {
      const at = this.next++
      const file = this.files[at] as { path: string; size: number }
      const read = readRecords(file.path, file.size)
      read.catch(() => {}) // its failure is thrown where it is awaited
      this.pending.set(at, read)
    }
    const read = this.pending.get(index) ?? readRecords((this.files[index] as { path: string }).path)
    this.pending.delete(index)
    return read
  }
}
