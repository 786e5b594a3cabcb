import pg from 'pg'
import type { Pool, PoolClient, ServerPool } from './pool.js'
import { serverOf } from './replicas.js'

// Queries cancelled when nobody waits for them any more: a client that left, a download dropped. Without this a
// request that costs seconds keeps its connection busy after its client has gone, and a few such requests
// (each aborted at once) hold every connection of the pool.

/** Each connection's server process id, asked of it once. */
const pids = new WeakMap<pg.ClientBase, number>()

async function backendPid(client: pg.ClientBase): Promise<number> {
  let pid = pids.get(client)
  if (pid === undefined) {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
    pid = (rows[0] as { pid: number }).pid
    pids.set(client, pid)
  }
  return pid
}

/**
 * Asks the server `pool` connects to to cancel what process `pid` runs, on a connection of its own: the pool's
 * own may all be busy, with the very queries to cancel. A failure is not reported: the statement timeout still
 * bounds the query.
 */
async function cancelBackend(pool: ServerPool, pid: number): Promise<void> {
  // A name of its own: it is none of the pool's work (an operator counting a pool's queries counts it apart).
  const canceller = new pg.Client({
    ...pool.options,
    application_name: 'compras-cancel',
    statement_timeout: undefined,
    query_timeout: 5000,
  })
  canceller.on('error', () => {})
  try {
    await canceller.connect()
    await canceller.query('SELECT pg_cancel_backend($1)', [pid])
  } catch {
    // Unreachable or refused: the statement timeout ends the query.
  } finally {
    await canceller.end().catch(() => {})
  }
}

/** The error a read that was asked to stop rejects with (the signal's reason when it is an Error). */
export function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the read was aborted')
}

/** A connection of `pool` and, when `signal` aborts, the cancellation of what it runs meanwhile. */
export interface Cancellable {
  client: PoolClient
  /** Stops listening to the signal; resolves once a cancellation already asked for has been sent. */
  settle(): Promise<void>
  /** Whether the signal aborted while the connection was held (its query was, or is being, cancelled). */
  readonly cancelled: boolean
}

/**
 * A connection of `pool` whose running query PostgreSQL is asked to cancel (pg_cancel_backend) when `signal`
 * aborts. The caller gives it back with `release` once `settle` has resolved, dropping it when `cancelled`: a
 * cancellation that arrives late must not land on the next user's query.
 */
export async function connectCancellable(pool: Pool, signal: AbortSignal | undefined): Promise<Cancellable> {
  if (signal?.aborted) throw abortError(signal)
  const client = await pool.connect()
  if (signal === undefined) return { client, settle: async () => {}, cancelled: false }
  let pid: number
  try {
    pid = await backendPid(client)
  } catch (error) {
    client.release(error as Error)
    throw error
  }
  // The server of this connection: with replicas, the member of the read pool it came from.
  const server = serverOf(pool, client)
  let sent: Promise<void> | undefined
  let settled = false
  let pause: { timer: NodeJS.Timeout; resolve: () => void } | undefined
  // A cancel request that reaches the server between two statements cancels nothing: it is sent again now and
  // then until the caller's statement has ended (the statement timeout bounds it all the same).
  const cancelling = async () => {
    while (!settled) {
      await cancelBackend(server, pid)
      if (settled) break
      await new Promise<void>((resolve) => {
        pause = { timer: setTimeout(resolve, CANCEL_AGAIN_MS), resolve }
      })
    }
  }
  const onAbort = () => {
    sent ??= cancelling()
  }
  signal.addEventListener('abort', onAbort, { once: true })
  if (signal.aborted) onAbort()
  return {
    client,
    get cancelled() {
      return sent !== undefined
    },
    async settle() {
      settled = true
      signal.removeEventListener('abort', onAbort)
      if (pause) {
        clearTimeout(pause.timer)
        pause.resolve()
      }
      await sent
    },
  }
}

/** How often a cancellation is sent again while the statement it is for still runs. */
const CANCEL_AGAIN_MS = 200

/**
 * Runs `run` on a connection of `pool`, cancelled in PostgreSQL when `signal` aborts first: it then rejects
 * (57014, or the abort's reason). The connection goes back to the pool, or is dropped when cancelled or failed.
 */
export async function cancellable<T>(
  pool: Pool,
  signal: AbortSignal | undefined,
  run: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const held = await connectCancellable(pool, signal)
  let failure: Error | undefined
  try {
    const result = await run(held.client)
    if (held.cancelled && signal) throw abortError(signal)
    return result
  } catch (error) {
    failure = error as Error
    throw error
  } finally {
    await held.settle()
    held.client.release(failure ?? (held.cancelled ? new Error('cancelled') : undefined))
  }
}
