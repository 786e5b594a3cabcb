// `npm run bench`: loads a demo dataset, starts the real service (`compras serve`) and the bare server of
// the same design (bench/bare-server.mjs) as separate processes, and, with --compare REF, the service of
// another build beside them. Each read scenario drives each server in turn with wrk (or autocannon): what a
// request costs each one in CPU (from /proc), its rate at saturation, and its latency at a fixed offered rate
// (half the service's maximum). Then memory, a soak, the exports and small imports. Writes
// bench/results/SCALE.{md,json}. A measurement, never a pass/fail test.
//
// Database: BENCH_DATABASE_URL (any database on the server; the bench creates its own next to it) or,
// without it, an embedded PostgreSQL under $TMPDIR/compras-bench (BENCH_DATA_DIR). The dataset is kept and
// reused by later runs of the same scale; --reload loads it again.
//
// bench/lib: options.ts (the command line), processes.ts (the servers, a build of another ref), dataset.ts
// (the data and the requests), drivers.ts (wrk, autocannon, CPU), scenarios.ts (what is measured, and the
// targets), exports.ts, imports.ts, soak.ts, report.ts.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openEmbedded } from '../src/db/embedded.js'
import { createPool } from '../src/db/pool.js'
import { type Entry, loadSamples, prepareDataset, readIntoPageCache } from './lib/dataset.js'
import { cleanUpDrivers, drive, driveAtRate, type Measured, WRK } from './lib/drivers.js'
import {
  type ExportFigures,
  exportThroughService,
  exportWithExceljs,
  feedThroughService,
  ocdsThroughService,
} from './lib/exports.js'
import { type FloorFigures, measureLoadFloor } from './lib/floor.js'
import { measureIncremental } from './lib/imports.js'
import { counts, log, options } from './lib/options.js'
import {
  buildRef,
  fetchText,
  residentBytes,
  serviceSettings,
  startBareServer,
  startService,
  stop,
} from './lib/processes.js'
import { markdown, type Report, type StorageFigures } from './lib/report.js'
import { SCENARIOS, type ScenarioResult, type Server, targets } from './lib/scenarios.js'
import { type SoakFigures, soak } from './lib/soak.js'

async function database(): Promise<{ adminUrl: string; description: string; release?: () => Promise<void> }> {
  if (process.env.BENCH_DATABASE_URL)
    return { adminUrl: process.env.BENCH_DATABASE_URL, description: 'BENCH_DATABASE_URL' }
  // Under the system's temporary folder: the embedded server's unprivileged user must reach it when we
  // run as root, and a later run finds the dataset there again.
  const dataDir = process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), 'compras-bench')
  mkdirSync(dataDir, { recursive: true })
  chmodSync(dataDir, 0o755)
  const embedded = await openEmbedded(dataDir, 'command')
  log(`database: embedded PostgreSQL in ${dataDir}`)
  return {
    adminUrl: embedded.adminUrl,
    description: `embedded in ${dataDir}`,
    release: () => embedded.release(),
  }
}

async function main() {
  // Read before anything runs: a setting the service would refuse stops the run here, not at its end.
  const settings = serviceSettings()
  const { adminUrl, description, release } = await database()
  try {
    const { url, load } = await prepareDataset(adminUrl)
    const pool = createPool(url, { max: 2 })
    const samples = await loadSamples(pool)
    // What writing the loaded rows alone costs this server, beside what the load took on it (lib/floor.ts).
    const floor: FloorFigures | undefined =
      options.floor === false ||
      (load.reused && options.floor !== true) ||
      (options.only && !'load floor'.includes(options.only))
        ? undefined
        : await measureLoadFloor(pool)
    // Small imports on the loaded data, before the service starts: nothing else competes for the machine.
    const incremental =
      options.only && !'incremental import'.includes(options.only)
        ? undefined
        : await measureIncremental(pool)
    // The server's version, and its buffers: what new listing pages cost depends on them (README).
    const server = (
      await pool.query<{ version: string; buffers: string }>(
        `SELECT current_setting('server_version') AS version, current_setting('shared_buffers') AS buffers`,
      )
    ).rows[0]
    const postgres = server && `${server.version}, shared_buffers ${server.buffers}`
    // Last before the service starts: the pages the scenarios read, in memory for every server alike.
    const warmed = await readIntoPageCache(pool)
    await pool.end()
    mkdirSync(options.out, { recursive: true })

    const previous = options.compare ? await buildRef(options.compare) : undefined
    if (previous) log(`--compare: built ${options.compare} (${previous.commit}) in a worktree of its own`)
    const service = await startService(url, path.join(options.out, `serve-${options.scale}.log`))
    const results: ScenarioResult[] = []
    const exports = new Map<string, ExportFigures>()
    let rssAfterLoadMB = 0
    let previousRssMB: number | undefined
    let soaked: SoakFigures | undefined
    const others: { child: { pid?: number }; base: string; stop: () => Promise<void> }[] = []
    try {
      const bare = await startBareServer(url)
      others.push({ ...bare, stop: () => stop(bare.child) })
      const old = previous
        ? await startService(url, path.join(options.out, `serve-${options.scale}-previous.log`), previous.bin)
        : undefined
      if (old) others.push({ ...old, stop: () => stop(old.child) })
      const servers: [Server, { child: { pid?: number }; base: string }][] = [
        ['service', service],
        ['bare', bare],
        ...(old ? [['previous', old] as [Server, typeof old]] : []),
      ]
      const scenarios = SCENARIOS.filter((scenario) => !options.only || scenario.name.includes(options.only))
      // The bare server must send what the service sends, or they are not measured on the same work; a
      // previous build may send other bytes (a page it renders otherwise), but must answer.
      for (const scenario of scenarios) {
        const entry = scenario.entries(samples)[0] as Entry
        const headers: Record<string, string> = entry.authorization
          ? { authorization: entry.authorization }
          : {}
        const ours = await fetchText(`${service.base}${entry.path}`, headers)
        if (ours.status !== 200) throw new Error(`${entry.path} answered ${ours.status}: ${ours.body}`)
        for (const [name, server] of servers.slice(1)) {
          const theirs = await fetchText(`${server.base}${entry.path}`, headers)
          if (theirs.status !== 200 || (name === 'bare' && theirs.body !== ours.body))
            throw new Error(
              `the ${name} server's answer to ${entry.path} is not the service's: ${theirs.body.slice(0, 300)}`,
            )
          if (theirs.body !== ours.body) log(`${scenario.name}: the ${name} build answers with other bytes`)
        }
      }
      for (const scenario of scenarios) {
        const entries = scenario.entries(samples)
        const rounds: Partial<Record<Server, Measured[]>> = {}
        for (let round = 0; round < options.rounds; round++) {
          // Each round starts with another server, so that none is always measured first.
          const order = [
            ...servers.slice(round % servers.length),
            ...servers.slice(0, round % servers.length),
          ]
          for (const [name, server] of order) {
            const measured = await drive(
              `${scenario.name} (${name})`,
              server.base,
              server.child.pid as number,
              entries,
              scenario.mix,
            )
            rounds[name] = [...(rounds[name] ?? []), measured]
          }
        }
        const result: ScenarioResult = { name: scenario.name, servers: {} }
        for (const [name] of servers) result.servers[name] = median(rounds[name] ?? [])
        // Latency below saturation: every server at half the service's maximum.
        const rate = Math.max(1, Math.round((result.servers.service?.requestsPerSecond ?? 0) / 2))
        for (const [name, server] of servers) {
          const measured = result.servers[name]
          if (measured)
            measured.atRate = await driveAtRate(
              `${scenario.name} (${name})`,
              server.base,
              entries,
              scenario.mix ?? { hotShare: 0, hotFraction: 0 },
              rate,
            )
        }
        results.push(result)
      }
      rssAfterLoadMB = Math.round(residentBytes(service.child.pid as number) / 1e6)
      log(`service resident memory after the load scenarios: ${rssAfterLoadMB} MB`)
      if (old) previousRssMB = Math.round(residentBytes(old.child.pid as number) / 1e6)
      for (const other of others) await other.stop()
      if (options.soak > 0 && (!options.only || 'soak'.includes(options.only)))
        soaked = await soak(service.base, url, service.child.pid as number, samples, options.soak)
    } finally {
      for (const other of others) await other.stop()
      await stop(service.child)
      await previous?.remove()
    }
    if (options.only) return
    // Each export on a service of its own: what the export itself needs, not what the load before it left
    // in V8's heap (reported above as rssAfterLoadMB).
    const rows = samples.contracts.length
    for (const format of ['xlsx', 'csv'] as const) {
      const fresh = await startService(url, path.join(options.out, `serve-${options.scale}-${format}.log`))
      try {
        exports.set(format, await exportThroughService(fresh.base, fresh.child.pid as number, format, rows))
      } finally {
        await stop(fresh.child)
      }
    }
    const fresh = await startService(url, path.join(options.out, `serve-${options.scale}-ocds.log`))
    try {
      exports.set('ocds', await ocdsThroughService(fresh.base, fresh.child.pid as number))
    } finally {
      await stop(fresh.child)
    }
    const feeding = await startService(url, path.join(options.out, `serve-${options.scale}-feed.log`))
    try {
      exports.set('feed', await feedThroughService(feeding.base, feeding.child.pid as number))
    } finally {
      await stop(feeding.child)
    }
    exports.set('exceljs', await exportWithExceljs(url))
    const storage = await changeLogStorage(url)

    const report: Report = {
      compared: previous && options.compare ? `${options.compare} (${previous.commit})` : undefined,
      rounds: options.rounds,
      scale: options.scale,
      date: new Date().toISOString().slice(0, 16).replace('T', ' '),
      command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(
        ' ',
      ),
      machine: {
        cpu: os.cpus()[0]?.model ?? 'unknown',
        cpus: os.cpus().length,
        memoryGB: Math.round(os.totalmem() / 2 ** 30),
        os: `${os.type()} ${os.release()}`,
        node: process.versions.node,
        postgres: postgres ?? 'unknown',
        database: description,
        service: settings,
      },
      loadGenerator: WRK ? 'wrk, 1 thread' : 'autocannon',
      connections: options.connections,
      warmup: options.warmup,
      duration: options.duration,
      counts,
      load,
      floor,
      warmed,
      scenarios: results,
      rssAfterLoadMB,
      previousRssMB,
      exports: [...exports.values()],
      storage,
      incremental,
      soak: soaked,
      targets: targets(results, exports, incremental, soaked, rssAfterLoadMB),
    }
    const base = path.join(options.out, options.scale)
    writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`)
    writeFileSync(`${base}.md`, markdown(report))
    log('')
    for (const target of report.targets)
      log(`${target.met ? 'met    ' : 'NOT MET'}  ${target.scenario}: ${target.goal} (seen ${target.seen})`)
    log(`\nresults: ${base}.md and ${base}.json`)
  } finally {
    cleanUpDrivers()
    await release?.()
  }
}

/** What the change logs take on disk, rows and indexes, per million entries. */
async function changeLogStorage(url: string): Promise<StorageFigures> {
  const pool = createPool(url, { max: 1 })
  try {
    const { rows } = await pool.query<{ entries: string; bytes: string }>(
      `SELECT (SELECT count(*) FROM public_changes) + (SELECT count(*) FROM order_changes) AS entries,
         pg_total_relation_size('public_changes') + pg_total_relation_size('order_changes') AS bytes`,
    )
    const entries = Number(rows[0]?.entries ?? 0)
    const bytes = Number(rows[0]?.bytes ?? 0)
    const figures = {
      changeLogEntries: entries,
      changeLogMB: Math.round(bytes / 1e6),
      // Bytes an entry are megabytes a million entries.
      changeLogMBPerMillion: entries > 0 ? Math.round(bytes / entries) : 0,
    }
    log(
      `change log: ${entries.toLocaleString('en')} entries, ${figures.changeLogMB} MB (${figures.changeLogMBPerMillion} MB a million)`,
    )
    return figures
  } finally {
    await pool.end()
  }
}

/** The round whose CPU per request is the median (the lower of the middle two). */
function median(rounds: Measured[]): Measured | undefined {
  const sorted = [...rounds].sort((a, b) => a.cpuUsPerRequest - b.cpuUsPerRequest)
  return sorted[Math.floor((sorted.length - 1) / 2)]
}

await main()
