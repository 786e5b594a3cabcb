import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Pool } from '../db/pool.js'

// The files a PNCP import took whole, in pncp_files: a file whose size and modification time are those it had
// then, under the same mapping, holds nothing new, and is not read again. A file with a refused record is never
// recorded, so the next import reads it again.

/** What a file was when it was read: its absolute path, size and modification time (nanoseconds). */
export interface Seen {
  path: string
  size: number
  mtimeNs: string
}

export async function seen(file: string): Promise<Seen> {
  const info = await stat(file, { bigint: true })
  return { path: resolve(file), size: Number(info.size), mtimeNs: String(info.mtimeNs) }
}

const CHUNK = 10_000

/** Which of the files (by index) an earlier import took whole, under this mapping, as they are now. */
export async function unchanged(pool: Pool, files: readonly Seen[], mapping: string): Promise<Set<number>> {
  const same = new Set<number>()
  for (let i = 0; i < files.length; i += CHUNK) {
    const chunk = files.slice(i, i + CHUNK)
    const { rows } = await pool.query<{ path: string; size: string; mtime_ns: string }>(
      'SELECT path, size, mtime_ns FROM pncp_files WHERE path = ANY($1) AND mapping = $2',
      [chunk.map((f) => f.path), mapping],
    )
    const known = new Map(rows.map((r) => [r.path, r]))
    for (const [j, file] of chunk.entries()) {
      const row = known.get(file.path)
      if (row && Number(row.size) === file.size && row.mtime_ns === file.mtimeNs) same.add(i + j)
    }
  }
  return same
}

/** Records the files an import took whole. */
export async function record(pool: Pool, files: readonly Seen[], mapping: string): Promise<void> {
  for (let i = 0; i < files.length; i += CHUNK) {
    const chunk = files.slice(i, i + CHUNK)
    await pool.query(
      `INSERT INTO pncp_files (path, size, mtime_ns, mapping)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[])
       ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns,
         mapping = excluded.mapping, imported_at = now()`,
      [
        chunk.map((f) => f.path),
        chunk.map((f) => f.size),
        chunk.map((f) => f.mtimeNs),
        chunk.map(() => mapping),
      ],
    )
  }
}
