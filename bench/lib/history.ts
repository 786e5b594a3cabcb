import { Readable } from 'node:stream'
import type { Pool } from '../../src/db/pool.js'
import { generateDemo } from '../../src/demo/generator.js'
import { cnpjFrom } from '../../src/demo/tax-ids.js'
import { importRecords } from '../../src/import/importer.js'
import { open } from './dataset.js'
import { drive, type Measured } from './drivers.js'
import { log, options } from './options.js'
import { startService, stop } from './processes.js'

// A record with a long history in the dataset: a contract of 2,000 supply orders under a public call, changed
// a hundred times (one order's status at a time: a version of the contract, a release of its process). What
// its first and its last versions cost beside its detail, and what the OCDS record of its process weighs
// and takes, all uncached (a service with CACHE_MB=0): the work a request does, not a cached copy's. The small
// scale (CI's smoke run, whose figures are not read) takes a tenth of each, a hundredth of the time.

const ORGANIZATION = 'b3c00000-0000-4000-8000-000000000100'
const CALL = 'b3c00000-0000-4000-8000-000000000101'
export const LONG_CONTRACT = 'b3c00000-0000-4000-8000-000000000102'
/** The fixture's size at a scale: its orders, and its versions (each an import of one changed order). */
export const longHistorySize = (scale: string) =>
  scale === 'small' ? { orders: 200, versions: 10 } : { orders: 2000, versions: 100 }
const { orders: ORDERS, versions: VERSIONS } = longHistorySize(options.scale)

/** The fixture's records, from the demo generator's shapes, under keys of their own. */
function fixture() {
  const demo = [
    ...generateDemo(
      { organizations: 1, orders: 1, contracts: 1, arps: 0, directContracts: 0, publicCalls: 1 },
      3,
    ),
  ] as Record<string, unknown>[]
  const of = (type: string) => demo.find((r) => r.type === type) as Record<string, unknown>
  const organization = {
    ...of('organization'),
    uuid: ORGANIZATION,
    name: 'Órgão do histórico longo (benchmark)',
    document: cnpjFrom([9, 9, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0]),
  }
  const call = { ...of('public_call'), id: CALL, organization_uuid: ORGANIZATION, number: 'PE HIST/2026' }
  const contract = {
    ...of('contract'),
    id: LONG_CONTRACT,
    organization_uuid: ORGANIZATION,
    bidding_uuid: CALL,
    arp_number: null,
    contract_number: 'CT HIST/2026',
  }
  const orders = Array.from({ length: ORDERS }, (_, k) => ({
    ...of('order'),
    organization_uuid: ORGANIZATION,
    number: `${String(k + 1).padStart(6, '0')}/HIST`,
    arp_number: null,
    contract_number: 'CT HIST/2026',
    status_title: 'Emitida',
  }))
  return { organization, call, contract, orders }
}

async function importLines(pool: Pool, records: readonly unknown[]) {
  const text = records.map((record) => JSON.stringify(record)).join('\n')
  const result = await importRecords(pool, [
    { name: 'history.ndjson', stream: Readable.from([Buffer.from(text)]) },
  ])
  if (!result.ok) throw new Error(`history fixture refused: ${JSON.stringify(result.problems.slice(0, 3))}`)
}

/** Adds the fixture once: kept with the dataset, and reused by later runs. */
export async function prepareLongHistory(pool: Pool): Promise<void> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM public_changes WHERE resource = 'contracts' AND id = $1 AND in_history`,
    [LONG_CONTRACT],
  )
  if ((rows[0]?.n ?? 0) >= VERSIONS) return
  const started = performance.now()
  const { organization, call, contract, orders } = fixture()
  await importLines(pool, [organization, call, contract, ...orders])
  for (let k = 1; k < VERSIONS; k++) {
    const order = orders[k % ORDERS] as Record<string, unknown>
    await importLines(pool, [{ ...order, status_title: k % 2 ? 'Recebido total' : 'Recebido parcialmente' }])
  }
  log(
    `a contract of ${ORDERS} orders with ${VERSIONS} versions, added in ${Math.round((performance.now() - started) / 1000)} s`,
  )
}

export interface HistoryFigures {
  /** The fixture's size. */
  orders: number
  versions: number
  detail: Measured
  last: Measured
  first: Measured
  /** The OCDS record of the fixture's process, uncached: its size, and the median of sequential requests. */
  record: { bytes: number; medianMs: number; releases: number }
  /** The largest release any process has, for the record's scale. */
  largestReleaseBytes: number
}

/** The fixture's first and last versions and its detail, and its process's OCDS record, each uncached. */
export async function measureLongHistory(url: string, pool: Pool, logFile: string): Promise<HistoryFigures> {
  const { rows } = await pool.query<{ bytes: number }>(
    'SELECT max(length(tail))::int AS bytes FROM ocds_releases',
  )
  const service = await startService(url, logFile, undefined, { CACHE_MB: '0' })
  try {
    const pid = service.child.pid as number
    const detail = await drive('long history: the detail (uncached)', service.base, pid, [
      open(`/v1/transparency/contracts/${LONG_CONTRACT}`),
    ])
    const last = await drive('long history: the last version (uncached)', service.base, pid, [
      open(`/v1/transparency/contracts/${LONG_CONTRACT}/history/${VERSIONS}`),
    ])
    const first = await drive('long history: the first version (uncached)', service.base, pid, [
      open(`/v1/transparency/contracts/${LONG_CONTRACT}/history/1`),
    ])
    const times: number[] = []
    let bytes = 0
    let releases = 0
    for (let k = 0; k < 21; k++) {
      const started = performance.now()
      const response = await fetch(`${service.base}/v1/ocds/records/ocds-xxxxxx-${CALL}`)
      const body = Buffer.from(await response.arrayBuffer())
      times.push(performance.now() - started)
      bytes = body.length
      releases = JSON.parse(body.toString()).records[0].releases.length
    }
    times.sort((a, b) => a - b)
    const medianMs = Math.round((times[10] as number) * 10) / 10
    log(
      `long history: the OCDS record, ${releases} releases, ${bytes} bytes, ${medianMs} ms uncached (median of 21)`,
    )
    return {
      orders: ORDERS,
      versions: VERSIONS,
      detail,
      last,
      first,
      record: { bytes, medianMs, releases },
      largestReleaseBytes: rows[0]?.bytes ?? 0,
    }
  } finally {
    await stop(service.child)
  }
}
