import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Pool } from '../db/pool.js'
import { CursorGone, ParameterError } from '../errors.js'

// The cursors clients resume from: opaque, base64url, accepted only in their canonical spelling. A feed's
// cursor names its log (the change log's identity, made with the database: migrations/0018) and its feed, so
// that a cursor of a database loaded again, or of another feed, is refused as gone (410: sync again from the
// start) instead of silently skipping entries. A listing's cursor is signed with the log's secret, so that
// the page it says it starts cannot be made up.

/** The change log's identity and secret (migrations/0018_cursor_identity.sql). */
export interface LogIdentity {
  identity: string
  secret: Buffer
}

export async function loadLogIdentity(pool: Pool): Promise<LogIdentity> {
  const { rows } = await pool.query<{ identity: string; secret: Buffer }>(
    'SELECT identity::text, secret FROM change_log_identity',
  )
  const row = rows[0]
  if (row === undefined) throw new Error('change_log_identity is empty: run `compras migrate`')
  return { identity: row.identity, secret: row.secret }
}

/** The feeds a position cursor points into. */
export type Feed = 'changes' | 'orders' | 'releases'

/** Each feed's mark; a cursor of one is refused by the others. */
const MARKS: Readonly<Record<Feed, string>> = { changes: 'f2', orders: 'g2', releases: 'o2' }
/** Marks of cursors given before logs had an identity, taken as this log's (an upgrade keeps its mirrors). */
const LEGACY: Readonly<Partial<Record<Feed, string>>> = { changes: 'c1', releases: 'o1' }

/** Where a listing page read by cursor starts: after the row of this sort key (null when empty) and id. */
export interface ListCursor {
  sort: string
  key: string | null
  id: string
  /** The page it starts: the read's pages are counted from the page its first cursor came from. */
  page: number
}

/** What an organ feed's cursor carries of its organization's id: enough to tell one organization from another. */
const organizationBound = (organizationId: string) => organizationId.slice(0, 8)

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** The text base64url holds, when the text is its canonical spelling (no padding, no stray bits). */
function canonical(text: string, max: number): string | undefined {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,Regex: a cheap guard; the round trip and the checks after it refuse the same texts
  if (text.length === 0 || text.length > max || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined
  const bytes = Buffer.from(text, 'base64url')
  return bytes.toString('base64url') === text ? bytes.toString('utf8') : undefined
}

/**
 * Makes and reads cursors against the change log's identity, read from the database the first time `ready`
 * is awaited (so that an instance starts while its database is down), or given.
 */
export class Cursors {
  private log: LogIdentity | undefined
  /** The part of the identity a cursor carries: 48 bits, enough to tell one database's log from another's. */
  // Stryker disable next-line StringLiteral: set with the log, before any use
  private tag = ''
  private loading: Promise<void> | undefined

  constructor(source: Pool | LogIdentity) {
    if ('secret' in source) this.take(source)
    else this.pool = source
  }

  private readonly pool: Pool | undefined

  private take(log: LogIdentity) {
    this.log = log
    this.tag = log.identity.replaceAll('-', '').slice(0, 12)
  }

  /** Resolves once the identity is known; awaited by whatever makes or reads a cursor, before it does. */
  ready(): Promise<void> {
    if (this.log !== undefined) return Promise.resolve()
    this.loading ??= loadLogIdentity(this.pool as Pool)
      .then((log) => this.take(log))
      .finally(() => {
        this.loading = undefined
      })
    return this.loading
  }

  private get secret(): Buffer {
    if (this.log === undefined) throw new Error('Cursors used before ready()')
    return this.log.secret
  }

  /**
   * A cursor at `seq` of a feed; `scope` binds it to one organization's feed (the orders feed, numbered per
   * organization).
   */
  position(feed: Feed, seq: number | string, scope?: string): string {
    if (this.log === undefined) throw new Error('Cursors used before ready()')
    const bound = scope === undefined ? '' : `.${organizationBound(scope)}`
    return Buffer.from(`${MARKS[feed]}.${this.tag}${bound}.${seq}`).toString('base64url')
  }

  /**
   * The position a feed's cursor holds. ParameterError (422) for a text this service could not have given;
   * CursorGone (410) for a cursor of another log or another feed (or another organization's). Whether it is
   * past the log's end is the caller's to check (gone()).
   */
  read(feed: Feed, text: string, parameter: string, scope?: string): number {
    if (this.log === undefined) throw new Error('Cursors used before ready()')
    const decoded = canonical(text, 80)
    // Stryker disable next-line ArrayDeclaration,StringLiteral: a text that is no cursor has fewer than two parts either way
    const parts = decoded?.split('.') ?? []
    // Stryker disable next-line StringLiteral: a text that is no cursor has fewer than two parts either way
    const seq = parts.at(-1) ?? ''
    if (parts.length < 2 || parts.length > 4 || !/^(0|[1-9][0-9]{0,15})$/.test(seq))
      throw this.invalid(parameter)
    const [mark, tag] = parts
    const bound = parts.length === 4 ? parts[2] : undefined
    if (parts.length === 2 && mark === LEGACY[feed]) return Number(seq)
    if (mark !== MARKS[feed] || tag !== this.tag) {
      // Stryker disable next-line StringLiteral: a cursor of two parts or more has a mark
      const known = [...Object.values(MARKS), ...Object.values(LEGACY)].includes(mark ?? '')
      if (!known) throw this.invalid(parameter)
      throw this.gone(parameter)
    }
    const expected = scope === undefined ? undefined : organizationBound(scope)
    if (bound !== expected) throw this.gone(parameter)
    return Number(seq)
  }

  /** The error for a cursor this service could not have given (422). */
  invalid(parameter: string): ParameterError {
    return new ParameterError(
      parameter,
      `Cursor inválido: ${parameter}. Use o next_cursor (ou o cursor de uma entrada) de uma resposta anterior.`,
    )
  }

  /** The error for a cursor of another log, of another feed, or past the log's end (410). */
  gone(parameter: string): CursorGone {
    return new CursorGone(
      parameter,
      `Cursor desconhecido: ${parameter}. Ele é de outro registro de alterações (o banco de dados foi ` +
        'carregado de novo), de outro feed ou vai além do fim do registro. Sincronize de novo desde o início, ' +
        `sem ${parameter}.`,
    )
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(payload).digest().subarray(0, 16)
  }

  /** A listing's cursor: the sort it was made for, the row it follows and the page it starts, signed. */
  listing(cursor: ListCursor): string {
    const payload = `l2.${JSON.stringify([cursor.sort, cursor.key, cursor.id, cursor.page])}`
    return `${Buffer.from(payload).toString('base64url')}.${this.mac(payload).toString('base64url')}`
  }

  /**
   * The one error for a page's `cursor` this service did not give for the question asked (a listing, the price
   * research's items, the suppliers' or organizations' lists): forged, of another sort, or unreadable.
   */
  refused(): ParameterError {
    return new ParameterError('cursor', LIST_CURSOR_REFUSED)
  }

  /** The cursor a page's `cursor` holds, for its sort; `refused()` for one not made so, or forged. */
  readListing(text: string, sort: string, idPattern: RegExp = UUID): ListCursor {
    const refuse = () => this.refused()
    // Stryker disable next-line StringLiteral: split gives a body always, and a text without a signature is refused either way
    const [body = '', signature = '', ...rest] = text.split('.')
    const payload = canonical(body, 800)
    const mac = canonical(signature, 40)
    if (payload === undefined || mac === undefined || rest.length > 0 || !payload.startsWith('l2.'))
      throw refuse()
    const given = Buffer.from(signature, 'base64url')
    const expected = this.mac(payload)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse()
    let parsed: unknown
    try {
      parsed = JSON.parse(payload.slice(3))
      // Stryker disable next-line BlockStatement: what is not JSON is refused either way (it is no array of four)
    } catch {
      throw refuse()
    }
    if (!Array.isArray(parsed) || parsed.length !== 4) throw refuse()
    const [made, key, id, page] = parsed as unknown[]
    if (made !== sort || (key !== null && (typeof key !== 'string' || key.length > 300))) throw refuse()
    if (typeof id !== 'string' || !idPattern.test(id) || !Number.isSafeInteger(page) || (page as number) < 1)
      throw refuse()
    return { sort, key: key as string | null, id, page: page as number }
  }
}

/** What a refused page cursor says, whatever the list. */
const LIST_CURSOR_REFUSED =
  'Cursor inválido: cursor. Use o next_cursor de uma página anterior, com a mesma ordenação e os mesmos filtros.'
