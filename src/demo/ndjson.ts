import { Readable } from 'node:stream'
import type { ImportLine } from '../resources/index.js'
import type { DemoCounts } from './scales.js'

/** How many records the counts give (items come inside their orders). */
export function demoTotal(counts: DemoCounts): number {
  return (
    counts.organizations +
    counts.orders +
    counts.contracts +
    counts.arps +
    counts.directContracts +
    counts.publicCalls
  )
}

/**
 * The demo records as an NDJSON byte stream, ready for the importer or a file; onRecord hears of each. The
 * generator (and Faker with it) is loaded when the stream is first read, so that a process that never
 * makes demo records (a service on its own database) never holds it.
 */
export function demoStream(
  counts: DemoCounts,
  seed: number,
  onRecord?: (records: number, record: ImportLine) => void,
): Readable {
  return Readable.from(
    (async function* () {
      const { generateDemo } = await import('./generator.js')
      // Batch lines into chunks: one stream chunk per record would dominate the cost.
      let chunk = ''
      let written = 0
      for (const record of generateDemo(counts, seed)) {
        chunk += `${JSON.stringify(record)}\n`
        onRecord?.(++written, record)
        if (chunk.length >= 64 * 1024) {
          yield chunk
          chunk = ''
        }
      }
      if (chunk) yield chunk
    })(),
    { objectMode: false },
  )
}
