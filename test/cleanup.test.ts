import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { connect } from 'node:net'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { until } from './helpers/http.js'

// A test process killed with SIGKILL (a mutation runner's bail does it) runs no handler: the PostgreSQL clusters
// it started are stopped by the watcher its helper left (reapWhenGone, test/helpers/cleanup.ts).
describe("a killed test process's clusters", () => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'helpers/standby-child.ts')],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  after(() => {
    child.kill('SIGKILL')
  })

  /** Whether a server listens on the port of 127.0.0.1. */
  const listening = (port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })

  it('stops its primary and standby, and removes their folder, once it is gone', async () => {
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    await until(() => output.includes('\n') || child.exitCode !== null, 120_000, 'the pair to start')
    const { ports, primaryDir } = JSON.parse(output) as { ports: number[]; primaryDir: string }
    for (const port of ports) assert.equal(await listening(port), true, `port ${port} before the kill`)
    child.kill('SIGKILL')
    await until(
      async () => !(await listening(ports[0] as number)) && !(await listening(ports[1] as number)),
      20_000,
      'both servers to stop',
    )
    await until(() => !existsSync(path.dirname(primaryDir)), 20_000, 'their folder to be removed')
  })
})
