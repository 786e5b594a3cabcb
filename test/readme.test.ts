import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import semver from 'semver'
import { issueToken } from '../src/auth/tokens.js'
import { loadDemo } from '../src/demo/load.js'
import { buildTestApp, listen } from './helpers/app.js'
import { createTestDatabase, type TestDatabase } from './helpers/db.js'
import { until } from './helpers/http.js'

// The README's examples as a new user types them after `npm start`: on the demo data `serve` loads, every
// curl answers as the README says, the order example finds its order, and the mirror script mirrors.

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const hasShellTools = ['/usr/bin/jq', '/usr/bin/curl', '/bin/bash'].every((tool) => existsSync(tool))

describe('the README', () => {
  it('is a short guide: at most 300 lines, starting with the two commands a new user types', () => {
    assert.ok(README.split('\n').length - 1 <= 300, `${README.split('\n').length - 1} lines`)
    const commands = README.slice(0, 1500)
    assert.ok(commands.includes('npm install && npm start'))
    assert.ok(commands.includes('npm test'))
  })
})

describe('the Node.js the README and package.json name', () => {
  it('installs every package without an engine warning on the lowest Node it names', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    const lowest = semver.minVersion(manifest.engines.node) as semver.SemVer
    assert.ok(semver.satisfies(process.version, manifest.engines.node), `this Node, ${process.version}`)
    const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string }; dev?: boolean; optional?: boolean }>
    }
    const refused = Object.entries(lock.packages)
      .filter(([, p]) => typeof p.engines?.node === 'string' && !p.optional)
      .filter(([, p]) => !semver.satisfies(lowest, p.engines?.node as string))
      .map(([name, p]) => `${name.replace(/^node_modules\//, '')} wants ${p.engines?.node}`)
    assert.deepEqual(refused, [], `on Node ${lowest.version}`)
    // The README says the same.
    assert.match(README, new RegExp(`Node\\.js ${lowest.major} or`))
  })
})

describe("the README's examples, on the demo data", () => {
  let db: TestDatabase
  let app: FastifyInstance
  let base = ''

  before(async () => {
    db = await createTestDatabase()
    const loaded = await loadDemo(db.pool)
    assert.equal(loaded.ok, true, JSON.stringify(loaded.problems))
    app = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '0' } })
    base = await listen(app)
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  /** Every URL a curl of the README asks, with its placeholders filled from the demo data. */
  const curls = async () => {
    const first = await (await fetch(`${base}/v1/transparency/changes?per_page=1`)).json()
    const release = await (await fetch(`${base}/v1/ocds/releases?per_page=1`)).json()
    const urls = [...README.matchAll(/curl [^\n]*?["']?(?:https?:\/\/)?localhost:3000(\/[^"'\s]*)/g)].map(
      (m) => m[1] as string,
    )
    return urls.map((url) =>
      url
        .replace('CURSOR', first.data.next_cursor)
        .replace('ocds-xxxxxx-<uuid>', release.releases[0].ocid)
        .replace(/\$\{cursor:\+&after=\$cursor\}$/, ''),
    )
  }

  it('answers every curl of the README, and finds something where it searches', async () => {
    const urls = await curls()
    assert.ok(urls.length >= 10, `${urls.length} examples`)
    for (const url of urls) {
      if (url.startsWith('/external/')) continue
      const response = await fetch(`${base}${url}`)
      assert.equal(response.status, 200, url)
      const text = await response.text()
      if (/^\/v1\/transparency\/(contracts|public-calls|direct-contracts|arps)\?/.test(url))
        assert.ok(JSON.parse(text).data.data.length > 0, `${url} finds nothing`)
      if (url.includes('.jsonl')) assert.ok(text.trim().length > 0, `${url} is empty`)
      if (/^\/v1\/transparency\/prices\?/.test(url))
        assert.ok(JSON.parse(text).data.summary.length > 0, `${url} finds nothing`)
      if (/^\/v1\/transparency\/organizations\?/.test(url))
        assert.ok(JSON.parse(text).data.data.length > 0, `${url} finds nothing`)
    }
  })

  it('finds the order of the order example with a token of its organization', async () => {
    const organization = /token issue --organization ([0-9a-f-]{36})/.exec(README)?.[1] as string
    const { token } = await issueToken(db.pool, organization, null)
    const order = (await curls()).find((url) => url.startsWith('/external/orders?')) as string
    const response = await fetch(`${base}${order}`, { headers: { authorization: token } })
    assert.equal(response.status, 200)
    const body = await response.json()
    assert.equal(body.message, 'Ordem recuperada com sucesso')
    assert.equal(body.data.number, new URL(order, base).searchParams.get('order_number'))
    // The example answer the README prints is this order's.
    assert.ok(README.includes(`"data":{"number":"${body.data.number}"`))
  })

  it('mirrors every public record with the shell script, each as its detail serves it', {
    skip: hasShellTools ? false : 'no jq, curl or bash',
  }, async () => {
    const script = /```sh\n(cursor=\$\(cat cursor[\s\S]*?)```/.exec(README)?.[1] as string
    assert.ok(script, 'the mirror script')
    const dir = mkdtempSync(path.join(tmpdir(), 'compras-mirror-'))
    const shell = spawn('bash', ['-c', script.replaceAll('localhost:3000', base.replace('http://', ''))], {
      cwd: dir,
      stdio: 'ignore',
      detached: true,
    })
    try {
      const total = (
        await Promise.all(
          ['contracts', 'direct-contracts', 'public-calls', 'arps'].map(
            async (kind) =>
              (
                await (await fetch(`${base}/v1/transparency/${kind}?per_page=1`)).json()
              ).data.total,
          ),
        )
      ).reduce((a: number, b: number) => a + b, 0)
      const mirrored = () =>
        existsSync(path.join(dir, 'mirror'))
          ? readdirSync(path.join(dir, 'mirror')).flatMap((kind) =>
              readdirSync(path.join(dir, 'mirror', kind)).map((file) => `${kind}/${file}`),
            )
          : []
      await until(
        () => mirrored().length === total && existsSync(path.join(dir, 'cursor')),
        // Generous: bash, curl and jq per entry are slow on a loaded machine.
        180_000,
        'the mirror',
      )
      for (const file of mirrored()) {
        const [kind, name] = file.split('/') as [string, string]
        const detail = await (
          await fetch(`${base}/v1/transparency/${kind}/${name.replace('.json', '')}`)
        ).json()
        assert.deepEqual(JSON.parse(readFileSync(path.join(dir, 'mirror', file), 'utf8')), detail.data, file)
      }
    } finally {
      process.kill(-(shell.pid as number), 'SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
