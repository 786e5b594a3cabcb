import type { FastifyError, FastifyRequest } from 'fastify'
import { isCancelled, isUnavailable } from '../../db/pool.js'
import { CursorGone, NotFoundError, ParameterError, Refused, TooBroad } from '../../errors.js'
import { MESSAGES } from '../../messages.js'
import { type ParameterProblem, parameterError } from '../../queries/parameters.js'

// How a transparency operation fails, declared once for its faces: the API's JSON envelope (public-api.ts) and
// the Atom feeds' XML (feed-routes.ts) send the same status, message and headers.

export type ValidationError = FastifyError & {
  validation?: ParameterProblem[]
  validationContext?: string
}

/** The status of a library error, in the transparency envelope. */
function statusOf(error: Error): number | undefined {
  if (error instanceof ParameterError || error instanceof TooBroad) return 422
  if (error instanceof CursorGone) return 410
  if (error instanceof NotFoundError) return 404
  if (error instanceof Refused) return error.reason === 'address' ? 429 : 503
  return undefined
}

/** Seconds until a refused request may come back: an export holds its place for long, a research briefly. */
export function retryAfter(error: Refused): number | undefined {
  if (error.what === 'export') return error.reason === 'timeout' ? undefined : 30
  return 5
}

/** A failure as every transparency operation answers it: its status, message and headers, logged when it is ours. */
export interface Failure {
  status: number
  message: string
  headers: Record<string, string | number>
}

/**
 * What a transparency operation answers for an error: a domain error's status and message, a parameter's 422
 * naming what it accepts, 503 while the database is unreachable or a query ran too long, else 500 (logged).
 */
export function failureOf(error: ValidationError, request: FastifyRequest): Failure {
  const status = statusOf(error)
  if (status !== undefined) {
    // Every 429 and 503 says when to come back: a place frees when an export, a research or a wait ends.
    const after = error instanceof Refused ? retryAfter(error) : undefined
    return { status, message: error.message, headers: after === undefined ? {} : { 'Retry-After': after } }
  }
  if (error.validation) {
    if (error.validationContext === 'params')
      // A path's version that is not a positive number names no version; any other bad segment is an id.
      return error.validation[0]?.instancePath === '/version'
        ? { status: 404, message: MESSAGES.versionNotFound, headers: {} }
        : { status: 400, message: MESSAGES.invalidId, headers: {} }
    const accepts = request.routeOptions.config.accepts ?? {}
    return { status: 422, message: parameterError(error.validation[0], accepts).message, headers: {} }
  }
  const code = error.statusCode ?? 500
  if (code < 500) return { status: code, message: error.message, headers: {} }
  // A read abandoned because its client left (its answer goes nowhere): no failure of the service.
  if (request.signal.aborted && request.raw.destroyed) {
    request.log.info('transparency query abandoned: the client went away')
    return { status: 500, message: MESSAGES.internal, headers: {} }
  }
  if (isUnavailable(error)) {
    request.log.error({ err: error }, 'transparency query failed: the database is unreachable')
    return { status: 503, message: MESSAGES.unavailable, headers: { 'Retry-After': 5 } }
  }
  if (isCancelled(error)) {
    request.log.warn({ err: error }, 'transparency query cancelled: past QUERY_TIMEOUT')
    return { status: 503, message: MESSAGES.queryTimeout, headers: { 'Retry-After': 5 } }
  }
  request.log.error({ err: error }, 'transparency query failed')
  return { status: 500, message: MESSAGES.internal, headers: {} }
}
