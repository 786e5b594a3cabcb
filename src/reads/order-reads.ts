import { CACHE_KEYS } from '../readmodel/cache-keys.js'
import { ORDER_SUCCESS } from '../readmodel/envelopes.js'
import type { DocumentStore } from '../readmodel/store.js'
import type { Read } from './read.js'

/** The order query's answer for an order of the token's organization; undefined when it has none. */
export function orderRead(store: DocumentStore, organizationId: string, number: string): Read {
  return {
    key: CACHE_KEYS.order(organizationId, number),
    build: async () => {
      const body = await store.order(organizationId, number)
      return body === undefined ? undefined : ORDER_SUCCESS.text(body)
    },
  }
}
