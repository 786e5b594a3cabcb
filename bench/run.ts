// `npm run bench`: loads a demo dataset, starts the real service (`compras serve`) and a bare node:http
// baseline as separate processes, drives both with wrk or autocannon, and writes the figures to
// bench/results/SCALE.{md,json}. A measurement, never a pass/fail test.
//
// Database: BENCH_DATABASE_URL (any database on the server; the bench creates its own next to it) or,
// without it, an embedded PostgreSQL under $TMPDIR/compras-bench (BENCH_DATA_DIR). The dataset is kept and
// reused by later runs of the same scale; --reload loads it again.
//
// bench/lib: options.ts (the command line), processes.ts (service, baseline), dataset.ts (the data and the
// requests), drivers.ts (wrk, autocannon), scenarios.ts (what is measured, and the goals), exports.ts,
// report.ts.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openEmbedded } from '../src/db/embedded.js'
import { createPool } from '../src/db/pool.js'
import { type Entry, loadSamples, prepareDataset, readIntoPageCache } from './lib/dataset.js'
import { cleanUpDrivers, drive, type ScenarioResult, WRK } from './lib/drivers.js'
import {
  type ExportFigures,
  exportThroughService,
  exportWithExceljs,
  ocdsThroughService,
} from './lib/exports.js'
import { type FloorFigures, measureLoadFloor } from './lib/floor.js'
import { measureIncremental } from './lib/imports.js'
import { counts, log, options } from './lib/options.js'
import {
  fetchText,
  residentBytes,
  serviceSettings,
  startBaseline,
  startCeiling,
  startService,
  stop,
} from './lib/processes.js'
import { markdown, type Report } from './lib/report.js'
import { ceilingName, SCENARIOS, targets } from './lib/scenarios.js'
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

    const service = await startService(url, path.join(options.out, `serve-${options.scale}.log`))
    const results: ScenarioResult[] = []
    const exports = new Map<string, ExportFigures>()
    let rssAfterLoadMB = 0
    let soaked: SoakFigures | undefined
    try {
      const first = samples.orders[0] as Entry
      const sample = await fetchText(`${service.base}${first.path}`, { authorization: first.authorization })
      if (sample.status !== 200) throw new Error(`an order query answered ${sample.status}: ${sample.body}`)
      const bodyBytes = Buffer.byteLength(sample.body)

      // The baseline runs first and again last; this machine's capacity drifts, and the ratios use the
      // better of the two, so drift never flatters the service.
      const runBaseline = async (name: string) => {
        const baseline = await startBaseline(bodyBytes)
        try {
          return await drive(name, baseline.base, [{ path: '/', authorization: '', token: -1 }])
        } finally {
          await stop(baseline.child)
        }
      }
      results.push(await runBaseline(`baseline (node:http, ${bodyBytes} bytes)`))
      // Each scenario with a ceiling is measured on the bare server right after the service, so that both
      // meet the host as it is then (bench/ceiling-server.mjs).
      const ceiling = await startCeiling(url)
      try {
        // The bare server must send what the service sends, or the two are not measured on the same work.
        for (const entry of [first, samples.contracts[0] as Entry]) {
          const headers: Record<string, string> = entry.authorization
            ? { authorization: entry.authorization }
            : {}
          const [ours, bare] = await Promise.all([
            fetchText(`${service.base}${entry.path}`, headers),
            fetchText(`${ceiling.base}${entry.path}`, headers),
          ])
          if (ours.status !== 200 || bare.status !== ours.status || bare.body !== ours.body)
            throw new Error(`the bare server's answer to ${entry.path} is not the service's: ${bare.body}`)
        }
        for (const scenario of SCENARIOS) {
          const entries = scenario.entries(samples)
          results.push(await drive(scenario.name, service.base, entries, scenario.mix))
          if (scenario.ceiling)
            results.push(await drive(ceilingName(scenario.name), ceiling.base, entries, scenario.mix))
        }
      } finally {
        await stop(ceiling.child)
      }
      const again = await runBaseline('baseline, again after the scenarios')
      const baselineRate = Math.max(results[0]?.requestsPerSecond ?? 1, again.requestsPerSecond, 1)
      for (const result of results.slice(1)) result.ratio = result.requestsPerSecond / baselineRate
      results.push(again)

      rssAfterLoadMB = Math.round(residentBytes(service.child.pid as number) / 1e6)
      log(`service resident memory after the load scenarios: ${rssAfterLoadMB} MB`)
      if (options.soak > 0 && (!options.only || 'soak'.includes(options.only)))
        soaked = await soak(service.base, url, service.child.pid as number, samples, options.soak)
    } finally {
      await stop(service.child)
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
    exports.set('exceljs', await exportWithExceljs(url))

    const report: Report = {
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
      exports: [...exports.values()],
      incremental,
      soak: soaked,
      targets: targets(
        new Map(results.map((r) => [r.name, r])),
        exports,
        load,
        incremental,
        soaked,
        rssAfterLoadMB,
        floor,
      ),
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

await main()
