import { createWriteStream } from 'node:fs'
import type { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { demoStream, demoTotal } from '../demo/ndjson.js'
import { type DemoCounts, SCALES, type Scale } from '../demo/scales.js'
import { fail, UsageError } from './common.js'
import { ProgressLine } from './progress.js'

export interface DemoOptions {
  scale: string
  seed: number
  out?: string
  organizations?: number
  orders?: number
  items?: number
  contracts?: number
  arps?: number
  directContracts?: number
  publicCalls?: number
}

export function demoCounts(options: DemoOptions): DemoCounts {
  if (!(options.scale in SCALES))
    throw new UsageError(`--scale must be one of ${Object.keys(SCALES).join(', ')}`)
  const scale = SCALES[options.scale as Scale]
  const counts: DemoCounts = {
    organizations: options.organizations ?? scale.organizations,
    orders: options.orders ?? scale.orders,
    contracts: options.contracts ?? scale.contracts,
    arps: options.arps ?? scale.arps,
    directContracts: options.directContracts ?? scale.directContracts,
    publicCalls: options.publicCalls ?? scale.publicCalls,
    itemsPerOrder: options.items,
  }
  if (counts.organizations < 1) throw new UsageError('--organizations must be at least 1')
  return counts
}

export async function demoCommand(options: DemoOptions): Promise<void> {
  try {
    const out: Writable = options.out ? createWriteStream(options.out) : process.stdout
    const counts = demoCounts(options)
    const total = demoTotal(counts)
    // On standard output the records themselves go to the terminal: no progress line over them.
    const line = new ProgressLine(
      options.out ? process.stderr : ({ isTTY: false } as NodeJS.WriteStream),
      'records',
    )
    await pipeline(
      demoStream(counts, options.seed, (records) => line.update(records, records / total)),
      out,
    )
    line.end()
  } catch (error) {
    // A closed pipe (demo | head) is the reader's choice, not a failure.
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') return
    fail(error)
  }
}
