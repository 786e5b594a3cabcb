import type { LookupFunction } from 'node:net'
import { WEBHOOK_LOCK } from '../db/locks.js'
import type { Pool, PoolClient } from '../db/pool.js'
import { prepared } from '../db/pool.js'
import { type PublicRow, publicEntry, publicFeedSql } from '../feeds/change-feeds.js'
import { listingSql } from '../listings/listing.js'
import type { Cursors } from '../queries/cursors.js'
import { filterValues } from '../resources/filters.js'
import { publicResource } from '../resources/index.js'
import type { Destinations } from './addresses.js'
import { type Attempt, Poster } from './post.js'
import { webhookHeaders } from './signatures.js'
import { type Question, question } from './subscriptions.js'

// Webhook deliveries (Standard Webhooks 1.0): every instance runs a dispatcher; each takes a due subscription
// under its advisory lock (one attempt in flight per subscription across all instances, released if the
// instance dies), and POSTs the public change log's entries after its position, in order, each as the feed's
// entry with its record, signed. A 2xx moves the position past the entry (at least once: an instance that dies
// between the endpoint's answer and that write sends the entry again); anything else is tried again later, with
// exponential backoff and jitter, until the subscription has failed for RETRY_FOR (then it is disabled); 410
// removes it. An import's NOTIFY wakes the dispatcher, so a delivery follows its commit.

/** How many entries a subscription's run reads at a time. */
const BATCH = 100
/** Attempts its endpoint may answer before it is given up: three days of failures. */
const RETRY_FOR_MS = 3 * 24 * 3600 * 1000
/** A dispatcher with nothing due looks again this often, besides each import. */
const IDLE_MS = 5000
/** Attempts kept of each subscription, newest first: enough to tell what failed and when. */
export const KEPT_ATTEMPTS = 1000

/** What a dispatcher counts, as the metrics expose it. */
export interface DispatcherMetrics {
  delivered(outcome: 'delivered' | 'failed' | 'gone' | 'disabled'): void
}

export interface DispatcherOptions {
  /** Connections of its own: a subscription's run holds one, for its lock, while it delivers. */
  pool: Pool
  cursors: Cursors
  destinations: Destinations
  /** Subscriptions delivered at once by this instance. */
  concurrency: number
  /** Names resolved as the DNS does (a test's resolver). */
  resolve?: LookupFunction
  timeoutMs?: number
  maxBytes?: number
  /** The first retry's delay; each next one doubles it, up to maxDelayMs. */
  baseDelayMs?: number
  maxDelayMs?: number
  retryForMs?: number
  log: { warn(fields: object, message: string): void; error(fields: object, message: string): void }
  metrics?: DispatcherMetrics
}

interface SubscriptionState {
  id: string
  url: string
  kinds: string[] | null
  filter: string
  secrets: string[]
  position: string
  attempts: number
  failing_since: string | null
}

/** The delay before the attempt after `attempts` failures: exponential, halved at random (jitter). */
export function retryDelay(attempts: number, baseMs: number, maxMs: number, random = Math.random): number {
  const full = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1))
  return Math.round(full / 2 + random() * (full / 2))
}

export class Dispatcher {
  private readonly poster: Poster
  private readonly running = new Set<string>()
  private closed = false
  private wakeUp: (() => void) | undefined
  private woken = false
  private loop: Promise<void> | undefined
  private readonly options: Required<Omit<DispatcherOptions, 'resolve' | 'metrics'>> &
    Pick<DispatcherOptions, 'resolve' | 'metrics'>

  constructor(options: DispatcherOptions) {
    this.options = {
      timeoutMs: 10_000,
      maxBytes: 64 * 1024,
      baseDelayMs: 1000,
      maxDelayMs: 3600 * 1000,
      retryForMs: RETRY_FOR_MS,
      ...options,
    }
    this.poster = new Poster({
      destinations: options.destinations,
      resolve: options.resolve,
      timeoutMs: this.options.timeoutMs,
      maxBytes: this.options.maxBytes,
    })
  }

  /** Deliveries in flight now. */
  get inFlight(): number {
    return this.running.size
  }

  start(): void {
    this.loop ??= this.cycle()
  }

  /** Something may be due: an import committed, or a subscription changed. */
  wake(): void {
    this.woken = true
    this.wakeUp?.()
  }

  async close(): Promise<void> {
    this.closed = true
    this.wake()
    await this.loop
    while (this.running.size > 0) await new Promise((resolve) => setTimeout(resolve, 20))
    this.poster.close()
  }

  private async cycle(): Promise<void> {
    // An outage is told once, and its end.
    let failing = false
    while (!this.closed) {
      this.woken = false
      let next = IDLE_MS
      try {
        await this.options.cursors.ready()
        next = await this.startDue()
        if (failing) this.options.log.warn({}, 'webhooks: the database answers again, deliveries go on')
        failing = false
      } catch (error) {
        if (!failing)
          this.options.log.error(
            { err: error },
            'webhooks: reading the due subscriptions failed; trying again',
          )
        failing = true
      }
      if (this.closed) break
      if (!this.woken)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, next)
          this.wakeUp = () => {
            clearTimeout(timer)
            resolve()
          }
        })
      this.wakeUp = undefined
    }
  }

  /** Starts the due subscriptions this instance has room for; the milliseconds until one may be due. */
  private async startDue(): Promise<number> {
    const { rows } = await this.options.pool.query<{ id: string; due: boolean; wait_ms: number }>(
      `SELECT id::text, next_attempt <= now() AS due,
         greatest(0, extract(epoch FROM next_attempt - now()) * 1000)::int AS wait_ms
       FROM webhook_subscriptions
       WHERE disabled_at IS NULL AND position < (SELECT coalesce(max(seq), 0) FROM public_changes)
       ORDER BY next_attempt, id LIMIT 1000`,
    )
    let next = IDLE_MS
    for (const row of rows) {
      if (!row.due) {
        next = Math.min(next, Math.max(10, row.wait_ms))
        continue
      }
      if (this.running.has(row.id) || this.running.size >= this.options.concurrency) continue
      this.running.add(row.id)
      this.run(row.id)
        .catch((error) =>
          this.options.log.error({ err: error, subscription: row.id }, 'webhooks: a run failed'),
        )
        .finally(() => {
          this.running.delete(row.id)
          // Its place is free: another may be due.
          this.wake()
        })
    }
    return next
  }

  /** A subscription's run: under its lock, its due entries in order, until none is left or one fails. */
  private async run(id: string): Promise<void> {
    const client = await this.options.pool.connect()
    let locked = false
    try {
      const { rows: lock } = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1, $2::int) AS locked',
        [WEBHOOK_LOCK, id],
      )
      locked = lock[0]?.locked === true
      // Another instance delivers it now.
      if (!locked) return
      const subscription = await this.state(client, id)
      if (subscription === undefined) return
      let asked: Question
      try {
        asked = question(subscription.kinds, subscription.filter)
      } catch (error) {
        // A filter that no longer holds (a filter the listing no longer takes, after an upgrade).
        await this.disable(client, subscription, `its filter no longer holds: ${(error as Error).message}`)
        return
      }
      while (!this.closed) {
        const entries = await this.entries(client, subscription, asked)
        if (entries.length === 0) return
        const wanted = await this.matching(client, entries, asked)
        for (const entry of entries) {
          if (this.closed) return
          if (!wanted.has(entry.seq)) {
            subscription.position = entry.seq
            continue
          }
          const delivered = await this.deliver(client, subscription, entry)
          if (!delivered) return
        }
        // The entries passed over are passed over for good.
        await client.query('UPDATE webhook_subscriptions SET position = $2 WHERE id = $1 AND position < $2', [
          id,
          subscription.position,
        ])
      }
    } finally {
      if (locked) {
        // Its last KEPT_ATTEMPTS attempts are what `webhook deliveries` shows; the older ones go.
        await client
          .query(
            `DELETE FROM webhook_deliveries WHERE subscription_id = $1 AND id < (SELECT id FROM webhook_deliveries
               WHERE subscription_id = $1 ORDER BY id DESC OFFSET ${KEPT_ATTEMPTS - 1} LIMIT 1)`,
            [id],
          )
          .catch(() => {})
        await client.query('SELECT pg_advisory_unlock($1, $2::int)', [WEBHOOK_LOCK, id]).catch(() => {})
      }
      client.release()
    }
  }

  /** A subscription as it is now, if it is due: its secrets in force, its position. */
  private async state(client: PoolClient, id: string): Promise<SubscriptionState | undefined> {
    const { rows } = await client.query<SubscriptionState>(
      `SELECT id::text, url, kinds, filter, position::text, attempts, failing_since::text,
         array_remove(ARRAY[secret, CASE WHEN previous_until > now() THEN previous_secret END], NULL) AS secrets
       FROM webhook_subscriptions WHERE id = $1 AND disabled_at IS NULL AND next_attempt <= now()`,
      [id],
    )
    return rows[0]
  }

  /** The next entries of the feed after the subscription's position, with the feed's own kinds and organization. */
  private async entries(client: PoolClient, subscription: SubscriptionState, asked: Question) {
    const { text, values } = publicFeedSql(
      {
        after: Number(subscription.position),
        kinds: asked.kinds ?? undefined,
        organizationId: asked.organizationId,
        withRecords: true,
      },
      BATCH,
    )
    return (await client.query<PublicRow>(prepared(text, values))).rows
  }

  /**
   * The entries the subscription's filters take, by seq: the feed's own filters (kinds, organization) are the
   * read's; a created or updated record must also meet its listing's other filters as it is now; a tombstone is
   * always delivered (what it was cannot be asked any more).
   */
  private async matching(
    client: PoolClient,
    entries: readonly PublicRow[],
    asked: Question,
  ): Promise<Set<string>> {
    const wanted = new Set(entries.map((entry) => entry.seq))
    const byKind = new Map<string, PublicRow[]>()
    for (const entry of entries)
      if (entry.change !== 'withdrawn')
        byKind.set(entry.resource, [...(byKind.get(entry.resource) ?? []), entry])
    for (const [kind, list] of byKind) {
      const query = asked.queries.get(kind) ?? {}
      const rest = Object.keys(query).filter((name) => name !== 'organization_uuid')
      if (rest.length === 0) continue
      const resource = publicResource(kind)
      if (resource === undefined) continue
      const filters = filterValues(resource.filters, query)
      const listing = listingSql(resource, { filters, sort: resource.defaultSort })
      const a = resource.record.alias
      const ids = `$${listing.values.length + 1}::uuid[]`
      const { rows } = await client.query<{ id: string }>(
        prepared(
          `SELECT ${a}.id FROM ${listing.rowsFrom} WHERE ${listing.where} AND ${a}.id = ANY (${ids})`,
          [...listing.values, list.map((entry) => entry.id)],
        ),
      )
      const found = new Set(rows.map((row) => row.id))
      for (const entry of list) if (!found.has(entry.id)) wanted.delete(entry.seq)
    }
    return wanted
  }

  /** One entry's attempt, recorded; whether it was delivered (and the run goes on). */
  private async deliver(
    client: PoolClient,
    subscription: SubscriptionState,
    entry: PublicRow,
  ): Promise<boolean> {
    const body = publicEntry(entry, true, this.options.cursors)
    const webhookId = this.options.cursors.position('changes', entry.seq)
    const headers = webhookHeaders(subscription.secrets, webhookId, Math.floor(Date.now() / 1000), body)
    const attempt: Attempt = await this.poster.post(subscription.url, headers, body)
    const ok = attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300
    if (ok) {
      await client.query(
        `WITH logged AS (INSERT INTO webhook_deliveries (subscription_id, entry, status, milliseconds)
           VALUES ($1, $2, $3, $4))
         UPDATE webhook_subscriptions SET position = $2, attempts = 0, failing_since = NULL, next_attempt = now()
         WHERE id = $1`,
        [subscription.id, entry.seq, attempt.status, attempt.milliseconds],
      )
      subscription.position = entry.seq
      this.options.metrics?.delivered('delivered')
      return true
    }
    const error = attempt.error ?? `answered ${attempt.status}`
    await client.query(
      `INSERT INTO webhook_deliveries (subscription_id, entry, status, error, milliseconds) VALUES ($1, $2, $3, $4, $5)`,
      [
        subscription.id,
        entry.seq,
        attempt.status ?? null,
        attempt.status === undefined ? error : null,
        attempt.milliseconds,
      ],
    )
    if (attempt.status === 410) {
      await client.query('DELETE FROM webhook_subscriptions WHERE id = $1', [subscription.id])
      this.options.log.warn(
        { subscription: subscription.id, url: subscription.url },
        'webhook subscription removed: its endpoint answered 410 Gone',
      )
      this.options.metrics?.delivered('gone')
      return false
    }
    this.options.metrics?.delivered('failed')
    const since = subscription.failing_since === null ? Date.now() : Date.parse(subscription.failing_since)
    if (Date.now() - since >= this.options.retryForMs) {
      await this.disable(
        client,
        subscription,
        `failing for ${Math.round(this.options.retryForMs / 3_600_000)} h: ${error}`,
      )
      return false
    }
    const delay = retryDelay(subscription.attempts + 1, this.options.baseDelayMs, this.options.maxDelayMs)
    await client.query(
      `UPDATE webhook_subscriptions SET position = $2, attempts = attempts + 1,
         failing_since = coalesce(failing_since, now()), next_attempt = now() + $3 * interval '1 millisecond'
       WHERE id = $1`,
      [subscription.id, subscription.position, delay],
    )
    return false
  }

  private async disable(client: PoolClient, subscription: SubscriptionState, reason: string): Promise<void> {
    await client.query(
      'UPDATE webhook_subscriptions SET disabled_at = now(), disabled_reason = $2, position = $3 WHERE id = $1',
      [subscription.id, reason, subscription.position],
    )
    this.options.log.error(
      { subscription: subscription.id, url: subscription.url, reason },
      'webhook subscription disabled: compras webhook redeliver ID --from CURSOR enables it again',
    )
    this.options.metrics?.delivered('disabled')
  }
}
