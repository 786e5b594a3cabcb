// A second reporter of `npm test` (test/run.ts): after the run, the files that took longest, so that a run
// grown slow says where its time went. Plain JavaScript: node's test runner loads reporters without tsx.

import path from 'node:path'

const SHOWN = 8

/** @param {AsyncIterable<{ type: string, data: { nesting?: number, file?: string, details?: { duration_ms?: number } } }>} source */
export default async function* slowest(source) {
  /** @type {Map<string, number>} */
  const files = new Map()
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue
    const { nesting, file, details } = event.data
    // A file's top-level tests run one after another: their durations add up to the file's.
    if (nesting === 0 && file !== undefined && details?.duration_ms !== undefined) {
      files.set(file, (files.get(file) ?? 0) + details.duration_ms)
    }
  }
  const longest = [...files].sort((a, b) => b[1] - a[1]).slice(0, SHOWN)
  if (longest.length < 2) return
  const lines = longest.map(
    ([file, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${path.relative(process.cwd(), file)}`,
  )
  yield `\nslowest test files (of ${files.size}):\n${lines.join('\n')}\n`
}
