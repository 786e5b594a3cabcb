import { setTimeout as sleep } from 'node:timers/promises'
import { createPool } from '../../src/db/pool.js'
import { open, type Samples } from './dataset.js'
import { cpuTimes, measure, stealPercent } from './drivers.js'
import { log } from './options.js'
import { residentBytes } from './processes.js'

// The soak: mixed load on every route (order queries, details, filtered pages, searches, a deep page) for
// some minutes, the service's resident memory sampled every ten seconds. Memory may grow in the first minute
// (caches fill, V8 sizes its heap); after that it should stay where it is.

export interface SoakFigures {
  minutes: number
  requests: number
  requestsPerSecond: number
  errors: number
  /** Of the errors, order queries the per-token limit refused (429), as the service's access log counts them. */
  rateLimited: number
  /** Resident memory, sampled at the end of each ten-second step. */
  samples: { second: number; rssMB: number }[]
  /** Growth from the first sample after the first minute to the last, in percent. */
  growthPercent: number
  stealPercent: number
}

const STEP_SECONDS = 10

export async function soak(
  base: string,
  databaseUrl: string,
  pid: number,
  samples: Samples,
  minutes: number,
): Promise<SoakFigures> {
  // Every route in one stream of requests, in proportions a busy instance might see.
  const entries = [
    ...samples.orders.slice(0, 20_000),
    ...samples.contracts.slice(0, 10_000),
    ...samples.filtered.slice(0, 5_000),
    ...samples.search,
    open('/v1/transparency/contracts?page=500'),
    open('/v1/transparency/arps?per_page=50'),
    open('/v1/transparency/public-calls?per_page=20&with_relations=documents,providers'),
  ]
  const before = cpuTimes()
  const started = new Date()
  const series: { second: number; rssMB: number }[] = []
  let requests = 0
  let errors = 0
  const steps = Math.max(1, Math.round((minutes * 60) / STEP_SECONDS))
  for (let step = 1; step <= steps; step++) {
    // Each step's wrk counts its tokens' budgets afresh (bench/lib/drivers.ts): started within a calendar
    // second the previous one already used, it could send a token twice its budget in that second and go
    // over the service's limit at every seam (about one 429 a seam, 32 in a 5-minute soak). Each starts
    // in a calendar second of its own.
    await sleep(1000 - (Date.now() % 1000))
    const result = await measure(base, entries, STEP_SECONDS)
    requests += result.requests
    errors += result.errors
    series.push({ second: step * STEP_SECONDS, rssMB: Math.round(residentBytes(pid) / 1e6) })
  }
  const ended = new Date()
  const rateLimited = await refusedByLimit(databaseUrl, started, ended)
  const settled = series.find((s) => s.second > 60) ?? series[0]
  const last = series[series.length - 1]
  const growthPercent =
    settled && last ? Math.round(((last.rssMB - settled.rssMB) / Math.max(settled.rssMB, 1)) * 1000) / 10 : 0
  const figures = {
    minutes,
    requests,
    requestsPerSecond: Math.round(requests / (steps * STEP_SECONDS)),
    errors,
    rateLimited,
    samples: series,
    growthPercent,
    stealPercent: stealPercent(before, cpuTimes()),
  }
  log(
    `soak, ${minutes} min mixed: ${figures.requestsPerSecond} req/s, ${errors} errors (${rateLimited} of them order-query 429s), RSS ` +
      `${series.map((s) => s.rssMB).join(' → ')} MB; growth after the first minute ${growthPercent}%`,
  )
  return figures
}

/** The order queries refused 429 between two instants, from the access log (written in batches each second). */
async function refusedByLimit(databaseUrl: string, from: Date, to: Date): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 2500))
  const pool = createPool(databaseUrl, { max: 1 })
  try {
    const { rows } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM access_log WHERE status = 429 AND at BETWEEN $1 AND $2',
      [from, to],
    )
    return rows[0]?.n ?? 0
  } finally {
    await pool.end()
  }
}
