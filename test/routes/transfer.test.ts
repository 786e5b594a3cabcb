import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import type { ServerResponse } from 'node:http'
import { describe, it, mock } from 'node:test'
import { watchReader } from '../../src/routes/transfer.js'

// The export's own watchdog: a reader that takes nothing for IDLE_TIMEOUT while the answer waits for it is
// dropped, whatever the socket's queue does meanwhile (Node's own timeout is put off by every write to it).

/** A response whose socket buffers the test fills and drains. */
class FakeResponse extends EventEmitter {
  writableNeedDrain = false
  destroyed = false
  destroy() {
    this.destroyed = true
    this.emit('close')
  }
}

describe('the reader watchdog', () => {
  it('drops a reader that drains nothing for the idle time while the answer waits, and only then', (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'] })
    const response = new FakeResponse()
    watchReader(response as unknown as ServerResponse, 2000)
    // A slow query: nothing waits for the reader, so it is not the reader's fault.
    t.mock.timers.tick(10_000)
    assert.equal(response.destroyed, false)
    // The reader stops: the buffers fill. It drains once, in time, then stops for good.
    response.writableNeedDrain = true
    t.mock.timers.tick(1500)
    response.emit('drain')
    t.mock.timers.tick(1500)
    assert.equal(response.destroyed, false, 'a drain puts the deadline off')
    t.mock.timers.tick(1000)
    assert.equal(response.destroyed, true, 'two seconds without a drain')
  })

  it('stops watching once the answer is over', (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'] })
    const response = new FakeResponse()
    const destroy = mock.method(response, 'destroy')
    watchReader(response as unknown as ServerResponse, 1000)
    response.emit('close')
    response.writableNeedDrain = true
    t.mock.timers.tick(5000)
    assert.equal(destroy.mock.callCount(), 0)
    assert.equal(response.listenerCount('drain'), 0)
  })
})
