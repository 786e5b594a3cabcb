import type { PoolClient } from '../db/pool.js'
import type { JsonValue } from '../json.js'
import { isRelation, type Relation } from '../resources/fields.js'
import { Order, PUBLIC_RESOURCES, type PublicResource, publicResource } from '../resources/index.js'
import { rewriteHistory } from './versions.js'

// A withdrawn record was published by mistake: it leaves every face, the history of the records that showed it
// included. Run by an import after its change log is written (src/readmodel/log.ts), in its transaction: every
// record whose stored versions hold a withdrawn contract, ARP or supply order has its history rewritten
// without it (src/readmodel/versions.ts). Such a record is found by the withdrawn one's key in its stored
// patches: a record that showed it has, at the import where it stopped showing it (this one, or a relink's),
// a patch that gives it back whole.

/** A relation of a public record's document that shows other records: which table, and by what key. */
interface Showing {
  parent: PublicResource
  field: string
  table: string
  /** The element's key in the document: `id` for records, `number` for orders (in one organization). */
  key: 'id' | 'number'
}

const SHOWING: readonly Showing[] = PUBLIC_RESOURCES.flatMap((parent) =>
  parent.detail.flatMap((field): Showing[] => {
    const f = parent.record.fields[field] as Relation | undefined
    // Stryker disable next-line ConditionalExpression,LogicalOperator,ArrayDeclaration: only a relation has a link (the rest narrows the type), and an element that is no Showing matches no table
    if (f === undefined || !isRelation(f) || f.link === undefined) return []
    return [{ parent, field, table: f.link.table, key: 'id' in f.shape.fields ? 'id' : 'number' }]
  }),
)

/** A withdrawn record or order: its table, its key as its summaries show it, and where to look for it. */
interface Withdrawn {
  table: string
  key: string
  organizations: string[]
}

/**
 * Erases the records and orders this import withdrew (withdrawn_records, logged_orders) from the history of
 * every record that showed them. Returns the histories rewritten.
 */
export async function eraseWithdrawn(client: PoolClient): Promise<number> {
  const tables = new Map<string, string>(PUBLIC_RESOURCES.map((r) => [r.path, r.record.table]))
  const { rows: records } = await client.query<{ resource: string; id: string; organizations: string[] }>(
    'SELECT resource, id::text, organizations::text[] FROM withdrawn_records',
  )
  const { rows: orders } = await client.query<{ organization_id: string; number: string }>(
    `SELECT organization_id::text, number FROM logged_orders WHERE change = 'withdrawn'`,
  )
  const withdrawn: Withdrawn[] = [
    ...records.map((r) => ({
      table: tables.get(r.resource) as string,
      key: r.id,
      organizations: r.organizations,
    })),
    ...orders.map((o) => ({ table: Order.table, key: o.number, organizations: [o.organization_id] })),
  ].filter((w) => SHOWING.some((s) => s.table === w.table))
  // Stryker disable next-line ConditionalExpression: with nothing withdrawn the search finds nothing: this only spares it
  if (withdrawn.length === 0) return 0
  // The records whose patches give a withdrawn one back: by its key as its summary is written, in the
  // organizations it was published under, among the kinds that show its table.
  const pairs = withdrawn.flatMap((w) => {
    const showing = SHOWING.filter((s) => s.table === w.table)
    // Stryker disable next-line StringLiteral: a needle that finds more records rewrites their histories to what they were: only cost
    const needle = `"${(showing[0] as Showing).key}":${JSON.stringify(w.key)}`
    return w.organizations.map((organization) => ({
      w,
      organization,
      needle,
      parents: [...new Set(showing.map((s) => s.parent.path))],
    }))
  })
  const { rows: found } = await client.query<{ k: number; resource: string; id: string }>(
    `SELECT DISTINCT w.k::int, c.resource, c.id::text
     FROM unnest($1::uuid[], $2::text[], $3::text[]) WITH ORDINALITY w(organization_id, needle, parents, k)
     JOIN public_changes c ON c.organization_id = w.organization_id
       AND c.resource = ANY(string_to_array(w.parents, ',')) AND c.restore IS NOT NULL
       AND strpos(c.restore, w.needle) > 0`,
    [pairs.map((p) => p.organization), pairs.map((p) => p.needle), pairs.map((p) => p.parents.join(','))],
  )
  // Each record to rewrite once, with everything withdrawn that it showed.
  const rewrites = new Map<string, { resource: PublicResource; id: string; gone: Withdrawn[] }>()
  for (const row of found) {
    const pair = pairs[row.k - 1] as (typeof pairs)[number]
    const resource = publicResource(row.resource) as PublicResource
    const key = `${row.resource}\u0000${row.id}`
    // Stryker disable next-line ArrayDeclaration: an element that is no Withdrawn matches no table
    const entry = rewrites.get(key) ?? { resource, id: row.id, gone: [] }
    entry.gone.push(pair.w)
    rewrites.set(key, entry)
  }
  for (const { resource, id, gone } of rewrites.values()) {
    // Stryker disable next-line MethodExpression,ConditionalExpression,EqualityOperator: where kinds show the same table they name it alike, so other kinds' relations scrub alike; this only spares looking
    const showing = SHOWING.filter((s) => s.parent === resource)
    await rewriteHistory(client, resource, id, {
      dropEmpty: true,
      scrub: (document) => withoutWithdrawn(document, showing, gone),
    })
  }
  return rewrites.size
}

/** A version of a record without the elements of its relations that are withdrawn records. */
function withoutWithdrawn(
  document: JsonValue,
  showing: readonly Showing[],
  gone: readonly Withdrawn[],
): JsonValue {
  const object = document as Record<string, JsonValue>
  for (const { field, table, key } of showing) {
    // Stryker disable next-line MethodExpression,ConditionalExpression: uuids and order numbers never meet, so other tables' keys remove nothing
    const keys = new Set(gone.filter((w) => w.table === table).map((w) => w.key))
    const list = object[field]
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a relation is a list in every version, and no key removes nothing
    if (keys.size === 0 || !Array.isArray(list)) continue
    object[field] = list.filter((element) => {
      const value = (element as Record<string, JsonValue>)[key]
      // Stryker disable next-line ConditionalExpression: the keys are strings, so no other value is among them
      return !(typeof value === 'string' && keys.has(value))
    })
  }
  return object
}
