import assert from 'node:assert/strict'
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { SCALES } from '../src/demo/generator.js'
import { cleanupOnKill, killCluster } from './helpers/cleanup.js'
import { runCli, spawnCli } from './helpers/cli.js'
import { freePort } from './helpers/redis.js'

/** The postmaster's pid in its file, or '' while there is none. */
function readPid(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n')[0] ?? ''
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw error
  }
}

// The flow of `npm install && npm start` on a fresh machine: no DATABASE_URL, an empty data folder.
describe('first run on the embedded database', () => {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'compras-first-run-'))
  chmodSync(parent, 0o755)
  const dataDir = path.join(parent, 'data')
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: undefined }
  let server: ChildProcess | undefined
  // Stopped however the file ends, its `after` not reached included.
  const forget = cleanupOnKill(() => {
    server?.kill('SIGKILL')
    killCluster(path.join(dataDir, 'pg'))
    rmSync(parent, { recursive: true, force: true })
  })
  after(async () => {
    await stop(server)
    rmSync(parent, { recursive: true, force: true })
    forget()
  })

  /**
   * Stops a `serve` however far it got: asked to stop (which stops its embedded server), killed if it has not
   * within 20 s, and then its embedded server too, if one is left: nothing outlives the test, whatever failed.
   */
  async function stop(child: ChildProcess | undefined) {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      const timer = new Promise((resolve) => setTimeout(resolve, 20_000).unref())
      if ((await Promise.race([exited.then(() => 'exited'), timer])) !== 'exited') {
        child.kill('SIGKILL')
        await exited
      }
    }
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid')
    const postmaster = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : 0
    if (postmaster > 0)
      try {
        process.kill(postmaster, 'SIGKILL')
      } catch {
        // Already gone: the file was left behind.
      }
  }

  async function start(): Promise<{ child: ChildProcess; output: string[] }> {
    const child = spawnCli(['serve'], env)
    // Known to `after` from its first moment, so that a start that fails or never ends is stopped all the same.
    server = child
    const output: string[] = []
    let buffer = ''
    await new Promise<void>((resolve, reject) => {
      // Generous: a first start creates a cluster and loads the demo data, slow on a loaded machine.
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${output.join('\n')}`)), 180_000)
      child.stdout?.on('data', (chunk) => {
        buffer += chunk
        const lines = buffer.split('\n')
        buffer = lines.pop() ?? ''
        output.push(...lines)
        // The hints end with the token line; they may arrive in more than one chunk.
        if (lines.some((line) => line.startsWith('  A token:'))) {
          clearTimeout(timer)
          resolve()
        }
      })
      child.stderr?.on('data', (chunk) => output.push(String(chunk)))
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output.join('\n')}`)))
    })
    return { child, output }
  }

  let url = ''
  let token = ''
  let orderNumber = ''

  it('creates the database, loads the demo data and prints where it listens', async () => {
    const started = await start()
    server = started.child
    const line = started.output.find((l) => l.startsWith('compras is listening on'))
    assert.ok(line, started.output.join('\n'))
    url = (/on (http:\/\/localhost:\d+)/.exec(line) as RegExpExecArray)[1] as string
    assert.match(line, new RegExp(`embedded PostgreSQL in ${dataDir}`))
    const tokenHint = started.output.find((l) => l.startsWith('  A token:'))
    assert.match(tokenHint ?? '', /npx compras token issue --organization [0-9a-f-]{36}$/)
    const contractHint = started.output.find((l) => l.startsWith('  A contract:'))
    const contractUrl = (/curl (\S+)$/.exec(contractHint ?? '') as RegExpExecArray)[1] as string
    const contract = await fetch(contractUrl)
    assert.equal(contract.status, 200)
    assert.equal(((await contract.json()) as { success: boolean }).success, true)
    const ready = await fetch(`${url}/ready`)
    assert.equal(ready.status, 200)
    assert.ok(existsSync(path.join(dataDir, 'pg', 'PG_VERSION')))
  })

  it('lets the CLI attach to the running embedded server', async () => {
    const result = await runCli(['dump'], env)
    assert.equal(result.code, 0, result.stderr)
    const types = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).type as string)
    assert.equal(types.filter((t) => t === 'order').length, SCALES.small.orders)
    assert.equal(types.filter((t) => t === 'organization').length, SCALES.small.organizations)
    const migrated = await runCli(['migrate'], env)
    assert.equal(migrated.stdout, 'the database is up to date\n')
  })

  it('shows the demo records a later import changed, each with its history', async () => {
    const feed = (await (
      await fetch(`${url}/v1/transparency/changes?per_page=1000&kinds=contracts,arps`)
    ).json()) as {
      data: { data: { kind: string; id: string; change: string }[] }
    }
    const updated = feed.data.data.filter((entry) => entry.change === 'updated')
    // Three contracts and three ARPs, and any ARP that shows a changed contract among its own.
    assert.equal(updated.filter((entry) => entry.kind === 'contracts').length, 3)
    assert.ok(updated.filter((entry) => entry.kind === 'arps').length >= 3)
    for (const { kind, id } of updated) {
      const history = (await (await fetch(`${url}/v1/transparency/${kind}/${id}/history`)).json()) as {
        data: { versions: { changes: { field: string }[] }[] }
      }
      const [first, second] = history.data.versions
      assert.deepEqual(first?.changes, [])
      assert.ok((second?.changes.length ?? 0) > 0, `${kind}/${id}`)
    }
  })

  it('serves an order of the demo data to a token issued while it runs', async () => {
    const orgs = await runCli(['dump'], env)
    const order = orgs.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((r) => r.type === 'order')
    const issued = await runCli(['token', 'issue', '--organization', order.organization_uuid], env)
    assert.equal(issued.code, 0, issued.stderr)
    token = issued.stdout.trimEnd().split('\n').at(-1) as string
    orderNumber = order.number
    const response = await fetch(`${url}/external/orders?order_number=${encodeURIComponent(order.number)}`, {
      headers: { authorization: token },
    })
    assert.equal(response.status, 200)
    const body = (await response.json()) as { message: string; data: { number: string } }
    assert.equal(body.message, 'Ordem recuperada com sucesso')
    assert.equal(body.data.number, order.number)
  })

  it('refuses a second serve on the same data folder with a clear message', async () => {
    const result = await runCli(['serve'], env)
    assert.equal(result.code, 1)
    assert.match(result.stderr, /compras serve \(pid \d+\) is already running on the data folder/)
    assert.equal((await fetch(`${url}/ready`)).status, 200)
  })

  it('heals: after a kill -9 of the embedded PostgreSQL it serves again within 10 s, nothing lost', async () => {
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid')
    const killed = Number(readPid(pidFile))
    process.kill(killed, 'SIGKILL')
    const started = performance.now()
    let seen = ''
    for (;;) {
      const answer = await fetch(`${url}/external/orders?order_number=${encodeURIComponent(orderNumber)}`, {
        headers: { authorization: token },
        signal: AbortSignal.timeout(2000),
      }).catch((error: Error) => error)
      seen = answer instanceof Error ? answer.message : String(answer.status)
      // A starting PostgreSQL unlinks the dead server's file before it writes its own.
      const restarted = Number(readPid(pidFile))
      if (seen === '200' && restarted !== killed) break
      assert.ok(performance.now() - started < 10_000, `not serving 10 s after the kill (last: ${seen})`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    assert.equal((await fetch(`${url}/ready`)).status, 200)
    const result = await runCli(['dump'], env)
    assert.equal(
      result.stdout.split('\n').filter((l) => l.includes('"type":"order"')).length,
      SCALES.small.orders,
    )
  })

  it('shuts down cleanly on SIGTERM: the embedded server stops and the lock is released', async () => {
    const child = server as ChildProcess
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    const [code] = await exited
    assert.equal(code, 0)
    server = undefined
    assert.ok(!existsSync(path.join(dataDir, 'embedded.lock')))
    assert.ok(!existsSync(path.join(dataDir, 'pg', 'postmaster.pid')))
  })

  it('starts again on the same data without loading the demo twice', async () => {
    const started = await start()
    server = started.child
    const result = await runCli(['dump'], env)
    const orders = result.stdout
      .trim()
      .split('\n')
      .filter((l) => l.includes('"type":"order"'))
    assert.equal(orders.length, SCALES.small.orders)
    const exited = once(started.child, 'exit')
    started.child.kill('SIGINT')
    assert.equal((await exited)[0], 0)
    server = undefined
  })

  it('outlives a reader of its output that leaves, and still stops the embedded server on SIGTERM', async () => {
    // As `npm start | head` does: the pipe closes before the hints are written.
    const port = await freePort()
    const child = spawnCli(['serve'], { ...env, PORT: String(port) })
    server = child
    child.stdout?.destroy()
    child.stderr?.destroy()
    const started = performance.now()
    for (;;) {
      const ready = await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined)
      if (ready?.status === 200) break
      assert.equal(child.exitCode, null, 'serve ended when its output pipe closed')
      assert.ok(performance.now() - started < 180_000, 'serve never became ready')
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    assert.equal((await exited)[0], 0)
    server = undefined
    assert.ok(!existsSync(path.join(dataDir, 'pg', 'postmaster.pid')), 'the embedded server was left running')
    assert.ok(!existsSync(path.join(dataDir, 'embedded.lock')))
  })
})
