import { lookup as dnsLookup } from 'node:dns'
import type { LookupFunction } from 'node:net'
import { isIP } from 'node:net'
import type { Pool } from '../db/pool.js'
import { ParameterError } from '../errors.js'
import { feedParameters } from '../feeds/atom.js'
import { FEED_KINDS, parseKinds } from '../feeds/change-feeds.js'
import type { Cursors } from '../queries/cursors.js'
import { type ParameterProblem, parameterError, type ValidQuery } from '../queries/parameters.js'
import { compileQuery } from '../query-validation.js'
import { publicResource } from '../resources/index.js'
import { AddressRefused, checkedUrl, type Destinations } from './addresses.js'
import { newSecret } from './signatures.js'

// The operator's webhook subscriptions (migrations/0029_webhooks.sql), as `compras webhook` manages them: each an
// endpoint, the kinds it follows and the listing's filters it takes (checked as the listings check them), its
// secret, and its position in the public change log. A new subscription starts at the log's end: it is told what
// changes from then on (`redeliver --from` moves it back).

/** How long the secret before a rotation still signs. */
export const ROTATION_OVERLAP = '24 hours'

/** A subscription as `webhook list` shows it. */
export interface SubscriptionRow {
  id: string
  url: string
  kinds: string[] | null
  filter: string
  position: string
  behind: number
  attempts: number
  failing_since: string | null
  disabled_at: string | null
  disabled_reason: string | null
  created_at: string
}

/** What a subscription asks of the feed, its filters checked: each kind's query, as the listing reads it. */
export interface Question {
  kinds: string[] | null
  /** The listing filters' values (as given), per kind followed. */
  queries: ReadonlyMap<string, ValidQuery>
  /** The feed's organization filter, when the question has one. */
  organizationId: string | undefined
}

const CHECKS = new Map<string, (query: Record<string, unknown>) => ParameterProblem[] | null>()
const checkOf = (kind: string) => {
  let check = CHECKS.get(kind)
  if (check === undefined) {
    const parameters = feedParameters(publicResource(kind) as NonNullable<ReturnType<typeof publicResource>>)
    const compiled = compileQuery(parameters.schema)
    check = (query) => compiled(query) as ParameterProblem[] | null
    CHECKS.set(kind, check)
  }
  return check
}

/**
 * The question a subscription's kinds and filter ask, checked for every kind as its listing checks its filters:
 * ParameterError with the listing's 422 wording for a filter a kind does not take or a value it refuses.
 */
export function question(kinds: readonly string[] | null, filter: string): Question {
  const followed = kinds ?? FEED_KINDS
  const params = new URLSearchParams(filter)
  const given: Record<string, string> = {}
  for (const [name, value] of params) {
    if (name in given) throw new ParameterError(name, `Parâmetro repetido: ${name}. Dê cada filtro uma vez.`)
    given[name] = value
  }
  const queries = new Map<string, ValidQuery>()
  for (const kind of followed) {
    const query: Record<string, unknown> = { ...given }
    const problems = checkOf(kind)(query)
    if (problems?.[0]) {
      const accepts = feedParameters(
        publicResource(kind) as NonNullable<ReturnType<typeof publicResource>>,
      ).accepts
      const message = parameterError(problems[0], accepts).message
      throw new ParameterError(problems[0].instancePath.slice(1) || 'filter', `${message} (${kind})`)
    }
    queries.set(kind, query)
  }
  return {
    kinds: kinds === null ? null : [...followed],
    queries,
    organizationId: given.organization_uuid?.toLowerCase(),
  }
}

/** The last entry of the public change log: where a new subscription starts. */
async function logEnd(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ last: string }>(
    'SELECT coalesce(max(seq), 0)::text AS last FROM public_changes',
  )
  return (rows[0] as { last: string }).last
}

/**
 * The URL's host resolved now, refused when it names no address that may be called. Delivery checks the
 * address again at every connection: this only tells the operator early.
 */
async function reachable(url: string, destinations: Destinations, resolve: LookupFunction = dnsLookup) {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1')
  if (isIP(host) !== 0) return
  await new Promise<void>((ok, fail) =>
    destinations.lookup(resolve)(host, { all: true }, (error) => (error ? fail(error) : ok())),
  ).catch((error: Error) => {
    if (error instanceof AddressRefused) throw error
    throw new AddressRefused(
      `${host} was not found (${(error as NodeJS.ErrnoException).code ?? error.message})`,
    )
  })
}

/** Subscribes an endpoint: its id and its new secret, shown once. AddressRefused, ParameterError. */
export async function addSubscription(
  pool: Pool,
  asked: { url: string; kinds?: string; filter?: string },
  destinations: Destinations,
  resolve?: LookupFunction,
): Promise<{ id: string; secret: string }> {
  const url = checkedUrl(asked.url, destinations)
  const kinds = parseKinds(asked.kinds) ?? null
  const filter = asked.filter ?? ''
  question(kinds, filter)
  await reachable(url, destinations, resolve)
  const secret = newSecret()
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO webhook_subscriptions (url, kinds, filter, secret, position) VALUES ($1, $2, $3, $4, $5)
     RETURNING id::text`,
    [url, kinds, new URLSearchParams(filter).toString(), secret, await logEnd(pool)],
  )
  return { id: (rows[0] as { id: string }).id, secret }
}

export async function listSubscriptions(pool: Pool): Promise<SubscriptionRow[]> {
  const { rows } = await pool.query<SubscriptionRow>(
    `SELECT id::text, url, kinds, filter, position::text,
       ((SELECT coalesce(max(seq), 0) FROM public_changes) - position)::int AS behind, attempts,
       failing_since::text, disabled_at::text, disabled_reason, created_at::text
     FROM webhook_subscriptions ORDER BY id`,
  )
  return rows
}

export async function removeSubscription(pool: Pool, id: string): Promise<boolean> {
  const { rowCount } = await pool.query('DELETE FROM webhook_subscriptions WHERE id = $1', [id])
  return (rowCount ?? 0) > 0
}

/** A new secret for a subscription (shown once); the one before still signs for ROTATION_OVERLAP. */
export async function rotateSecret(pool: Pool, id: string): Promise<string | undefined> {
  const secret = newSecret()
  const { rowCount } = await pool.query(
    `UPDATE webhook_subscriptions SET previous_secret = secret, previous_until = now() + interval '${ROTATION_OVERLAP}',
       secret = $2 WHERE id = $1`,
    [id, secret],
  )
  return (rowCount ?? 0) > 0 ? secret : undefined
}

/** A subscription's last attempts, newest first: the entry's cursor, when, the status or the error. */
export async function deliveries(
  pool: Pool,
  cursors: Cursors,
  id: string,
  limit = 20,
): Promise<
  | {
      entry: string
      attempted_at: string
      status: number | null
      error: string | null
      milliseconds: number
    }[]
  | undefined
> {
  const { rowCount } = await pool.query('SELECT 1 FROM webhook_subscriptions WHERE id = $1', [id])
  if (!rowCount) return undefined
  await cursors.ready()
  const { rows } = await pool.query<{
    entry: string
    attempted_at: string
    status: number | null
    error: string | null
    milliseconds: number
  }>(
    `SELECT entry::text, attempted_at::text, status, error, milliseconds FROM webhook_deliveries
     WHERE subscription_id = $1 ORDER BY id DESC LIMIT $2`,
    [id, limit],
  )
  return rows.map((row) => ({ ...row, entry: cursors.position('changes', row.entry) }))
}

/**
 * Moves a subscription back (or on) to a cursor of the public feed: the entries after it are delivered again,
 * in order. A disabled subscription is enabled again. ParameterError for a cursor this log did not give.
 */
export async function redeliver(pool: Pool, cursors: Cursors, id: string, from: string): Promise<boolean> {
  await cursors.ready()
  const position = from === '0' ? 0 : cursors.read('changes', from, 'from')
  const { rowCount } = await pool.query(
    `UPDATE webhook_subscriptions SET position = $2, attempts = 0, next_attempt = now(), failing_since = NULL,
       disabled_at = NULL, disabled_reason = NULL WHERE id = $1`,
    [id, position],
  )
  return (rowCount ?? 0) > 0
}
