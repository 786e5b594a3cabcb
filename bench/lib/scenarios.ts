import { type Entry, open, type Samples } from './dataset.js'
import type { Measured, Mix } from './drivers.js'
import type { ExportFigures } from './exports.js'
import type { HistoryFigures } from './history.js'
import type { IncrementalFigures } from './imports.js'
import type { PriceFigures } from './prices.js'
import type { SoakFigures } from './soak.js'

// The read scenarios, and the targets a run is read against. A target is reported as met or not, with the
// figure seen; it never fails the run: these machines are shared and their capacity drifts.

export interface Scenario {
  name: string
  entries: (samples: Samples) => Entry[]
  mix?: Mix
}

const portal = (entry: Entry, from: string, to: string) => open(entry.path.replace(from, to))

/** Every scenario runs on the service, on the bare server (bench/bare-server.ts), and with --compare, on the previous build. */
export const SCENARIOS: readonly Scenario[] = [
  { name: 'order query, random', entries: (s) => s.orders },
  { name: 'order query, skewed', entries: (s) => s.orders, mix: { hotShare: 0.9, hotFraction: 0.01 } },
  { name: 'contract detail, random', entries: (s) => s.contracts },
  // One id asked again and again: a cached answer, the cost of the route itself.
  { name: 'contract detail, hot', entries: (s) => s.contracts.slice(0, 1) },
  { name: 'contracts page 1, organization + modality', entries: (s) => s.filtered },
  { name: 'contracts page 500', entries: () => [open('/v1/transparency/contracts?page=500')] },
  { name: 'contracts q search', entries: (s) => s.search },
  // A mirror's page: 100 entries of the change feed after a cursor, each with its record.
  { name: 'change feed, 100 entries with records', entries: (s) => s.feed },
  // The history of contracts that changed (the incremental imports above change some), and their pages.
  { name: 'contract history, changed contracts', entries: (s) => s.history },
  // A price research asked again and again (cached), and beside it the listing page it is held to.
  { name: 'price research, caneta (cached)', entries: () => [open('/v1/transparency/prices?q=caneta')] },
  {
    name: 'contracts page 1 (cached)',
    entries: () => [open('/v1/transparency/contracts?per_page=20')],
  },
  // The same listing as an Atom feed (its 50 records last changed), asked again and again.
  { name: 'contracts Atom feed (cached)', entries: () => [open('/v1/transparency/contracts.atom')] },
  // A page of the integrity flags, asked again and again.
  {
    name: 'integrity flags page 1 (cached)',
    entries: () => [open('/v1/transparency/indicators?per_page=20')],
  },
  {
    name: 'portal: contract page, random',
    entries: (s) => s.contracts.map((e) => portal(e, '/v1/transparency/contracts/', '/contratos/')),
  },
  {
    name: 'portal: contract page with history, changed contracts',
    entries: (s) =>
      s.history.map((e) =>
        open(e.path.replace('/v1/transparency/contracts/', '/contratos/').replace('/history', '')),
      ),
  },
  {
    name: 'portal: contracts listing, organization + modality',
    entries: (s) => s.filtered.map((e) => portal(e, '/v1/transparency/contracts?', '/contratos?')),
  },
]

/** The servers a scenario is measured on. */
export type Server = 'service' | 'previous' | 'bare' | 'replica'

export interface ScenarioResult {
  name: string
  /** Each server's figures: the median of its rounds by CPU per request. */
  servers: Partial<Record<Server, Measured>>
}

/** compras-client's sync() catching up: at least this share of the raw JSON Lines' rate. */
export const SYNC_GOAL = 0.7

/** With --replica: the replica-backed service's CPU per request, at most this many times the service's without. */
export const REPLICA_GOAL = 1.1

/** Resident memory of the service after the load scenarios, with CACHE_MB at its default. */
export const RSS_GOAL_MB = 250
/** The service's CPU per request, at most this many times the bare server's. */
export const BARE_GOAL = 2
/** With --compare: at most this many times the previous build's. */
export const PREVIOUS_GOAL = 1.3
/** With --compare: an incremental import at most this many times the previous build's. */
export const IMPORT_GOAL = 1.25
/** A version of a record with a long history, at most this many times its detail's CPU per request. */
export const HISTORY_GOAL = 2

export interface Target {
  scenario: string
  goal: string
  met: boolean
  seen: string
}

export const times = (a: number, b: number) => (b > 0 ? a / b : 0)

/** Each target, met or not, with what was seen. */
export function targets(
  results: readonly ScenarioResult[],
  exports: Map<string, ExportFigures>,
  incremental?: IncrementalFigures,
  soak?: SoakFigures,
  rssAfterLoadMB?: number,
  history?: HistoryFigures,
  prices?: PriceFigures,
): Target[] {
  const list: Target[] = []
  const listing = results.find((r) => r.name === 'contracts page 1 (cached)')?.servers.service
  const atom = results.find((r) => r.name === 'contracts Atom feed (cached)')?.servers.service
  if (atom && listing)
    list.push({
      scenario: 'contracts Atom feed, cached: CPU per request',
      goal: "≤ 1.5× the same listing's cached JSON page",
      met: times(atom.cpuUsPerRequest, listing.cpuUsPerRequest) <= 1.5,
      seen: `${atom.cpuUsPerRequest} µs against ${listing.cpuUsPerRequest} µs (${times(atom.cpuUsPerRequest, listing.cpuUsPerRequest).toFixed(2)}×)`,
    })
  if (prices) {
    const before = (ms: number | undefined) => (ms === undefined ? '' : ` (the build before: ${ms} ms)`)
    const all = prices.matchAll
    if (all)
      list.push({
        scenario: `price research matching every description (${all.items.toLocaleString('en')} items), uncached`,
        goal: 'refused (422) after reading at most RESEARCH_MAX_ITEMS + 1 rows, < 500 ms',
        met: all.ours.status === 422 && all.ours.rowsRead <= 275_000 && all.ours.medianMs < 500,
        seen:
          `${all.ours.status} in ${all.ours.medianMs} ms, ${all.ours.rowsRead.toLocaleString('en')} rows read` +
          (all.previous
            ? ` (the build before: ${all.previous.status} in ${all.previous.medianMs} ms, ` +
              `${all.previous.rowsRead.toLocaleString('en')} rows)`
            : ''),
      })
    list.push(
      {
        scenario: `price research, the most common description (${prices.common.items.toLocaleString('en')} items), uncached`,
        goal: '< 300 ms',
        met: prices.common.medianMs < 300,
        seen: `${prices.common.medianMs} ms${before(prices.previous?.common)}`,
      },
      {
        scenario: `price research, a rare description (${prices.rare.items} items), uncached`,
        goal: '< 50 ms',
        met: prices.rare.medianMs < 50,
        seen: `${prices.rare.medianMs} ms${before(prices.previous?.rare)}`,
      },
      {
        scenario: "the largest supplier's page, uncached",
        goal: '< 100 ms',
        met: prices.supplier.medianMs < 100,
        seen: `${prices.supplier.medianMs} ms${before(prices.previous?.supplier)}`,
      },
      {
        scenario: "the largest organization's page, uncached",
        goal: '< 100 ms',
        met: prices.organization.medianMs < 100,
        seen: `${prices.organization.medianMs} ms${before(prices.previous?.organization)}`,
      },
    )
    const research = results.find((r) => r.name.startsWith('price research'))?.servers.service
    if (research && listing)
      list.push({
        scenario: 'price research, cached: CPU per request',
        goal: "≤ 2× a cached listing page's",
        met: times(research.cpuUsPerRequest, listing.cpuUsPerRequest) <= 2,
        seen: `${research.cpuUsPerRequest} µs against ${listing.cpuUsPerRequest} µs (${times(research.cpuUsPerRequest, listing.cpuUsPerRequest).toFixed(2)}×)`,
      })
  }
  if (history) {
    for (const [which, measured] of [
      ['last', history.last],
      ['first', history.first],
    ] as const)
      list.push({
        scenario: `a contract of ${history.orders.toLocaleString('en')} orders and ${history.versions} versions, its ${which} version uncached: CPU per request`,
        goal: `≤ ${HISTORY_GOAL}× its detail's`,
        met: times(measured.cpuUsPerRequest, history.detail.cpuUsPerRequest) <= HISTORY_GOAL,
        seen: `${measured.cpuUsPerRequest} µs against ${history.detail.cpuUsPerRequest} µs (${times(measured.cpuUsPerRequest, history.detail.cpuUsPerRequest).toFixed(2)}×)`,
      })
    list.push({
      scenario: `the OCDS record of that process after ${history.versions} changes, uncached`,
      goal: '< 1 MB and < 50 ms',
      met: history.record.bytes < 1_000_000 && history.record.medianMs < 50,
      seen: `${history.record.bytes.toLocaleString('en')} bytes, ${history.record.medianMs} ms`,
    })
  }
  for (const { name, servers } of results) {
    const { service, bare, previous } = servers
    if (!service) continue
    if (bare)
      list.push({
        scenario: `${name}: CPU per request`,
        goal: `≤ ${BARE_GOAL}× the bare server's`,
        met: times(service.cpuUsPerRequest, bare.cpuUsPerRequest) <= BARE_GOAL,
        seen: `${service.cpuUsPerRequest} µs against ${bare.cpuUsPerRequest} µs (${times(service.cpuUsPerRequest, bare.cpuUsPerRequest).toFixed(2)}×)`,
      })
    if (servers.replica)
      list.push({
        scenario: `${name}: CPU per request, reads from a standby`,
        goal: `≤ ${REPLICA_GOAL}× the same build without one`,
        met: times(servers.replica.cpuUsPerRequest, service.cpuUsPerRequest) <= REPLICA_GOAL,
        seen: `${servers.replica.cpuUsPerRequest} µs against ${service.cpuUsPerRequest} µs (${times(servers.replica.cpuUsPerRequest, service.cpuUsPerRequest).toFixed(2)}×)`,
      })
    if (previous)
      list.push({
        scenario: `${name}: CPU per request`,
        goal: `≤ ${PREVIOUS_GOAL}× the previous build's`,
        met: times(service.cpuUsPerRequest, previous.cpuUsPerRequest) <= PREVIOUS_GOAL,
        seen: `${service.cpuUsPerRequest} µs against ${previous.cpuUsPerRequest} µs (${times(service.cpuUsPerRequest, previous.cpuUsPerRequest).toFixed(2)}×)`,
      })
  }
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
  if (incremental?.previous) {
    const previous = incremental.previous
    for (const key of ['largest', 'smallest', 'batch', 'direct'] as const) {
      const ours = incremental[key]
      const theirs = previous[key]
      list.push({
        scenario: `incremental import: ${ours.name}`,
        goal: `≤ ${IMPORT_GOAL}× the previous build's`,
        met: times(ours.medianMs, theirs.medianMs) <= IMPORT_GOAL,
        seen: `${ours.medianMs} ms against ${theirs.medianMs} ms (${times(ours.medianMs, theirs.medianMs).toFixed(2)}×)`,
      })
    }
  }
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
  const feed = exports.get('feed')
  if (feed)
    list.push({
      scenario: 'change feed catch-up with records (JSON Lines)',
      goal: '≥ 20,000 entries/s, peak RSS < 300 MB',
      met: feed.rowsPerSecond >= 20_000 && feed.peakRssMB < 300,
      seen: `${feed.rowsPerSecond.toLocaleString('en')} entries/s, ${feed.peakRssMB} MB`,
    })
  const sync = exports.get('sync') as
    | (ExportFigures & { quarterRssMB?: number; lastRssMB?: number })
    | undefined
  if (sync && feed)
    list.push({
      scenario: 'change feed catch-up with records through compras-client sync()',
      goal: `≥ ${SYNC_GOAL * 100}% of the raw JSON Lines' entries/s, the client's memory flat (< 20% growth)`,
      met:
        sync.rowsPerSecond >= SYNC_GOAL * feed.rowsPerSecond &&
        (sync.lastRssMB ?? 0) <= 1.2 * (sync.quarterRssMB ?? Number.POSITIVE_INFINITY),
      seen:
        `${sync.rowsPerSecond.toLocaleString('en')} against ${feed.rowsPerSecond.toLocaleString('en')} entries/s ` +
        `(${Math.round((100 * sync.rowsPerSecond) / Math.max(1, feed.rowsPerSecond))}%); client RSS ` +
        `${sync.quarterRssMB} MB a quarter in, ${sync.lastRssMB} MB at the end`,
    })
  for (const [name, scenario] of [
    ['ocds', 'OCDS bulk download (JSON Lines)'],
    ['ocds history', 'OCDS bulk download with history (JSON Lines)'],
  ] as const) {
    const ocds = exports.get(name)
    if (ocds)
      list.push({
        scenario,
        goal: '≥ 20,000 releases/s, peak RSS < 300 MB',
        met: ocds.rowsPerSecond >= 20_000 && ocds.peakRssMB < 300,
        seen: `${ocds.rowsPerSecond.toLocaleString('en')} releases/s, ${ocds.peakRssMB} MB`,
      })
  }
  return list
}
