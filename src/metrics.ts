import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { Pool, ServerPool } from './db/pool.js'
import { type Replicas, serversOf } from './db/replicas.js'
import type { Gate } from './gate.js'
import type { DocumentStore } from './readmodel/store.js'

// Prometheus metrics (prom-client), served on a port of their own (METRICS_PORT), never on the public one.
// What the serving process sees is counted as it happens (requests, rejections, export rows); what other
// processes do (imports, document rebuilds) is read from import_runs when Prometheus scrapes. The README's
// "Operating compras" section lists every metric with example alerts.

export interface MetricsSources {
  pool: Pool
  exportPool: Pool
  store: DocumentStore
  exportGate: Gate
  researchGate: Gate
  /** With DATABASE_REPLICA_URLS: the replicas' state. */
  replicas?: Replicas | undefined
  /** Whether Redis answers; undefined when the instance runs without Redis. */
  redisUp: () => boolean | undefined
  /** The instance's webhook deliveries. */
  webhooks?: { readonly inFlight: number }
}

const PREFIX = 'compras_'

/** The scrape reads the database with this bound, so that a dead database never hangs it. */
const DATABASE_PROBE_MS = 1000

export class Metrics {
  readonly registry = new Registry()
  readonly requests: Counter<'route' | 'method' | 'status'>
  readonly duration: Histogram<'route' | 'status'>
  readonly rateLimited: Counter<'route'>
  readonly authFailures: Counter
  readonly exportRows: Counter
  readonly webhookDeliveries: Counter<'outcome'>
  /** The database's figures for the scrape under way (one read shared by its collectors). */
  private reading: Promise<ImportTotals | undefined> | undefined

  constructor(sources: MetricsSources) {
    const registers = [this.registry]
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX })
    this.requests = new Counter({
      name: `${PREFIX}http_requests_total`,
      help: 'Requests answered, by route pattern, method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
    })
    this.duration = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'Time from the request to the last byte of its answer, by route pattern and status',
      labelNames: ['route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers,
    })
    this.rateLimited = new Counter({
      name: `${PREFIX}rate_limited_total`,
      help: 'Requests refused with 429 by a rate limit (order query, public API) or the export gate',
      labelNames: ['route'],
      registers,
    })
    this.authFailures = new Counter({
      name: `${PREFIX}auth_failures_total`,
      help: 'Order queries refused for a missing, unknown or revoked token (401)',
      registers,
    })
    this.exportRows = new Counter({
      name: `${PREFIX}export_rows_total`,
      help: 'Rows written into exported files',
      registers,
    })
    this.webhookDeliveries = new Counter({
      name: `${PREFIX}webhook_deliveries_total`,
      help:
        'Webhook attempts by outcome: delivered (2xx), failed (tried again later), gone (410: removed), ' +
        'disabled (failing for 3 days)',
      labelNames: ['outcome'],
      registers,
    })
    const { webhooks } = sources
    if (webhooks)
      new Gauge({
        name: `${PREFIX}webhook_attempts_in_flight`,
        help: 'Webhook deliveries this instance is making now (WEBHOOK_CONCURRENCY bounds them)',
        registers,
        collect() {
          this.set(webhooks.inFlight)
        },
      })
    const { store, pool, exportPool } = sources
    new Counter({
      name: `${PREFIX}cache_hits_total`,
      help: 'Documents, pages and counts answered from the in-memory cache',
      registers,
      collect() {
        this.reset()
        this.inc(store.hits)
      },
    })
    new Counter({
      name: `${PREFIX}cache_misses_total`,
      help: 'Documents, pages and counts read from the database (not cached, or dropped by an import)',
      registers,
      collect() {
        this.reset()
        this.inc(store.misses)
      },
    })
    new Gauge({
      name: `${PREFIX}cache_bytes`,
      help: 'Bytes the in-memory cache holds (CACHE_MB bounds it)',
      registers,
      collect() {
        this.set(store.cacheStats.bytes)
      },
    })
    new Gauge({
      name: `${PREFIX}cache_entries`,
      help: 'Entries the in-memory cache holds',
      registers,
      collect() {
        this.set(store.cacheStats.entries)
      },
    })
    new Gauge({
      name: `${PREFIX}db_pool_connections`,
      help: 'Database pool connections by state (total, idle, waiting: requests queued for one)',
      labelNames: ['pool', 'state'],
      registers,
      collect() {
        for (const [name, p] of [
          ['api', pool],
          ['export', exportPool],
        ] as const) {
          // A pool over replicas counts the connections of the primary's pool and each replica's.
          const members = serversOf(p)
          const sum = (count: (member: ServerPool) => number) => members.reduce((n, m) => n + count(m), 0)
          this.set(
            { pool: name, state: 'total' },
            sum((m) => m.totalCount),
          )
          this.set(
            { pool: name, state: 'idle' },
            sum((m) => m.idleCount),
          )
          this.set(
            { pool: name, state: 'waiting' },
            sum((m) => m.waitingCount),
          )
        }
      },
    })
    // The places of each gate taken now.
    const gates: [string, Gate, string][] = [
      [
        'exports_running',
        sources.exportGate,
        'Streamed downloads holding an export place (EXPORT_CONCURRENCY bounds them)',
      ],
      [
        'researches_running',
        sources.researchGate,
        'Price researches computing on a place (RESEARCH_CONCURRENCY bounds them)',
      ],
    ]
    for (const [name, gate, help] of gates)
      new Gauge({
        name: `${PREFIX}${name}`,
        help,
        registers,
        collect() {
          this.set(gate.size)
        },
      })
    const { replicas } = sources
    if (replicas) {
      new Gauge({
        name: `${PREFIX}replica_up`,
        help: 'Whether a replica serves reads (1) or is out of the rotation (0): down, lagging or not a standby',
        labelNames: ['replica'],
        registers,
        collect() {
          for (const status of replicas.statuses)
            this.set({ replica: status.name }, status.state === 'up' ? 1 : 0)
        },
      })
      new Gauge({
        name: `${PREFIX}replica_lag_seconds`,
        help: 'How far a replica was behind the primary at its last check, at most (-1: unknown)',
        labelNames: ['replica'],
        registers,
        collect() {
          for (const status of replicas.statuses) this.set({ replica: status.name }, status.lag_seconds ?? -1)
        },
      })
    }
    if (sources.redisUp() !== undefined)
      new Gauge({
        name: `${PREFIX}redis_up`,
        help: 'Whether Redis answers (1) or not (0); only with REDIS_URL',
        registers,
        collect() {
          this.set(sources.redisUp() ? 1 : 0)
        },
      })
    // The database's own figures, read once per scrape (the collectors run together), bounded in time.
    const imports = () => {
      this.reading ??= withTimeout(readImportTotals(pool), DATABASE_PROBE_MS).catch(() => undefined)
      return this.reading
    }
    new Gauge({
      name: `${PREFIX}database_up`,
      help: 'Whether the database answered the scrape within a second (1) or not (0)',
      registers,
      async collect() {
        this.set((await imports()) ? 1 : 0)
      },
    })
    const fromImports = (name: string, help: string, read: (t: ImportTotals) => Record<string, number>) =>
      new Counter({
        name: `${PREFIX}${name}`,
        help: `${help} (every instance's imports, from import_runs; absent while the database is down)`,
        labelNames: ['result'],
        registers,
        async collect() {
          const totals = await imports()
          this.reset()
          if (!totals) return
          for (const [result, value] of Object.entries(read(totals))) this.inc({ result }, value)
        },
      })
    fromImports('import_runs_total', 'Import runs, by result (ok, refused)', (t) => t.runs)
    fromImports('import_seconds_total', 'Seconds spent in import runs, by result', (t) => t.seconds)
    fromImports('import_records_total', 'Records (lines) read by import runs, by result', (t) => t.records)
    fromImports('document_rebuilds_total', 'Documents rebuilt by imports', (t) => t.documents)
    new Gauge({
      name: `${PREFIX}webhook_lag_entries`,
      help: "Entries of the public change log after each enabled webhook subscription's position",
      labelNames: ['subscription'],
      registers,
      async collect() {
        const totals = await imports()
        this.reset()
        for (const [subscription, behind] of Object.entries(totals?.webhookLag ?? {}))
          this.set({ subscription }, behind)
      },
    })
  }

  /** The metrics in Prometheus' text format, with the database read once for this scrape. */
  async scrape(): Promise<string> {
    this.reading = undefined
    try {
      return await this.registry.metrics()
    } finally {
      this.reading = undefined
    }
  }

  /** Counts every answer of the app: by route pattern (never the raw URL, which a client chooses). */
  instrument(app: FastifyInstance): void {
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched'
      const status = String(reply.statusCode)
      this.requests.inc({ route, method: request.method, status })
      this.duration.observe({ route, status }, reply.elapsedTime / 1000)
      if (reply.statusCode === 429) this.rateLimited.inc({ route })
      if (reply.statusCode === 401) this.authFailures.inc()
      done()
    })
  }
}

interface ImportTotals {
  runs: Record<string, number>
  seconds: Record<string, number>
  records: Record<string, number>
  documents: Record<string, number>
  /** Entries behind the log's end, by enabled webhook subscription. */
  webhookLag: Record<string, number>
}

async function readImportTotals(pool: Pool): Promise<ImportTotals> {
  const { rows } = await pool.query<{
    ok: boolean
    runs: string
    seconds: number
    records: string
    documents: string
  }>(
    `SELECT ok, count(*) AS runs, coalesce(sum(seconds), 0)::float8 AS seconds,
            coalesce(sum(records), 0) AS records, coalesce(sum(documents), 0) AS documents
     FROM import_runs GROUP BY ok`,
  )
  const { rows: lags } = await pool.query<{ id: string; behind: string }>(
    `SELECT id::text, (SELECT coalesce(max(seq), 0) FROM public_changes) - position AS behind
     FROM webhook_subscriptions WHERE disabled_at IS NULL`,
  )
  const totals: ImportTotals = {
    runs: {},
    seconds: {},
    records: {},
    documents: {},
    webhookLag: Object.fromEntries(lags.map((lag) => [lag.id, Number(lag.behind)])),
  }
  for (const row of rows) {
    const result = row.ok ? 'ok' : 'refused'
    totals.runs[result] = Number(row.runs)
    totals.seconds[result] = row.seconds
    totals.records[result] = Number(row.records)
    if (row.ok) totals.documents.ok = Number(row.documents)
  }
  return totals
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Serves GET /metrics (and nothing else) on its own port. */
export async function serveMetrics(metrics: Metrics, port: number, host: string): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('not found: GET /metrics\n')
      return
    }
    metrics.scrape().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (error: Error) =>
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${error.message}\n`),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return server
}

/** The port a metrics server listens on (when started on port 0). */
export const metricsPortOf = (server: http.Server) => (server.address() as AddressInfo).port
