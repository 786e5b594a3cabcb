import { Readable } from 'node:stream'
import { type DemoCounts, generateDemo } from './generator.js'

/** The demo records as an NDJSON byte stream, ready for the importer or a file. */
export function demoStream(counts: DemoCounts, seed: number): Readable {
  const records = generateDemo(counts, seed)
  return Readable.from(
    (function* () {
      // Batch lines into chunks: one stream chunk per record would dominate the cost.
      let chunk = ''
      for (const record of records) {
        chunk += `${JSON.stringify(record)}\n`
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
