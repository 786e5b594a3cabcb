import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { type CheckedBatch, checkBatch, type LineBatch } from './check.js'

// Where an import's batches of lines are checked: on the importing thread while the import is small
// (a worker's start, about a tenth of a second, would cost a one-record import more than it saves),
// then in worker threads, one per core. Answers come back in the order the batches were sent.

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

const FROM_SOURCE = import.meta.url.endsWith('.ts')
const WORKER_URL = new URL(`./check-worker${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url)

/**
 * A worker running `url`. Run from the TypeScript sources (tests, `npm run dev`), the worker does not
 * inherit tsx's loader in Node 20, so it registers it before importing its script.
 */
function startWorker(url: URL): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url)
  const script = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}) })`
  return new Worker(script, { eval: true })
}

export class Checkers {
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
    const pool = this.pool ?? []
    this.pool = undefined
    this.fail(new Error('the import stopped'), pool)
    await Promise.all(pool.map((checker) => checker.worker.terminate()))
  }

  private start(): Checker {
    const worker = startWorker(this.workerUrl)
    const checker: Checker = { worker, waiting: new Map() }
    worker.on('message', (message: { id: number; checked?: CheckedBatch; error?: string }) => {
      const waiting = checker.waiting.get(message.id)
      // Stryker disable next-line ConditionalExpression: a worker answers only what it was sent
      if (!waiting) return
      checker.waiting.delete(message.id)
      if (message.checked) return waiting.resolve(message.checked)
      // This batch was taken off the waiting list above: rejected here, the others by fail.
      this.fail(new Error(`checking lines failed in a worker: ${message.error}`), this.pool ?? [])
      waiting.reject(this.failure as Error)
    })
    worker.on('error', (error) =>
      this.fail(new Error(`a worker checking lines failed: ${error.message}`), this.pool ?? []),
    )
    worker.on('exit', (code) => {
      if (checker.waiting.size > 0)
        this.fail(new Error(`a worker checking lines stopped (exit code ${code})`), this.pool ?? [])
    })
    return checker
  }

  /** Rejects every batch still waiting, and every later one. */
  private fail(error: Error, pool: readonly Checker[]): void {
    this.failure ??= error
    for (const checker of pool) {
      for (const waiting of checker.waiting.values()) waiting.reject(this.failure)
      checker.waiting.clear()
    }
  }
}
