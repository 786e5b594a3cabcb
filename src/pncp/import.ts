import { appendFile, writeFile } from 'node:fs/promises'
import type { Pool } from '../db/pool.js'
import {
  type ImportOptions,
  type ImportProblem,
  type ImportResult,
  type ImportSource,
  importRecords,
} from '../import/importer.js'
import type { Line } from '../import/lines.js'
import { pncpFiles, readRecords } from './files.js'
import {
  type Contratacao,
  type FieldProblem,
  IMPORTED_KINDS,
  kindOf,
  mapContratacao,
  mapContrato,
  type PncpKind,
} from './mapping.js'

// `compras pncp import`: PNCP's JSON files through the platform's import (src/import/importer.ts), in one
// transaction. Two passes over the files: the first learns every contratação they hold (a contract takes its
// modality from its contratação, wherever it comes), the second maps each record into import lines numbered
// by the record, so that a problem names the file and the record (`FILE:#N`).

export interface PncpImportOptions extends Pick<ImportOptions, 'onProgress' | 'workers' | 'parallelAfter'> {
  /** Every record is of this kind, whatever its fields say. */
  kind?: PncpKind
  /** Import what can be, and write each refused record here with its reasons (one JSON a line). */
  rejects?: string
}

export interface PncpImportResult {
  ok: boolean
  /** The platform import's result (of its last round, with --rejects). */
  result: ImportResult
  /** Every problem (all when ok is false: nothing was written). */
  problems: ImportProblem[]
  /** Records written to the rejects file. */
  rejected: number
  /** Records read, per kind. */
  read: Partial<Record<PncpKind, number>>
  /** Records of kinds this version does not import, per kind. */
  skipped: Partial<Record<PncpKind, number>>
  /** Fields compras does not read, with how many records had each. */
  unknown: Map<string, number>
}

/** A refused record: where it is, and why. */
interface Refusal {
  file: number
  record: number
  problems: FieldProblem[]
}

/** The reason of the line that stands for a record the mapping refused (never shown). */
const REFUSED = 'refused by the PNCP mapping'

/** At most this many rounds with --rejects: each drops the records the last one refused. */
const MAX_ROUNDS = 5

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

export async function importPncp(
  pool: Pool,
  paths: readonly string[],
  options: PncpImportOptions = {},
): Promise<PncpImportResult> {
  const files = await pncpFiles(paths)
  const kindFor = (raw: Record<string, unknown>) => options.kind ?? kindOf(raw)

  // Pass 1: every contratação of the run, by its PNCP number; and the ones contracts name.
  const contratacoes = new Map<string, Contratacao>()
  const named = new Set<string>()
  for (const file of files) {
    const read = await readRecords(file)
    if ('error' in read) continue
    for (const raw of read.records) {
      if (!isObject(raw)) continue
      const kind = kindFor(raw)
      if (kind === 'contratacao') {
        const mapped = mapContratacao(raw)
        if (mapped.contratacao) contratacoes.set(raw.numeroControlePNCP as string, mapped.contratacao)
      } else if (kind === 'contrato') {
        const compra = raw.numeroControlePncpCompra ?? raw.numeroControlePNCPCompra
        if (typeof compra === 'string') named.add(compra.trim())
      }
    }
  }
  for (const id of contratacoes.keys()) named.delete(id)
  for (const found of await storedContratacoes(pool, [...named])) contratacoes.set(found.pncpId, found)

  const excluded = new Map<string, Refusal>()
  const key = (file: number, record: number) => `${file}:${record}`
  let read: Partial<Record<PncpKind, number>> = {}
  let skipped: Partial<Record<PncpKind, number>> = {}
  let unknown = new Map<string, number>()

  /**
   * One file's import lines, each numbered by its record. A record's own problems go to `refused`; without
   * --rejects, a line the platform import refuses takes its place, so that the run writes nothing.
   */
  async function* linesOf(index: number, refused: Refusal[]): AsyncGenerator<Line> {
    const file = files[index] as string
    const records = await readRecords(file)
    const refuse = (refusal: Refusal): Line | undefined => {
      refused.push(refusal)
      return options.rejects === undefined ? { number: refusal.record, error: REFUSED } : undefined
    }
    if ('error' in records) {
      const line = refuse({ file: index, record: 0, problems: [{ field: '(file)', reason: records.error }] })
      if (line) yield line
      return
    }
    for (const [i, raw] of records.records.entries()) {
      const number = i + 1
      if (excluded.has(key(index, number))) continue
      if (!isObject(raw)) {
        const line = refuse({
          file: index,
          record: number,
          problems: [{ field: '(record)', reason: 'is not an object' }],
        })
        if (line) yield line
        continue
      }
      const kind = kindFor(raw)
      if (kind === undefined) {
        const reason = 'is of no kind PNCP serves that compras recognizes (--kind names one)'
        const line = refuse({ file: index, record: number, problems: [{ field: '(record)', reason }] })
        if (line) yield line
        continue
      }
      read[kind] = (read[kind] ?? 0) + 1
      if (!IMPORTED_KINDS.has(kind)) {
        skipped[kind] = (skipped[kind] ?? 0) + 1
        continue
      }
      const mapped =
        kind === 'contratacao' ? mapContratacao(raw) : mapContrato(raw, (id) => contratacoes.get(id))
      for (const name of mapped.unknown) unknown.set(name, (unknown.get(name) ?? 0) + 1)
      if (mapped.problems.length > 0) {
        const line = refuse({ file: index, record: number, problems: mapped.problems })
        if (line) yield line
        continue
      }
      for (const line of mapped.lines) yield { number, text: JSON.stringify(line) }
    }
  }

  for (let round = 1; ; round++) {
    read = {}
    skipped = {}
    unknown = new Map()
    const refused: Refusal[] = []
    const sources: ImportSource[] = files.map((name, index) => ({ name, lines: linesOf(index, refused) }))
    // With problems of its own the run is refused anyway: the platform import then only reports.
    const result = await importRecords(pool, sources, {
      ...options,
      maxProblems: options.rejects === undefined ? undefined : Number.POSITIVE_INFINITY,
    })
    const mapping: ImportProblem[] = refused.flatMap((r) =>
      r.problems.map((p) => ({ file: files[r.file] as string, line: r.record, ...p })),
    )
    const own = result.problems.filter((p) => p.reason !== REFUSED)
    const found = [...mapping, ...own].sort(
      (a, b) => files.indexOf(a.file) - files.indexOf(b.file) || a.line - b.line,
    )
    const done = (ok: boolean): PncpImportResult => ({
      ok,
      result,
      problems: found,
      rejected: excluded.size,
      read,
      skipped,
      unknown,
    })
    if (options.rejects === undefined) return done(result.ok && found.length === 0)
    const fileIndex = new Map(files.map((file, index) => [file, index]))
    const newly: Refusal[] = [...refused]
    for (const problem of result.ok ? [] : own) {
      const file = fileIndex.get(problem.file) ?? 0
      newly.push({ file, record: problem.line, problems: [{ field: problem.field, reason: problem.reason }] })
    }
    for (const refusal of newly) {
      const k = key(refusal.file, refusal.record)
      const known = excluded.get(k)
      if (known) known.problems.push(...refusal.problems)
      else excluded.set(k, refusal)
    }
    if (result.ok || round >= MAX_ROUNDS) {
      await writeRejects(options.rejects, files, [...excluded.values()])
      return done(result.ok)
    }
    if (newly.length === 0) return done(false)
  }
}

/** The refused records, one JSON a line: where each is, why, and the record as PNCP gave it. */
async function writeRejects(
  path: string,
  files: readonly string[],
  refused: readonly Refusal[],
): Promise<void> {
  await writeFile(path, '')
  const byFile = new Map<number, Refusal[]>()
  for (const r of refused) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r])
  for (const [index, list] of [...byFile].sort((a, b) => a[0] - b[0])) {
    const file = files[index] as string
    const records = await readRecords(file)
    const lines = list
      .sort((a, b) => a.record - b.record)
      .map((r) =>
        JSON.stringify({
          file,
          record: r.record,
          problems: r.problems,
          data: r.record > 0 && 'records' in records ? records.records[r.record - 1] : null,
        }),
      )
    await appendFile(path, `${lines.join('\n')}\n`)
  }
}

/** Contratações already stored, by their PNCP numbers. */
async function storedContratacoes(
  pool: Pool,
  ids: readonly string[],
): Promise<(Contratacao & { pncpId: string })[]> {
  const found: (Contratacao & { pncpId: string })[] = []
  for (let i = 0; i < ids.length; i += 10_000) {
    const { rows } = await pool.query<Contratacao & { pncpId: string }>(
      `SELECT b.pncp_id AS "pncpId", b.organization_id AS organization, b.id, m.name AS modality, b.number
       FROM biddings b JOIN bidding_modalities m ON m.id = b.modality_id
       WHERE b.pncp_id = ANY($1)`,
      [ids.slice(i, i + 10_000)],
    )
    found.push(...rows)
  }
  return found
}
