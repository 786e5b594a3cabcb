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
import { MAX_CHILDREN } from '../resources/pncp.js'
import { type FileRecords, pncpFiles, ReadAhead, readRecords } from './files.js'
import { record as recordTaken, type Seen, seen, unchanged } from './ledger.js'
import {
  CHILD_KINDS,
  type Children,
  type Contratacao,
  compraOfAta,
  type FieldProblem,
  type ItemRecord,
  kindOf,
  MAPPING_VERSION,
  mapAta,
  mapContratacao,
  mapContrato,
  mapItem,
  mapResult,
  mapTermo,
  PNCP_KINDS,
  type PncpKind,
  parentOf,
  type ResultRecord,
  secretBudget,
  type TermRecord,
} from './mapping.js'

// `compras pncp import`: PNCP's JSON files through the platform's import (src/import/importer.ts), in one
// transaction. Two passes over the files: the first learns every contratação they hold (a contract takes its
// modality from its contratação, wherever it comes) and which files hold each one's items and results; the
// second maps each record into import lines numbered by the record, so that a problem names the file and the
// record (`FILE:#N`). A contratação's items and results go inside its line: they are read when it is.

export interface PncpImportOptions extends Pick<ImportOptions, 'onProgress' | 'workers' | 'parallelAfter'> {
  /**
   * Files to read even though an earlier import took them whole: those that hold the contratação or contrato
   * of new items, results or termos (found by the import itself).
   */
  reread?: ReadonlySet<string>
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
  /** Fields compras does not read, with how many records had each. */
  unknown: Map<string, number>
  /** Files not read: an earlier import took them whole, and they have not changed since. */
  unchanged: number
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
  const listed = await pncpFiles(paths)
  const mapping = `${MAPPING_VERSION};${PNCP_KINDS.join(',')};${options.kind ?? 'by fields'}`
  const stats: Seen[] = []
  for (let i = 0; i < listed.length; i += 1000)
    for (const one of await Promise.all(listed.slice(i, i + 1000).map(seen))) stats.push(one)
  const same = await unchanged(pool, stats, mapping)
  for (const [i, file] of listed.entries()) if (options.reread?.has(file)) same.delete(i)
  const files = listed.filter((_, i) => !same.has(i))
  const fileStats = stats.filter((_, i) => !same.has(i))
  const kindFor = (raw: Record<string, unknown>) => options.kind ?? kindOf(raw)

  // Pass 1: every contratação of the run, by its PNCP number; the ones contracts name; the files that hold
  // each one's items and results.
  const contratacoes = new Map<string, Contratacao>()
  const inRun = new Set<string>()
  const childFiles = new Map<string, Set<number>>()
  const named = new Set<string>()
  // Files that hold only items, results and termos (most of a harvest) are counted here and left
  // out of the second pass: their items and results are read with their contratação. But a file with an item
  // whose contratação the run lacks goes through it, where that item is refused.
  const counted: boolean[] = []
  const countedRead: Partial<Record<PncpKind, number>> = {}
  const sized = (i: number) => ({ path: files[i] as string, size: (fileStats[i] as Seen).size })
  const first = new ReadAhead(files.map((_, i) => sized(i)))
  const isChild = (kind: PncpKind | undefined) => kind !== undefined && CHILD_KINDS.has(kind)
  // Each counted file's records per kind, until the pass knows which files stay counted.
  const perFile = new Uint32Array(files.length * PNCP_KINDS.length)
  for (const index of files.keys()) {
    const read = await first.get(index)
    if ('error' in read) continue
    const kinds = read.records.map((raw) => (isObject(raw) ? kindFor(raw) : undefined))
    counted[index] = kinds.every(isChild)
    if (counted[index])
      for (const kind of kinds as PncpKind[])
        (perFile[index * PNCP_KINDS.length + PNCP_KINDS.indexOf(kind)] as number)++
    for (const [i, raw] of read.records.entries()) {
      if (!isObject(raw)) continue
      const kind = kinds[i]
      if (kind === 'contratacao') {
        const mapped = mapContratacao(raw)
        // Keyed as a contract names it: trimmed, as the mapping reads it.
        const id = String(raw.numeroControlePNCP).trim()
        if (mapped.contratacao) contratacoes.set(id, mapped.contratacao)
        inRun.add(id)
      } else if (isChild(kind)) {
        const parent = parentOf(raw, files[index] as string, kind)
        if (parent === undefined) {
          counted[index] = false
          continue
        }
        const known = childFiles.get(parent)
        if (known) known.add(index)
        else childFiles.set(parent, new Set([index]))
      } else if (kind === 'contrato') {
        const compra = raw.numeroControlePncpCompra ?? raw.numeroControlePNCPCompra
        if (typeof compra === 'string') named.add(compra.trim())
        inRun.add(String(raw.numeroControlePNCP).trim())
      } else if (kind === 'ata') {
        const compra = compraOfAta(raw)
        if (compra !== undefined) named.add(compra)
      }
    }
  }
  const orphans = [...childFiles.keys()].filter((parent) => !inRun.has(parent))
  // New items, results or termos of a record in a file an earlier import took whole: that file is read again.
  if (orphans.length > 0 && same.size > 0 && options.reread === undefined) {
    const old = listed
      .map((path, i) => ({ path, size: (stats[i] as Seen).size }))
      .filter((_, i) => same.has(i))
    const holding = await filesHolding(old, new Set(orphans))
    if (holding.size > 0) return await importPncp(pool, paths, { ...options, reread: holding })
  }
  for (const parent of orphans) for (const index of childFiles.get(parent) ?? []) counted[index] = false
  for (const index of files.keys()) {
    if (!counted[index]) continue
    for (const [k, kind] of PNCP_KINDS.entries()) {
      const n = perFile[index * PNCP_KINDS.length + k] as number
      if (n === 0) continue
      countedRead[kind] = (countedRead[kind] ?? 0) + n
    }
  }
  for (const id of contratacoes.keys()) named.delete(id)
  for (const found of await storedContratacoes(pool, [...named])) contratacoes.set(found.pncpId, found)

  const fileIndex = new Map(files.map((file, index) => [file, index]))
  const excluded = new Map<string, Refusal>()
  const key = (file: number, record: number) => `${file}:${record}`
  let read: Partial<Record<PncpKind, number>> = {}
  let unknown = new Map<string, number>()
  const organizations = new Set<string>()
  // The contratações and contratos refused: their items, results and termos were not written either.
  const refusedParents = new Set<string>()

  // The files of items and results last read, by index: a contratação's are read when its line is made.
  const childCache = new Map<number, FileRecords>()
  const childRecords = async (index: number): Promise<FileRecords> => {
    const cached = childCache.get(index)
    if (cached) return cached
    const records = await readRecords(files[index] as string, (fileStats[index] as Seen).size)
    if (childCache.size >= 32) childCache.delete(childCache.keys().next().value as number)
    childCache.set(index, records)
    return records
  }

  /** The records of `kinds` that belong to `id`, from the files pass 1 found them in, in file order. */
  async function* childrenOf(
    id: string,
    kinds: readonly PncpKind[],
  ): AsyncGenerator<{ index: number; i: number; raw: Record<string, unknown>; kind: PncpKind }> {
    for (const index of [...(childFiles.get(id) ?? [])].sort((a, b) => a - b)) {
      const records = await childRecords(index)
      if ('error' in records) continue // reported in the file's own turn
      for (const [i, raw] of records.records.entries()) {
        if (!isObject(raw) || excluded.has(key(index, i + 1))) continue
        const kind = kindFor(raw)
        if (kind === undefined || !kinds.includes(kind) || parentOf(raw, files[index] as string, kind) !== id)
          continue
        yield { index, i, raw, kind }
      }
    }
  }

  /** The termos of contrato `id`, each once (by its sequence, else number: the last file wins), by signature. */
  async function gatherTerms(id: string, refuse: (refusal: Refusal) => void): Promise<TermRecord[]> {
    const terms = new Map<string, TermRecord>()
    for await (const { index, i, raw } of childrenOf(id, ['termo'])) {
      const mapped = mapTermo(raw)
      for (const name of mapped.unknown) unknown.set(name, (unknown.get(name) ?? 0) + 1)
      if (mapped.problems.length > 0) refuse({ file: index, record: i + 1, problems: mapped.problems })
      else if (mapped.term) terms.set(String(raw.sequencialTermoContrato ?? mapped.term.number), mapped.term)
    }
    return [...terms.values()].sort(
      (a, b) => a.signature_date.localeCompare(b.signature_date) || a.number.localeCompare(b.number),
    )
  }

  /**
   * The items and results of contratação `id` from the files pass 1 found them in, each once (the last file
   * that has it wins); the problems of each that cannot be taken go to `refuse`.
   */
  async function gather(id: string, secret: boolean, refuse: (refusal: Refusal) => void): Promise<Children> {
    const items = new Map<number, ItemRecord>()
    const results = new Map<string, { result: ResultRecord; at: Refusal }>()
    for await (const { index, i, raw, kind } of childrenOf(id, ['item', 'resultado'])) {
      const mapped = kind === 'item' ? mapItem(raw, secret) : mapResult(raw)
      for (const name of mapped.unknown) unknown.set(name, (unknown.get(name) ?? 0) + 1)
      const at = { file: index, record: i + 1, problems: mapped.problems }
      if (mapped.problems.length > 0) refuse(at)
      else if ('item' in mapped && mapped.item) items.set(mapped.item.number_item, mapped.item)
      else if ('result' in mapped && mapped.result) {
        const sequence = typeof raw.sequencialResultado === 'number' ? raw.sequencialResultado : i
        results.set(`${mapped.result.number_item}:${sequence}`, { result: mapped.result, at })
      }
    }
    const taken: ResultRecord[] = []
    for (const { result, at } of results.values()) {
      if (items.has(result.number_item)) taken.push(result)
      else
        refuse({
          ...at,
          problems: [
            {
              field: 'numeroItem',
              reason: `names item ${result.number_item}, which this import does not hold for ${id}`,
            },
          ],
        })
    }
    const children = {
      items: [...items.values()].sort((a, b) => a.number_item - b.number_item),
      results: taken.sort((a, b) => a.number_item - b.number_item),
    }
    for (const [list, field] of [
      [children.items, 'numeroItem'],
      [children.results, 'sequencialResultado'],
    ] as const)
      if (list.length > MAX_CHILDREN)
        refuse({
          file: [...(childFiles.get(id) ?? [])][0] as number,
          record: 0,
          problems: [
            { field, reason: `${id} has more than ${MAX_CHILDREN} of them, more than compras takes` },
          ],
        })
    return children
  }

  /**
   * One file's import lines, each numbered by its record. A record's own problems go to `refused`; without
   * --rejects, a line the platform import refuses takes its place, so that the run writes nothing.
   */
  async function* linesOf(index: number, records: FileRecords, refused: Refusal[]): AsyncGenerator<Line> {
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
      if (isChild(kind)) {
        // Taken inside its contratação's (or contrato's) line, when that is made.
        const parent = parentOf(raw, files[index] as string, kind)
        const owner = kind === 'termo' ? 'contrato' : 'contratação'
        const field = kind === 'termo' ? 'numeroControlePNCPContrato' : 'numeroControlePNCPCompra'
        const reason =
          parent === undefined
            ? `names no ${owner}: no ${field}, and its path is not the harvester's ` +
              `(${kind === 'termo' ? 'termos' : 'itens'}/CNPJ-ANO-SEQUENCIAL/...)`
            : inRun.has(parent)
              ? undefined
              : `belongs to ${parent}, which this import does not hold: import its ${owner} with it`
        if (reason !== undefined) {
          const line = refuse({ file: index, record: number, problems: [{ field: '(record)', reason }] })
          if (line) yield line
        }
        continue
      }
      let mapped: ReturnType<typeof mapContrato>
      if (kind === 'ata') {
        mapped = mapAta(raw, (compra) => contratacoes.get(compra))
      } else if (kind === 'contratacao') {
        const childRefusals: Line[] = []
        const id = typeof raw.numeroControlePNCP === 'string' ? raw.numeroControlePNCP.trim() : ''
        const children = await gather(id, secretBudget(raw), (refusal) => {
          const line = refuse(refusal)
          if (line) childRefusals.push(line)
        })
        yield* childRefusals
        mapped = mapContratacao(raw, children)
      } else {
        const childRefusals: Line[] = []
        const id = typeof raw.numeroControlePNCP === 'string' ? raw.numeroControlePNCP.trim() : ''
        const terms = await gatherTerms(id, (refusal) => {
          const line = refuse(refusal)
          if (line) childRefusals.push(line)
        })
        yield* childRefusals
        mapped = mapContrato(raw, (compra) => contratacoes.get(compra), terms)
      }
      for (const name of mapped.unknown) unknown.set(name, (unknown.get(name) ?? 0) + 1)
      if (mapped.problems.length > 0) {
        if (typeof raw.numeroControlePNCP === 'string') refusedParents.add(raw.numeroControlePNCP.trim())
        const line = refuse({ file: index, record: number, problems: mapped.problems })
        if (line) yield line
        continue
      }
      for (const line of mapped.lines) {
        // An organization once a run: by the first record that names it (a national run names each thousands
        // of times, and every line costs its check and its staging).
        if (line.type === 'organization') {
          if (organizations.has(line.uuid)) continue
          organizations.add(line.uuid)
        }
        yield { number, text: JSON.stringify(line) }
      }
    }
  }

  for (let round = 1; ; round++) {
    read = { ...countedRead }
    unknown = new Map()
    const refused: Refusal[] = []
    organizations.clear()
    // Each file's lines are made when the import reaches it: a generator a file, made up front, held 1 KB each.
    const sources: ImportSource[] = []
    const second = [...files.keys()].filter((index) => !counted[index])
    const ahead = new ReadAhead(second.map(sized))
    for (const [position, index] of second.entries()) {
      const lines = async function* () {
        yield* linesOf(index, await ahead.get(position), refused)
      }
      sources.push({ name: files[index] as string, lines: { [Symbol.asyncIterator]: lines } })
    }
    // With problems of its own the run is refused anyway: the platform import then only reports.
    const result = await importRecords(pool, sources, {
      ...options,
      maxProblems: options.rejects === undefined ? undefined : Number.POSITIVE_INFINITY,
    })
    const mapped: ImportProblem[] = refused.flatMap((r) =>
      r.problems.map((p) => ({ file: files[r.file] as string, line: r.record, ...p })),
    )
    const own = result.problems.filter((p) => p.reason !== REFUSED)
    const found = [...mapped, ...own].sort(
      (a, b) => (fileIndex.get(a.file) ?? 0) - (fileIndex.get(b.file) ?? 0) || a.line - b.line,
    )
    const done = async (ok: boolean): Promise<PncpImportResult> => {
      if (ok) {
        // The files taken whole: every one read, but those with a refused record, and those of the items,
        // results and termos of a refused record (read again with it when PNCP changes it).
        const refusedFiles = new Set([...excluded.values()].map((r) => r.file))
        for (const parent of refusedParents)
          for (const index of childFiles.get(parent) ?? []) refusedFiles.add(index)
        await recordTaken(
          pool,
          fileStats.filter((_, index) => !refusedFiles.has(index)),
          mapping,
        )
      }
      return {
        ok,
        result,
        problems: found,
        rejected: excluded.size,
        read,
        unknown,
        unchanged: same.size,
      }
    }
    if (options.rejects === undefined) return await done(result.ok && found.length === 0)
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
      return await done(result.ok)
    }
    if (newly.length === 0) return await done(false)
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
  for (const r of refused) {
    const list = byFile.get(r.file)
    if (list) list.push(r)
    else byFile.set(r.file, [r])
  }
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

/** Of `files`, those that hold a record (a contratação or contrato) whose PNCP number is one of `ids`. */
async function filesHolding(
  files: readonly { path: string; size: number }[],
  ids: ReadonlySet<string>,
): Promise<Set<string>> {
  const found = new Set<string>()
  const ahead = new ReadAhead(files)
  for (const [i, file] of files.entries()) {
    const read = await ahead.get(i)
    if ('error' in read) continue
    for (const raw of read.records)
      if (
        isObject(raw) &&
        typeof raw.numeroControlePNCP === 'string' &&
        ids.has(raw.numeroControlePNCP.trim())
      )
        found.add(file.path)
  }
  return found
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
    for (const row of rows) found.push(row)
  }
  return found
}
