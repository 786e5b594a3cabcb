import { Readable } from 'node:stream'
import type { Pool } from '../../src/db/pool.js'
import { lsnValue } from '../../src/db/replicas.js'
import { recordsOf } from '../../src/import/dump.js'
import { importRecords } from '../../src/import/importer.js'
import { cpuTimes, stealPercent } from './drivers.js'
import { log } from './options.js'
import { fetchText } from './processes.js'

// --replica: a streaming standby of the benchmark's database on this host (src/db/standby.ts), a service
// whose reads go to it (DATABASE_REPLICA_URLS) measured beside the one without, how far the standby falls
// behind during imports, and how long after an import's commit a replica-backed instance shows it.

/** How far the standby was behind while something ran on the primary. */
export interface LagFigure {
  name: string
  /** At most, as the service measures it: how long ago the primary was last seen where the standby had replayed. */
  maxSeconds: number
  /** The most WAL the standby had still to replay. */
  maxMB: number
  samples: number
  /** How long the standby took to replay everything once the work ended. */
  catchUpMs: number
}

export interface ReplicaFigures {
  lags: LagFigure[]
  /** From an import's commit to the first answer of the replica-backed service that shows it, each run. */
  commitToAnswer: { runs: number[]; medianMs: number; stealPercent: number }
  /** From the same commit to the standby having replayed it. */
  commitToStandby: { runs: number[]; medianMs: number }
}

const SAMPLE_MS = 100

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

const position = async (pool: Pool, sql: string) =>
  lsnValue((await pool.query<{ lsn: string | null }>(sql)).rows[0]?.lsn ?? '0/0')
const primaryPosition = (primary: Pool) => position(primary, 'SELECT pg_current_wal_lsn()::text AS lsn')
const replayed = (standby: Pool) => position(standby, 'SELECT pg_last_wal_replay_lsn()::text AS lsn')

/** Runs `work` on the primary while the standby's lag is read every 100 ms; then waits for it to catch up. */
export async function lagDuring(
  name: string,
  primary: Pool,
  standby: Pool,
  work: () => Promise<void>,
): Promise<LagFigure> {
  const positions: { at: number; lsn: bigint }[] = []
  let maxMs = 0
  let maxBytes = 0n
  let samples = 0
  let running = true
  const sampling = (async () => {
    while (running) {
      const [lsn, done] = await Promise.all([primaryPosition(primary), replayed(standby)])
      const now = Date.now()
      positions.push({ at: now, lsn })
      if (lsn - done > maxBytes) maxBytes = lsn - done
      // As the service measures it (src/db/replicas.ts): the last time the primary was where the standby is.
      const seen = positions.findLast((p) => p.lsn <= done)
      const lag = done >= lsn ? 0 : now - (seen?.at ?? positions[0]?.at ?? now)
      if (lag > maxMs) maxMs = lag
      samples++
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS))
    }
  })()
  try {
    await work()
  } finally {
    running = false
    await sampling
  }
  const target = await primaryPosition(primary)
  const started = performance.now()
  while ((await replayed(standby)) < target) await new Promise((resolve) => setTimeout(resolve, 10))
  const figure = {
    name,
    maxSeconds: Math.round(maxMs / 100) / 10,
    maxMB: Math.round(Number(maxBytes) / 1e5) / 10,
    samples,
    catchUpMs: Math.round(performance.now() - started),
  }
  log(
    `standby lag during ${name}: at most ${figure.maxSeconds} s, ${figure.maxMB} MB of WAL; caught up ${figure.catchUpMs} ms after`,
  )
  return figure
}

async function importLines(pool: Pool, records: Record<string, unknown>[]) {
  const text = records.map((record) => JSON.stringify(record)).join('\n')
  const result = await importRecords(pool, [
    { name: 'bench.ndjson', stream: Readable.from([Buffer.from(text)]) },
  ])
  if (!result.ok) throw new Error(`bench import refused: ${JSON.stringify(result.problems.slice(0, 3))}`)
}

/** A bulk import (up to `orders` changed orders across every organization), put back after, under lagDuring. */
export async function bulkLag(primary: Pool, standby: Pool, orders: number): Promise<LagFigure> {
  const { rows } = await primary.query<{ organization_id: string; n: number }>(
    'SELECT organization_id, count(*)::int AS n FROM orders GROUP BY organization_id ORDER BY organization_id',
  )
  const each = Math.max(1, Math.ceil(orders / Math.max(1, rows.length)))
  const originals: Record<string, unknown>[] = []
  for (const { organization_id } of rows)
    originals.push(...(await recordsOf(primary, 'order', organization_id, each)))
  const changed = originals.map((order) => ({ ...order, status_title: 'Recebido provisoriamente' }))
  return lagDuring(
    `a bulk import of ${changed.length.toLocaleString('en')} changed orders, and back`,
    primary,
    standby,
    async () => {
      await importLines(primary, changed)
      await importLines(primary, originals)
    },
  )
}

/**
 * From an import's commit (one contract's object changed) to the first answer of the replica-backed service
 * that shows it, asked every 2 ms; and to the standby having replayed it. Five runs; the contract put back.
 */
export async function commitToAnswer(
  primary: Pool,
  standby: Pool,
  base: string,
  contractId: string,
): Promise<Pick<ReplicaFigures, 'commitToAnswer' | 'commitToStandby'>> {
  const [organization] = (
    await primary.query<{ organization_id: string }>('SELECT organization_id FROM contracts WHERE id = $1', [
      contractId,
    ])
  ).rows
  if (!organization) throw new Error(`no contract ${contractId}`)
  const [original] = (await recordsOf(primary, 'contract', organization.organization_id, 100_000)).filter(
    (record) => record.id === contractId,
  )
  if (!original) throw new Error(`contract ${contractId} not found among its organization's`)
  const before = cpuTimes()
  const answered: number[] = []
  const replayedMs: number[] = []
  try {
    for (let run = 0; run < 5; run++) {
      const object = `Objeto alterado pelo benchmark, execução ${run + 1}`
      await importLines(primary, [{ ...original, object_details: object }])
      const committed = performance.now()
      const target = await primaryPosition(primary)
      let shown = false
      let replay = false
      while (!shown || !replay) {
        if (
          !shown &&
          (await fetchText(`${base}/v1/transparency/contracts/${contractId}`)).body.includes(object)
        ) {
          shown = true
          answered.push(Math.round(performance.now() - committed))
        }
        if (!replay && (await replayed(standby)) >= target) {
          replay = true
          replayedMs.push(Math.round(performance.now() - committed))
        }
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
    }
  } finally {
    await importLines(primary, [original])
  }
  const figures = {
    commitToAnswer: {
      runs: answered,
      medianMs: median(answered),
      stealPercent: stealPercent(before, cpuTimes()),
    },
    commitToStandby: { runs: replayedMs, medianMs: median(replayedMs) },
  }
  log(
    `from an import's commit to the replica-backed service showing it: median ${figures.commitToAnswer.medianMs} ms ` +
      `(${answered.join(', ')}); to the standby replaying it: ${figures.commitToStandby.medianMs} ms (${replayedMs.join(', ')})`,
  )
  return figures
}
