// A mirror of every public record, kept in sync from the change feed: run it again after a crash and it goes
// on from its cursor file; SIGINT stops it. (`npx tsx client/examples/mirror.ts http://localhost:3000 mirror.json`)
// A crash repeats at most the page it was in, which applies again to the same result.
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { Compras, FileCursorStore } from '../src/index.js'

const [baseUrl = 'http://localhost:3000', file = 'mirror.json'] = process.argv.slice(2)
const api = new Compras({ baseUrl })
let mirror: Record<string, unknown> = {}
try {
  mirror = JSON.parse(readFileSync(file, 'utf8'))
} catch {
  // A first run: an empty mirror.
}
const stop = new AbortController()
process.once('SIGINT', () => stop.abort())
for await (const entry of api.changes.sync({
  store: new FileCursorStore(`${file}.cursor`),
  withRecords: true,
  signal: stop.signal,
  onReset: 'resync',
  onResync: () => {
    mirror = {}
  },
})) {
  const key = `${entry.kind}/${entry.id}`
  if (entry.change === 'withdrawn') delete mirror[key]
  else mirror[key] = entry.record
  // Whole or not at all: written beside it, then renamed over it.
  writeFileSync(`${file}.tmp`, JSON.stringify(mirror))
  renameSync(`${file}.tmp`, file)
}
