import { setFlagsFromString } from 'node:v8'
import { type Config, loadConfig } from '../config.js'
import { startServer } from '../server.js'
import { fail } from './common.js'

export async function serveCommand(): Promise<void> {
  // A server outlives whoever reads its output: when that reader leaves (a closed pipe), writes fail with
  // EPIPE, which would otherwise end the process without stopping the embedded database.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {})
  let server: Awaited<ReturnType<typeof startServer>>
  try {
    const config = loadConfig()
    for (const flag of v8Flags(config)) setFlagsFromString(flag)
    server = await startServer(config)
  } catch (error) {
    fail(error)
    return
  }
  const stop = (signal: string) => {
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests')
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        fail(error)
        process.exit(1)
      },
    )
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
  process.once('SIGHUP', stop) // the terminal or the parent went away
}

/** Percent of the old generation's limit at which V8 starts marking, when the heap's growth is bounded. */
const MARKING_STARTS = 85

/**
 * The V8 settings a serving process runs with. HEAP_GROWING_PERCENT bounds how far the heap grows past
 * what a full collection left alive: with V8's own factor (up to four), the benchmark's load scenarios left
 * the process at 274 MB resident, against 237 MB with 50% and 233 MB with 25%. Below 50%, V8 starts its
 * next marking almost as soon as a collection ends (a young generation's worth of room before the limit
 * starts it): 54-56 full collections in 5 s of random contract details with 25%, 27-30 with 50%, for 9 µs
 * of CPU a request (docs/performance.md, *A heap that grows by half*). With the growth bounded, marking
 * starts once the old generation has used 85% of its limit instead (--incremental-marking-soft-trigger), so
 * that the room the bound leaves is used before the next collection: random contract details cost 51-55 µs
 * of CPU a request against 60-62 with V8's own start, in turn, for about 10 MB more resident memory
 * (docs/performance.md, *When marking starts*). V8 reads both at every collection, so setting them once the
 * process runs takes effect.
 */
export function v8Flags(config: Pick<Config, 'heapGrowingPercent'>): string[] {
  return config.heapGrowingPercent > 0
    ? [
        `--heap-growing-percent=${config.heapGrowingPercent}`,
        `--incremental-marking-soft-trigger=${MARKING_STARTS}`,
      ]
    : []
}
