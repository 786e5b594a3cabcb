import { Readable } from 'node:stream'
import type { Pool } from '../../src/db/pool.js'
import { cnpjFrom } from '../../src/demo/tax-ids.js'
import { recordsOf } from '../../src/import/dump.js'
import { importRecords } from '../../src/import/importer.js'
import { cpuTimes, stealPercent } from './drivers.js'
import { log } from './options.js'

// What an incremental import costs on the loaded dataset: one changed order into the largest organization
// and into the smallest, a batch of changed orders over many organizations, and one changed direct contract
// in the organization with the most of them (the integrity indicators compute its organization again). Each runs through
// importRecords in this process, as `compras import` does after its start-up, a few times; the median
// counts. Every change toggles an order's status, and the dataset is put back as it was at the end. With
// --compare, the other build's importer (from its dist/) runs the same imports on a copy of the database,
// each figure right after ours.

export interface IncrementalFigure {
  name: string
  records: number
  /** Each run's wall time. */
  milliseconds: number[]
  medianMs: number
  stealPercent: number
}

export interface IncrementalFigures {
  largest: IncrementalFigure & { organizationOrders: number }
  smallest: IncrementalFigure & { organizationOrders: number }
  batch: IncrementalFigure & { organizations: number }
  direct: IncrementalFigure & { organizationDirectContracts: number }
  /** With --compare: the same imports by the other build, on a copy of the database. */
  previous?: Pick<IncrementalFigures, 'largest' | 'smallest' | 'batch' | 'direct'>
}

/** An importer to measure: a build's importRecords and a pool on its database. */
export interface Importer {
  pool: Pool
  importRecords: typeof importRecords
}

const RUNS = 5

/**
 * The demo gives every organization its share of the orders, so the benchmark adds an organization with one
 * order for the comparison: an order of the largest one, unlinked, under a number of its own. The order is
 * withdrawn at the end; the organization stays (organizations cannot be withdrawn) and is reused.
 */
const ONE_ORDER_ORGANIZATION = {
  type: 'organization',
  uuid: 'b3c00000-0000-4000-8000-000000000001',
  name: 'Órgão de referência do benchmark (uma ordem)',
  document: cnpjFrom([9, 9, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1]),
}
const BATCH_ORGANIZATIONS = 100
const BATCH_PER_ORGANIZATION = 10

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

/** The same records with another status, so that each run changes what it imports. */
const toggled = (records: Record<string, unknown>[], run: number) =>
  records.map((record) =>
    record.type === 'direct_contract'
      ? { ...record, status: run % 2 === 0 ? 'Homologado' : 'Concluído' }
      : { ...record, status_title: run % 2 === 0 ? 'Recebido parcialmente' : 'Recebido provisoriamente' },
  )

async function importOnce(importer: Importer, records: Record<string, unknown>[]): Promise<number> {
  const text = records.map((record) => JSON.stringify(record)).join('\n')
  const started = performance.now()
  const result = await importer.importRecords(importer.pool, [
    { name: 'bench.ndjson', stream: Readable.from([Buffer.from(text)]) },
  ])
  const ms = performance.now() - started
  if (!result.ok) throw new Error(`bench import refused: ${JSON.stringify(result.problems.slice(0, 3))}`)
  return ms
}

async function measure(
  importer: Importer,
  name: string,
  orders: Record<string, unknown>[],
): Promise<IncrementalFigure> {
  const before = cpuTimes()
  const milliseconds: number[] = []
  for (let run = 0; run < RUNS; run++)
    milliseconds.push(Math.round(await importOnce(importer, toggled(orders, run))))
  const figure = {
    name,
    records: orders.length,
    milliseconds,
    medianMs: median(milliseconds),
    stealPercent: stealPercent(before, cpuTimes()),
  }
  log(`${name}: median ${figure.medianMs} ms over ${RUNS} runs (${milliseconds.join(', ')} ms)`)
  return figure
}

export async function measureIncremental(pool: Pool, previous?: Importer): Promise<IncrementalFigures> {
  const ours: Importer = { pool, importRecords }
  const { rows: sizes } = await pool.query<{ organization_id: string; n: number }>(
    'SELECT organization_id, count(*)::int AS n FROM orders GROUP BY organization_id ORDER BY n DESC, organization_id',
  )
  const largest = sizes[0]
  if (!largest) throw new Error('the dataset has no orders')
  const [sample] = await recordsOf(pool, 'order', largest.organization_id, 1)
  const lone = {
    ...sample,
    organization_uuid: ONE_ORDER_ORGANIZATION.uuid,
    number: 'BENCH-1/2026',
    contract_number: null,
    arp_number: null,
  }
  for (const importer of previous ? [ours, previous] : [ours])
    await importOnce(importer, [ONE_ORDER_ORGANIZATION, lone])
  const smallest = { organization_id: ONE_ORDER_ORGANIZATION.uuid, n: 1 }
  const spread = sizes.filter((_, i) => i % Math.max(1, Math.floor(sizes.length / BATCH_ORGANIZATIONS)) === 0)
  const batchOrganizations = spread.slice(0, BATCH_ORGANIZATIONS)

  const [inLargest] = await recordsOf(pool, 'order', largest.organization_id, 1)
  const [inSmallest] = await recordsOf(pool, 'order', smallest.organization_id, 1)
  const batch: Record<string, unknown>[] = []
  for (const { organization_id } of batchOrganizations)
    batch.push(...(await recordsOf(pool, 'order', organization_id, BATCH_PER_ORGANIZATION)))
  const { rows: directSizes } = await pool.query<{ organization_id: string; n: number }>(
    `SELECT organization_id, count(*)::int AS n FROM biddings WHERE kind = 'direct_contract'
     GROUP BY organization_id ORDER BY n DESC, organization_id LIMIT 1`,
  )
  const mostDirect = directSizes[0]
  if (!mostDirect) throw new Error('the dataset has no direct contracts')
  const [inMostDirect] = await recordsOf(pool, 'direct_contract', mostDirect.organization_id, 1)
  const originals = [inLargest, inSmallest, ...batch, inMostDirect] as Record<string, unknown>[]

  const cases = [
    [`one changed order, largest organization (${largest.n} orders)`, [inLargest]],
    ['one changed order, organization with one order', [inSmallest]],
    [`${batch.length} changed orders over ${batchOrganizations.length} organizations`, batch],
    [`one changed direct contract, organization with the most (${mostDirect.n})`, [inMostDirect]],
  ] as const
  try {
    const measured: IncrementalFigure[] = []
    const theirs: IncrementalFigure[] = []
    for (const [name, orders] of cases) {
      measured.push(await measure(ours, name, orders as Record<string, unknown>[]))
      if (previous)
        theirs.push(await measure(previous, `${name}, previous build`, orders as Record<string, unknown>[]))
    }
    const figures = (list: IncrementalFigure[]) => ({
      largest: { ...(list[0] as IncrementalFigure), organizationOrders: largest.n },
      smallest: { ...(list[1] as IncrementalFigure), organizationOrders: smallest.n },
      batch: { ...(list[2] as IncrementalFigure), organizations: batchOrganizations.length },
      direct: { ...(list[3] as IncrementalFigure), organizationDirectContracts: mostDirect.n },
    })
    return { ...figures(measured), ...(previous ? { previous: figures(theirs) } : {}) }
  } finally {
    // Both databases as they were, so that every server reads the same data.
    for (const importer of previous ? [ours, previous] : [ours])
      await importOnce(importer, [
        ...originals.slice(0, 1),
        ...originals.slice(2),
        {
          type: 'withdraw',
          record: 'order',
          organization_uuid: ONE_ORDER_ORGANIZATION.uuid,
          number: lone.number,
        },
      ])
  }
}
