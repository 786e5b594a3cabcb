import { loadConfig } from '../config.js'
import { startServer } from '../server.js'
import { fail } from './common.js'

export async function serveCommand(): Promise<void> {
  // A server outlives whoever reads its output: when that reader leaves (a closed pipe), writes fail with
  // EPIPE, which would otherwise end the process without stopping the embedded database.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {})
  let server: Awaited<ReturnType<typeof startServer>>
  try {
    server = await startServer(loadConfig())
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
