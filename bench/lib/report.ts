import type { Scale } from '../../src/demo/generator.js'
import { describeWarm, type LoadFigures, type WarmFigures } from './dataset.js'
import type { ExportFigures } from './exports.js'
import { describeFloor, type FloorFigures } from './floor.js'
import type { HistoryFigures } from './history.js'
import type { IncrementalFigures } from './imports.js'
import type { IndicatorFigures } from './indicators.js'
import { describeMemory, type MemoryBreakdown } from './memory.js'
import { type counts, ITEMS_PER_ORDER } from './options.js'
import type { PriceFigures } from './prices.js'
import type { ReplicaFigures } from './replica.js'
import { type ScenarioResult, type Server, type Target, times } from './scenarios.js'
import type { SoakFigures } from './soak.js'

// What a run reports: bench/results/SCALE.json (every figure) and SCALE.md (the same, for people).

export interface Report {
  /** With --compare: the other build's ref and commit. */
  compared?: string
  rounds: number
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
  /** Every integrity flag computed from scratch. */
  indicators?: IndicatorFigures
  /** The soak (--soak minutes of mixed load); absent when skipped. */
  soak?: SoakFigures
  scenarios: ScenarioResult[]
  /** The service's resident memory when the load scenarios ended, and the previous build's. */
  rssAfterLoadMB: number
  /** Where that memory goes, by the service's own metrics. */
  memoryAfterLoad?: MemoryBreakdown
  previousRssMB?: number
  exports: ExportFigures[]
  /** A contract of 2,000 orders with 100 versions (a tenth of each at the small scale), and its process's OCDS record. */
  history?: HistoryFigures
  prices?: PriceFigures
  /** With --replica: the standby's lag during imports, and how soon a replica-backed instance shows an import. */
  replica?: ReplicaFigures
  /** What the change log (and the versions of issue 50) take on disk. */
  storage?: StorageFigures
  targets: Target[]
}

export interface StorageFigures {
  changeLogEntries: number
  changeLogMB: number
  changeLogMBPerMillion: number
  /** Updated entries that keep a reverse patch, and the patch's bytes on average (TOAST-compressed). */
  historyPatches?: number
  patchBytesPerChange?: number
  /** OCDS releases replaced by a later one, kept whole, and their bytes each with the table's index. */
  releaseVersions?: number
  releaseVersionBytes?: number
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
      `${report.load.reused ? ' (from the run that loaded it)' : ''}.`,
    '',
    ...(report.floor ? [`Load floor: ${describeFloor(report.floor)}.`, ''] : []),
    `Before the scenarios, ${describeWarm(report.warmed)}.`,
    '',
    ...(report.incremental
      ? [
          '| Incremental import | records | median ms | runs ms | CPU stolen |',
          '|---|---:|---:|---|---:|',
          ...[
            report.incremental.largest,
            ...(report.incremental.previous ? [report.incremental.previous.largest] : []),
            report.incremental.smallest,
            ...(report.incremental.previous ? [report.incremental.previous.smallest] : []),
            report.incremental.batch,
            ...(report.incremental.previous ? [report.incremental.previous.batch] : []),
            report.incremental.direct,
            ...(report.incremental.previous ? [report.incremental.previous.direct] : []),
          ].map(
            (f) =>
              `| ${f.name} | ${f.records} | ${f.medianMs} | ${f.milliseconds.join(', ')} | ${f.stealPercent}% |`,
          ),
          '',
        ]
      : []),
    ...(report.indicators
      ? [
          `Integrity indicators from scratch (every organization, rolled back): ${report.indicators.seconds} s, ` +
            `CPU stolen ${report.indicators.stealPercent}%; flags: ${Object.entries(report.indicators.flags)
              .map(([code, n]) => `${code} ${n}`)
              .join(', ')}.`,
          '',
        ]
      : []),
    `Each read scenario drives each server in turn (${report.rounds} round${report.rounds === 1 ? '' : 's'}, the median round by CPU per request shown): ` +
      'its CPU time per request answered at saturation (every thread, from /proc; then split into user and system time: ' +
      "with the load generator on the same cores, a write's system time includes waking it), its rate then, and its latency at a fixed " +
      "offered rate, half the service's maximum. The bare server is bench/bare-server.ts: the service's library calls " +
      'behind node:http, with nothing around them' +
      (report.compared ? `; previous is the service built from ${report.compared}.` : '.'),
    '',
    '| Scenario | server | CPU µs/request | user + system | × bare | × previous | req/s max | offered req/s | p50 ms | p99 ms | errors | CPU stolen |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.scenarios.flatMap((scenario) => scenarioRows(scenario)),
    '',
    `The service's resident memory after the load scenarios: ${report.rssAfterLoadMB} MB` +
      (report.previousRssMB ? ` (the previous build's: ${report.previousRssMB} MB)` : '') +
      (report.memoryAfterLoad ? `: ${describeMemory(report.memoryAfterLoad)}` : '') +
      '. Each export below ran on a freshly started service.',
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
    ...(report.storage
      ? [
          `Change log: ${report.storage.changeLogEntries.toLocaleString('en')} entries, ${report.storage.changeLogMB} MB with ` +
            `their indexes, ${report.storage.changeLogMBPerMillion} MB per million changes.` +
            (report.storage.historyPatches === undefined
              ? ''
              : ` History: ${report.storage.historyPatches.toLocaleString('en')} updates keep a reverse patch, ` +
                `${report.storage.patchBytesPerChange} bytes each on average; ` +
                `${(report.storage.releaseVersions ?? 0).toLocaleString('en')} replaced OCDS releases kept whole, ` +
                `${report.storage.releaseVersionBytes} bytes each with their index.`),
          '',
        ]
      : []),
    ...(report.history
      ? [
          `A contract of ${report.history.orders.toLocaleString('en')} supply orders with ${report.history.versions} versions, each asked uncached (CACHE_MB=0): its detail ` +
            `${report.history.detail.cpuUsPerRequest} µs of CPU a request, its last version ${report.history.last.cpuUsPerRequest} µs, ` +
            `its first ${report.history.first.cpuUsPerRequest} µs (${report.history.detail.stealPercent}% CPU stolen). The OCDS ` +
            `record of its process (${report.history.record.releases} releases): ${report.history.record.bytes.toLocaleString('en')} bytes, ` +
            `${report.history.record.medianMs} ms uncached (the median of 21 requests one after another); the largest ` +
            `release of any process is ${report.history.largestReleaseBytes.toLocaleString('en')} bytes.`,
          '',
        ]
      : []),
    ...(report.prices
      ? [
          `Price research uncached (CACHE_MB=0, the median of 21 requests one at a time, taken in turn with the build ` +
            `before's where it is measured): the most common ` +
            `description, "${report.prices.common.q}" (${report.prices.common.items.toLocaleString('en')} items across every ` +
            `organ), ${report.prices.common.medianMs} ms; a rare one, "${report.prices.rare.q}" (${report.prices.rare.items} ` +
            `items), ${report.prices.rare.medianMs} ms. The page of the supplier with the most orders ` +
            `${report.prices.supplier.medianMs} ms, of the organization with the most ${report.prices.organization.medianMs} ms.` +
            (report.prices.previous
              ? ` The build before, in the same order: ${report.prices.previous.common}, ${report.prices.previous.rare}, ` +
                `${report.prices.previous.supplier} and ${report.prices.previous.organization} ms.`
              : ''),
          '',
        ]
      : []),
    ...(report.replica
      ? [
          "With --replica, `replica` is this build's service with DATABASE_REPLICA_URLS naming a streaming standby of the " +
            "benchmark's database on the same host (its reads go there). The standby's lag, as the service measures it, " +
            'read every 100 ms:',
          '',
          '| while | lag at most | WAL behind at most | caught up after |',
          '|---|---:|---:|---:|',
          ...report.replica.lags.map(
            (l) => `| ${l.name} | ${l.maxSeconds} s | ${l.maxMB} MB | ${l.catchUpMs} ms |`,
          ),
          '',
          `From an import's commit (one contract changed) to the first answer of the replica-backed service that shows ` +
            `it: median ${report.replica.commitToAnswer.medianMs} ms (${report.replica.commitToAnswer.runs.join(', ')} ms; ` +
            `${report.replica.commitToAnswer.stealPercent}% CPU stolen); to the standby having replayed it: median ` +
            `${report.replica.commitToStandby.medianMs} ms (${report.replica.commitToStandby.runs.join(', ')} ms).`,
          '',
        ]
      : []),
    '| Target | goal | seen | met |',
    '|---|---|---|---|',
    ...report.targets.map((t) => `| ${t.scenario} | ${t.goal} | ${t.seen} | ${t.met ? 'yes' : '**no**'} |`),
    '',
  ]
  return lines.join('\n')
}

const SERVERS: readonly Server[] = ['service', 'replica', 'previous', 'bare']

function scenarioRows({ name, servers }: ScenarioResult): string[] {
  const service = servers.service
  return SERVERS.flatMap((server) => {
    const m = servers[server]
    if (!m) return []
    const ratio = (other: Server) => {
      const against = servers[other]
      return server !== 'service' || !against || !service
        ? ''
        : `${times(service.cpuUsPerRequest, against.cpuUsPerRequest).toFixed(2)}×`
    }
    const rate = m.atRate
    return [
      `| ${server === 'service' ? name : ''} | ${server} | ${m.cpuUsPerRequest} | ${m.userUsPerRequest} + ${m.systemUsPerRequest} | ${ratio('bare')} | ${ratio('previous')} | ` +
        `${m.requestsPerSecond.toLocaleString('en')} | ${rate ? rate.offered.toLocaleString('en') : ''} | ` +
        `${rate?.p50 ?? ''} | ${rate?.p99 ?? ''} | ${m.errors + (rate?.errors ?? 0)} | ${m.stealPercent}% |`,
    ]
  })
}
