import type { PoolClient } from '../db/pool.js'
import type { JsonValue } from '../json.js'
import { type PublicResource, publicResource } from '../resources/index.js'
import { storedDifferences } from './differences.js'
import { reverse } from './log.js'
import { restoreAll } from './patch.js'

// Rewriting a record's stored history (its entries' reverse patches and differences), inside an import's or a
// rebuild's transaction: to erase a withdrawn record from every version of the records that showed it
// (src/readmodel/withdrawals.ts), and once for entries written before the differences were kept.

/** A record's entry, as the rewrite reads it. */
interface Entry {
  seq: string
  change: 'created' | 'updated'
  restore: string | null
  inHistory: boolean
}

export interface Rewrite {
  /** What to take out of each version (a withdrawn record); none: the versions stay as they are. */
  scrub?: (document: JsonValue) => JsonValue
  /**
   * Drop the entries that, once scrubbed, change nothing: an earlier one is deleted; the record's newest
   * entry stays in the feeds (a mirror must hear that the document changed) and makes no version.
   */
  dropEmpty?: boolean
}

/**
 * Rewrites the history of one record: every version rebuilt from the document now back through the stored
 * patches, scrubbed when asked, and each entry's patch (a checkpoint every CHECKPOINT versions) and
 * differences written again from the versions as they are now.
 */
export async function rewriteHistory(
  client: PoolClient,
  resource: PublicResource,
  id: string,
  rewrite: Rewrite = {},
): Promise<void> {
  const { rows } = await client.query<{
    body: string | null
    entries: [string, Entry['change'], string | null, boolean][] | null
  }>(
    `SELECT (SELECT body FROM detail_documents WHERE resource = $1 AND id = $2) AS body,
       (SELECT json_agg(json_build_array(c.seq::text, c.change, c.restore, c.in_history) ORDER BY c.seq)
        FROM public_changes c WHERE c.resource = $1 AND c.id = $2 AND c.change <> 'withdrawn') AS entries`,
    [resource.path, id],
  )
  // A SELECT of subqueries alone gives one row; json_agg of no entries is null.
  const { body, entries: stored } = rows[0] as (typeof rows)[number]
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a record found by its entries has its document (a withdrawal deletes both); a guard
  if (body === null || stored === null) return
  const entries: Entry[] = stored.map(([seq, change, patch, inHistory]) => ({
    seq,
    change,
    restore: patch,
    inHistory,
  }))
  const versioned = entries.filter((entry) => entry.inHistory)
  // Each version's text, newest first back to the first.
  // Stryker disable next-line ArrayDeclaration: filled by index, whatever length it starts with
  const texts: string[] = new Array(versioned.length)
  texts[versioned.length - 1] = body
  // Stryker disable next-line EqualityOperator: at k = 0 it would write texts[-1], which nothing reads
  for (let k = versioned.length - 1; k > 0; k--)
    texts[k - 1] = restoreAll(texts[k] as string, [(versioned[k] as Entry).restore])
  const scrub = rewrite.scrub
  const versions = scrub
    ? texts.map((text) => JSON.stringify(scrub(JSON.parse(text) as JsonValue)))
    : (texts as string[])
  const newest = (entries.at(-1) as Entry).seq
  const record = resource.record
  // The versions that stay, in order, and what each entry becomes.
  const kept: string[] = []
  const updates: [string, string | null, string | null, boolean][] = []
  const dropped: string[] = []
  versions.forEach((text, k) => {
    const entry = versioned[k] as Entry
    const before = kept.at(-1)
    if (before === undefined) {
      kept.push(text)
      return
    }
    if (rewrite.dropEmpty && before === text) {
      if (entry.seq === newest) updates.push([entry.seq, null, null, false])
      else dropped.push(entry.seq)
      return
    }
    // The entry makes version kept.length + 1; its patch restores version kept.length.
    updates.push([
      entry.seq,
      reverse(text, before, kept.length),
      storedDifferences(record, before, text),
      true,
    ])
    kept.push(text)
  })
  // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty list changes nothing; the guard spares a statement
  if (dropped.length > 0)
    await client.query('DELETE FROM public_changes WHERE seq = ANY($1::bigint[])', [dropped])
  // Stryker disable next-line ConditionalExpression,EqualityOperator: as above
  if (updates.length > 0)
    await client.query(
      `UPDATE public_changes c SET restore = u.restore, changes = u.changes, in_history = u.in_history
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::boolean[]) u(seq, restore, changes, in_history)
       WHERE c.seq = u.seq`,
      [
        updates.map((u) => u[0]),
        updates.map((u) => u[1]),
        updates.map((u) => u[2]),
        updates.map((u) => u[3]),
      ],
    )
}

/**
 * Gives the entries written before the differences were kept their differences, and the histories their
 * checkpoints (a rewrite of each such record). Run by syncReadModel, under the import lock, in the caller's
 * transaction. Returns the records rewritten.
 */
export async function completeHistories(client: PoolClient): Promise<number> {
  const { rows } = await client.query<{ resource: string; id: string }>(
    `SELECT DISTINCT resource, id::text FROM public_changes
     WHERE change = 'updated' AND in_history AND changes IS NULL`,
  )
  for (const row of rows) {
    const resource = publicResource(row.resource)
    // Stryker disable next-line ConditionalExpression: the log holds public kinds only; a guard
    if (resource) await rewriteHistory(client, resource, row.id)
  }
  return rows.length
}
