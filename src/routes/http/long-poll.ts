import type { Socket } from 'node:net'
import type { ImportSignal } from '../../channel.js'
import type { DocumentStore } from '../../readmodel/store.js'

/**
 * Reads a feed's page, and when it has no entry waits for the next import (up to waitMs) and reads again:
 * the wait holds no database connection, and the server's idle timeout is put off for it, so that `wait`
 * may be as long as documented whatever IDLE_TIMEOUT is. `read` may be shared by every waiter of the same
 * question (the public feed's pages are read through the cache: one read however many wait for it).
 */
export async function longPoll<Page>(
  socket: Socket | undefined,
  imports: ImportSignal,
  waitMs: number,
  idleMs: number,
  read: () => Promise<Page>,
  count: (page: Page) => number,
  /** The cache `read` goes through: woken, a reader reads once it has dropped what it held before the import. */
  store?: DocumentStore,
): Promise<Page> {
  const deadline = Date.now() + waitMs
  if (typeof socket?.setTimeout === 'function') socket.setTimeout(waitMs + idleMs)
  try {
    for (;;) {
      // Listened for before the read, so that an import committing in between is not missed.
      const next = imports.next(deadline - Date.now())
      const generation = store?.generation
      const page = await read().catch((error: unknown) => {
        next.cancel()
        throw error
      })
      if (count(page) > 0 || Date.now() >= deadline || imports.closed || socket?.destroyed) {
        next.cancel()
        return page
      }
      await next.heard
      if (store && generation !== undefined) await store.heardSince(generation)
    }
  } finally {
    if (typeof socket?.setTimeout === 'function' && !socket.destroyed) socket.setTimeout(idleMs)
  }
}
