import { parentPort } from 'node:worker_threads'
import { checkBatch, type LineBatch } from './line-check.js'

// A worker thread of an import (src/import/check-pool.ts): checks the batches of lines it is sent, in order.

const port = parentPort
if (!port) throw new Error('check-worker.ts runs as a worker thread')
port.on('message', ({ id, batch }: { id: number; batch: LineBatch }) => {
  try {
    port.postMessage({ id, checked: checkBatch(batch) })
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
  }
})
