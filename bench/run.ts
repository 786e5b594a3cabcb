// `npm run bench`: loads a demo dataset, starts the real service (`compras serve`) and the bare server of
// the same design (bench/bare-server.ts) as separate processes, and, with --compare REF, the service of
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
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { openEmbedded } from '../src/db/embedded.js'
import { createPool, type Pool } from '../src/db/pool.js'
import { copyStandby, startStandby } from '../src/db/standby.js'
import { type Entry, issueTokens, loadSamples, prepareDataset, readIntoPageCache } from './lib/dataset.js'
import { cleanUpDrivers, drive, driveAtRate, type Measured, WRK } from './lib/drivers.js'
import {
  type ExportFigures,
  exportThroughService,
  exportWithExceljs,
  feedThroughService,
  ocdsHistoryThroughService,
  ocdsThroughService,
  syncThroughClient,
} from './lib/exports.js'
import { type FloorFigures, measureLoadFloor } from './lib/floor.js'
import { measureLongHistory, prepareLongHistory } from './lib/history.js'
import { type Importer, type IncrementalFigures, measureIncremental } from './lib/imports.js'
import { measureIndicators } from './lib/indicators.js'
import { describeMemory, type MemoryBreakdown, memoryOf } from './lib/memory.js'
import { counts, log, options, runs } from './lib/options.js'
import { benchPncp, pncpMarkdown } from './lib/pncp.js'
import { measurePrices, type PriceFigures, prepareRarePrices } from './lib/prices.js'
import {
  buildRef,
  fetchText,
  freePort,
  residentBytes,
  serviceSettings,
  startBareServer,
  startService,
  stop,
  withDatabase,
} from './lib/processes.js'
import { bulkLag, commitToAnswer, type LagFigure, lagDuring, type ReplicaFigures } from './lib/replica.js'
import { markdown, type Report, type StorageFigures } from './lib/report.js'
import { SCENARIOS, type ScenarioResult, type Server, targets } from './lib/scenarios.js'
import { measureSnapshot, writeSnapshotReport } from './lib/snapshots.js'
import { type SoakFigures, soak } from './lib/soak.js'
import { benchWebhooks, webhooksMarkdown } from './lib/webhooks.js'

interface BenchDatabase {
  adminUrl: string
  description: string
  release?: () => Promise<void>
  /** With --replica: the standby's port (its URLs are the primary's on that port). */
  standbyPort?: number
}

async function database(): Promise<BenchDatabase> {
  if (process.env.BENCH_DATABASE_URL) {
    if (options.replica)
      throw new Error(
        "--replica makes a standby of the benchmark's own embedded database; a standby of your server needs " +
          'replication allowed in its pg_hba.conf, which the benchmark does not touch: unset BENCH_DATABASE_URL',
      )
    return { adminUrl: process.env.BENCH_DATABASE_URL, description: 'BENCH_DATABASE_URL' }
  }
  // Under the system's temporary folder: the embedded server's unprivileged user must reach it when we
  // run as root, and a later run finds the dataset there again.
  const dataDir = process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), 'compras-bench')
  mkdirSync(dataDir, { recursive: true })
  chmodSync(dataDir, 0o755)
  let embedded = await openEmbedded(dataDir, 'command')
  log(`database: embedded PostgreSQL in ${dataDir}`)
  if (!options.replica)
    return {
      adminUrl: embedded.adminUrl,
      description: `embedded in ${dataDir}`,
      release: () => embedded.release(),
    }
  // A copy of the stopped server becomes its standby (src/db/standby.ts), streaming from it once it runs again.
  await embedded.release()
  const standbyDir = path.join(dataDir, 'standby')
  const started = performance.now()
  copyStandby(path.join(dataDir, 'pg'), standbyDir)
  embedded = await openEmbedded(dataDir, 'command')
  const primary = new URL(embedded.adminUrl)
  const standby = await startStandby(
    standbyDir,
    {
      port: Number(primary.port),
      user: decodeURIComponent(primary.username),
      password: decodeURIComponent(primary.password),
    },
    [
      'max_connections=200',
      'shared_buffers=256MB',
      'hot_standby_feedback=on',
      'max_standby_streaming_delay=-1',
    ],
  )
  log(
    `--replica: a standby of it on port ${standby.port}, copied and started in ${Math.round((performance.now() - started) / 1000)} s`,
  )
  return {
    adminUrl: embedded.adminUrl,
    description: `embedded in ${dataDir}, with a streaming standby on the same host`,
    standbyPort: standby.port,
    release: async () => {
      await standby.stop('fast')
      rmSync(standbyDir, { recursive: true, force: true })
      await embedded.release()
    },
  }
}

/** A URL of the primary's, on the standby's port. */
const onPort = (url: string, port: number) => {
  const parsed = new URL(url)
  parsed.port = String(port)
  return parsed.toString()
}

/** The machine a figure was read on: its cores, memory and PostgreSQL. */
function machineOf(description: string): string {
  const cpus = os.cpus()
  return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, PostgreSQL ${description}`
}

async function main() {
  // Read before anything runs: a setting the service would refuse stops the run here, not at its end.
  const settings = serviceSettings()
  const { adminUrl, description, release, standbyPort } = await database()
  /** A run of one measure alone (--webhooks, --pncp): its figures as JSON and as a report, under --out. */
  const alone = async <F extends object>(
    name: string,
    measure: () => Promise<F>,
    markdown: (f: F, m: string) => string,
  ) => {
    try {
      const figures = await measure()
      const machine = machineOf(description)
      mkdirSync(options.out, { recursive: true })
      writeFileSync(
        path.join(options.out, `${name}.json`),
        `${JSON.stringify({ machine, ...figures }, null, 2)}\n`,
      )
      writeFileSync(path.join(options.out, `${name}.md`), markdown(figures, machine))
      log(`wrote ${path.join(options.out, `${name}.md`)}`)
    } finally {
      await release?.()
    }
  }
  if (options.webhooks !== undefined) {
    const subscriptions = options.webhooks === true ? 100 : Number(options.webhooks)
    return alone('webhooks', () => benchWebhooks(adminUrl, subscriptions), webhooksMarkdown)
  }
  if (options.pncp !== undefined) {
    const contratacoes = options.pncp === true ? 100_000 : Number(options.pncp)
    return alone('pncp', () => benchPncp(adminUrl, contratacoes), pncpMarkdown)
  }
  try {
    const { url, load } = await prepareDataset(adminUrl)
    const standbyUrl = standbyPort === undefined ? undefined : onPort(url, standbyPort)
    const standbyPool: Pool | undefined = standbyUrl ? createPool(standbyUrl, { max: 2 }) : undefined
    const lags: LagFigure[] = []
    let replica: ReplicaFigures | undefined
    // A record with a long history, kept with the dataset (lib/history.ts).
    const fixing = createPool(url, { max: 2 })
    // And an item bought a few times only, for the price research of a rare description (lib/prices.ts).
    await prepareLongHistory(fixing)
      .then(() => prepareRarePrices(fixing))
      .finally(() => fixing.end())
    const previous = options.compare ? await buildRef(options.compare) : undefined
    if (previous) log(`--compare: built ${options.compare} (${previous.commit}) in a worktree of its own`)
    const wantsIncremental = runs('incremental import')
    // The other build runs on a copy of the database, made before anything changes it: its importer and
    // its service (which rebuilds the read model in its own form when it starts) never touch this build's.
    // Issued before the copy, which must know them too; a database is copied with no one connected to it.
    const issuing = createPool(url, { max: 1 })
    const tokens = await issueTokens(issuing).finally(() => issuing.end())
    const copy = previous ? await copyDatabase(adminUrl, url) : undefined
    const pool = createPool(url, { max: 2 })
    // What writing the loaded rows alone costs this server, beside what the load took on it (lib/floor.ts).
    const floor: FloorFigures | undefined =
      options.floor === false || (load.reused && options.floor !== true) || !runs('load floor')
        ? undefined
        : await measureLoadFloor(pool)
    // Small imports on the loaded data, before the service starts: nothing else competes for the machine.
    let incremental: IncrementalFigures | undefined
    if (wantsIncremental) {
      const theirs = previous && copy ? await previousImporter(previous.dist, copy.url) : undefined
      try {
        if (standbyPool)
          lags.push(
            await lagDuring('the incremental imports', pool, standbyPool, async () => {
              incremental = await measureIncremental(pool, theirs)
            }),
          )
        else incremental = await measureIncremental(pool, theirs)
      } finally {
        await theirs?.pool.end()
      }
    }
    const indicators = runs('indicators') ? await measureIndicators(pool) : undefined
    if (runs('snapshot'))
      writeSnapshotReport(options.out, await measureSnapshot(url), machineOf(description), options.scale)
    // After the incremental imports, whose changes give the history scenarios their records.
    const samples = await loadSamples(pool, tokens)
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
    if (copy) {
      const theirs = createPool(copy.url, { max: 2 })
      await readIntoPageCache(theirs).finally(() => theirs.end())
    }
    mkdirSync(options.out, { recursive: true })

    // Its metrics on a port of their own: where its memory goes is read there after the load scenarios.
    const metricsPort = await freePort()
    const service = await startService(url, path.join(options.out, `serve-${options.scale}.log`), undefined, {
      METRICS_PORT: String(metricsPort),
    })
    const results: ScenarioResult[] = []
    const exports = new Map<string, ExportFigures>()
    let rssAfterLoadMB = 0
    let memoryAfterLoad: MemoryBreakdown | undefined
    let previousRssMB: number | undefined
    let soaked: SoakFigures | undefined
    let prices: PriceFigures | undefined
    const others: { child: { pid?: number }; base: string; stop: () => Promise<void> }[] = []
    try {
      const bare = await startBareServer(url)
      others.push({ ...bare, stop: () => stop(bare.child) })
      // With metrics too, as the service: each answer's histogram costs CPU, which both must pay alike.
      const old = previous
        ? await startService(
            (copy as { url: string }).url,
            path.join(options.out, `serve-${options.scale}-previous.log`),
            previous.bin,
            { METRICS_PORT: String(await freePort()) },
          )
        : undefined
      if (old) others.push({ ...old, stop: () => stop(old.child) })
      const backed = standbyUrl
        ? await startService(url, path.join(options.out, `serve-${options.scale}-replica.log`), undefined, {
            DATABASE_REPLICA_URLS: standbyUrl,
          })
        : undefined
      if (backed) others.push({ ...backed, stop: () => stop(backed.child) })
      const servers: [Server, { child: { pid?: number }; base: string }][] = [
        ['service', service],
        ['bare', bare],
        ...(backed ? [['replica', backed] as [Server, typeof backed]] : []),
        ...(old ? [['previous', old] as [Server, typeof old]] : []),
      ]
      const scenarios = SCENARIOS.filter((scenario) => runs(scenario.name))
      // The bare server must send what the service sends, or they are not measured on the same work; a
      // previous build may send other bytes (a page it renders otherwise), or lack the route (a feature it
      // did not have: the scenario is measured without it).
      const lacking = new Set<string>()
      for (const scenario of scenarios) {
        const entry = scenario.entries(samples)[0] as Entry
        const headers: Record<string, string> = entry.authorization
          ? { authorization: entry.authorization }
          : {}
        const ours = await fetchText(`${service.base}${entry.path}`, headers)
        if (ours.status !== 200) throw new Error(`${entry.path} answered ${ours.status}: ${ours.body}`)
        for (const [name, server] of servers.slice(1)) {
          const theirs = await fetchText(`${server.base}${entry.path}`, headers)
          if (name === 'previous' && theirs.status === 404) {
            log(`${scenario.name}: the previous build has no such route; measured without it`)
            lacking.add(scenario.name)
            continue
          }
          if (theirs.status !== 200 || ((name === 'bare' || name === 'replica') && theirs.body !== ours.body))
            throw new Error(
              `the ${name} server's answer to ${entry.path} is not the service's: ${theirs.body.slice(0, 300)}`,
            )
          if (theirs.body !== ours.body) log(`${scenario.name}: the ${name} build answers with other bytes`)
        }
      }
      for (const scenario of scenarios) {
        const entries = scenario.entries(samples)
        const rounds: Partial<Record<Server, Measured[]>> = {}
        const taking = servers.filter(([name]) => name !== 'previous' || !lacking.has(scenario.name))
        for (let round = 0; round < options.rounds; round++) {
          // Each round starts with another server, so that none is always measured first.
          const order = [...taking.slice(round % taking.length), ...taking.slice(0, round % taking.length)]
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
      // With --replica: a bulk import's lag, and how soon the replica-backed service shows a commit.
      if (backed && standbyPool && runs('replica')) {
        const primaryPool = createPool(url, { max: 2 })
        try {
          lags.push(await bulkLag(primaryPool, standbyPool, Math.min(20_000, counts.orders)))
          const contract = (samples.contracts[0] as Entry).path.split('/').at(-1) as string
          replica = { lags, ...(await commitToAnswer(primaryPool, standbyPool, backed.base, contract)) }
        } finally {
          await primaryPool.end()
        }
      }
      rssAfterLoadMB = Math.round(residentBytes(service.child.pid as number) / 1e6)
      memoryAfterLoad = await memoryOf(`http://127.0.0.1:${metricsPort}/metrics`).catch(() => undefined)
      log(
        `service resident memory after the load scenarios: ${rssAfterLoadMB} MB` +
          (memoryAfterLoad ? ` (${describeMemory(memoryAfterLoad)})` : ''),
      )
      if (old) previousRssMB = Math.round(residentBytes(old.child.pid as number) / 1e6)
      for (const other of others) await other.stop()
      // Uncached, on services of their own; the build before on its copy, which goes once the scenarios end.
      if (runs('price research uncached')) {
        const pricing = createPool(url, { max: 1 })
        prices = await measurePrices(
          url,
          pricing,
          path.join(options.out, `serve-${options.scale}-prices.log`),
          previous && copy
            ? {
                bin: previous.bin,
                url: copy.url,
                logFile: path.join(options.out, `serve-${options.scale}-prices-previous.log`),
              }
            : undefined,
        ).finally(() => pricing.end())
      }
      if (options.soak > 0 && runs('soak'))
        soaked = await soak(service.base, url, service.child.pid as number, samples, options.soak)
    } finally {
      for (const other of others) await other.stop()
      await stop(service.child)
      await previous?.remove()
      await copy?.drop()
      await standbyPool?.end()
    }
    // A new mirror's catch-up: the feed's lines read raw, then the same through compras-client's sync().
    const catchUp = async () => {
      const feeding = await startService(url, path.join(options.out, `serve-${options.scale}-feed.log`))
      try {
        exports.set('feed', await feedThroughService(feeding.base, feeding.child.pid as number))
        exports.set('sync', await syncThroughClient(feeding.base))
      } finally {
        await stop(feeding.child)
      }
    }
    if (options.only) {
      // The catch-up alone (`--only catch-up`): its figures are logged, as a quick look's are.
      if (runs('catch-up')) await catchUp()
      return
    }
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
    for (const [name, bulk] of [
      ['ocds', ocdsThroughService],
      ['ocds history', ocdsHistoryThroughService],
    ] as const) {
      const fresh = await startService(
        url,
        path.join(options.out, `serve-${options.scale}-${name.replace(' ', '-')}.log`),
      )
      try {
        exports.set(name, await bulk(fresh.base, fresh.child.pid as number))
      } finally {
        await stop(fresh.child)
      }
    }
    await catchUp()
    exports.set('exceljs', await exportWithExceljs(url))
    const measuring = createPool(url, { max: 1 })
    const history = await measureLongHistory(
      url,
      measuring,
      path.join(options.out, `serve-${options.scale}-history.log`),
    ).finally(() => measuring.end())
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
      ...(memoryAfterLoad ? { memoryAfterLoad } : {}),
      previousRssMB,
      exports: [...exports.values()],
      storage,
      incremental,
      indicators,
      soak: soaked,
      history,
      prices,
      replica,
      targets: targets(results, exports, incremental, soaked, rssAfterLoadMB, history, prices),
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

/** What the change logs take on disk, per million entries, and what history takes per change. */
async function changeLogStorage(url: string): Promise<StorageFigures> {
  const pool = createPool(url, { max: 1 })
  try {
    const { rows } = await pool.query<{
      entries: string
      bytes: string
      patches: string
      patch_bytes: string
      versions: string
      version_bytes: string
    }>(
      `SELECT (SELECT count(*) FROM public_changes) + (SELECT count(*) FROM order_changes) AS entries,
         pg_total_relation_size('public_changes') + pg_total_relation_size('order_changes') AS bytes,
         count(*) AS patches, coalesce(sum(pg_column_size(restore)), 0) AS patch_bytes,
         (SELECT count(*) FROM ocds_release_versions) AS versions,
         pg_total_relation_size('ocds_release_versions') AS version_bytes
       FROM public_changes WHERE restore IS NOT NULL`,
    )
    const row = rows[0]
    const entries = Number(row?.entries ?? 0)
    const bytes = Number(row?.bytes ?? 0)
    const patches = Number(row?.patches ?? 0)
    const versions = Number(row?.versions ?? 0)
    const figures: StorageFigures = {
      changeLogEntries: entries,
      changeLogMB: Math.round(bytes / 1e6),
      // Bytes an entry are megabytes a million entries.
      changeLogMBPerMillion: entries > 0 ? Math.round(bytes / entries) : 0,
      historyPatches: patches,
      patchBytesPerChange: patches > 0 ? Math.round(Number(row?.patch_bytes) / patches) : 0,
      releaseVersions: versions,
      releaseVersionBytes: versions > 0 ? Math.round(Number(row?.version_bytes) / versions) : 0,
    }
    log(
      `change log: ${entries.toLocaleString('en')} entries, ${figures.changeLogMB} MB (${figures.changeLogMBPerMillion} MB a million); ` +
        `history: ${patches} patches, ${figures.patchBytesPerChange} B each; ${versions} replaced releases, ${figures.releaseVersionBytes} B each`,
    )
    return figures
  } finally {
    await pool.end()
  }
}

/** A copy of the dataset's database, for another build's imports, and what drops it. */
async function copyDatabase(adminUrl: string, url: string) {
  const source = new URL(url).pathname.slice(1)
  const name = `${source}_previous`
  const admin = createPool(adminUrl, { max: 1 })
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`)
    const started = performance.now()
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${source}`)
    // A build before the organs' feeds were numbered on their own writes no org_seq: on its copy the
    // column may be empty (it never reads it).
    const copied = createPool(withDatabase(url, name), { max: 1 })
    await copied
      .query('ALTER TABLE order_changes ALTER COLUMN org_seq DROP NOT NULL')
      .finally(() => copied.end())
    log(
      `--compare: copied the database for the other build in ${Math.round((performance.now() - started) / 1000)} s`,
    )
  } finally {
    await admin.end()
  }
  return {
    url: withDatabase(url, name),
    drop: async () => {
      const pool = createPool(adminUrl, { max: 1 })
      try {
        await pool.query(`DROP DATABASE IF EXISTS ${name}`)
      } finally {
        await pool.end()
      }
    },
  }
}

/** Another build's importer, from its dist/, on a pool of its own. */
async function previousImporter(dist: string, url: string): Promise<Importer> {
  const load = (file: string) => import(pathToFileURL(path.join(dist, file)).href)
  const [{ importRecords }, { createPool: theirPool }] = await Promise.all([
    load('import/importer.js'),
    load('db/pool.js'),
  ])
  return { pool: theirPool(url, { max: 2 }), importRecords }
}

/** The round whose CPU per request is the median (the lower of the middle two). */
function median(rounds: Measured[]): Measured | undefined {
  const sorted = [...rounds].sort((a, b) => a.cpuUsPerRequest - b.cpuUsPerRequest)
  return sorted[Math.floor((sorted.length - 1) / 2)]
}

await main()
