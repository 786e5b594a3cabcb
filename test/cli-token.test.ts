import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { hashToken } from '../src/auth/tokens.js'
import { runCli } from './helpers/cli.js'
import { seededDatabase, type TestDatabase } from './helpers/db.js'
import { demoRecords, first } from './helpers/records.js'

describe('compras token', () => {
  let db: TestDatabase
  let env: Record<string, string>
  const org = first(demoRecords(), 'organization')
  before(async () => {
    db = await seededDatabase([org])
    env = { DATABASE_URL: db.url }
  })
  after(() => db.drop())

  let id = ''
  let token = ''

  it('issue prints the token alone on the last line and stores only its hash', async () => {
    const result = await runCli(
      ['token', 'issue', '--organization', org.uuid as string, '--label', 'ERP da Prefeitura'],
      env,
    )
    assert.equal(result.code, 0, result.stderr)
    const lines = result.stdout.trimEnd().split('\n')
    token = lines.at(-1) as string
    assert.match(token, /^[A-Za-z0-9_-]{43}$/)
    id = (/^token (\d+) /.exec(lines[0] as string) as RegExpExecArray)[1] as string
    const { rows } = await db.pool.query('SELECT token_hash, label FROM access_tokens WHERE id = $1', [id])
    assert.deepEqual(rows[0].token_hash, hashToken(token))
    assert.equal(rows[0].label, 'ERP da Prefeitura')
    const text = await db.pool.query(
      "SELECT count(*)::int AS n FROM access_tokens WHERE encode(token_hash, 'escape') LIKE '%' || $1 || '%'",
      [token],
    )
    assert.equal(text.rows[0].n, 0)
  })

  it('issue refuses an unknown organization and a malformed uuid', async () => {
    const unknown = await runCli(
      ['token', 'issue', '--organization', '00000000-0000-4000-8000-000000000000'],
      env,
    )
    assert.equal(unknown.code, 1)
    assert.equal(unknown.stderr, 'compras: no organization with uuid 00000000-0000-4000-8000-000000000000\n')
    const malformed = await runCli(['token', 'issue', '--organization', 'prefeitura'], env)
    assert.equal(malformed.code, 1)
    assert.equal(malformed.stderr, 'compras: --organization must be a UUID, got "prefeitura"\n')
    const missing = await runCli(['token', 'issue'], env)
    assert.equal(missing.code, 1)
    assert.match(missing.stderr, /required option '--organization <uuid>' not specified/)
  })

  it('list shows id, organization, label, creation, last use and revocation, never the token', async () => {
    const result = await runCli(['token', 'list'], env)
    assert.equal(result.code, 0, result.stderr)
    const [header, row] = result.stdout.trimEnd().split('\n')
    assert.match(header as string, /^id\s+organization\s+label\s+created\s+last used\s+revoked$/)
    assert.match(
      row as string,
      new RegExp(
        `^${id}\\s+${org.uuid} \\(${org.name}\\)\\s+ERP da Prefeitura\\s+\\d{4}-\\d\\d-\\d\\dT\\S+Z\\s+never$`,
      ),
    )
    assert.ok(!result.stdout.includes(token))
  })

  it('revoke revokes once, then says there is no live token', async () => {
    const first = await runCli(['token', 'revoke', id], env)
    assert.equal(first.code, 0, first.stderr)
    assert.match(first.stdout, new RegExp(`^token ${id} is revoked`))
    const listed = await runCli(['token', 'list'], env)
    assert.match(listed.stdout, /\d{4}-\d\d-\d\dT\S+Z\s+never\s+\d{4}-\d\d-\d\dT\S+Z\n$/)
    const again = await runCli(['token', 'revoke', id], env)
    assert.equal(again.code, 1)
    assert.equal(again.stderr, `compras: no live token with id ${id}\n`)
    const bad = await runCli(['token', 'revoke', 'abc'], env)
    assert.equal(bad.stderr, 'compras: the token id must be a number, got "abc"\n')
  })
})
