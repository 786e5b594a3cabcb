import { loadConfig } from '../config.js'
import { startServer } from '../server.js'
import { fail } from './common.js'

export async function serveCommand(): Promise<void> {
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
}
