import { createHash, randomBytes } from 'node:crypto'
import { type Notifications, TOKENS_CHANNEL } from '../channel.js'
import type { Pool } from '../db/pool.js'

// Tokens are 32 random bytes (256 bits) in base64url: 43 characters, shown once at issue.
// The database keeps only their SHA-256, so a lookup compares hashes through an index: the
// presented token itself is never compared byte by byte, and a leaked table reveals no token.

const TOKEN_FORM = /^[A-Za-z0-9_-]{43}$/

export class TokenError extends Error {
  override name = 'TokenError'
}

export interface TokenIdentity {
  tokenId: number
  organizationId: string
}

export interface TokenInfo {
  id: number
  organization_id: string
  organization_name: string
  label: string | null
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest()
}

export function isWellFormedToken(token: string): boolean {
  return TOKEN_FORM.test(token)
}

/** Creates a token for an organization; returns it in clear, the only time it exists outside the caller. */
export async function issueToken(
  pool: Pool,
  organizationId: string,
  label: string | null,
): Promise<{ id: number; token: string }> {
  const { rowCount } = await pool.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId])
  if (rowCount === 0) throw new TokenError(`no organization with uuid ${organizationId}`)
  const token = randomBytes(32).toString('base64url')
  const { rows } = await pool.query<{ id: number }>(
    'INSERT INTO access_tokens (organization_id, label, token_hash) VALUES ($1, $2, $3) RETURNING id',
    [organizationId, label, hashToken(token)],
  )
  return { id: (rows[0] as { id: number }).id, token }
}

export async function listTokens(pool: Pool): Promise<TokenInfo[]> {
  const { rows } = await pool.query<TokenInfo>(`
    SELECT t.id, t.organization_id, o.name AS organization_name, t.label,
      to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
      to_char((SELECT max(l.at) FROM access_log l WHERE l.token_id = t.id) AT TIME ZONE 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last_used_at,
      to_char(t.revoked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS revoked_at
    FROM access_tokens t JOIN organizations o ON o.id = t.organization_id
    ORDER BY t.id`)
  return rows
}

/** Revokes a token; false when there is no such token or it was already revoked. */
export async function revokeToken(pool: Pool, id: number): Promise<boolean> {
  const { rowCount } = await pool.query(
    'UPDATE access_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL',
    [id],
  )
  return rowCount === 1
}

/** The live (not revoked) token with this value, if any. */
export async function findToken(pool: Pool, token: string): Promise<TokenIdentity | undefined> {
  const { rows } = await pool.query<{ id: number; organization_id: string }>({
    // Stryker disable next-line StringLiteral: the name only spares planning; an unnamed statement answers the same
    name: 'find-token',
    text: 'SELECT id, organization_id FROM access_tokens WHERE token_hash = $1 AND revoked_at IS NULL',
    values: [hashToken(token)],
  })
  const row = rows[0]
  return row ? { tokenId: row.id, organizationId: row.organization_id } : undefined
}

export interface TokenCacheOptions {
  /** How long an answer is kept while token changes are not heard (1 s). */
  ttlMs?: number
  /** Answers kept at most; all are dropped when full (100,000). */
  maxEntries?: number
  /** Where token changes are heard; without it, answers live ttlMs. */
  notifications?: Notifications
  /**
   * How long an answer is kept at most while they are heard (60 s); each for between half of it and all
   * of it, spread evenly, so that the tokens first seen together (an instance's first seconds under load)
   * are not all looked up again in the same instant.
   */
  heardTtlMs?: number
}

/** The golden ratio's fraction: its multiples, modulo 1, fall evenly over [0, 1) however many are taken. */
const SPREAD = 0.6180339887498949

/**
 * Token lookups, answers "unknown" included, cached so that a busy integrator does not cost a query per
 * request. While the instance hears of token changes (`notifications`: PostgreSQL notifies every change
 * of access_tokens, migrations/0010_token_changes.sql) an answer is kept for at most heardTtlMs and dropped
 * the moment any token changes; while it does not (no notifications given, or their connection lost), for
 * ttlMs. Either way a revocation reaches every instance within ttlMs.
 */
export class TokenCache {
  private readonly entries = new Map<string, { identity: TokenIdentity | undefined; expires: number }>()
  /** Changes whenever the entries are dropped: an answer looked up before is not kept after. */
  private generation = 0
  private readonly ttlMs: number
  private readonly maxEntries: number
  private readonly heard: Notifications | undefined
  private readonly heardTtlMs: number
  /** Where in the spread the last answer's time to live fell, in [0, 1). */
  private spread = 0

  constructor(
    private readonly pool: Pool,
    options: TokenCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 1000
    this.maxEntries = options.maxEntries ?? 100_000
    this.heardTtlMs = options.heardTtlMs ?? 60_000
    this.heard = options.notifications
    this.heard?.subscribe(TOKENS_CHANNEL, () => {
      this.entries.clear()
      this.generation++
    })
  }

  /** A valid token's identity when its lookup is in memory and fresh; else undefined (unknown, or not looked up). */
  known(token: string): TokenIdentity | undefined {
    const cached = this.entries.get(token)
    return cached && cached.expires > Date.now() ? cached.identity : undefined
  }

  async verify(token: string): Promise<TokenIdentity | undefined> {
    if (!isWellFormedToken(token)) return undefined
    const now = Date.now()
    const cached = this.entries.get(token)
    if (cached && cached.expires > now) return cached.identity
    const generation = this.generation
    const identity = await findToken(this.pool, token)
    if (generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.clear()
      let ttl = this.ttlMs
      if (this.heard?.listening) {
        this.spread = (this.spread + SPREAD) % 1
        ttl = this.heardTtlMs * (1 - this.spread / 2)
      }
      this.entries.set(token, { identity, expires: now + ttl })
    }
    return identity
  }
}
