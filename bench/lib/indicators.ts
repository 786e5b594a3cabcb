import type { Pool } from '../../src/db/pool.js'
import { projectIndicators } from '../../src/indicators/project.js'
import { cpuTimes, stealPercent } from './drivers.js'
import { log } from './options.js'

// What computing every integrity flag from scratch costs on the loaded dataset (as `compras migrate` does when
// the rules change): the projection over all organizations, in a transaction rolled back, so that the data
// stays as it was. Its flags are counted by code, the figure to read beside docs/indicators.md.

export interface IndicatorFigures {
  seconds: number
  /** Flags by code, as the projection made them. */
  flags: Record<string, number>
  stealPercent: number
}

export async function measureIndicators(pool: Pool): Promise<IndicatorFigures> {
  const client = await pool.connect()
  try {
    const before = cpuTimes()
    await client.query('BEGIN')
    const started = performance.now()
    await projectIndicators(client, 'all')
    const seconds = Math.round((performance.now() - started) / 100) / 10
    const { rows } = await client.query<{ code: string; n: number }>(
      'SELECT code, count(*)::int AS n FROM integrity_flags GROUP BY code ORDER BY code',
    )
    const figures = {
      seconds,
      flags: Object.fromEntries(rows.map((row) => [row.code, row.n])),
      stealPercent: stealPercent(before, cpuTimes()),
    }
    log(`integrity indicators from scratch: ${seconds} s, ${JSON.stringify(figures.flags)}`)
    return figures
  } finally {
    await client.query('ROLLBACK').catch(() => {})
    client.release()
  }
}
