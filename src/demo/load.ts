import { Readable } from 'node:stream'
import type { Pool } from '../db/pool.js'
import { type ImportResult, importRecords } from '../import/importer.js'
import { DemoChanges } from './later-import.js'
import { demoStream } from './ndjson.js'
import { SCALES } from './scales.js'

/** The seed of the demo data `serve` loads into an empty embedded database: the README's examples use it. */
export const DEMO_SEED = 2025

/**
 * Loads the small demo dataset, then a later import that changes a few contracts and ARPs, so that a first run
 * shows records with a history. What `npm start` loads into an empty embedded database.
 */
export async function loadDemo(pool: Pool): Promise<ImportResult> {
  const later = new DemoChanges()
  const loaded = await importRecords(pool, [
    { name: 'demo', stream: demoStream(SCALES.small, DEMO_SEED, (_, record) => later.keep(record)) },
  ])
  if (!loaded.ok) return loaded
  const lines = later.changes().map((record) => JSON.stringify(record))
  return importRecords(pool, [{ name: 'demo-changes', stream: Readable.from([lines.join('\n')]) }])
}
