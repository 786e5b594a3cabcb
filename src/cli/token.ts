import { issueToken, listTokens, revokeToken, TokenError } from '../auth/tokens.js'
import { isUuid } from '../checks.js'
import { migrate } from '../db/migrate.js'
import { UsageError, withDatabase } from './common.js'

export async function tokenIssueCommand(options: { organization: string; label?: string }): Promise<void> {
  await withDatabase(async (db) => {
    if (!isUuid(options.organization))
      throw new UsageError(`--organization must be a UUID, got "${options.organization}"`)
    await migrate(db.pool)
    try {
      const { id, token } = await issueToken(
        db.pool,
        options.organization.toLowerCase(),
        options.label ?? null,
      )
      process.stdout.write(
        `token ${id} for organization ${options.organization}; it is shown only now:\n${token}\n`,
      )
    } catch (error) {
      if (error instanceof TokenError) throw new UsageError(error.message)
      throw error
    }
  })
}

export async function tokenListCommand(): Promise<void> {
  await withDatabase(async (db) => {
    await migrate(db.pool)
    const tokens = await listTokens(db.pool)
    const rows = [
      ['id', 'organization', 'label', 'created', 'last used', 'revoked'],
      ...tokens.map((t) => [
        String(t.id),
        `${t.organization_id} (${t.organization_name})`,
        t.label ?? '',
        t.created_at,
        t.last_used_at ?? 'never',
        t.revoked_at ?? '',
      ]),
    ]
    const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? []
    for (const row of rows) {
      process.stdout.write(
        `${row
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd()}\n`,
      )
    }
  })
}

export async function tokenRevokeCommand(id: string): Promise<void> {
  await withDatabase(async (db) => {
    if (!/^\d+$/.test(id)) throw new UsageError(`the token id must be a number, got "${id}"`)
    await migrate(db.pool)
    if (!(await revokeToken(db.pool, Number(id)))) throw new UsageError(`no live token with id ${id}`)
    process.stdout.write(`token ${id} is revoked; running instances refuse it within a second\n`)
  })
}
