import type { LoadFigures } from './dataset.js'
import { type Entry, open, type Samples } from './dataset.js'
import type { Mix, ScenarioResult } from './drivers.js'
import type { ExportFigures } from './exports.js'
import type { FloorFigures } from './floor.js'
import type { IncrementalFigures } from './imports.js'
import type { SoakFigures } from './soak.js'

// The load scenarios and their goals. A goal is reported as met or not, with the figure seen; it never
// fails the run: these machines are shared and their capacity drifts.

export interface Goal {
  /** Requests a second, as a share of the bare node:http baseline. */
  ratio?: number
  /** 99th-percentile latency, in milliseconds. */
  p99?: number
}

export interface Scenario {
  name: string
  entries: (samples: Samples) => Entry[]
  mix?: Mix
  goal?: Goal
  /**
   * Measured also, right after, on the bare server of bench/ceiling-server.mjs (order queries and contract
   * details): the most any server reading the same documents reaches on this machine at that moment.
   */
  ceiling?: boolean
}

/** The name under which a scenario's run on the bare server is reported. */
export const ceilingName = (name: string) => `${name}: bare server, same data`

// Goals of issue 12 (the read path): ratios to bare node:http, p99 in milliseconds.
export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'order query, random',
    entries: (s) => s.orders,
    goal: { ratio: 0.25, p99: 25 },
    ceiling: true,
  },
  {
    name: 'order query, skewed',
    entries: (s) => s.orders,
    mix: { hotShare: 0.9, hotFraction: 0.01 },
    goal: { ratio: 0.5 },
    ceiling: true,
  },
  { name: 'contract detail, random', entries: (s) => s.contracts, goal: { ratio: 0.25 }, ceiling: true },
  // One id asked again and again: a cache hit, the cost of the route itself.
  {
    name: 'contract detail, hot',
    entries: (s) => s.contracts.slice(0, 1),
    goal: { ratio: 0.7 },
    ceiling: true,
  },
  { name: 'contracts page 1, organization + modality', entries: (s) => s.filtered, goal: { p99: 25 } },
  {
    name: 'contracts page 500',
    entries: () => [open('/v1/transparency/contracts?page=500')],
    goal: { p99: 60 },
  },
  { name: 'contracts q search', entries: (s) => s.search, goal: { p99: 60 } },
  // Goals of issue 13: the portal's pages, at 32 connections, on the same read path.
  {
    name: 'portal: contract page, random',
    entries: (s) =>
      s.contracts.map((e) => open(e.path.replace('/v1/transparency/contracts/', '/contratos/'))),
    goal: { p99: 50 },
  },
  {
    name: 'portal: contracts listing, organization + modality',
    entries: (s) => s.filtered.map((e) => open(e.path.replace('/v1/transparency/contracts?', '/contratos?'))),
    goal: { p99: 50 },
  },
]

/** Resident memory of the service after the load scenarios, with CACHE_MB at its default. */
export const RSS_GOAL_MB = 250

export interface Target {
  scenario: string
  goal: string
  met: boolean
  seen: string
}

/** Each goal, met or not, with what was seen. */
export function targets(
  results: Map<string, ScenarioResult>,
  exports: Map<string, ExportFigures>,
  load?: LoadFigures,
  incremental?: IncrementalFigures,
  soak?: SoakFigures,
  rssAfterLoadMB?: number,
  floor?: FloorFigures,
): Target[] {
  const list: Target[] = []
  if (rssAfterLoadMB)
    list.push({
      scenario: 'resident memory after the load scenarios',
      goal: `< ${RSS_GOAL_MB} MB`,
      met: rssAfterLoadMB < RSS_GOAL_MB,
      seen: `${rssAfterLoadMB} MB`,
    })
  if (soak)
    list.push({
      scenario: `soak, ${soak.minutes} min mixed`,
      goal: 'resident memory growth after the first minute < 10%, no errors',
      met: soak.growthPercent < 10 && soak.errors === 0,
      seen: `${soak.growthPercent}% (${soak.samples.map((s) => s.rssMB).join(' → ')} MB), ${soak.errors} errors (${soak.rateLimited} of them order-query 429s)`,
    })
  if (load && !load.reused)
    list.push({
      scenario: 'bulk load',
      goal: '≥ 10,000 orders/s',
      met: load.ordersPerSecond >= 10_000,
      seen:
        `${Math.round(load.ordersPerSecond).toLocaleString('en')} orders/s` +
        (floor
          ? `; only writing its rows in one transaction, on this server: ${floor.ordersPerSecond.toLocaleString('en')} orders/s`
          : ''),
    })
  if (incremental) {
    const { largest, smallest, batch } = incremental
    const ratio = largest.medianMs / Math.max(smallest.medianMs, 1)
    list.push(
      {
        scenario: 'incremental import, one order',
        goal: 'largest ÷ one-order organization ≤ 2, each < 250 ms',
        met: ratio <= 2 && largest.medianMs < 250 && smallest.medianMs < 250,
        seen: `${largest.medianMs} ms ÷ ${smallest.medianMs} ms = ${ratio.toFixed(2)}`,
      },
      {
        scenario: `incremental import, ${batch.records} orders`,
        goal: '< 3 s',
        met: batch.medianMs < 3000,
        seen: `${batch.medianMs} ms`,
      },
    )
  }
  for (const scenario of SCENARIOS) {
    const result = results.get(scenario.name)
    const goal = scenario.goal
    if (!result || !goal || result.requests === 0) continue
    const ratioMet = goal.ratio === undefined || (result.ratio ?? 0) >= goal.ratio
    const p99Met = goal.p99 === undefined || result.p99 < goal.p99
    const wanted = [
      ...(goal.ratio === undefined ? [] : [`≥ ${goal.ratio * 100}% of baseline`]),
      ...(goal.p99 === undefined ? [] : [`p99 < ${goal.p99} ms`]),
    ]
    const bare = results.get(ceilingName(scenario.name))
    const seen = [
      ...(goal.ratio === undefined ? [] : [`${Math.round((result.ratio ?? 0) * 100)}%`]),
      `p99 ${result.p99} ms`,
      `${result.errors} errors`,
      ...(bare && bare.requests > 0
        ? [`a bare server reading the same data: ${Math.round((bare.ratio ?? 0) * 100)}%, p99 ${bare.p99} ms`]
        : []),
    ]
    list.push({
      scenario: scenario.name,
      goal: wanted.join(', '),
      met: ratioMet && p99Met && result.errors === 0,
      seen: seen.join(', '),
    })
  }
  const xlsx = exports.get('xlsx')
  const exceljs = exports.get('exceljs')
  const csv = exports.get('csv')
  if (xlsx && exceljs)
    list.push({
      scenario: 'export XLSX',
      goal: '≥ 2× exceljs rows/s, peak RSS < 300 MB',
      met: xlsx.rowsPerSecond >= 2 * exceljs.rowsPerSecond && xlsx.peakRssMB < 300,
      seen: `${(xlsx.rowsPerSecond / exceljs.rowsPerSecond).toFixed(1)}× exceljs, ${xlsx.peakRssMB} MB`,
    })
  if (csv)
    list.push({
      scenario: 'export CSV',
      goal: 'peak RSS < 300 MB',
      met: csv.peakRssMB < 300,
      seen: `${csv.peakRssMB} MB`,
    })
  const ocds = exports.get('ocds')
  if (ocds)
    list.push({
      scenario: 'OCDS bulk download (JSON Lines)',
      goal: '≥ 20,000 releases/s, peak RSS < 300 MB',
      met: ocds.rowsPerSecond >= 20_000 && ocds.peakRssMB < 300,
      seen: `${ocds.rowsPerSecond.toLocaleString('en')} releases/s, ${ocds.peakRssMB} MB`,
    })
  return list
}
