import { availableParallelism } from 'node:os'
import type { Readable } from 'node:stream'
import { Worker } from 'node:worker_threads'
import { type CheckedBatch, checkBatch, type LineBatch } from './line-check.js'
import { type Line, readLines } from './lines.js'

// Where an import's lines are checked, a batch at a time: on the importing thread while the import is
// small (a worker's start, about a tenth of a second, would cost a one-record import more than it saves),
// then in worker threads, one per core, while the importing thread reads on. Batches come back in file order.

// A batch: large enough that handing it to a worker costs little beside checking it, small enough that
// the batches in flight keep memory flat.
const BATCH_LINES = 1000
const BATCH_CHARS = 1024 * 1024

/** Lines checked on the importing thread before workers start. */
export const PARALLEL_AFTER = 20_000

export interface CheckersOptions {
  /** Worker threads once the import is large (0: every batch on the importing thread). Default: one per core. */
  workers?: number
  /** Lines checked on the importing thread first. */
  parallelAfter?: number
  /** The workers' script; tests give one that fails. */
  workerUrl?: URL
}

interface Waiting {
  resolve: (checked: CheckedBatch) => void
  reject: (error: Error) => void
}

interface Checker {
  worker: Worker
  waiting: Map<number, Waiting>
}

const WORKER_URL = new URL(
  `./check-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
)

/** Worker threads of this process checking lines now: none once every import has ended (tests read it). */
let running = 0
export const workersRunning = () => running

/**
 * A worker running `url`. Run from the TypeScript sources (tests, `npm run dev`), the worker does not
 * inherit tsx's loader in Node 20, so it registers it before importing its script.
 */
function startWorker(url: URL): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url)
  const script = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}) })`
  return new Worker(script, { eval: true })
}

class Checkers {
  private readonly workers: number
  private readonly parallelAfter: number
  private readonly workerUrl: URL
  private checked = 0
  private nextId = 0
  private pool: Checker[] | undefined
  private failure: Error | undefined

  constructor(options: CheckersOptions = {}) {
    this.workers = options.workers ?? availableParallelism()
    this.parallelAfter = options.parallelAfter ?? PARALLEL_AFTER
    this.workerUrl = options.workerUrl ?? WORKER_URL
  }

  /** How many batches may wait to be applied: enough to keep every worker busy, few enough to keep memory flat. */
  get depth(): number {
    return 2 * Math.max(1, this.workers) + 1
  }

  /** Checks a batch here or in a worker. A worker's failure fails this and every later batch. */
  check(batch: LineBatch): Promise<CheckedBatch> {
    if (this.failure) return Promise.reject(this.failure)
    if (this.workers === 0 || this.checked < this.parallelAfter) {
      this.checked += batch.lines.length
      return Promise.resolve(checkBatch(batch))
    }
    this.pool ??= Array.from({ length: this.workers }, () => this.start())
    // The least busy worker: batches differ in size, and a worker's queue is worked in order.
    const checker = this.pool.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a))
    const id = this.nextId++
    return new Promise<CheckedBatch>((resolve, reject) => {
      checker.waiting.set(id, { resolve, reject })
      checker.worker.postMessage({ id, batch })
    })
  }

  /** Stops the workers; what they were still checking is rejected. */
  async close(): Promise<void> {
    this.fail(new Error('the import stopped'))
    const pool = this.pool ?? []
    this.pool = undefined
    await Promise.all(pool.map((checker) => checker.worker.terminate()))
  }

  private start(): Checker {
    const worker = startWorker(this.workerUrl)
    running++
    const checker: Checker = { worker, waiting: new Map() }
    worker.on('message', (message: { id: number; checked?: CheckedBatch; error?: string }) => {
      const waiting = checker.waiting.get(message.id)
      // Stryker disable next-line ConditionalExpression: a worker answers only what it was sent
      if (!waiting) return
      checker.waiting.delete(message.id)
      if (message.checked) return waiting.resolve(message.checked)
      // This batch was taken off the waiting list above: rejected here, the others by fail.
      this.fail(new Error(`checking lines failed in a worker: ${message.error}`))
      waiting.reject(this.failure as Error)
    })
    worker.on('error', (error) => this.fail(new Error(`a worker checking lines failed: ${error.message}`)))
    worker.on('exit', (code) => {
      running--
      if (checker.waiting.size > 0)
        this.fail(new Error(`a worker checking lines stopped (exit code ${code})`))
    })
    return checker
  }

  /** Rejects every batch still waiting, and every later one. */
  private fail(error: Error): void {
    this.failure ??= error
    for (const checker of this.pool ?? []) {
      for (const waiting of checker.waiting.values()) waiting.reject(this.failure)
      checker.waiting.clear()
    }
  }
}

/** What checkLines reads and tells. */
export interface CheckLinesOptions extends CheckersOptions {
  /** Hears of each chunk read, by its size in bytes. */
  onBytes?: (bytes: number) => void
  /** Hears of each line read, with how many the sources have given so far (a line's number in the run). */
  onLine?: (lines: number) => void
}

/**
 * Reads the sources' lines and yields them checked, a batch at a time, each with its source's index, in
 * file order. Several batches are in flight (here or in workers) while the next lines are read; the
 * workers stop when the generator ends, however it ends.
 */
export async function* checkLines(
  sources: readonly ({ stream: Readable } | { lines: AsyncIterable<Line> })[],
  options: CheckLinesOptions = {},
): AsyncGenerator<{ file: number; checked: CheckedBatch }> {
  const checkers = new Checkers(options)
  const pending: { file: number; checked: Promise<CheckedBatch> }[] = []
  const first = async () => {
    const { file, checked } = pending.shift() as (typeof pending)[number]
    return { file, checked: await checked }
  }
  let lines = 0
  try {
    for (const [file, source] of sources.entries()) {
      let batch: Line[] = []
      let chars = 0
      const send = () => {
        // Stryker disable next-line ConditionalExpression: an empty batch checks nothing
        if (batch.length === 0) return
        const checked = checkers.check({ file, firstSeq: lines - batch.length + 1, lines: batch })
        checked.catch(() => {}) // its failure is thrown where it is awaited, in order
        pending.push({ file, checked })
        batch = []
        chars = 0
      }
      const read = 'lines' in source ? source.lines : readLines(source.stream, options.onBytes)
      for await (const line of read) {
        lines++
        options.onLine?.(lines)
        batch.push(line)
        chars += 'text' in line ? line.text.length : 0
        // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: where a batch ends sets only how the lines are shared out
        if (batch.length >= BATCH_LINES || chars >= BATCH_CHARS) send()
        while (pending.length > checkers.depth) yield await first()
      }
      send()
    }
    while (pending.length > 0) yield await first()
  } finally {
    await checkers.close()
  }
}
