import type { Scale } from '../../src/demo/generator.js'
import { describeWarm, type LoadFigures, type WarmFigures } from './dataset.js'
import type { ScenarioResult } from './drivers.js'
import type { ExportFigures } from './exports.js'
import { describeFloor, type FloorFigures } from './floor.js'
import type { IncrementalFigures } from './imports.js'
import { type counts, ITEMS_PER_ORDER } from './options.js'
import type { Target } from './scenarios.js'
import type { SoakFigures } from './soak.js'

// What a run reports: bench/results/SCALE.json (every figure) and SCALE.md (the same, for people).

export interface Report {
  scale: Scale
  date: string
  command: string
  machine: {
    cpu: string
    cpus: number
    memoryGB: number
    os: string
    node: string
    postgres: string
    database: string
    /** The service's settings that shape the figures (its memory, its connections), as it ran. */
    service: string
  }
  loadGenerator: string
  connections: number
  warmup: number
  duration: number
  counts: typeof counts
  load: LoadFigures
  /** Only writing the loaded rows again, in one transaction: the floor under the load; absent when reused. */
  floor?: FloorFigures
  /** The read model's documents read once before the scenarios, so that no server meets them on disk. */
  warmed: WarmFigures
  /** What small imports cost on the loaded dataset; absent when --only skipped them. */
  incremental?: IncrementalFigures
  /** The soak (--soak minutes of mixed load); absent when skipped. */
  soak?: SoakFigures
  scenarios: ScenarioResult[]
  /** The service's resident memory when the load scenarios ended. */
  rssAfterLoadMB: number
  exports: ExportFigures[]
  targets: Target[]
}

export function markdown(report: Report): string {
  const lines = [
    `# Benchmark: ${report.scale} dataset`,
    '',
    `Run ${report.date} on ${report.machine.cpus} × ${report.machine.cpu}, ${report.machine.memoryGB} GB, ` +
      `${report.machine.os}, Node.js ${report.machine.node}, PostgreSQL ${report.machine.postgres} (${report.machine.database}); ` +
      `the service with ${report.machine.service}.`,
    `Command: \`${report.command}\`. Load generator ${report.loadGenerator}, ${report.connections} connections, ${report.warmup} s warm-up, ` +
      `${report.duration} s measured per scenario.`,
    '',
    `Dataset: ${Object.entries(report.counts)
      .map(([k, v]) => `${v.toLocaleString('en')} ${k}`)
      .join(', ')}, ${ITEMS_PER_ORDER} items per order. ` +
      `Import: ${report.load.seconds.toFixed(1)} s, ${Math.round(report.load.ordersPerSecond).toLocaleString('en')} orders/s` +
      `${report.load.reused ? ' (from the run that loaded it)' : ''}; goal 10,000 orders/s, 20,000 beyond.`,
    '',
    ...(report.floor ? [`Load floor: ${describeFloor(report.floor)}.`, ''] : []),
    `Before the scenarios, ${describeWarm(report.warmed)}.`,
    '',
    ...(report.incremental
      ? [
          '| Incremental import | records | median ms | runs ms | CPU stolen |',
          '|---|---:|---:|---|---:|',
          ...[report.incremental.largest, report.incremental.smallest, report.incremental.batch].map(
            (f) =>
              `| ${f.name} | ${f.records} | ${f.medianMs} | ${f.milliseconds.join(', ')} | ${f.stealPercent}% |`,
          ),
          '',
        ]
      : []),
    '| Scenario | req/s | × baseline | p50 ms | p99 ms | errors | CPU stolen |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...report.scenarios.map(
      (s) =>
        `| ${s.name} | ${s.requestsPerSecond.toLocaleString('en')} | ${s.ratio === undefined ? '' : `${Math.round(s.ratio * 100)}%`} | ${s.p50} | ${s.p99} | ${s.errors} | ${s.stealPercent ?? 0}% |`,
    ),
    '',
    `The service's resident memory after the load scenarios: ${report.rssAfterLoadMB} MB. Each export below ran ` +
      'on a freshly started service.',
    '',
    ...(report.soak
      ? [
          `Soak: ${report.soak.minutes} min of mixed load on every route, ${report.soak.requestsPerSecond.toLocaleString('en')} req/s, ` +
            `${report.soak.errors} errors (${report.soak.rateLimited} of them order queries refused 429 by the per-token limit), ${report.soak.stealPercent}% CPU stolen; resident memory every 10 s: ` +
            `${report.soak.samples.map((s) => s.rssMB).join(', ')} MB (growth after the first minute: ${report.soak.growthPercent}%).`,
          '',
        ]
      : []),
    '| Export | rows | rows/s | peak RSS MB |',
    '|---|---:|---:|---:|',
    ...report.exports.map(
      (e) =>
        `| ${e.name} | ${e.rows.toLocaleString('en')} | ${e.rowsPerSecond.toLocaleString('en')} | ${e.peakRssMB} |`,
    ),
    '',
    '| Target | goal | seen | met |',
    '|---|---|---|---|',
    ...report.targets.map((t) => `| ${t.scenario} | ${t.goal} | ${t.seen} | ${t.met ? 'yes' : '**no**'} |`),
    '',
  ]
  return lines.join('\n')
}
