import type { Socket } from 'node:net'
import type { ImportSignal } from '../channel.js'
import type { FeedPage } from '../transparency/change-feeds.js'

/**
 * Reads a feed's page, and when it has no entry waits for the next import (up to waitMs) and reads again:
 * the wait holds no database connection, and the server's idle timeout is put off for it, so that `wait`
 * may be as long as documented whatever IDLE_TIMEOUT is.
 */
export async function longPoll(
  socket: Socket | undefined,
  imports: ImportSignal,
  waitMs: number,
  idleMs: number,
  read: () => Promise<FeedPage>,
): Promise<FeedPage> {
  const deadline = Date.now() + waitMs
  if (typeof socket?.setTimeout === 'function') socket.setTimeout(waitMs + idleMs)
  try {
    for (;;) {
      // Listened for before the read, so that an import committing in between is not missed.
      const next = imports.next(deadline - Date.now())
      const page = await read().catch((error: unknown) => {
        next.cancel()
        throw error
      })
      if (page.count > 0 || Date.now() >= deadline || imports.closed) {
        next.cancel()
        return page
      }
      await next.heard
    }
  } finally {
    if (typeof socket?.setTimeout === 'function') socket.setTimeout(idleMs)
  }
}
