import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { SimpleFaker } from '@faker-js/faker'
import autocannon from 'autocannon'
import { ORDER_RATE_LIMIT } from '../../src/routes/orders/order-routes.js'
import type { Entry } from './dataset.js'
import { log, options, program } from './options.js'
import { run } from './processes.js'

// The load generators: wrk (C, cheap per request) when installed, autocannon otherwise. Both pick each
// request at random from a scenario's entries, a share of them from a hot subset (the same in every run),
// and never send more on one token than its limit allows.

/** How a scenario picks its requests: hotShare of them from a hot subset of hotFraction of the entries. */
export interface Mix {
  hotShare: number
  hotFraction: number
}

export const UNIFORM: Mix = { hotShare: 0, hotFraction: 0 }

/**
 * Where the hot subset is drawn from: the same in a scenario's warm-up and its measured run, which are two
 * runs of the generator, so that the warm-up fills the cache with the hot set that is then measured (and in
 * every run, so that runs are compared on the same hot set). Each request's pick is not seeded.
 */
const HOT_SEED = 1

/**
 * No token may go over its limit. The service holds 60 in any one-second span (a sliding window); the
 * generators count per calendar second (wrk's Lua has no finer clock), and two calendar seconds can share
 * one span, so each token sends at most half the limit per calendar second. The dataset spreads the
 * orders over several tokens per organization to keep the capacity (src: bench/lib/dataset.ts).
 */
const TOKEN_BUDGET = Math.floor(ORDER_RATE_LIMIT / 2)

/** A load generator's figures for one run. */
export interface Run {
  requestsPerSecond: number
  p50: number
  p99: number
  requests: number
  errors: number
}

/** One server's figures in a scenario: its rate at saturation, what a request cost it, and its latency. */
export interface Measured extends Run {
  /** The server's CPU time (every thread, from /proc) per request answered at saturation, in µs. */
  cpuUsPerRequest: number
  /**
   * The same, split into the time in its own code and libraries (user) and in the kernel (system): with the
   * load generator on the same cores, a write's system time includes waking it.
   */
  userUsPerRequest: number
  systemUsPerRequest: number
  /** CPU time the virtual machine's host took for others while it ran: how noisy the run was. */
  stealPercent: number
  /** Latency at a fixed offered rate, below saturation (p50 and p99 above are at saturation). */
  atRate?: Run & { offered: number }
}

/** The machine's CPU time so far, from /proc/stat: all of it, and what the hypervisor gave to others. */
export function cpuTimes(): { total: number; steal: number } {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number)
    return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 }
  } catch {
    return { total: 0, steal: 0 }
  }
}

/** Share of the CPU time between two readings that a virtual machine's host took for others. */
export function stealPercent(
  before: { total: number; steal: number },
  after: { total: number; steal: number },
) {
  const total = after.total - before.total
  return total > 0 ? Math.round(((after.steal - before.steal) / total) * 100) : 0
}

const INSTALLED_WRK = ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((file) => existsSync(file))
if (options.generator === 'wrk' && !INSTALLED_WRK) program.error('wrk is not installed (apt install wrk)')
export const WRK = options.generator === 'autocannon' ? undefined : INSTALLED_WRK

const random = (n: number) => Math.floor(Math.random() * n)

/** The CPU time a process has used so far, in nanoseconds: the sum over its threads (/proc/PID/task). */
export function cpuNanos(pid: number): number {
  let total = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return total
}

/** Clock ticks a second of /proc/PID/stat's times (USER_HZ, 100 on Linux). */
const TICKS = 100

/** A process's user and system time so far, in microseconds (/proc/PID/stat). */
export function userSystemMicros(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // The fields after the command's name, which ends with the last ')': utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return { user: (Number(fields[11]) * 1e6) / TICKS, system: (Number(fields[12]) * 1e6) / TICKS }
}

/**
 * Warms up, then measures a server at saturation: its rate, latency, and the CPU time a request cost it
 * (pid: the server's process).
 */
export async function drive(
  name: string,
  base: string,
  pid: number,
  entries: Entry[],
  mix: Mix = UNIFORM,
): Promise<Measured> {
  if (options.warmup > 0) await measure(base, entries, options.warmup, mix)
  const before = cpuTimes()
  const cpu = cpuNanos(pid)
  const times = userSystemMicros(pid)
  const run = await measure(base, entries, options.duration, mix)
  const used = cpuNanos(pid) - cpu
  const after = userSystemMicros(pid)
  const perRequest = (micros: number) =>
    run.requests > 0 ? Math.round((micros / run.requests) * 10) / 10 : 0
  const result: Measured = {
    ...run,
    cpuUsPerRequest: perRequest(used / 1000),
    userUsPerRequest: perRequest(after.user - times.user),
    systemUsPerRequest: perRequest(after.system - times.system),
    stealPercent: stealPercent(before, cpuTimes()),
  }
  log(
    `${name}: ${result.requestsPerSecond} req/s at ${result.cpuUsPerRequest} µs of CPU a request ` +
      `(user ${result.userUsPerRequest}, system ${result.systemUsPerRequest}), p50 ${result.p50} ms, ` +
      `p99 ${result.p99} ms, ${result.errors} errors, ${result.stealPercent}% CPU stolen`,
  )
  return result
}

/** Measures a server's latency at a fixed offered rate (requests a second over all connections). */
export async function driveAtRate(
  name: string,
  base: string,
  entries: Entry[],
  mix: Mix,
  rate: number,
): Promise<Run & { offered: number }> {
  const run = await measure(base, entries, options.duration, mix, rate)
  log(
    `${name} at ${rate} req/s offered: ${run.requestsPerSecond} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms`,
  )
  return { ...run, offered: rate }
}

/** One measured run of `seconds`, no warm-up, with the chosen generator; at `rate` when above 0. */
export function measure(base: string, entries: Entry[], seconds: number, mix: Mix = UNIFORM, rate = 0) {
  return WRK
    ? driveWrk(base, entries, mix, seconds, rate)
    : driveAutocannon(base, entries, mix, seconds, rate)
}

let entriesFile: { entries: Entry[]; file: string } | undefined

/** Removes the temporary file of entries wrk reads. */
export function cleanUpDrivers() {
  if (entriesFile) rmSync(entriesFile.file, { force: true })
}

async function driveWrk(
  base: string,
  entries: Entry[],
  mix: Mix,
  seconds: number,
  rate: number,
): Promise<Run> {
  if (entriesFile?.entries !== entries) {
    const file = path.join(os.tmpdir(), `compras-bench-${process.pid}.tsv`)
    writeFileSync(file, entries.map((e) => `${e.path}\t${e.authorization}\t${e.token}\n`).join(''))
    entriesFile = { entries, file }
  }
  const out = await run(
    WRK as string,
    [
      '-t1',
      `-c${options.connections}`,
      `-d${seconds}s`,
      '--timeout',
      '10s',
      '-s',
      'bench/wrk-requests.lua',
      base,
      '--',
      entriesFile.file,
      String(mix.hotShare),
      String(mix.hotFraction),
      String(TOKEN_BUDGET),
      String(HOT_SEED),
      String(rate),
    ],
    {},
    'pipe',
  )
  const line = out.trim().split('\n').at(-1) as string
  const figures = JSON.parse(line) as {
    requests: number
    durationUs: number
    errors: number
    non2xx: number
    p50Us: number
    p99Us: number
  }
  return {
    requestsPerSecond: Math.round(figures.requests / (figures.durationUs / 1e6)),
    p50: Number((figures.p50Us / 1000).toFixed(1)),
    p99: Number((figures.p99Us / 1000).toFixed(1)),
    requests: figures.requests,
    errors: figures.errors + figures.non2xx,
  }
}

async function driveAutocannon(
  base: string,
  entries: Entry[],
  mix: Mix,
  seconds: number,
  rate: number,
): Promise<Run> {
  const draw = new SimpleFaker({ seed: HOT_SEED })
  const hot = Array.from({ length: Math.max(1, Math.round(entries.length * mix.hotFraction)) }, () =>
    draw.number.int({ max: entries.length - 1 }),
  )
  // A loop, not Math.max(...): a scenario may hold more entries than the call stack takes arguments.
  const highest = entries.reduce((max, e) => (e.token > max ? e.token : max), -1)
  const second = new Float64Array(TOKEN_BUDGET > 0 ? 1 + highest : 0)
  const used = new Uint16Array(second.length)
  const free = entries.filter((e) => e.token < 0)
  const pick = (): Entry => {
    let entry = entries[0] as Entry
    for (let attempt = 0; attempt < 50; attempt++) {
      entry = entries[
        Math.random() < mix.hotShare ? (hot[random(hot.length)] as number) : random(entries.length)
      ] as Entry
      if (entry.token < 0) return entry
      const now = Math.floor(Date.now() / 1000)
      if (second[entry.token] !== now) {
        second[entry.token] = now
        used[entry.token] = 0
      }
      if ((used[entry.token] as number) < TOKEN_BUDGET) {
        used[entry.token] = (used[entry.token] as number) + 1
        return entry
      }
    }
    // Every pick was over its token's budget: a request that needs no token, if the mix has one (as wrk's).
    return free.length > 0 ? (free[random(free.length)] as Entry) : entry
  }
  const result = await autocannon({
    url: base,
    connections: options.connections,
    duration: seconds,
    ...(rate > 0 ? { overallRate: rate } : {}),
    requests: [
      {
        setupRequest: (request) => {
          const entry = pick()
          return {
            ...request,
            path: entry.path,
            headers: entry.authorization ? { authorization: entry.authorization } : {},
          }
        },
      },
    ],
  })
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  }
}
