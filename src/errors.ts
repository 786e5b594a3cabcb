import { MESSAGES } from './messages.js'

// What can go wrong in a transparency query, as the library says it. The HTTP layer maps each to a status
// and an envelope (src/routes); the CLI and the portal map the same errors their own way.

/** A query parameter that is unknown, missing or invalid; the message names it and what it accepts. */
export class ParameterError extends Error {
  override name = 'ParameterError'
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message)
  }
}

/** The record, or the organization a filter names, does not exist. */
export class NotFoundError extends Error {
  override name = 'NotFoundError'
  constructor(readonly what: 'record' | 'organization' | 'version') {
    super(
      what === 'record'
        ? MESSAGES.notFound
        : what === 'version'
          ? MESSAGES.versionNotFound
          : MESSAGES.organizationNotFound,
    )
  }
}

/** An export that may not run now: too many running, one already running for the address, or too slow. */
export class ExportRefused extends Error {
  override name = 'ExportRefused'
  constructor(readonly reason: 'busy' | 'address' | 'timeout') {
    super(
      reason === 'busy'
        ? MESSAGES.exportsBusy
        : reason === 'address'
          ? MESSAGES.exportRunning
          : MESSAGES.exportTimeout,
    )
  }
}

/**
 * A cursor this service could have given, but that it cannot read on from: one of another log (the database
 * was loaded again), of another feed, or past the log's end. The reader must sync again from the start (410).
 */
export class CursorGone extends Error {
  override name = 'CursorGone'
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message)
  }
}
