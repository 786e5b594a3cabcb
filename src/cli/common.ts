import { type Config, ConfigError, loadConfig } from '../config.js'
import { type Database, openDatabase } from '../db/database.js'
import { EmbeddedError } from '../db/embedded.js'
import { NotFoundError, ParameterError } from '../errors.js'

/** A mistake in the command line or its files. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** Errors whose message is the whole story for the operator: no stack trace. */
function isExpected(error: unknown): error is Error {
  return [ConfigError, EmbeddedError, UsageError, ParameterError, NotFoundError].some(
    (kind) => error instanceof kind,
  )
}

export function fail(error: unknown): void {
  process.stderr.write(
    `compras: ${isExpected(error) ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exitCode = 1
}

/** Loads the configuration, opens the database as a command (attaching to a running embedded server), runs fn. */
export async function withDatabase(fn: (db: Database, config: Config) => Promise<void>): Promise<void> {
  let db: Database | undefined
  try {
    const config = loadConfig()
    db = await openDatabase(config, { role: 'command' })
    await fn(db, config)
  } catch (error) {
    fail(error)
  } finally {
    await db?.close().catch(fail)
  }
}
