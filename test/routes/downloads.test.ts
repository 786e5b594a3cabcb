import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import net from 'node:net'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { importRecords } from '../../src/import/importer.js'
import { ReaderWatch } from '../../src/routes/http/reader-watch.js'
import { buildTestApp, listen, placesHeld } from '../helpers/app.js'
import { createTestDatabase, multiplyContracts, type TestDatabase } from '../helpers/db.js'
import { until } from '../helpers/http.js'
import { demoRecords, ndjson, source } from '../helpers/records.js'

// The places of streamed downloads (exports, the OCDS bulk download, the change feed as lines) over real
// sockets: a place is given back however the client leaves, before the file opens, while its first rows are
// read, or after; and readers that stop reading, or read too slowly, are reset and free theirs.

const DOWNLOADS = [
  ['the export', '/v1/transparency/export?resource=contracts&format=csv', 'contracts'],
  ['the OCDS bulk download', '/v1/ocds/releases.jsonl?history=true', 'ocds_releases'],
  ['the change feed as lines', '/v1/transparency/changes.jsonl?with_records=true', 'public_changes'],
] as const

/**
 * The server's connections from `port` that the kernel still keeps after the server let them go, with bytes
 * for their peer (FIN-WAIT-1 with a send queue): what a reset leaves none of. Read from /proc/net/tcp.
 */
function lingering(port: number): number {
  let count = 0
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = ''
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state, queues] = line.trim().split(/\s+/)
      if (!local || !queues) continue
      const localPort = Number.parseInt(local.split(':')[1] ?? '', 16)
      const sendQueue = Number.parseInt(queues.split(':')[0] ?? '', 16)
      if (localPort === port && state === '04' && sendQueue > 0) count++
    }
  }
  return count
}

/** A GET of `path` as a raw request, from `address` (X-Forwarded-For), on a connection that closes after it. */
const requestFor = (path: string, address: string) =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: ${address}\r\nConnection: close\r\n\r\n`

/** How a raw GET ended: the server's bytes read, and whether the connection ended cleanly or was reset. */
interface Ending {
  bytes: number
  how: 'end' | 'reset' | 'error'
  /** The status line, when the head came. */
  status: string | undefined
  /** The answer's first bytes (its head, and the start of its body), as latin1. */
  head: string
}

/**
 * A GET over a raw socket as `address` (X-Forwarded-For). `read` says how the client reads: all at once, a
 * few kilobytes now and then, or not at all; `leaveAfterMs` closes the socket that long after sending.
 */
function get(
  base: string,
  path: string,
  address: string,
  options: {
    leaveAfterMs?: number
    /** Leave once the answer's head has come. */
    headOnly?: boolean
    /** Stop reading after the first bytes, for this long, then read on. */
    stallMs?: number
    /** Told when the answer's first bytes come. */
    onHead?: () => void
  } = {},
): Promise<Ending> {
  const { port } = new URL(base)
  return new Promise((resolve) => {
    const socket = net.connect({ port: Number(port), host: '127.0.0.1' })
    let bytes = 0
    let head = ''
    const finish = (how: Ending['how']) => {
      resolve({ bytes, how, status: head.split('\r\n')[0] || undefined, head })
    }
    socket.on('error', (error: Error & { code?: string }) =>
      finish(error.code === 'ECONNRESET' ? 'reset' : 'error'),
    )
    socket.on('end', () => finish('end'))
    socket.on('close', () => finish('end'))
    const take = (chunk: Buffer) => {
      if (head.length < 1000) head += chunk.toString('latin1', 0, 1000)
      bytes += chunk.length
    }
    socket.write(requestFor(path, address))
    if (options.headOnly) {
      socket.once('data', (chunk: Buffer) => {
        take(chunk)
        socket.destroy()
      })
      return
    }
    if (options.leaveAfterMs !== undefined) {
      setTimeout(() => socket.destroy(), options.leaveAfterMs)
      socket.on('data', take)
      return
    }
    if (options.stallMs !== undefined) {
      const stallMs = options.stallMs
      socket.once('data', (chunk: Buffer) => {
        take(chunk)
        socket.pause()
        options.onHead?.()
        setTimeout(() => {
          socket.on('data', take)
          socket.resume()
        }, stallMs)
      })
      return
    }
    socket.on('data', take)
  })
}

/**
 * A GET over a raw socket that reads at most `bytesPerSecond` on average, for at most `forMs`: whether the
 * server cut it (reset or closed it before the chunked answer's last chunk; when, from the request), the
 * answer came whole, or it was still reading when the time was up.
 */
function readAt(
  base: string,
  path: string,
  address: string,
  bytesPerSecond: number,
  forMs: number,
): Promise<{ how: 'cut' | 'whole' | 'kept'; afterMs: number; bytes: number }> {
  const { port } = new URL(base)
  return new Promise((resolve) => {
    const start = Date.now()
    const socket = net.connect({ port: Number(port), host: '127.0.0.1' })
    let bytes = 0
    let tail = ''
    let done = false
    const finish = (how: 'cut' | 'whole' | 'kept') => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ how, afterMs: Date.now() - start, bytes })
    }
    const timer = setTimeout(() => finish('kept'), forMs)
    const ended = () => finish(tail.endsWith('\r\n0\r\n\r\n') ? 'whole' : 'cut')
    socket.on('error', ended)
    socket.on('close', ended)
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length
      tail = (tail + chunk.toString('latin1', Math.max(0, chunk.length - 16))).slice(-16)
      // Ahead of the rate: stop reading (the kernel's buffers fill) until it is caught up with.
      const ahead = (bytes * 1000) / bytesPerSecond - (Date.now() - start)
      if (ahead > 0) {
        socket.pause()
        setTimeout(() => socket.resume(), ahead)
      }
    })
    socket.write(requestFor(path, address))
  })
}

describe('streamed downloads and their places', () => {
  let db: TestDatabase
  let app: FastifyInstance
  let base = ''
  let address = 0
  /** A new client address, so that each test starts with its own per-address place. */
  const next = () => `198.51.100.${++address}`
  const exportConnections = async () =>
    (
      await db.pool.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = 'compras-export' AND state <> 'idle'`,
      )
    ).rows[0].n as number
  const exportsHeld = () => placesHeld(app, 'exports')
  /**
   * Every place is free: none held, and as many downloads as EXPORT_CONCURRENCY start at once, each from a new
   * address. A try starts only while no place is held, and may still fail on a loaded machine: its first rows
   * slower than IDLE_TIMEOUT (2 s here: the connection closes with nothing said), or a place refused to a client
   * that left moments ago and whose request the server reads only now. It is tried again; a place that never
   * comes back fails the test after 20 s, with what the last try was told.
   */
  const untilEveryPlaceFree = async () => {
    let told: string[] = []
    try {
      await until(
        async () => {
          if ((await exportsHeld()) !== 0) return false
          const starts = await Promise.all(
            [next(), next()].map((from) => get(base, DOWNLOADS[0][1], from, { headOnly: true })),
          )
          told = starts.map((ending) => ending.head.replace(/\r\n/g, ' | ').slice(0, 300))
          return starts.every((ending) => ending.status?.startsWith('HTTP/1.1 200'))
        },
        20_000,
        'every place to start a file',
      )
    } catch (error) {
      throw new Error(`${(error as Error).message}; the last try was told: ${JSON.stringify(told)}`)
    }
  }

  before(async () => {
    db = await createTestDatabase()
    const records = demoRecords(
      { organizations: 2, orders: 20, contracts: 6, arps: 2, directContracts: 2, publicCalls: 2 },
      54,
    )
    const result = await importRecords(db.pool, [source(ndjson(records))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    await multiplyContracts(db.pool, 120_000)
    // Feeds and releases far larger than a socket's buffers too: the records' entries many times over, and
    // each release kept again as hundreds of earlier versions.
    await db.pool.query(
      `INSERT INTO public_changes (resource, id, organization_id, change, changed_at)
       SELECT resource, id, organization_id, 'updated', now() FROM detail_documents, generate_series(1, 300)`,
    )
    await db.pool.query(
      `INSERT INTO ocds_release_versions (process_id, version, organization_id, seq, date, tail)
       SELECT process_id, version + g, organization_id, nextval('ocds_release_seq'), date, tail
       FROM ocds_releases, generate_series(1, 400) g`,
    )
    app = await buildTestApp(db, {
      env: {
        TRUST_PROXY: 'true',
        EXPORT_CONCURRENCY: '2',
        IDLE_TIMEOUT: '2',
        PUBLIC_RATE_LIMIT: '0',
        METRICS_PORT: '0',
        HOST: '127.0.0.1',
      },
    })
    base = await listen(app)
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  for (const [name, path, table] of DOWNLOADS) {
    it(`gives ${name}'s place back when the client leaves while the file opens`, async () => {
      const locker = await db.pool.connect()
      const from = next()
      try {
        // The file's first rows wait on the lock; the client leaves meanwhile.
        await locker.query('BEGIN')
        await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`)
        const left = await get(base, path, from, { leaveAfterMs: 100 })
        assert.equal(left.status, undefined, 'nothing was answered')
        await locker.query('ROLLBACK')
      } finally {
        await locker.query('ROLLBACK').catch(() => {})
        locker.release()
      }
      // The file is closed and its query over (cancelled, or ended once the lock went), then its place is back.
      await until(async () => (await exportConnections()) === 0, 20_000, 'the file to be closed')
      await until(async () => (await exportsHeld()) === 0, 5000, 'its place to be given back')
      // The same address may start another at once: its place is free (a place kept answers 429), and so is
      // every other. On a loaded machine the file's first rows may come later than IDLE_TIMEOUT (2 s here:
      // the connection closes with nothing said); that try is made again.
      await until(
        async () => {
          const again = await get(base, path, from, { headOnly: true })
          const told = again.head.replace(/\r\n/g, ' | ').slice(0, 300)
          assert.doesNotMatch(again.status ?? '', /^HTTP\/1\.1 (429|503)/, `its place is free again: ${told}`)
          return again.status?.startsWith('HTTP/1.1 200') === true
        },
        20_000,
        'the same address to start another file',
      )
      await untilEveryPlaceFree()
    })

    it(`gives ${name}'s place back after clients that leave 0 to 7 ms after asking`, async () => {
      for (let i = 0; i < 12; i++) await get(base, path, next(), { leaveAfterMs: i % 8 })
      await until(async () => (await exportConnections()) === 0, 20_000, 'every file to be closed')
      await untilEveryPlaceFree()
    })
  }

  it('gives the place back when the file fails before its first rows (a timeout)', async () => {
    const strict = await buildTestApp(db, {
      env: { TRUST_PROXY: 'true', EXPORT_TIMEOUT: '1', PUBLIC_RATE_LIMIT: '0' },
    })
    const strictBase = await listen(strict)
    const from = next()
    const locker = await db.pool.connect()
    try {
      await locker.query('BEGIN')
      await locker.query('LOCK TABLE contracts IN ACCESS EXCLUSIVE MODE')
      const failed = await get(strictBase, DOWNLOADS[0][1], from)
      assert.match(failed.status ?? '', /^HTTP\/1\.1 503/)
      await locker.query('ROLLBACK')
      // Its place is free again: the same address is let in. On a loaded machine the next file's first rows
      // may take longer than the one second too (a 503 without Retry-After); a place kept would answer 429.
      await until(
        async () => {
          const again = await get(strictBase, DOWNLOADS[0][1], from, { headOnly: true })
          assert.doesNotMatch(again.status ?? '', /^HTTP\/1\.1 429/, 'its place is free again')
          if (again.status?.startsWith('HTTP/1.1 503')) {
            assert.doesNotMatch(again.head, /Retry-After/i, 'a timeout, not a refusal')
            return false
          }
          assert.match(again.status ?? '', /^HTTP\/1\.1 200/)
          return true
        },
        20_000,
        'a file to open in time',
      )
    } finally {
      await locker.query('ROLLBACK').catch(() => {})
      locker.release()
      await strict.close()
    }
  })

  for (const [name, path] of DOWNLOADS)
    it(`resets a reader of ${name} that stops reading, and frees its place`, async () => {
      const from = next()
      let headAt = 0
      const stalled = get(base, path, from, {
        stallMs: 8000,
        onHead: () => {
          headAt = Date.now()
        },
      })
      await until(() => headAt > 0, 20_000, 'the answer to start')
      // Its place is held while it stalls, then given back when IDLE_TIMEOUT (2 s) resets it.
      const second = await get(base, path, from, { headOnly: true })
      assert.match(second.status ?? '', /^HTTP\/1\.1 429/)
      await until(
        async () => (await get(base, path, from, { headOnly: true })).status?.includes(' 200') === true,
        20_000,
        'the place to be given back',
      )
      assert.ok(Date.now() - headAt >= 2000, 'not before IDLE_TIMEOUT')
      // Reset, not ended: the kernel keeps nothing for it (a FIN would leave megabytes queued for minutes), and
      // the reader gets only what had reached it, a file cut short.
      assert.equal(lingering(Number(new URL(base).port)), 0)
      const ending = await stalled
      assert.match(ending.status ?? '', /^HTTP\/1\.1 200/)
      assert.ok(ending.bytes < 4 * 1024 * 1024, `${ending.bytes} bytes reached the reader`)
    })

  it("hands a download's connection from the server's idle timeout to the watchdog", async () => {
    // The server's own timeout would end a stalled connection with a FIN, leaving the kernel to hold its
    // unsent bytes for minutes; the watchdog resets it instead.
    const sockets: net.Socket[] = []
    const onConnection = (socket: net.Socket) => sockets.push(socket)
    app.server.on('connection', onConnection)
    const client = net.connect({ port: Number(new URL(base).port), host: '127.0.0.1' })
    try {
      await new Promise((resolve) => client.once('connect', resolve))
      client.write(requestFor(DOWNLOADS[0][1], next()))
      await new Promise((resolve) => client.once('data', resolve))
      client.pause()
      const served = sockets.find((socket) => socket.remotePort === client.localPort)
      assert.ok(served, 'the server side of the connection')
      assert.equal(served.timeout, 0)
    } finally {
      app.server.off('connection', onConnection)
      client.destroy()
    }
  })

  it('drops a reader slower than DOWNLOAD_MIN_RATE, and keeps one faster', async () => {
    // A floor of 2 MB/s, so that a reader under it still drains often: the kernel takes a reader's bytes on in
    // bursts of up to half its send buffer (2 MB at most here), so a much slower one goes idle first.
    const floored = await buildTestApp(db, {
      env: { TRUST_PROXY: 'true', IDLE_TIMEOUT: '2', DOWNLOAD_MIN_RATE: '2000', PUBLIC_RATE_LIMIT: '0' },
    })
    try {
      const flooredBase = await listen(floored)
      // Windows of 4 s, the first one spared: dropped at about 8 s, long before its 40 MB have come.
      const slow = await readAt(flooredBase, DOWNLOADS[0][1], next(), 1024 * 1024, 30_000)
      assert.equal(slow.how, 'cut', JSON.stringify(slow))
      const fast = await readAt(flooredBase, DOWNLOADS[0][1], next(), 3 * 1024 * 1024, 12_000)
      assert.notEqual(fast.how, 'cut', JSON.stringify(fast))
    } finally {
      await floored.close()
    }
  })

  it('drops a reader still reading EXPORT_TIMEOUT seconds after it asked, however fast it reads', async () => {
    // A reader well above DOWNLOAD_MIN_RATE that would take far longer than EXPORT_TIMEOUT to read the file.
    const bounded = await buildTestApp(db, {
      env: {
        TRUST_PROXY: 'true',
        EXPORT_TIMEOUT: '3',
        IDLE_TIMEOUT: '30',
        PUBLIC_RATE_LIMIT: '0',
        METRICS_PORT: '0',
        HOST: '127.0.0.1',
      },
    })
    try {
      const boundedBase = await listen(bounded)
      const running = () => placesHeld(bounded, 'exports')
      const asked = Date.now()
      const reading = readAt(boundedBase, DOWNLOADS[0][1], next(), 256 * 1024, 30_000)
      await until(async () => (await running()) === 1, 5000, 'the export to start')
      // The server drops it at its deadline (a loaded machine may beat late), long before its reader would end;
      // the reader then sees the reset once it has read what its own buffers still held.
      await until(async () => (await running()) === 0, 15_000, 'the export to be dropped')
      const heldMs = Date.now() - asked
      assert.ok(heldMs >= 2900 && heldMs < 15_000, `held ${heldMs} ms`)
      const steady = await reading
      assert.equal(steady.how, 'cut', JSON.stringify(steady))
    } finally {
      await bounded.close()
    }
  })
})

describe('what the reader watchdog makes of a reader', () => {
  const limits = { idleMs: 30_000, minBytesPerSecond: 64 * 1024 }
  /** Beats every second for `seconds`, the reader taking `bytes(t)` in all by second t; the first verdict not ok. */
  const follow = (
    watch: ReaderWatch,
    seconds: number,
    bytes: (t: number) => number,
    waiting: (t: number) => boolean = () => true,
  ) => {
    for (let t = 1; t <= seconds; t++) {
      const verdict = watch.beat(t * 1000, waiting(t), bytes(t))
      if (verdict !== 'ok') return { verdict, at: t }
    }
    return { verdict: 'ok', at: seconds }
  }

  it('finds a reader slower than the floor slow, past its first window (a minute here) and not before', () => {
    // 16 kB/s, draining now and then so it is never idle.
    const watch = new ReaderWatch(limits, 0, 0)
    const found = follow(watch, 300, (t) => {
      if (t % 10 === 0) watch.drain(t * 1000)
      return t * 16 * 1024
    })
    assert.deepEqual(found, { verdict: 'slow', at: 120 })
  })

  it('keeps a reader at the floor whose bytes leave in bursts, as the kernel sends them', () => {
    // 2 MB every 25 s: 80 kB/s on average, nothing at all between the bursts.
    const watch = new ReaderWatch(limits, 0, 0)
    const found = follow(watch, 600, (t) => {
      if (t % 25 === 0) watch.drain(t * 1000)
      return Math.floor(t / 25) * 2 * 1024 * 1024
    })
    assert.deepEqual(found, { verdict: 'ok', at: 600 })
  })

  it('never blames the reader for a file slow to come', () => {
    const watch = new ReaderWatch(limits, 0, 0)
    assert.deepEqual(
      follow(
        watch,
        600,
        (t) => t * 100,
        () => false,
      ),
      { verdict: 'ok', at: 600 },
    )
  })

  it('finds a reader that drains nothing for the idle time idle, and a drain puts it off', () => {
    const watch = new ReaderWatch(limits, 0, 0)
    assert.equal(watch.beat(29_000, true, 0), 'ok')
    watch.drain(29_500)
    assert.equal(watch.beat(59_000, true, 0), 'ok')
    assert.equal(watch.beat(59_500, true, 0), 'idle')
  })

  it('finds a slow reader after windows of twice the idle time, when that is under a minute', () => {
    // IDLE_TIMEOUT of 2 s: windows of 4 s, the first one spared.
    const watch = new ReaderWatch({ idleMs: 2000, minBytesPerSecond: 64 * 1024 }, 0, 0)
    assert.deepEqual(
      follow(watch, 60, (t) => {
        watch.drain(t * 1000)
        return t * 16 * 1024
      }),
      { verdict: 'slow', at: 8 },
    )
  })

  it('finds a reader slow by what it took in the last window, after a fast start', () => {
    // 1 MB/s for the first minute, then 16 kB/s.
    const watch = new ReaderWatch(limits, 0, 0)
    const found = follow(watch, 300, (t) => {
      watch.drain(t * 1000)
      return Math.min(t, 60) * 1024 * 1024 + Math.max(0, t - 60) * 16 * 1024
    })
    assert.deepEqual(found, { verdict: 'slow', at: 120 })
  })

  it('keeps a reader at exactly the floor, and finds one slow that the answer waited on half the time', () => {
    const atFloor = new ReaderWatch(limits, 0, 0)
    const steady = follow(atFloor, 300, (t) => {
      atFloor.drain(t * 1000)
      return t * 64 * 1024
    })
    assert.deepEqual(steady, { verdict: 'ok', at: 300 })
    const half = new ReaderWatch(limits, 0, 0)
    const waitedHalf = follow(
      half,
      300,
      (t) => t * 1024,
      (t) => t % 2 === 0,
    )
    assert.deepEqual(waitedHalf, { verdict: 'slow', at: 120 })
  })

  it('never finds a reader slow when there is no floor', () => {
    const watch = new ReaderWatch({ idleMs: 30_000, minBytesPerSecond: 0 }, 0, 0)
    const found = follow(watch, 600, (t) => {
      watch.drain(t * 1000)
      return t
    })
    assert.deepEqual(found, { verdict: 'ok', at: 600 })
  })
})
