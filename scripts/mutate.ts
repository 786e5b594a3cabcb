// `npm run mutate [-- --mutate src/export/csv.ts]`: StrykerJS (stryker.config.json) over the modules that
// hold the contract. Not in CI: hours on two cores. Mutants of the document SQL give the tests new
// template databases, so the run gets an embedded PostgreSQL of its own, discarded afterwards.
import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openEmbedded } from '../src/db/embedded.js'

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'compras-mutate-'))
chmodSync(dataDir, 0o755) // the embedded server's unprivileged user must reach it
const embedded = await openEmbedded(dataDir, 'command')
process.stdout.write(`mutation tests use an embedded PostgreSQL in ${dataDir}\n`)
const code = await new Promise<number>((resolve) => {
  const child = spawn('npx', ['stryker', 'run', ...process.argv.slice(2)], {
    env: { ...process.env, TEST_DATABASE_URL: embedded.adminUrl },
    stdio: 'inherit',
  })
  child.on('exit', (exitCode) => resolve(exitCode ?? 1))
})
await embedded.release()
rmSync(dataDir, { recursive: true, force: true })
process.exit(code)
