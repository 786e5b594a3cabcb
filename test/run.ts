// `npm test`: runs every test file with node's test runner against a real PostgreSQL.
// TEST_DATABASE_URL set: that server. Unset: an embedded server started here for the run and stopped after.
import { execFileSync, spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openEmbedded } from '../src/db/embedded.js'
import { reapWhenGone } from './helpers/cleanup.js'

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

function testFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const full = path.join(dir, name)
      if (statSync(full).isDirectory()) return testFiles(full)
      return name.endsWith('.test.ts') ? [full] : []
    })
    .sort()
}

const filter = process.argv.slice(2)
// Files run side by side: most of their time is spent waiting on PostgreSQL, child processes and timers, not
// on the CPU. Each file works in a database of its own, so they do not disturb each other.
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 3)
const files = testFiles('test').filter((file) => filter.length === 0 || filter.some((f) => file.includes(f)))
const env = { ...process.env }
let release: (() => Promise<void>) | undefined
let dataDir: string | undefined
if (!env.TEST_DATABASE_URL) {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'compras-test-'))
  chmodSync(dataDir, 0o755) // the embedded server's unprivileged user must reach it
  const embedded = await openEmbedded(dataDir, 'command')
  // A runner killed outright (SIGKILL) leaves no server behind.
  reapWhenGone(dataDir, [path.join(dataDir, 'pg')])
  env.TEST_DATABASE_URL = embedded.adminUrl
  release = () => embedded.release()
  process.stdout.write(`tests use an embedded PostgreSQL in ${dataDir}\n`)
} else {
  process.stdout.write('tests use TEST_DATABASE_URL\n')
}

// No file may run longer than this (the longest takes about a minute): one that hangs fails, and the run ends.
const fileTimeoutMs = Number(process.env.TEST_FILE_TIMEOUT_MS ?? 600_000)
// Nor the whole run: past it the runner is stopped, and the run fails, saying so.
const runTimeoutMs = Number(process.env.TEST_RUN_TIMEOUT_MS ?? 3_600_000)
const code = await new Promise<number>((resolve) => {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./test/slowest.mjs',
      '--test-reporter-destination=stdout',
      `--test-concurrency=${concurrency}`,
      `--test-timeout=${fileTimeoutMs}`,
      ...files,
    ],
    {
      env,
      stdio: 'inherit',
    },
  )
  const forward = (signal: NodeJS.Signals) => child.kill(signal)
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  const deadline = setTimeout(() => {
    process.stdout.write(`\n*** The run took longer than ${runTimeoutMs / 60_000} minutes: stopped. ***\n`)
    child.kill('SIGTERM')
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref()
  }, runTimeoutMs)
  deadline.unref()
  child.on('exit', (exitCode, signal) => {
    clearTimeout(deadline)
    resolve(exitCode ?? (signal ? 1 : 0))
  })
})
await release?.()
// Say it loudly when the shared-limit tests could not run: they skip, and a skip is easy to miss.
if (!env.TEST_REDIS_URL && !hasCommand('redis-server')) {
  process.stdout.write(
    '\n*** The Redis tests did NOT run: set TEST_REDIS_URL or install redis-server (apt install redis-server). ***\n',
  )
}
// The portal's browser tests skip without Chromium: say so too.
if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
  process.stdout.write(
    '\n*** The portal browser tests did NOT run: install Chromium (apt install chromium) or set CHROMIUM_PATH. ***\n',
  )
}
// And the spreadsheet test, without LibreOffice.
if (!hasCommand('soffice')) {
  process.stdout.write(
    '\n*** The LibreOffice spreadsheet test did NOT run: install it (apt install libreoffice-calc). ***\n',
  )
}
// And the Atom feeds' check against RFC 4287's schema, without jing.
if (!hasCommand('jing')) {
  process.stdout.write(
    '\n*** The Atom feeds were NOT checked against their schema: install jing (apt install jing). ***\n',
  )
}
if (dataDir) rmSync(dataDir, { recursive: true, force: true })
process.exit(code)
