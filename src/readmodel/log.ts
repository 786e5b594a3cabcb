import type { PoolClient } from '../db/pool.js'
import type { Shape } from '../resources/fields.js'
import { type PublicResource, publicResource } from '../resources/index.js'
import { storedDifferences } from './differences.js'
import { PREVIOUS_DETAILS, PREVIOUS_ORDERS } from './documents.js'
import { storedPatch, wholeVersion } from './patch.js'

// The change log (migrations/0015_change_log.sql), written by an import in its own transaction while it
// rebuilds documents (src/readmodel/documents.ts): the documents in scope are kept aside as they were before
// the rebuild (PREVIOUS_DETAILS, PREVIOUS_ORDERS), and compared with what the rebuild made. A record whose
// document appeared is `created`, one whose document changed `updated`, one whose document is gone
// `withdrawn`; a document rebuilt with the same content adds nothing. An updated public record's entry keeps
// the patch back to its version before (its history). A withdrawn record takes its earlier entries, and so its
// history, with it: it was published by mistake, so only its tombstone stays in the feeds.
//
// A rebuild after an upgrade (syncReadModel) writes nothing here: the data did not change, only its form.

/** What a record's entry says, from its document before (p) and after (n) the rebuild. */
const change = (p: string, n: string) =>
  `CASE WHEN ${p} IS NULL THEN 'created' WHEN ${n} IS NULL THEN 'withdrawn' ELSE 'updated' END`

/**
 * Each document of a kind before (p) and after (n) the rebuild: the ones kept aside in `previous` joined by
 * key with the ones of the keys an import touched (a query), or, for a rebuild of everything, with the ones
 * the condition `scope` selects on `table` (alias `alias`).
 */
function compared(
  table: string,
  alias: string,
  previous: string,
  key: readonly string[],
  touched: string | undefined,
  scope: string,
): string {
  const on = (a: string, b: string) => key.map((column) => `${a}.${column} = ${b}.${column}`).join(' AND ')
  // Stryker disable next-line ConditionalExpression: the scan of the condition finds the same documents, at more cost
  if (touched)
    return `(SELECT ${key.join(', ')} FROM ${previous} UNION (${touched})) k
       LEFT JOIN ${previous} p ON ${on('p', 'k')}
       LEFT JOIN ${table} n ON ${on('n', 'k')}`
  return `${previous} p FULL JOIN (SELECT * FROM ${table} ${alias} WHERE ${scope}) n ON ${on('n', 'p')}`
}

/**
 * Appends the entries of the rebuild's changes, in a stable order, after removing the earlier entries of
 * the records it withdrew. `scope.details` and `scope.orders` are conditions on detail_documents (alias d) and
 * order_documents (alias o) that select the documents the rebuild made; `touched`, when the rebuild was of
 * what an import touched, gives their keys as queries, so that the documents are read by key instead of by a
 * scan of the condition. `first` says that nothing was there before (a first load), so every document is
 * created and none needs comparing.
 */
export async function writeLog(
  client: PoolClient,
  scope: { details: string; orders: string },
  touched: { details?: string; orders?: string },
  first: boolean,
): Promise<void> {
  // Entries are dated no earlier than the last ones, so that dates follow numbers (`since` relies on it).
  const { rows: clock } = await client.query<{ at: string }>(
    `UPDATE change_log_identity SET last_change = greatest(transaction_timestamp(), last_change)
     RETURNING last_change::text AS at`,
  )
  const at = (clock[0] as { at: string }).at
  // Stryker disable next-line ConditionalExpression,BlockStatement: compared with nothing, every document is created, at more cost
  if (first) {
    await client.query(
      `INSERT INTO public_changes (resource, id, organization_id, change, changed_at)
       SELECT d.resource, d.id, d.organization_id, 'created', $1 FROM detail_documents d
       WHERE ${scope.details} ORDER BY d.resource, d.id`,
      [at],
    )
    await appendOrderEntries(
      client,
      `SELECT o.organization_id, o.number, 'created' AS change FROM order_documents o WHERE ${scope.orders}`,
      at,
    )
    return
  }
  // Each document before (p) and after (n): those kept aside, and those of the keys in scope (or, for a
  // rebuild of everything, of the condition).
  const details = compared(
    'detail_documents',
    'd',
    PREVIOUS_DETAILS,
    ['resource', 'id'],
    touched.details,
    scope.details,
  )
  const orders = compared(
    'order_documents',
    // Stryker disable next-line StringLiteral: every order is selected by `true`, which names no alias
    'o',
    PREVIOUS_ORDERS,
    ['organization_id', 'number'],
    touched.orders,
    scope.orders,
  )
  // A record whose document changed, or that moved to another organization (which its document does not show).
  await client.query(`CREATE TEMP TABLE logged_details ON COMMIT DROP AS
    SELECT coalesce(n.resource, p.resource) AS resource, coalesce(n.id, p.id) AS id,
      coalesce(n.organization_id, p.organization_id) AS organization_id, ${change('p.id', 'n.id')} AS change,
      CASE WHEN p.organization_id <> n.organization_id THEN p.organization_id END AS previous_organization_id,
      p.body IS DISTINCT FROM n.body AS changed
    FROM ${details}
    WHERE p.body IS DISTINCT FROM n.body OR p.organization_id IS DISTINCT FROM n.organization_id`)
  await client.query(`CREATE TEMP TABLE logged_orders ON COMMIT DROP AS
    SELECT coalesce(n.organization_id, p.organization_id) AS organization_id, coalesce(n.number, p.number) AS number,
      ${change('p.number', 'n.number')} AS change
    FROM ${orders}
    WHERE p.body IS DISTINCT FROM n.body`)
  // The organizations a withdrawn record was published under, before its entries go: where the records
  // that showed it may be (src/readmodel/withdrawals.ts).
  await client.query(`CREATE TEMP TABLE withdrawn_records ON COMMIT DROP AS
    SELECT l.resource, l.id, array_agg(DISTINCT v.organization_id) AS organizations
    FROM logged_details l
    LEFT JOIN public_changes c ON c.resource = l.resource AND c.id = l.id
    CROSS JOIN LATERAL (VALUES (l.organization_id), (c.organization_id), (c.previous_organization_id))
      v(organization_id)
    WHERE l.change = 'withdrawn' AND v.organization_id IS NOT NULL
    GROUP BY l.resource, l.id`)
  await client.query(`DELETE FROM public_changes c USING logged_details l
    WHERE l.change = 'withdrawn' AND c.resource = l.resource AND c.id = l.id`)
  await client.query(`DELETE FROM order_changes c USING logged_orders l
    WHERE l.change = 'withdrawn' AND c.organization_id = l.organization_id AND c.number = l.number`)
  const history = await versions(client)
  // An update that changed only the organization tells the feeds, and makes no version.
  await client.query(
    `INSERT INTO public_changes (resource, id, organization_id, change, changed_at, restore, changes, in_history,
       previous_organization_id)
     SELECT l.resource, l.id, l.organization_id, l.change, $5, v.restore, v.changes,
       l.change <> 'updated' OR l.changed, l.previous_organization_id
     FROM logged_details l
     LEFT JOIN unnest($1::text[], $2::uuid[], $3::text[], $4::text[]) v(resource, id, restore, changes)
       ON v.resource = l.resource AND v.id = l.id
     ORDER BY l.resource, l.id`,
    [...history, at],
  )
  await appendOrderEntries(client, 'SELECT organization_id, number, change FROM logged_orders', at)
}

/**
 * Appends the orders' entries a query gives (organization_id, number, change), in a stable order, each
 * numbered in its organization's feed after the last number that feed gave (order_feed_numbers), so that an
 * organ's cursors count its own changes only.
 */
async function appendOrderEntries(client: PoolClient, entries: string, at: string): Promise<void> {
  await client.query(
    `WITH e AS (${entries}),
     counted AS (SELECT organization_id, count(*) AS n FROM e GROUP BY organization_id),
     numbered AS (
       INSERT INTO order_feed_numbers AS f (organization_id, last) SELECT organization_id, n FROM counted
       ON CONFLICT (organization_id) DO UPDATE SET last = f.last + excluded.last
       RETURNING organization_id, last)
     INSERT INTO order_changes (organization_id, number, change, changed_at, org_seq)
     SELECT e.organization_id, e.number, e.change, $1,
       b.last - c.n + row_number() OVER (PARTITION BY e.organization_id ORDER BY e.number)
     FROM e JOIN counted c USING (organization_id) JOIN numbered b USING (organization_id)
     ORDER BY e.organization_id, e.number`,
    [at],
  )
}

/** Every CHECKPOINT-th version is kept whole: a version is rebuilt from at most CHECKPOINT - 1 patches. */
export const CHECKPOINT = 16

/**
 * The history of the records this import updated: for each, the patch that turns the version it produced back
 * into the one before (src/readmodel/patch.ts), or that version whole when it is a checkpoint (every
 * CHECKPOINT-th), and what changed, named for people (src/readmodel/differences.ts); as the arrays of its
 * resource, id, patch and differences.
 */
async function versions(client: PoolClient): Promise<[string[], string[], string[], string[]]> {
  const { rows } = await client.query<{
    resource: string
    id: string
    before: string
    after: string
    versions: number
  }>(
    `SELECT l.resource, l.id, p.body AS before, n.body AS after,
       (SELECT count(*) FROM public_changes c WHERE c.resource = l.resource AND c.id = l.id AND c.in_history
          AND c.change <> 'withdrawn')::int AS versions
     FROM logged_details l
     JOIN ${PREVIOUS_DETAILS} p ON p.resource = l.resource AND p.id = l.id
     JOIN detail_documents n ON n.resource = l.resource AND n.id = l.id
     WHERE l.change = 'updated' AND l.changed`,
  )
  return [
    rows.map((row) => row.resource),
    rows.map((row) => row.id),
    // The entry makes version `versions + 1`; its patch restores version `versions`.
    rows.map((row) => reverse(row.after, row.before, row.versions)),
    rows.map((row) => storedDifferences(recordOf(row.resource), row.before, row.after)),
  ]
}

/** The stored way back from a version to the one before it (`restored`, counted from 1). */
export const reverse = (after: string, before: string, restored: number) =>
  restored % CHECKPOINT === 0 ? wholeVersion(before) : storedPatch(after, before)

/** A public resource's record shape, by the resource's path. */
const recordOf = (path: string): Shape => (publicResource(path) as PublicResource).record
