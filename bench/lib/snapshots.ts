import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { SnapshotManifest } from '../../src/ocds-packages/snapshot.js'
import { cpuTimes, stealPercent } from './drivers.js'
import { log } from './options.js'
import { BIN, residentBytes } from './processes.js'

// `compras snapshot` of the loaded dataset (issue 70): its time, the files' size, and the command's peak resident
// memory (sampled every 100 ms from /proc), which must stay flat whatever the dataset's size (< 300 MB).

export interface SnapshotFigures {
  seconds: number
  releases: number
  records: number
  files: number
  /** The gzipped files, and what they hold unzipped. */
  megabytes: number
  uncompressedMegabytes: number
  peakRssMb: number
  stealPercent: number
}

export async function measureSnapshot(url: string): Promise<SnapshotFigures> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'compras-bench-snapshot-'))
  const before = cpuTimes()
  const started = performance.now()
  let peak = 0
  try {
    const child = spawn(process.execPath, [BIN, 'snapshot', '--out', out], {
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    const sampler = setInterval(() => {
      if (child.pid !== undefined) peak = Math.max(peak, residentBytes(child.pid).valueOf())
    }, 100)
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    clearInterval(sampler)
    if (code !== 0) throw new Error(`compras snapshot exited with ${code}`)
    const seconds = (performance.now() - started) / 1000
    const dir = path.join(out, 'latest')
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as SnapshotManifest
    const sum = (kind: string) =>
      manifest.files.filter((f) => f.kind === kind).reduce((n, f) => n + f.count, 0)
    const figures: SnapshotFigures = {
      seconds: Math.round(seconds * 10) / 10,
      releases: sum('releases'),
      records: sum('records'),
      files: manifest.files.length,
      megabytes:
        Math.round(readdirSync(dir).reduce((n, f) => n + statSync(path.join(dir, f)).size, 0) / 1e5) / 10,
      uncompressedMegabytes:
        Math.round(manifest.files.reduce((n, f) => n + f.uncompressed_bytes, 0) / 1e5) / 10,
      peakRssMb: Math.round(peak / 2 ** 20),
      stealPercent: stealPercent(before, cpuTimes()),
    }
    log(
      `snapshot: ${figures.releases} releases and ${figures.records} records in ${figures.files} files, ` +
        `${figures.megabytes} MB (${figures.uncompressedMegabytes} MB unzipped), ${figures.seconds} s, peak ${figures.peakRssMb} MB`,
    )
    return figures
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}

/** The figures as the report's section, and as a file of their own (an --only run writes no report). */
export function snapshotMarkdown(figures: SnapshotFigures, machine: string, scale: string): string {
  return `# Benchmark: an OCDS snapshot of the ${scale} dataset

${machine}; CPU stolen ${figures.stealPercent}%. Command: \`npm run bench -- --scale ${scale} --only snapshot\`.

| measure | figure | goal |
|---|---|---|
| \`compras snapshot\`: ${figures.releases.toLocaleString('en')} releases and ${figures.records.toLocaleString('en')} records in ${figures.files} files | ${figures.seconds} s | reported |
| the files | ${figures.megabytes} MB gzipped, ${figures.uncompressedMegabytes} MB unzipped | reported |
| the command's peak resident memory | ${figures.peakRssMb} MB | < 300 MB: ${figures.peakRssMb < 300 ? 'met' : '**missed**'} |
`
}

export function writeSnapshotReport(
  out: string,
  figures: SnapshotFigures,
  machine: string,
  scale: string,
): void {
  mkdirSync(out, { recursive: true })
  writeFileSync(path.join(out, `snapshot-${scale}.md`), snapshotMarkdown(figures, machine, scale))
}
