import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { generateDemo, SCALES } from '../src/demo/generator.js'
import { runCli } from './helpers/cli.js'
import { createTestDatabase, type TestDatabase } from './helpers/db.js'
import { byKey, demoRecords, ndjson, TINY } from './helpers/records.js'

describe('compras CLI', () => {
  let db: TestDatabase
  let env: Record<string, string>
  const dir = mkdtempSync(path.join(os.tmpdir(), 'compras-cli-'))
  const records = demoRecords()
  const good = path.join(dir, 'good.ndjson')
  const bad = path.join(dir, 'bad.ndjson')
  writeFileSync(good, ndjson(records))
  writeFileSync(bad, ndjson([records[0], '{"type":"order"}', 'not json']))

  before(async () => {
    db = await createTestDatabase({ migrated: false })
    env = { DATABASE_URL: db.url }
  })
  after(async () => {
    await db.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('migrate applies the migrations, then has nothing to do', async () => {
    const first = await runCli(['migrate'], env)
    assert.equal(first.code, 0, first.stderr)
    assert.match(first.stdout, /^applied: 0001_data_model/)
    const second = await runCli(['migrate'], env)
    assert.equal(second.stdout, 'the database is up to date\n')
  })

  it('import reports each bad line with file, line, field and reason, exits 1 and writes nothing', async () => {
    const result = await runCli(['import', bad], env)
    assert.equal(result.code, 1)
    assert.match(result.stderr, new RegExp(`${bad}:2: organization_uuid: is required`))
    assert.match(result.stderr, new RegExp(`${bad}:3: \\(line\\): invalid JSON`))
    assert.match(result.stderr, /nothing was imported: 2 problem\(s\) in 3 records/)
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM organizations')
    assert.equal(rows[0].n, 0)
  })

  it('import names a file it cannot read, without a stack trace', async () => {
    const result = await runCli(['import', path.join(dir, 'missing.ndjson')], env)
    assert.equal(result.code, 1)
    assert.equal(result.stderr, `compras: cannot read ${path.join(dir, 'missing.ndjson')}\n`)
  })

  it('import loads a file and reports what it wrote', async () => {
    const result = await runCli(['import', good], env)
    assert.equal(result.code, 0, result.stderr)
    assert.equal(result.stderr, '', 'no progress line when standard error is not a terminal')
    assert.match(
      result.stdout,
      /^imported 2 organization, 12 order, 6 contract, 3 direct_contract, 3 public_call, 4 arp/,
    )
  })

  it('import - reads standard input', async () => {
    const result = await runCli(['import', '-'], env, ndjson(records.slice(0, 1)))
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /^imported 1 organization/)
  })

  it('dump writes what was imported, in the import format', async () => {
    const result = await runCli(['dump'], env)
    assert.equal(result.code, 0, result.stderr)
    const dumped = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    assert.deepEqual(byKey(dumped), byKey(records))
  })

  it('import withdraws records and says how many of each', async () => {
    const order = records.find((r) => r.type === 'order') as Record<string, unknown>
    const file = path.join(dir, 'withdraw.ndjson')
    writeFileSync(
      file,
      ndjson([
        {
          type: 'withdraw',
          record: 'order',
          organization_uuid: order.organization_uuid,
          number: order.number,
        },
      ]),
    )
    const result = await runCli(['import', file], env)
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /^withdrew 1 order \(1 records in /)
    const back = await runCli(['import', '-'], env, ndjson([order]))
    assert.match(back.stdout, /^imported 1 order \(/)
  })

  it('import shows its progress on a terminal: records, rate, percent, time left and phase', async () => {
    const file = path.join(dir, 'progress.ndjson')
    writeFileSync(file, ndjson(demoRecords({ ...TINY, orders: 3000 }, 11)))
    // script(1) gives the command a terminal, as an operator's shell would.
    const main = new URL('../src/cli/main.ts', import.meta.url).pathname
    const command = `${process.execPath} --import tsx ${main} import ${file}`
    const result = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
        env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
      })
      let out = ''
      child.stdout.on('data', (chunk) => {
        out += chunk
      })
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, out }))
    })
    assert.equal(result.code, 0, result.out)
    const updates = result.out.split(/\r/).map((part) => part.replaceAll('\x1b[K', ''))
    assert.ok(
      updates.some((u) => /^[\d,]+ records\s+(?:[\d,]+\/s\s+)?\d+%\s+\d+s left/.test(u)),
      result.out,
    )
    assert.ok(
      updates.some((u) => u.includes('building documents')),
      result.out,
    )
    assert.match(result.out, /\n(\r)?imported \d+ organization, 3000 order/)
  })

  it('demo writes deterministic NDJSON for a seed', async () => {
    const result = await runCli(['demo', '--scale', 'small', '--seed', '5'])
    assert.equal(result.code, 0, result.stderr)
    const expected = [...generateDemo(SCALES.small, 5)].map((r) => JSON.stringify(r)).join('\n')
    assert.equal(result.stdout.trim(), expected)
  })

  it('demo takes explicit counts, the seed and --out', async () => {
    const out = path.join(dir, 'demo.ndjson')
    const counts = [
      '--organizations',
      '2',
      '--orders',
      '7',
      '--items',
      '3',
      '--contracts',
      '4',
      '--arps',
      '2',
    ]
    const more = ['--direct-contracts', '1', '--public-calls', '3', '--seed', '11', '--out', out]
    const result = await runCli(['demo', ...counts, ...more])
    assert.equal(result.code, 0, result.stderr)
    assert.equal(result.stdout, '') // the records went to the file, not to standard output
    const written = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    const count = (type: string) => written.filter((r) => r.type === type).length
    assert.deepEqual(
      ['organization', 'order', 'contract', 'arp', 'direct_contract', 'public_call'].map(count),
      [2, 7, 4, 2, 1, 3],
    )
    for (const order of written.filter((r) => r.type === 'order')) assert.equal(order.items.length, 3)
    const expected = [
      ...generateDemo(
        {
          organizations: 2,
          orders: 7,
          contracts: 4,
          arps: 2,
          directContracts: 1,
          publicCalls: 3,
          itemsPerOrder: 3,
        },
        11,
      ),
    ]
    assert.deepEqual(written, JSON.parse(JSON.stringify(expected)))
  })

  it('demo refuses an unknown scale and a bad number', async () => {
    const scale = await runCli(['demo', '--scale', 'huge'])
    assert.equal(scale.code, 1)
    assert.equal(scale.stderr, 'compras: --scale must be one of small, medium, large\n')
    const number = await runCli(['demo', '--orders', 'many'])
    assert.equal(number.code, 1)
    assert.match(number.stderr, /--orders <n>' argument 'many' is invalid\. must be a whole number/)
  })

  it('a bad configuration stops a command with a message naming the variable', async () => {
    const result = await runCli(['migrate'], { DATABASE_URL: 'mysql://x' })
    assert.equal(result.code, 1)
    assert.equal(result.stderr, 'compras: DATABASE_URL must start with postgres:// or postgresql://\n')
  })

  it('serve refuses a bad CACHE_MB before it opens the database', async () => {
    const result = await runCli(['serve'], { ...env, CACHE_MB: 'lots' })
    assert.equal(result.code, 1)
    assert.equal(
      result.stderr,
      'compras: CACHE_MB must be a whole number of megabytes (0: off), got "lots"\n',
    )
  })

  it('--help lists every command with what it does', async () => {
    const result = await runCli(['--help'])
    assert.equal(result.code, 0)
    const commands = [...result.stdout.matchAll(/^ {2}(\w+)/gm)].map((m) => m[1])
    assert.deepEqual(commands, [
      'serve',
      'migrate',
      'import',
      'pncp',
      'dump',
      'demo',
      'export',
      'snapshot',
      'token',
      'webhook',
      'help',
    ])
    assert.match(result.stdout, /import <files\.\.\.>\s+import NDJSON records/)
  })

  const helps: [string, RegExp[]][] = [
    ['serve', [/migrate the database and serve the API/]],
    ['migrate', [/apply the pending database migrations/]],
    ['import', [/Arguments:\s+files\s+NDJSON files; - reads standard input/]],
    ['dump', [/--out <file>\s+write to this file instead of standard output/]],
    [
      'demo',
      [
        /--scale <scale>\s+small, medium or large \(default: "small"\)/,
        /--seed <n>/,
        /--orders <n>/,
        /--public-calls <n>/,
      ],
    ],
    [
      'export',
      [
        /--resource <resource>\s+contracts, direct-contracts, public-calls, arps,\s+or ocds/,
        /--format <format>\s+xlsx or csv \(not for ocds\)/,
        /--provider-name <text>/,
      ],
    ],
  ]
  for (const [command, expected] of helps) {
    it(`${command} --help describes the command and its options`, async () => {
      const result = await runCli([command, '--help'])
      assert.equal(result.code, 0)
      assert.match(result.stdout, new RegExp(`^Usage: compras ${command}`))
      for (const pattern of expected) assert.match(result.stdout, pattern)
    })
  }
})
