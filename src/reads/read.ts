import type { Answer } from '../readmodel/answer.js'
import type { Asker, DocumentStore } from '../readmodel/store.js'

// A read: one public answer, without HTTP. It knows where the answer is kept (its cache key, from
// CACHE_KEYS) and how to build its bytes (in its envelope, from src/readmodel/envelopes.ts); `answerOf` is
// the one way a read becomes an Answer, served from the cache until the next import. Routes, the portal
// and the benchmark's bare server declare a read and send what answerOf gives.

export interface Read {
  /** Where the answer is kept until the next import. */
  readonly key: string
  /**
   * The answer's text (or the answer itself); undefined when there is nothing to answer (a 404 of the route's
   * own). `signal` aborts when nobody waits for it any more: a read that costs much cancels its queries then.
   */
  readonly build: (signal: AbortSignal) => Promise<string | Answer | undefined>
}

/**
 * The answer of a read: from the cache, or built once however many ask for it at the same time. `signal` is
 * the asking request's (or how to get it, on a miss): the build is abandoned when every request that asked for it has gone.
 */
export function answerOf(store: DocumentStore, read: Read, signal?: Asker): Promise<Answer | undefined> {
  return store.answer(read.key, read.build, signal)
}
