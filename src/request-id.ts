import { randomUUID } from 'node:crypto'

/** What an incoming X-Request-Id may be: what proxies and tracers send, and safe in any log or header. */
const SANE = /^[A-Za-z0-9._:@/+=-]{1,128}$/

/**
 * The request's id: the client's (or the proxy's) X-Request-Id when it is one sane value, else a new UUID.
 * It is sent back in X-Request-Id, is in every log line about the request, and in its access record.
 */
export function requestId(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE.test(header) ? header : randomUUID()
}
