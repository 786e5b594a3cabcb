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

/** What a refused request was asking to do: each has its own places (src/gate.ts) and words. */
export type Bounded = 'export' | 'research' | 'wait'

const REFUSALS: Readonly<Record<Bounded, Readonly<Record<'busy' | 'address' | 'timeout', string>>>> = {
  export: { busy: MESSAGES.exportsBusy, address: MESSAGES.exportRunning, timeout: MESSAGES.exportTimeout },
  research: {
    busy: MESSAGES.researchesBusy,
    address: MESSAGES.researchRunning,
    timeout: MESSAGES.queryTimeout,
  },
  wait: { busy: MESSAGES.waitsBusy, address: MESSAGES.waitsBusy, timeout: MESSAGES.queryTimeout },
}

/**
 * Work that may not run now: too many running on this instance (busy), the client's address holds its share
 * (address), or it ran too long (timeout). The routes answer 429 for the address, 503 otherwise, with Retry-After.
 */
export class Refused extends Error {
  override name = 'Refused'
  constructor(
    readonly what: Bounded,
    readonly reason: 'busy' | 'address' | 'timeout',
  ) {
    super(REFUSALS[what][reason])
  }
}

/**
 * A price research too broad to be computed within its bound: more than `limit` items match. Asking for
 * more words or filters narrows it (422).
 */
export class TooBroad extends Error {
  override name = 'TooBroad'
  constructor(readonly limit: number) {
    super(
      `Pesquisa ampla demais: mais de ${limit.toLocaleString('pt-BR')} itens correspondem. ` +
        'Use mais palavras na descrição, ou filtre por unidade, órgão, fornecedor, modalidade ou período.',
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
