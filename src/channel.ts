import type { Pool, PoolClient } from './db/pool.js'

/** The PostgreSQL NOTIFY channel on which every import tells every instance that the data changed. */
export const DATA_CHANNEL = 'compras_data'

/**
 * The channel on which PostgreSQL itself (a trigger on access_tokens, migrations/0010_token_changes.sql)
 * tells every instance that a token was issued, revoked or deleted, by the CLI or by hand.
 */
export const TOKENS_CHANNEL = 'compras_tokens'

/**
 * What a subscriber is told: anything it kept from the database may be stale. Called on each notification
 * of its channel, and whenever `listening` changes (a notification may have gone unheard meanwhile).
 */
export type Drop = () => void

/**
 * One connection of the pool listening on the channels its subscribers asked for. A lost connection is
 * reported once per outage (onError), its subscribers are told they hear nothing, and it listens again
 * every second until it can.
 */
export class Notifications {
  private readonly subscribers = new Map<string, Drop[]>()
  private client: PoolClient | undefined
  private closed = false
  /** An outage was reported; reset when listening again. */
  private reported = false
  private retry: NodeJS.Timeout | undefined
  /** Whether the connection is up and listening on every channel: only then may subscribers keep anything. */
  listening = false

  constructor(
    private readonly pool: Pool,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Adds a subscriber to channel (one of the constants above); before start. */
  subscribe(channel: string, drop: Drop): void {
    const list = this.subscribers.get(channel)
    if (list) list.push(drop)
    else this.subscribers.set(channel, [drop])
  }

  /** Starts listening; resolves once it listens, or once the first failure is reported and retrying. */
  async start(): Promise<void> {
    await this.listen().catch((error: Error) => this.lost(error))
  }

  private dropAll() {
    for (const list of this.subscribers.values()) for (const drop of list) drop()
  }

  private readonly onNotification = (message: { channel: string }) => {
    // Stryker disable next-line ArrayDeclaration: only subscribed channels are listened on, so one is always found
    for (const drop of this.subscribers.get(message.channel) ?? []) drop()
  }

  private readonly onClientError = (error: Error) => this.lost(error)

  /** Gives a client back to the pool without this class's listeners, which a pooled client would keep. */
  private release(client: PoolClient, error?: Error) {
    client.off('notification', this.onNotification)
    client.off('error', this.onClientError)
    client.release(error)
  }

  private async listen() {
    const client = await this.pool.connect()
    client.on('notification', this.onNotification)
    client.on('error', this.onClientError)
    try {
      for (const channel of this.subscribers.keys()) await client.query(`LISTEN ${channel}`)
    } catch (error) {
      this.release(client, error as Error)
      throw error
    }
    if (this.closed) {
      // Closed while connecting: the connection goes back to the pool listening on nothing.
      await client.query('UNLISTEN *').catch(() => {})
      this.release(client)
      return
    }
    this.client = client
    this.listening = true
    this.reported = false
    this.dropAll()
  }

  private lost(error: Error) {
    this.listening = false
    if (this.client) {
      this.release(this.client, error)
      this.client = undefined
    }
    this.dropAll()
    if (this.closed) return
    if (!this.reported) {
      this.reported = true
      this.onError(error)
    }
    clearTimeout(this.retry)
    this.retry = setTimeout(() => {
      this.retry = undefined
      void this.listen().catch((next: Error) => this.lost(next))
    }, 1000)
    this.retry.unref()
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.retry)
    this.listening = false
    if (this.client) {
      const client = this.client
      this.client = undefined
      await client.query(`UNLISTEN *`).catch(() => {})
      this.release(client)
    }
  }
}

/** A request's wait for the next import: `heard` settles then, when its time is up, or at close. */
export interface ImportWait {
  heard: Promise<void>
  /** Gives the wait up (its timer too). */
  cancel(): void
}

/**
 * Requests waiting for the next import to commit (the change feed's long polling), released together when
 * PostgreSQL's NOTIFY of the data channel arrives: a waiting request holds no database connection. While the
 * notifications are not heard, a wait lasts a second at most, so that waiters read again on their own.
 */
export class ImportSignal {
  private readonly waiting = new Set<() => void>()
  /** No new wait lasts: the app is closing. */
  closed = false

  constructor(private readonly notifications: Notifications) {
    notifications.subscribe(DATA_CHANNEL, () => this.release())
  }

  next(ms: number): ImportWait {
    let timer: NodeJS.Timeout | undefined
    let done: () => void = () => {}
    const heard = new Promise<void>((resolve) => {
      done = () => {
        clearTimeout(timer)
        this.waiting.delete(done)
        resolve()
      }
    })
    if (this.closed) done()
    else {
      this.waiting.add(done)
      timer = setTimeout(done, Math.max(0, this.notifications.listening ? ms : Math.min(ms, 1000)))
    }
    return { heard, cancel: done }
  }

  private release() {
    for (const done of [...this.waiting]) done()
  }

  /** Releases every wait, and makes new ones end at once. */
  close() {
    this.closed = true
    this.release()
  }
}
