import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { migrate } from '../../src/db/migrate.js'
import { createPool } from '../../src/db/pool.js'
import { generateDemo } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { syncReadModel } from '../../src/readmodel/build.js'
import { Destinations, parseCidrs } from '../../src/webhooks/addresses.js'
import { addSubscription } from '../../src/webhooks/subscriptions.js'
import { cpuTimes, stealPercent } from './drivers.js'
import { log } from './options.js'
import { freshDatabase, residentBytes, startService, stop } from './processes.js'

// `npm run bench -- --webhooks`: the service's webhook deliveries (issue 70) to a receiver in this process, over
// a database of its own: N subscriptions to the contracts; one import that changes every contract (a backlog
// of contracts × N deliveries: the rate, and the service's resident memory sampled while it delivers); then
// imports of one changed contract every half second (the time from each import's commit to each delivery).

export interface WebhookFigures {
  subscriptions: number
  contracts: number
  /** Each round of the backlog: deliveries, their seconds, the rate, the service's resident memory meanwhile. */
  backlog: {
    deliveries: number
    seconds: number
    perSecond: number
    rssMb: { start: number; peak: number; end: number }
  }[]
  /** One changed contract at a time: every subscription's delivery, from the import's commit. */
  latency: { imports: number; deliveries: number; medianMs: number; p99Ms: number }
  stealPercent: number
}

const CONTRACTS = 1000
const LATENCY_IMPORTS = 20
/** The backlog is delivered this many times over: the memory of the last round is that of the first. */
const BACKLOG_ROUNDS = 2

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}

export async function benchWebhooks(adminUrl: string, subscriptions: number): Promise<WebhookFigures> {
  const url = await freshDatabase(adminUrl, 'compras_bench_webhooks')
  const pool = createPool(url, { max: 4 })
  await migrate(pool)
  await syncReadModel(pool)
  const records = [
    ...generateDemo(
      {
        organizations: 10,
        orders: 1000,
        contracts: CONTRACTS,
        arps: 50,
        directContracts: 50,
        publicCalls: 50,
      },
      70,
    ),
  ]
  const load = async (lines: readonly unknown[]) => {
    const text = lines.map((line) => JSON.stringify(line)).join('\n')
    const result = await importRecords(pool, [
      { name: 'bench.ndjson', stream: Readable.from([Buffer.from(text)]) },
    ])
    if (!result.ok)
      throw new Error(`the webhook bench's import was refused: ${JSON.stringify(result.problems[0])}`)
  }
  await load(records)
  const contracts = records.filter((r) => r.type === 'contract')

  // The receiver: each delivery's arrival, by the entry's id (its cursor), answered at once.
  const arrivals = new Map<string, number[]>()
  let received = 0
  const receiver = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      const id = String(request.headers['webhook-id'])
      const list = arrivals.get(id)
      if (list) list.push(performance.now())
      else arrivals.set(id, [performance.now()])
      received++
      response.end('ok')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
  const service = await startService(url, path.join(os.tmpdir(), 'compras-bench-webhooks.log'), undefined, {
    WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8',
  })
  const before = cpuTimes()
  try {
    const destinations = new Destinations(parseCidrs('127.0.0.0/8'))
    for (let n = 0; n < subscriptions; n++)
      await addSubscription(pool, { url: endpoint, kinds: 'contracts' }, destinations)

    // The backlog: every contract changed in one import, twice over (memory must not grow with what was sent).
    const rss = () => residentBytes(service.child.pid as number) / 2 ** 20
    const rounds: WebhookFigures['backlog'] = []
    for (let round = 1; round <= BACKLOG_ROUNDS; round++) {
      received = 0
      const start = rss()
      let peak = start
      await load(contracts.map((c) => ({ ...c, object_details: `${c.object_details} (webhooks ${round})` })))
      const expected = subscriptions * contracts.length
      const started = performance.now()
      for (let waited = 0; received < expected; waited += 250) {
        if (waited > 900_000) throw new Error(`only ${received} of ${expected} deliveries in 15 minutes`)
        await sleep(250)
        peak = Math.max(peak, rss())
      }
      const seconds = (performance.now() - started) / 1000
      const figure = {
        deliveries: received,
        seconds: Math.round(seconds * 10) / 10,
        perSecond: Math.round(received / seconds),
        rssMb: { start: Math.round(start), peak: Math.round(peak), end: Math.round(rss()) },
      }
      rounds.push(figure)
      log(
        `webhooks: round ${round}, ${figure.deliveries} deliveries in ${figure.seconds} s (${figure.perSecond}/s), RSS ${JSON.stringify(figure.rssMb)} MB`,
      )
    }

    // One contract at a time: the time from each import's commit to each subscription's delivery.
    arrivals.clear()
    received = 0
    const committed = new Map<string, number>()
    const last = async () =>
      (await pool.query<{ seq: string }>('SELECT max(seq)::text AS seq FROM public_changes')).rows[0]
        ?.seq as string
    let after = await last()
    for (let n = 0; n < LATENCY_IMPORTS; n++) {
      const contract = contracts[n % contracts.length] as Record<string, unknown>
      await load([{ ...contract, object_details: `${contract.object_details} (${n})` }])
      const at = performance.now()
      // Every entry the import made (the contract's, and those of the records that show it).
      const { rows } = await pool.query<{ seq: string }>(
        'SELECT seq::text FROM public_changes WHERE seq > $1',
        [after],
      )
      for (const row of rows) committed.set(row.seq, at)
      after = await last()
      await sleep(500)
    }
    for (let waited = 0; received < subscriptions * LATENCY_IMPORTS && waited < 60_000; waited += 100)
      await sleep(100)
    // An entry's id is its cursor, whose last part is its number in the log.
    const latencies: number[] = []
    for (const [id, times] of arrivals) {
      const seq = Buffer.from(id, 'base64url').toString().split('.').at(-1) as string
      const at = committed.get(seq)
      if (at !== undefined) for (const time of times) latencies.push(time - at)
    }
    const latency = {
      imports: LATENCY_IMPORTS,
      deliveries: latencies.length,
      medianMs: Math.round(quantile(latencies, 0.5)),
      p99Ms: Math.round(quantile(latencies, 0.99)),
    }
    log(
      `webhooks: from commit to delivery, median ${latency.medianMs} ms, p99 ${latency.p99Ms} ms (${latency.deliveries} deliveries)`,
    )
    return {
      subscriptions,
      contracts: contracts.length,
      backlog: rounds,
      latency,
      stealPercent: stealPercent(before, cpuTimes()),
    }
  } finally {
    await stop(service.child)
    receiver.closeAllConnections()
    await new Promise((resolve) => receiver.close(resolve))
    await pool.end()
  }
}

export function webhooksMarkdown(figures: WebhookFigures, machine: string): string {
  const { backlog, latency } = figures
  const met = (ok: boolean) => (ok ? 'met' : '**missed**')
  const rows = backlog.map(
    (round, i) =>
      `| round ${i + 1}: one import changing ${figures.contracts} contracts, ${round.deliveries.toLocaleString('en')} deliveries | ${round.seconds} s, ${round.perSecond.toLocaleString('en')} a second; resident memory ${round.rssMb.start} MB before, ${round.rssMb.peak} MB at most, ${round.rssMb.end} MB after | ≥ 1,000 a second: ${met(round.perSecond >= 1000)} |`,
  )
  const first = backlog[0]?.rssMb.peak ?? 0
  const last = backlog.at(-1)?.rssMb.peak ?? 0
  return `# Benchmark: webhook deliveries

${machine}; CPU stolen ${figures.stealPercent}%. Command: \`npm run bench -- --webhooks ${figures.subscriptions}\`.

${figures.subscriptions} subscriptions to the contracts, each delivering to a receiver on the loopback (in the
benchmark's process), from one \`compras serve\` (WEBHOOK_CONCURRENCY 8).

| measure | figure | goal |
|---|---|---|
${rows.join('\n')}
| resident memory, the last round's peak against the first's | ${last} MB against ${first} MB | flat: ${met(last <= first * 1.1)} |
| ${latency.imports} imports of one changed contract, half a second apart: ${latency.deliveries} deliveries | median ${latency.medianMs} ms, p99 ${latency.p99Ms} ms from the import's commit | median < 1 s: ${met(latency.medianMs < 1000)} |
`
}
