// `npm run docs:screenshots`: the README's pictures of the portal, taken in Chromium from what `npm start`
// serves a new user (the embedded PostgreSQL with the small demo dataset), into docs/screenshots/.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium } from 'playwright-core'
import { loadConfig } from '../src/config.js'
import { startServer } from '../src/server.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const OUT = 'docs/screenshots'

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'compras-screenshots-'))
chmodSync(dataDir, 0o755) // the embedded server's unprivileged user must reach it when run as root
const server = await startServer(
  loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' }),
)
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
  ],
})
try {
  const pool = server.db.pool
  // A contract the demo's later import changed, so that the picture shows its history too.
  const contract = (
    await pool.query<{ id: string }>(
      `SELECT id FROM public_changes WHERE resource = 'contracts' AND change = 'updated'
       ORDER BY seq LIMIT 1`,
    )
  ).rows[0]?.id
  const organ = (
    await pool.query<{ id: string }>(
      'SELECT organization_id AS id FROM contracts GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1',
    )
  ).rows[0]?.id
  // The company with the most contracts, for its page.
  const supplier = (
    await pool.query<{ document: string }>(
      `SELECT s.document FROM contracts c JOIN suppliers s ON s.id = c.supplier_id
       WHERE length(s.document) = 14 GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
    )
  ).rows[0]?.document
  const shots: [string, string, number][] = [
    ['portal-contratos-1280.png', '/contratos', 1280],
    ['portal-contrato-375.png', `/contratos/${contract}`, 375],
    ['portal-orgao-1280.png', `/orgaos/${organ}`, 1280],
    ['portal-orgao-375.png', `/orgaos/${organ}`, 375],
    ['portal-precos-375.png', '/precos?q=papel+sulfite', 375],
    ['portal-fornecedor-375.png', `/fornecedores/${supplier}`, 375],
  ]
  for (const [file, url, width] of shots) {
    const page = await browser.newPage({ viewport: { width, height: 900 } })
    await page.goto(`${server.url.replace('localhost', '127.0.0.1')}${url}`)
    await page.screenshot({ path: path.join(OUT, file), fullPage: width < 500 })
    await page.close()
    process.stdout.write(`${OUT}/${file}: ${url} at ${width} px\n`)
  }
} finally {
  await browser.close()
  await server.close()
  rmSync(dataDir, { recursive: true, force: true })
}
