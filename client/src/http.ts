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
  /** The first wait between attempts, in ms, doubled each time, with jitter (default 500). */
  baseDelayMs?: number
  /** The longest wait between attempts, in ms (default 30,000); a Retry-After above it is honoured as it is. */
  maxDelayMs?: number
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
  if (value === null || value.trim() === '') return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** Waits ms, or rejects with the signal's reason when it is aborted first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** Whether an error is the abort of the caller's signal (not a failure to retry). */
export function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error as { name?: string })?.name === 'AbortError'
}

export class Http {
  private readonly fetch: typeof globalThis.fetch
  private readonly attempts: number
  private readonly baseDelayMs: number
  private readonly maxDelayMs: number
  private readonly base: string

  constructor(private readonly options: HttpOptions) {
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis)
    this.attempts = Math.max(1, options.attempts ?? 5)
    this.baseDelayMs = options.baseDelayMs ?? 500
    this.maxDelayMs = options.maxDelayMs ?? 30_000
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
        response = await this.fetch(url, { headers, signal: options.signal })
      } catch (error) {
        if (isAbort(error, options.signal) || attempt >= attempts) throw error
        await sleep(this.backoff(attempt), options.signal)
        continue
      }
      if (response.ok) return response
      if ((response.status === 429 || response.status === 503) && attempt < attempts) {
        const wait = retryAfterMs(response.headers.get('retry-after')) ?? this.backoff(attempt)
        await response.body?.cancel().catch(() => {})
        await sleep(wait, options.signal)
        continue
      }
      throw await errorOf(response)
    }
  }

  /** A GET's JSON body. */
  async json<T>(path: string, query: Query = {}, options: RequestOptions = {}): Promise<T> {
    return (await (await this.get(path, query, options)).json()) as T
  }

  /** Exponential backoff with full jitter, bounded: a random wait up to base × 2^(attempt − 1). */
  private backoff(attempt: number): number {
    return Math.random() * Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1))
  }
}

/** The error an answer that is not 2xx stands for. */
async function errorOf(response: Response): Promise<ComprasError> {
  const text = await response.text().catch(() => '')
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON: the text is the body.
  }
  const said = (body as { message?: unknown } | null)?.message
  const message = typeof said === 'string' ? said : `HTTP ${response.status}`
  const requestId = response.headers.get('x-request-id') ?? undefined
  const Kind = response.status === 410 ? CursorResetError : ComprasError
  return new Kind(response.status, message, requestId, body)
}
