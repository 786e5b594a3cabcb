// The client's requests: GET with retries that respect the server (429 and its Retry-After, 503, a network
// that failed), typed errors in the service's own words, and the request id to quote.

/** An error answer: its status, the service's message (Portuguese, as the API gives it) and its request id. */
export class ComprasError extends Error {
  override name = 'ComprasError'
  constructor(
    readonly status: number,
    message: string,
    /** The answer's X-Request-Id: quote it when reporting a problem. */
    readonly requestId: string | undefined,
    /** The answer's body, parsed when it was JSON. */
    readonly body: unknown,
  ) {
    super(message)
  }
}

/**
 * An answer the client will not take as it came: a body larger than `maxBodyBytes`, redirects past `maxRedirects`
 * or to another origin, a feed page that says more follows but does not move its cursor. Not retried.
 */
export class ProtocolError extends ComprasError {
  override name = 'ProtocolError'
}

/**
 * 410 Gone on a feed: the cursor is of another log (the operator loaded the database again), of another feed, or
 * past the log's end. Start over from the beginning, without a cursor (`onReset: 'resync'` does it by itself).
 */
export class CursorResetError extends ComprasError {
  override name = 'CursorResetError'
}

export interface HttpOptions {
  baseUrl: string
  fetch?: typeof globalThis.fetch
  /** Attempts of a request at most, the first included (default 5). */
  attempts?: number
  /** The first wait between attempts, in ms, doubled each time, half of it random (default 500). */
  baseDelayMs?: number
  /**
   * The longest wait between attempts, in ms (default 30,000): a longer Retry-After is waited this long, and one of
   * 0 or a past date is waited at least the exponential backoff.
   */
  maxDelayMs?: number
  /** The largest body read, in bytes (default 64 MiB; a JSON Lines stream's largest line): past it, ProtocolError. */
  maxBodyBytes?: number
  /** Redirects followed for one request, within the service's origin only (default 5). */
  maxRedirects?: number
  /** Headers sent with every request (a User-Agent naming your system, say). */
  headers?: Record<string, string>
}

export interface RequestOptions {
  signal?: AbortSignal
  /** The organ's raw access token (orders only), sent as Authorization without a prefix. */
  token?: string
}

export type Query = Record<string, string | number | boolean | readonly string[] | null | undefined>

/** The seconds or HTTP date of a Retry-After header, as milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  // Stryker disable next-line MethodExpression,StringLiteral: a blank value is no number nor date either: undefined
  if (value === null || value.trim() === '') return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** Waits ms, or rejects with the signal's reason when it is aborted first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    // Stryker disable next-line ConditionalExpression: only how soon an abort already made is seen; the next request throws it
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      // Stryker disable next-line StringLiteral: a listener left behind rejects a promise already resolved
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal aborts once
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Whether a request failed because the caller's signal aborted it (not a failure to retry), whatever the reason it
 * was given: an AbortError, AbortSignal.timeout's TimeoutError, or the caller's own.
 */
export function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true
}

/** Statuses whose Location a GET follows. */
const REDIRECTS = new Set([301, 302, 303, 307, 308])

export class Http {
  private readonly fetch: typeof globalThis.fetch
  private readonly attempts: number
  private readonly baseDelayMs: number
  private readonly maxDelayMs: number
  private readonly base: string
  private readonly maxRedirects: number
  /** The largest body read (a JSON Lines stream's largest line). */
  readonly maxBodyBytes: number

  constructor(private readonly options: HttpOptions) {
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis)
    this.attempts = Math.max(1, options.attempts ?? 5)
    this.baseDelayMs = options.baseDelayMs ?? 500
    // Node's timers fire at once past 2^31 - 1 ms: no wait is longer than a day.
    this.maxDelayMs = Math.min(options.maxDelayMs ?? 30_000, 86_400_000)
    this.maxBodyBytes = options.maxBodyBytes ?? 64 * 1024 * 1024
    this.maxRedirects = options.maxRedirects ?? 5
    this.base = options.baseUrl.replace(/\/+$/, '')
  }

  /** The URL of path with the query's values set (lists comma-separated; undefined and null left out). */
  url(path: string, query: Query = {}): string {
    const url = new URL(`${this.base}${path}`)
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue
      url.searchParams.set(name, Array.isArray(value) ? value.join(',') : String(value))
    }
    return url.toString()
  }

  /** A GET answered 2xx, after the retries a read allows: 429 and 503 (Retry-After honoured), network errors. */
  async get(
    path: string,
    query: Query = {},
    options: RequestOptions & { once?: boolean } = {},
  ): Promise<Response> {
    const url = this.url(path, query)
    const headers: Record<string, string> = { accept: 'application/json', ...this.options.headers }
    if (options.token !== undefined) headers.authorization = options.token
    const attempts = options.once ? 1 : this.attempts
    for (let attempt = 1; ; attempt++) {
      let response: Response
      try {
        response = await this.followed(url, headers, options.signal)
      } catch (error) {
        if (error instanceof ComprasError || aborted(options.signal) || attempt >= attempts) throw error
        await sleep(this.backoff(attempt), options.signal)
        continue
      }
      if (response.ok) return response
      if ((response.status === 429 || response.status === 503) && attempt < attempts) {
        const asked = retryAfterMs(response.headers.get('retry-after')) ?? 0
        // Stryker disable next-line OptionalChaining: fetch gives every answer to a GET a body but a 204's and a 304's
        await response.body?.cancel().catch(() => {})
        await sleep(Math.min(this.maxDelayMs, Math.max(asked, this.backoff(attempt))), options.signal)
        continue
      }
      throw await errorOf(response, this.maxBodyBytes)
    }
  }

  /** The answer to a GET of url, redirects followed within the service's origin, maxRedirects at most. */
  private async followed(
    url: string,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Response> {
    let at = url
    for (let hop = 0; ; hop++) {
      const response = await this.fetch(at, { headers, signal, redirect: 'manual' })
      const location = response.headers.get('location')
      if (!REDIRECTS.has(response.status) || location === null) return response
      // Stryker disable next-line OptionalChaining: fetch gives every answer to a GET a body but a 204's and a 304's
      await response.body?.cancel().catch(() => {})
      const next = new URL(location, at)
      if (next.origin !== new URL(url).origin)
        throw new ProtocolError(
          response.status,
          `Redirecionamento para outra origem: ${next.origin}`,
          requestIdOf(response),
          null,
        )
      if (hop >= this.maxRedirects)
        throw new ProtocolError(
          response.status,
          `Redirecionamentos demais (mais de ${this.maxRedirects})`,
          requestIdOf(response),
          null,
        )
      at = next.toString()
    }
  }

  /** A GET's JSON body, read up to maxBodyBytes. */
  async json<T>(path: string, query: Query = {}, options: RequestOptions = {}): Promise<T> {
    const response = await this.get(path, query, options)
    return JSON.parse(await bodyText(response, this.maxBodyBytes)) as T
  }

  /**
   * Exponential backoff with equal jitter, bounded: base × 2^(attempt − 1), half of it certain and half random,
   * so that clients spread out yet every retry waits (a Retry-After of 0 included).
   */
  private backoff(attempt: number): number {
    const step = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1))
    return step / 2 + (Math.random() * step) / 2
  }
}

const requestIdOf = (response: Response) => response.headers.get('x-request-id') ?? undefined

/** The body of an answer as text, read up to `limit` bytes: past them, ProtocolError (the rest is not read). */
export async function bodyText(response: Response, limit: number): Promise<string> {
  const tooLarge = () =>
    new ProtocolError(
      response.status,
      `Resposta grande demais (mais de ${limit} bytes)`,
      requestIdOf(response),
      null,
    )
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  if (declared > limit) {
    // Stryker disable next-line OptionalChaining: fetch gives every answer to a GET a body but a 204's and a 304's
    await response.body?.cancel().catch(() => {})
    throw tooLarge()
  }
  // Stryker disable next-line ConditionalExpression,StringLiteral: a 204's, which the service never answers a GET with
  if (response.body === null) return ''
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let read = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      read += value.byteLength
      if (read > limit) throw tooLarge()
      text += decoder.decode(value, { stream: true })
    }
    // Stryker disable next-line BlockStatement: frees the rest of a refused body now rather than when it is collected
  } finally {
    await reader.cancel().catch(() => {})
  }
  return text + decoder.decode()
}

/** The error an answer that is not 2xx stands for. */
async function errorOf(response: Response, limit: number): Promise<ComprasError> {
  const text = await bodyText(response, limit).catch(() => '')
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON: the text is the body.
  }
  const said = (body as { message?: unknown } | null)?.message
  const message = typeof said === 'string' ? said : `HTTP ${response.status}`
  const Kind = response.status === 410 ? CursorResetError : ComprasError
  return new Kind(response.status, message, requestIdOf(response), body)
}
