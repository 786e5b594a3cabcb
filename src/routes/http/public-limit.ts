import type { FastifyReply, onRequestHookHandler } from 'fastify'
import type { MemoryLimiter } from '../../auth/rate-limit.js'
import { rateHeaders, resetSeconds } from './send-answer.js'

/**
 * The public routes' per-address limit (PUBLIC_RATE_LIMIT a minute, a sliding window, per instance), for the
 * API and the portal alike: one budget per address, whichever it asks. Generous for browsing, a brake on
 * scraping and guessing. Only a refusal carries the limit's headers: the answers it lets through are cached
 * by shared caches for everyone, and must not carry one client's counts. `refuse` answers the 429 in the
 * caller's own form (the transparency envelope, a page).
 */
export function publicLimit(
  limiter: MemoryLimiter,
  perMinute: number,
  refuse: (reply: FastifyReply) => FastifyReply,
): onRequestHookHandler {
  return (request, reply, done) => {
    const hit = limiter.takeNow(request.client, perMinute, 60_000)
    if (hit.allowed) return done()
    for (const [name, value] of rateHeaders(hit)) reply.header(name, value)
    refuse(reply.header('retry-after', resetSeconds(hit)).code(429))
  }
}
