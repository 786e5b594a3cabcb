import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import net from 'node:net'
import type { RedisLimiter } from '../../src/auth/rate-limit.js'

/** The redis-server binary on PATH, if any. */
export const REDIS_SERVER = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || undefined
  } catch {
    return undefined
  }
})()

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export interface TestRedis {
  url: string
  /** Stops the server this helper started (nothing for TEST_REDIS_URL). */
  stop(): Promise<void>
}

/** Starts redis-server on port, keeping nothing on disk; resolves once it accepts connections. */
export async function startRedisServer(port: number): Promise<ChildProcess> {
  if (!REDIS_SERVER) throw new Error('redis-server is not installed')
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  )
  const deadline = Date.now() + 10_000
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy()
        resolve(true)
      })
      socket.on('error', () => resolve(false))
    })
    if (up) return child
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error('redis-server did not start')
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * A Redis for the tests: TEST_REDIS_URL when set, else a redis-server of their own when one is installed.
 * Undefined when neither: test/run.ts then reports the Redis tests as not run, loudly.
 */
export async function testRedis(): Promise<TestRedis | undefined> {
  if (process.env.TEST_REDIS_URL) return { url: process.env.TEST_REDIS_URL, stop: async () => {} }
  if (!REDIS_SERVER) return undefined
  const port = await freePort()
  const child = await startRedisServer(port)
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGKILL')
    },
  }
}

/** Why Redis tests cannot run here; the skip message test/run.ts counts. */
export const NO_REDIS = 'no Redis: neither TEST_REDIS_URL nor redis-server'

/** Whether a RedisLimiter's connection is ready (it asks Redis only then; until then it counts alone). */
export function limiterReady(limiter: RedisLimiter): boolean {
  return (limiter as unknown as { redis: { status: string } }).redis.status === 'ready'
}
