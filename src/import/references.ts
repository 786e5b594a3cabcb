import type { AnyField } from '../resources/fields.js'
import { RECORD_KINDS, type RecordKind } from '../resources/index.js'

// How records point to each other, from the kinds' placements (src/resources): an order's contract_number
// names a contract's contract_number, a contract's bidding_uuid a bidding's id, and so on. The import uses
// them to refuse a withdrawal (or a renumbering) that would leave stored records pointing to nothing.

export interface Reference {
  /** The kind whose rows point. */
  from: RecordKind
  /** Its column that holds the pointer. */
  column: string
  /** The kind pointed to. */
  to: RecordKind
  /** The column pointed at: a number, or the id. */
  target: string
  /** Whether the two rows share an organization (links by number do; an id is unique anyway). */
  sameOrganization: boolean
}

const byGroup = (group: string) => RECORD_KINDS.find((k) => k.placement.group === group) as RecordKind
/** The column a field of a kind is stored in. */
export const columnOf = (kind: RecordKind, name: string) => {
  const store = (kind.fields[name] as AnyField).store
  return 'column' in store ? store.column : name
}

export const REFERENCES: readonly Reference[] = RECORD_KINDS.flatMap((from) => {
  const p = from.placement
  const refs: Reference[] = []
  for (const [link, group] of [
    [p.contract, 'contract'],
    [p.arp, 'arp'],
    [p.bidding, 'bidding'],
  ] as const) {
    if (!link) continue
    const to = byGroup(group)
    const byId = group === 'bidding'
    refs.push({
      from,
      column: columnOf(from, link),
      to,
      target: byId ? 'id' : columnOf(to, to.placement.number as string),
      sameOrganization: !byId,
    })
  }
  return refs
})

/** A staged line of the kind, matched to its stored row `r` (orders by organization and number). */
const stagedRow = (kind: RecordKind, r: string, x: string) =>
  kind.placement.group === 'order'
    ? `${x}.grp = 'order' AND ${x}.org = ${r}.organization_id AND ${x}.number = ${r}.number`
    : `${x}.grp = '${kind.placement.group}' AND ${x}.key = ${r}.id::text`

const NOUNS: Record<string, [singular: string, plural: string]> = {
  order: ['order', 'orders'],
  contract: ['contract', 'contracts'],
  arp: ['ARP', 'ARPs'],
  direct_contract: ['direct contract', 'direct contracts'],
  public_call: ['public call', 'public calls'],
}

/** A withdrawal of a record that is not stored (in its organization, and of its type). */
function missing(kind: RecordKind): string {
  const r = 'r'
  const group = kind.placement.group
  const stored =
    group === 'order'
      ? `SELECT 1 FROM orders r WHERE r.organization_id = s.org AND r.number = s.number`
      : `SELECT 1 FROM ${kind.table} r WHERE r.id = s.key::uuid AND r.organization_id = s.org` +
        (kind.placement.typeColumn ? ` AND ${r}.${kind.placement.typeColumn} = s.type` : '')
  const field = group === 'order' ? 'number' : 'id'
  const noun = `CASE s.type ${Object.entries(NOUNS)
    .map(([type, [singular]]) => `WHEN '${type}' THEN '${singular}'`)
    .join(' ')} END`
  return `
  SELECT s.file, s.line, '${field}' AS field, 'names no stored ' || ${noun} || ' of this organization' AS reason
  FROM import_stage s WHERE s.withdraw AND s.grp = '${group}' AND NOT EXISTS (${stored})`
}

/**
 * Stored records, not themselves in this run, that point to a record the run withdraws, or to the number
 * a record had before the run gives it another.
 */
function dangling(ref: Reference): string {
  const { from, to } = ref
  const [, plural] = NOUNS[from.placement.group] as [string, string]
  const label = columnOf(from, from.placement.number as string)
  const renumbers = ref.target !== 'id'
  const changed = renumbers ? `(s.withdraw OR s.number IS DISTINCT FROM t.${ref.target})` : 's.withdraw'
  const field = renumbers ? `CASE WHEN s.withdraw THEN 'id' ELSE '${ref.target}' END` : `'id'`
  const example = `l.n || ' ${plural} (' || l.example || CASE WHEN l.n > 1 THEN ', ...' ELSE '' END || ')'`
  const reason = renumbers
    ? `CASE WHEN s.withdraw THEN 'is linked by ' || ${example} || '; withdraw or relink them in the same file'
       ELSE 'changes from ' || t.${ref.target} || ', which ' || ${example} || ' link to; relink or withdraw them in the same file' END`
    : `'is linked by ' || ${example} || '; withdraw or relink them in the same file'`
  return `
  SELECT s.file, s.line, ${field}, ${reason}
  FROM import_stage s JOIN ${to.table} t ON t.id = s.key::uuid
  CROSS JOIN LATERAL (
    SELECT count(*) AS n, min(f.${label}) AS example FROM ${from.table} f
    WHERE f.${ref.column} = t.${ref.target}${ref.sameOrganization ? ' AND f.organization_id = t.organization_id' : ''}
      AND NOT EXISTS (SELECT 1 FROM import_stage x WHERE ${stagedRow(from, 'f', 'x')})
  ) l
  WHERE s.grp = '${to.placement.group}' AND ${changed} AND l.n > 0
    -- a withdrawal of another organization's record, or of another type, withdraws nothing (see missing)
    AND (NOT s.withdraw OR (t.organization_id = s.org${to.placement.typeColumn ? ` AND t.${to.placement.typeColumn} = s.type` : ''}))`
}

/** Every withdrawal of nothing, and every record left pointing to nothing, as (file, line, field, reason). */
export const WITHDRAW_PROBLEMS = `
SELECT file, line, field, reason FROM (
${[
  ...RECORD_KINDS.filter((k) => k.placement.group !== 'organization').map(missing),
  ...REFERENCES.map(dangling),
].join('\n  UNION ALL')}
) problems
ORDER BY file, line`
