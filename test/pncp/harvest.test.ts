import assert from 'node:assert/strict'
import type { ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { HarvestError, harvest, monthWindows, retryAfter, STATE_FILE } from '../../src/pncp/harvest.js'
import { importPncp } from '../../src/pncp/import.js'
import { runCli, spawnCli } from '../helpers/cli.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { COUNTS, type FakePncp, startFakePncp } from '../helpers/fake-pncp.js'

// The harvester against a fake PNCP that misbehaves as PNCP does. Never the real service.

/** Every page file under a directory, relative to it. */
async function pages(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((e) => e.isFile() && e.name.startsWith('pagina-') && e.name.endsWith('.json'))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort()
}

/** Quick retries: the tests wait milliseconds where PNCP's users wait seconds. */
const FAST = { baseUrl: '', rate: 1000, backoff: 5, maxBackoff: 1500, timeout: 1, today: '2025-12-31' }
const SIX = COUNTS[6] as number
const EIGHT = COUNTS[8] as number

describe('compras pncp harvest', () => {
  let fake: FakePncp
  let db: TestDatabase
  let dir: string
  const children: ChildProcess[] = []

  before(async () => {
    fake = await startFakePncp()
    FAST.baseUrl = fake.url
    db = await createTestDatabase()
    dir = await mkdtemp(path.join(tmpdir(), 'compras-harvest-'))
  })
  afterEach(() => {
    fake.misbehave = []
    fake.delay = 0
  })
  after(async () => {
    for (const child of children) child.kill('SIGKILL')
    await fake?.close()
    await db?.drop()
    await rm(dir, { recursive: true, force: true })
  })

  it('splits a period into months, PNCP taking at most 365 days a query', () => {
    assert.deepEqual(monthWindows('2025-01-10', '2025-03-05'), [
      { from: '2025-01-10', to: '2025-01-31', label: '2025-01-10_2025-01-31' },
      { from: '2025-02-01', to: '2025-02-28', label: '2025-02' },
      { from: '2025-03-01', to: '2025-03-05', label: '2025-03-01_2025-03-05' },
    ])
    assert.equal(monthWindows('2024-01-01', '2025-12-31').length, 24)
    assert.equal(retryAfter('3'), 3000)
    assert.equal(retryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('2015-10-21T07:27:58Z')), 2000)
    assert.equal(retryAfter('soon'), undefined)
  })

  it('fetches every page through HTML 429s, 5xx, slow pages and dropped connections, then imports them', async () => {
    const out = path.join(dir, 'a')
    fake.misbehave = [
      { kind: 'html429', modality: 6, page: 2, times: 2 },
      { kind: 'error500', endpoint: '/v1/contratos', page: 1, times: 1 },
      { kind: 'slow', modality: 8, page: 1, times: 1 },
      { kind: 'drop', modality: 6, page: 3, times: 1 },
    ]
    const result = await harvest({
      ...FAST,
      from: '2025-03-01',
      to: '2025-04-30',
      modalities: [6, 8, 9],
      out,
    })
    assert.deepEqual(result.missing, [])
    // Per month: modality 6 (120: 3 pages), 8 (30: 1), 9 (none: one empty page), contratos and atas (120: 3).
    assert.equal(result.pages, 2 * (3 + 1 + 1 + 3 + 3))
    assert.equal(result.records, 2 * (SIX * 3 + EIGHT))
    const files = await pages(out)
    assert.equal(files.length, result.pages)
    assert.ok(
      files.includes(path.join('contratacoes', 'publicacao', '2025-03', 'modalidade-06', 'pagina-0003.json')),
    )
    assert.ok(
      fake.misbehave.every((b) => b.times === 0),
      'every misbehaviour was met',
    )
    assert.ok(
      fake.log.every((r) => Number(r.params.tamanhoPagina) <= 50),
      'never more than 50 a page',
    )
    assert.ok(!fake.log.some((r) => r.status === 400 || r.status === 422), 'never a query PNCP refuses')

    const run = await importPncp(db.pool, [out])
    assert.equal(run.ok, true, JSON.stringify(run.problems.slice(0, 3)))
    assert.equal(run.result.counts.public_call, 2 * SIX)
    assert.equal(run.result.counts.direct_contract, 2 * EIGHT)
    assert.equal(run.result.counts.contract, 2 * SIX)
    assert.equal(run.result.counts.arp, 2 * SIX)
  })

  it('honours Retry-After, records a page that keeps failing, and the next run fetches only it', async () => {
    const out = path.join(dir, 'b')
    fake.log.length = 0
    fake.misbehave = [
      { kind: 'retryAfter', modality: 8, page: 1, times: 1 },
      { kind: 'error500', endpoint: '/v1/contratos', page: 2, times: 100 },
    ]
    const options = { ...FAST, attempts: 3, from: '2025-05-01', to: '2025-05-31', modalities: [6, 8], out }
    const first = await harvest(options)
    const asked = fake.log.filter((r) => r.params.codigoModalidadeContratacao === '8')
    assert.ok(asked.length >= 2)
    assert.ok((asked[1]?.at ?? 0) - (asked[0]?.at ?? 0) >= 900, 'waited the second Retry-After asked for')
    assert.deepEqual(
      first.missing.map((m) => [m.path, m.reason]),
      [[path.join('contratos', 'publicacao', '2025-05', 'pagina-0002.json'), 'HTTP 500']],
    )
    const state = JSON.parse(await readFile(path.join(out, STATE_FILE), 'utf8'))
    assert.equal(state.missing.length, 1)
    assert.equal(state.last, null, 'an incomplete harvest is no base for --since-last')

    fake.misbehave = []
    fake.log.length = 0
    const second = await harvest(options)
    assert.deepEqual(second.missing, [])
    assert.equal(second.fetched, 1, 'only the missing page')
    assert.deepEqual(
      fake.log.map((r) => [r.endpoint, r.params.pagina]),
      [['/v1/contratos', '2']],
    )
  })

  it('fetches what changed since the last complete harvest from the /atualizacao endpoints', async () => {
    const out = path.join(dir, 'c')
    await harvest({
      ...FAST,
      from: '2025-06-01',
      to: '2025-06-30',
      modalities: [6],
      kinds: ['contratacoes'],
      out,
    })
    fake.log.length = 0
    // Without --kinds: the directory's own, not the default's.
    const since = await harvest({ ...FAST, sinceLast: true, modalities: [6], out, today: '2025-07-31' })
    assert.deepEqual([since.from, since.to], ['2025-06-30', '2025-07-31'])
    assert.ok(fake.log.length > 0 && fake.log.every((r) => r.endpoint === '/v1/contratacoes/atualizacao'))
    assert.equal(fake.log[0]?.params.dataInicial, '20250630')
    assert.ok((await pages(out)).some((p) => p.startsWith(path.join('contratacoes', 'atualizacao'))))
  })

  it('refuses bad arguments with a clear message, and another harvest in the same directory', async () => {
    const out = path.join(dir, 'd')
    const refused = async (options: Parameters<typeof harvest>[0], message: RegExp) =>
      assert.rejects(
        harvest(options),
        (error: Error) => error instanceof HarvestError && message.test(error.message),
      )
    await refused({ ...FAST, from: '2025-02-01', to: '2025-01-01', out }, /--from is after --to/)
    await refused({ ...FAST, from: '2025-13-01', to: '2025-14-01', out }, /take days/)
    await refused(
      { ...FAST, from: '2025-01-01', to: '2025-01-31', modalities: [99], out },
      /unknown modality: 99/,
    )
    await refused({ ...FAST, sinceLast: true, out }, /no complete harvest yet/)
    await refused({ ...FAST, from: '2025-01-01', to: '2025-01-31', uf: 'São Paulo', out }, /two letters/)
    await harvest({ ...FAST, from: '2025-01-01', to: '2025-01-31', modalities: [9], out })
    await refused({ ...FAST, from: '2025-01-01', to: '2025-01-31', modalities: [6], out }, /other filters/)
    const cli = await runCli([
      'pncp',
      'harvest',
      '--from',
      '2025-02-01',
      '--to',
      '2025-01-01',
      '--out',
      `${out}-cli`,
    ])
    assert.equal(cli.code, 1, cli.stderr)
    assert.match(cli.stderr, /--from is after --to/)
    assert.ok(!cli.stderr.includes('    at '), 'no stack trace')
  })

  it('killed at any moment and started again, fetches no finished page twice and misses none', async () => {
    const out = path.join(dir, 'e')
    fake.delay = 40
    fake.log.length = 0
    const args = ['pncp', 'harvest', '--from', '2025-08-01', '--to', '2025-09-30', '--modalities', '6,8']
    const env = { PNCP_URL: fake.url }
    const child = spawnCli([...args, '--rate', '50', '--out', out], env)
    children.push(child)
    const deadline = Date.now() + 30_000
    while ((await pages(out)).length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('close', resolve))
    const before = await pages(out)
    assert.ok(before.length >= 4 && before.length < 20, `killed midway: ${before.length} pages`)
    // A request the killed harvest made is answered (and logged) after it is gone: only the run's own count.
    const restarted = performance.now()
    const again = await runCli([...args, '--rate', '50', '--out', out], env)
    assert.equal(again.code, 0, again.stderr)
    const after = await pages(out)
    // Two months of: modality 6 (3 pages), 8 (1), contratos (3), atas (3).
    assert.equal(after.length, 20)
    const fetchedAgain = fake.log
      .filter((r) => r.status === 200 && r.at >= restarted)
      .map((r) => {
        const month = r.params.dataInicial?.slice(0, 6)
        return `${r.endpoint}|${month}|${r.params.codigoModalidadeContratacao ?? ''}|${r.params.pagina}`
      })
    assert.equal(
      fetchedAgain.length,
      20 - before.length,
      `only the pages it had not finished: ${fetchedAgain}`,
    )
    assert.match(again.stdout, /harvested 2025-08-01 to 2025-09-30: 20 pages/)
    // Once more with --import: nothing left to fetch, and the directory imported.
    const imported = await runCli([...args, '--out', out, '--import'], { ...env, DATABASE_URL: db.url })
    assert.equal(imported.code, 0, imported.stderr)
    assert.match(imported.stdout, /20 pages \(0 fetched now\)/)
    assert.match(
      imported.stdout,
      new RegExp(
        `imported 1 organization, ${2 * SIX} contract, ${2 * EIGHT} direct_contract, ${2 * SIX} public_call, ${2 * SIX} arp`,
      ),
    )
    assert.match(imported.stdout, /refused 0 record\(s\)/)
  })
})
