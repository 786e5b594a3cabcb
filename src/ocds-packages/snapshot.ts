import { createHash } from 'node:crypto'
import { createWriteStream, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { finished } from 'node:stream/promises'
import { createGzip, type Gzip } from 'node:zlib'
import type { Pool } from '../db/pool.js'
import { release } from '../ocds/mapping.js'
import type { Cursors } from '../queries/cursors.js'
import { type Publication, recordText } from './packages.js'

// `compras snapshot`: every OCDS release ever published and every process's record, as gzipped JSON Lines files
// segmented by the year of each process's first release (a process's releases and record never move to another
// file), none over MAX_LINES lines or MAX_BYTES unzipped, read in one consistent view of the database; with a
// manifest (each file's size, SHA-256, count and year, the publisher, and the cursors of the change feed and of
// the releases' feed at which the view was taken, which a consumer follows from there) and a catalogue of the
// files (data.json). A snapshot is written into a folder of its own, then `latest` points to it.

/** OCP's hosting guidance: files of at most 250,000 releases (or records) and 1 GB unzipped. */
export const MAX_LINES = 250_000
export const MAX_BYTES = 1_000_000_000

/**
 * Rows fetched at a time from the view: releases (a process's can be hundreds of kilobytes each, a process's
 * hundred of them arrive together), and records (each with the start of its releases and its compiled release).
 */
const RELEASE_BATCH = 50
const RECORD_BATCH = 100

export interface SnapshotFile {
  name: string
  kind: 'releases' | 'records'
  year: number
  /** Releases or records, one a line. */
  count: number
  /** The gzipped file's size, and its SHA-256 (hex); the unzipped size. */
  bytes: number
  sha256: string
  uncompressed_bytes: number
}

export interface SnapshotManifest {
  /** When the view was taken. */
  taken_at: string
  ocds_version: '1.1'
  publisher: { name: string; uri?: string }
  license: string
  publicationPolicy?: string
  /**
   * Where this snapshot stands in the feeds: the public change feed's cursor (GET /v1/transparency/changes?after=)
   * and the releases' (GET /v1/ocds/releases?after=); what changed after them is not in the files.
   */
  cursors: { changes: string; releases: string }
  files: SnapshotFile[]
}

export interface SnapshotOptions {
  /** The folder that holds the snapshots: each in a folder of its own, `latest` the newest. */
  out: string
  publication: Publication
  /** Called once the view is fixed (its cursors read), before its data is: what commits then is not in it. */
  onView?: () => Promise<void>
  onProgress?: (processes: number) => void
  maxLines?: number
  maxBytes?: number
}

/** One file being written: its gzip stream, what it counts, its hash. */
class Segment {
  readonly gzip: Gzip
  private readonly done: Promise<void>
  private readonly hash = createHash('sha256')
  private compressed = 0
  count = 0
  uncompressed = 0

  constructor(
    readonly file: string,
    readonly kind: SnapshotFile['kind'],
    readonly year: number,
  ) {
    this.gzip = createGzip()
    const sink = createWriteStream(file)
    this.gzip.on('data', (chunk: Buffer) => {
      this.hash.update(chunk)
      this.compressed += chunk.length
    })
    this.gzip.pipe(sink)
    this.done = finished(sink)
  }

  /** Writes lines (each ends with a newline), waiting while the file is behind. */
  async write(text: string, lines: number): Promise<void> {
    this.count += lines
    this.uncompressed += Buffer.byteLength(text)
    if (!this.gzip.write(text)) await new Promise((resolve) => this.gzip.once('drain', resolve))
  }

  async close(): Promise<SnapshotFile> {
    this.gzip.end()
    await this.done
    return {
      name: path.basename(this.file),
      kind: this.kind,
      year: this.year,
      count: this.count,
      bytes: this.compressed,
      sha256: this.hash.digest('hex'),
      uncompressed_bytes: this.uncompressed,
    }
  }
}

/** The files of one kind: a year's are numbered 1, 2... as each fills. */
class Segments {
  private current: Segment | undefined
  private numbers = new Map<number, number>()
  readonly written: SnapshotFile[] = []

  constructor(
    private readonly dir: string,
    private readonly kind: SnapshotFile['kind'],
    private readonly maxLines: number,
    private readonly maxBytes: number,
  ) {}

  /**
   * Where one process's lines go: the file of its year, or the next one of it when they would not fit (`lines`
   * and at most `bytes` of them): a process is never split between files.
   */
  async begin(year: number, lines: number, bytes: number): Promise<Segment> {
    const full =
      this.current !== undefined &&
      (this.current.year !== year ||
        this.current.count + lines > this.maxLines ||
        this.current.uncompressed + bytes > this.maxBytes) &&
      this.current.count > 0
    if (this.current === undefined || full) {
      if (this.current) this.written.push(await this.current.close())
      const n = (this.numbers.get(year) ?? 0) + 1
      this.numbers.set(year, n)
      this.current = new Segment(path.join(this.dir, `${this.kind}-${year}-${n}.jsonl.gz`), this.kind, year)
    }
    return this.current
  }

  /** A process's lines written whole. */
  async add(year: number, text: string, lines: number): Promise<void> {
    await (await this.begin(year, lines, Buffer.byteLength(text))).write(text, lines)
  }

  async close(): Promise<SnapshotFile[]> {
    if (this.current) this.written.push(await this.current.close())
    this.current = undefined
    return this.written
  }
}

/**
 * Each process with the year of its first release, in the view, for the files' order; and how many releases it
 * has and at most how many bytes their lines take (a release line is its tail and its ocid and id, under 300
 * bytes), so that its file is chosen before they are read.
 */
const PROCESSES = `CREATE TEMP TABLE snapshot_processes ON COMMIT DROP AS
  SELECT r.process_id, extract(year FROM coalesce(
      (SELECT v.date FROM ocds_release_versions v WHERE v.process_id = r.process_id AND v.version = 1),
      r.date) AT TIME ZONE 'UTC')::int AS year,
    1 + o.releases AS releases, octet_length(r.tail) + o.bytes + 300 * (1 + o.releases) AS bytes
  FROM ocds_releases r
  CROSS JOIN LATERAL (SELECT count(*)::int AS releases, coalesce(sum(octet_length(v.tail)), 0)::bigint AS bytes
    FROM ocds_release_versions v WHERE v.process_id = r.process_id) o`

/** Every release, by year then process then version: one a row, so that no row holds more than one release. */
const RELEASES = `DECLARE snapshot_releases NO SCROLL CURSOR FOR
  SELECT p.year, p.process_id, p.releases, p.bytes, x.version, x.tail
  FROM snapshot_processes p
  CROSS JOIN LATERAL (
    SELECT v.version, v.tail FROM ocds_release_versions v WHERE v.process_id = p.process_id
    UNION ALL SELECT r.version, r.tail FROM ocds_releases r WHERE r.process_id = p.process_id) x
  ORDER BY p.year, p.process_id, x.version`

/** Each process's record as recordText reads it (its older releases' starts: their dates and tags), by year. */
const RECORDS = `DECLARE snapshot_records NO SCROLL CURSOR FOR
  SELECT p.year, p.process_id, r.version, r.tail, r.compiled,
    (SELECT json_agg(json_build_array(v.version, left(v.tail, 400)) ORDER BY v.version)
     FROM ocds_release_versions v WHERE v.process_id = p.process_id) AS linked
  FROM snapshot_processes p JOIN ocds_releases r ON r.process_id = p.process_id
  ORDER BY p.year, p.process_id`

interface RecordRow {
  year: number
  process_id: string
  version: number
  tail: string
  compiled: string | null
  linked: [number, string][] | null
}

/** A name for a snapshot's folder: its instant (2026-12-01T20:40:05.123Z: 20261201T204005.123Z), which sorts as taken. */
const folderName = (at: string) => at.replace(/[-:]/g, '')

/**
 * Takes a snapshot into a new folder under `out`, then points `out/latest` to it: its folder and its manifest.
 * `pool` should reach the primary (a replica's view is older than the feeds' cursors a client then reads).
 */
export async function takeSnapshot(
  pool: Pool,
  cursors: Cursors,
  options: SnapshotOptions,
): Promise<{ dir: string; manifest: SnapshotManifest }> {
  const { publication } = options
  const maxLines = options.maxLines ?? MAX_LINES
  const maxBytes = options.maxBytes ?? MAX_BYTES
  await cursors.ready()
  mkdirSync(options.out, { recursive: true })
  const client = await pool.connect()
  const building = path.join(options.out, `.building-${process.pid}-${Date.now()}`)
  mkdirSync(building)
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ')
    // The view is the one of this first statement: the cursors and the data are read in it.
    const { rows: at } = await client.query<{ taken: string; changes: string; releases: string }>(
      `SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS taken, (SELECT coalesce(max(seq), 0) FROM public_changes)::text AS changes,
         (SELECT coalesce(max(seq), 0) FROM ocds_releases)::text AS releases`,
    )
    const view = at[0] as { taken: string; changes: string; releases: string }
    await options.onView?.()
    await client.query(PROCESSES)
    await client.query('CREATE INDEX ON snapshot_processes (year, process_id)')
    await client.query('ANALYZE snapshot_processes')
    const releases = new Segments(building, 'releases', maxLines, maxBytes)
    const records = new Segments(building, 'records', maxLines, maxBytes)
    const { prefix } = publication.config
    // A process's releases go into the file chosen when its first one comes.
    await client.query(RELEASES)
    let processId: string | undefined
    let file: Segment | undefined
    for (;;) {
      const { rows } = await client.query<{
        year: number
        process_id: string
        releases: number
        bytes: string
        version: number
        tail: string
      }>(`FETCH ${RELEASE_BATCH} FROM snapshot_releases`)
      if (rows.length === 0) break
      for (const row of rows) {
        if (file === undefined || row.process_id !== processId) {
          file = await releases.begin(row.year, row.releases, Number(row.bytes))
          processId = row.process_id
        }
        await file.write(`${release(prefix, row.process_id, row.version, row.tail)}\n`, 1)
      }
    }
    await client.query('CLOSE snapshot_releases')
    await client.query(RECORDS)
    let processes = 0
    for (;;) {
      const { rows } = await client.query<RecordRow>(`FETCH ${RECORD_BATCH} FROM snapshot_records`)
      if (rows.length === 0) break
      for (const row of rows)
        await records.add(row.year, `${recordText(publication, row.process_id, row)}\n`, 1)
      processes += rows.length
      options.onProgress?.(processes)
    }
    await client.query('COMMIT')
    const files = [...(await releases.close()), ...(await records.close())].sort(
      (a, b) => a.kind.localeCompare(b.kind) || a.year - b.year || a.name.localeCompare(b.name),
    )
    const { config } = publication
    const manifest: SnapshotManifest = {
      taken_at: view.taken,
      ocds_version: '1.1',
      publisher: { name: config.publisherName, ...(config.publisherUri ? { uri: config.publisherUri } : {}) },
      license: config.license,
      ...(config.publicationPolicy ? { publicationPolicy: config.publicationPolicy } : {}),
      cursors: {
        changes: cursors.position('changes', view.changes),
        releases: cursors.position('releases', view.releases),
      },
      files,
    }
    writeFileSync(path.join(building, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
    writeFileSync(
      path.join(building, 'data.json'),
      `${JSON.stringify(catalogue(publication, manifest), null, 2)}\n`,
    )
    const dir = path.join(options.out, folderName(view.taken))
    renameSync(building, dir)
    // `latest` moves to it at once: a link made aside, renamed over the old one.
    const link = path.join(options.out, `.latest-${process.pid}`)
    rmSync(link, { force: true })
    symlinkSync(path.basename(dir), link)
    renameSync(link, path.join(options.out, 'latest'))
    return { dir, manifest }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    rmSync(building, { recursive: true, force: true })
    throw error
  } finally {
    client.release()
  }
}

/**
 * The files as a catalogue (data.json, in the Project Open Data / DCAT shape that data portals and OCP's data
 * registry read): one dataset, a distribution per file, each at its address under /v1/ocds/snapshots/.
 */
function catalogue(publication: Publication, manifest: SnapshotManifest) {
  const base = `${publication.publicUrl}/v1/ocds/snapshots`
  return {
    '@context': 'https://project-open-data.cio.gov/v1.1/schema/catalog.jsonld',
    '@type': 'dcat:Catalog',
    conformsTo: 'https://project-open-data.cio.gov/v1.1/schema',
    dataset: [
      {
        '@type': 'dcat:Dataset',
        identifier: `${base}/manifest.json`,
        title: `Contratações públicas (OCDS 1.1) · ${manifest.publisher.name}`,
        description:
          'Todas as releases e os records OCDS 1.1 dos processos de contratação publicados, em JSON Lines com gzip, ' +
          'um arquivo por ano da primeira release de cada processo. O manifest.json dá o cursor do feed de mudanças ' +
          'a partir do qual acompanhar o que mudou depois.',
        modified: manifest.taken_at,
        publisher: { '@type': 'org:Organization', name: manifest.publisher.name },
        license: manifest.license,
        accessLevel: 'public',
        distribution: manifest.files.map((file) => ({
          '@type': 'dcat:Distribution',
          title: `${file.kind === 'releases' ? 'Releases' : 'Records'} ${file.year} (${file.name})`,
          downloadURL: `${base}/${file.name}`,
          mediaType: 'application/gzip',
          format: `OCDS 1.1 ${file.kind}, JSON Lines`,
          description: `${file.count} ${file.kind === 'releases' ? 'releases' : 'records'}; SHA-256 ${file.sha256}`,
        })),
      },
    ],
  }
}
