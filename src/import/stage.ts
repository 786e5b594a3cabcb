import { copyRow } from '../db/copy.js'
import type { RecordType } from '../domain.js'
import { type AnyField, isRelation, sqlType } from '../resources/fields.js'
import { Order, RECORD_KINDS, type RecordKind } from '../resources/index.js'
import { inRecord } from '../resources/json.js'
import { OrderItem } from '../resources/shapes.js'
import { columnOf } from './references.js'

// The staging half of the import. Validated lines are copied into temporary tables: every record's key and
// links into import_stage (with the record as jsonb, except orders), and orders and their items, which are
// most of any load, into typed tables whose columns come from the order's definition.

/** A staged column: its name and SQL type. The table and its COPY list are both made from one list. */
export type StagedColumn = readonly [name: string, type: string]

/** The fields of a record kind that place it (its key, number and links): staged in import_stage. */
export function placementFields(kind: RecordKind): Set<string> {
  const p = kind.placement
  return new Set(
    ['organization_uuid', p.key, p.number, p.arp, p.contract, p.bidding].filter(
      (n): n is string => n !== undefined,
    ),
  )
}

/** An order's own values (every stored field but its placement and its items), in import_orders. */
export const ORDER_COLUMNS: readonly StagedColumn[] = Object.entries(Order.fields)
  .filter(([name, f]) => inRecord(f) && !isRelation(f) && !placementFields(Order as RecordKind).has(name))
  .map(([name, f]) => [name, sqlType(f as AnyField)] as const)

/** An item's values, in import_items, after the order's seq and the item's position. */
export const ITEM_COLUMNS: readonly StagedColumn[] = Object.entries(OrderItem.fields).map(
  ([name, f]) => [name, sqlType(f as AnyField)] as const,
)

const table = (name: string, columns: readonly StagedColumn[]) =>
  `CREATE TEMP TABLE ${name} (${columns.map(([c, t]) => `${c} ${t}`).join(', ')}) ON COMMIT DROP`
const copy = (name: string, columns: readonly StagedColumn[]) =>
  `COPY ${name} (${columns.map(([c]) => c).join(', ')}) FROM STDIN`

/** The columns of import_stage, in the order the stager writes them. */
export const STAGE_COLUMNS: readonly StagedColumn[] = [
  ['seq', 'bigint NOT NULL'],
  ['file', 'integer NOT NULL'],
  ['line', 'integer NOT NULL'],
  ['grp', 'text NOT NULL'], // key space: organization, order, contract, arp, bidding
  ['type', 'text NOT NULL'],
  ['org', 'uuid NOT NULL'],
  ['key', 'text NOT NULL'],
  ['number', 'text'], // natural key: order number, contract_number, ARP number, bidding number
  ['arp_number', 'text'], // links
  ['contract_number', 'text'],
  ['bidding_uuid', 'uuid'],
  ['doc', 'jsonb'], // the record, except for orders (typed in import_orders); null for a withdrawal
  ['withdraw', 'boolean NOT NULL'], // a withdrawal of the record with this key, not the record itself
  ['version', 'timestamptz'], // when its source last changed it, for a kind with placement.version
]
const ORDER_STAGE: readonly StagedColumn[] = [['seq', 'bigint NOT NULL'], ...ORDER_COLUMNS]
const ITEM_STAGE: readonly StagedColumn[] = [
  ['seq', 'bigint NOT NULL'],
  ['position', 'smallint'],
  ...ITEM_COLUMNS,
]

export const CREATE_STAGE = [
  table('import_stage', STAGE_COLUMNS),
  table('import_orders', ORDER_STAGE),
  table('import_items', ITEM_STAGE),
].join(';\n')

export const COPY_STAGE = copy('import_stage', STAGE_COLUMNS)
export const COPY_ORDERS = copy('import_orders', ORDER_STAGE)
export const COPY_ITEMS = copy('import_items', ITEM_STAGE)

/** The record kind of each import type. */
const KIND_OF: ReadonlyMap<string, RecordKind> = new Map(
  RECORD_KINDS.flatMap((kind) => kind.types.map((type) => [type, kind] as const)),
)

/** One valid record's rows in COPY's text format, per staging table ('' where it has none). */
export interface StagedRows {
  stage: string
  orders: string
  items: string
}

/**
 * The staging rows of one valid record: its key and links (and its body as jsonb, except orders) in
 * import_stage, an order's typed values in import_orders and its items in import_items.
 */
export function stageRows(
  seq: number,
  file: number,
  line: number,
  record: Record<string, unknown>,
  raw: string,
): StagedRows {
  const withdraw = record.type === 'withdraw'
  const type = (withdraw ? record.record : record.type) as RecordType
  const kind = KIND_OF.get(type) as RecordKind
  const { group, key, number, arp, contract, bidding, version } = kind.placement
  const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : null)
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a withdrawal has none of these fields; read, they give null too
  const value = (name: string | undefined) => (name === undefined || withdraw ? null : record[name])
  const org = lower(group === 'organization' ? record[key] : record.organization_uuid) as string
  // An order is keyed by its organization and number; every other record by its own id.
  const id = group === 'order' ? `${org} ${record[key] as string}` : (lower(record[key]) as string)
  // A withdrawal carries its key only; an order's number is its key.
  const links = [
    group === 'order' ? record.number : value(number),
    value(arp),
    value(contract),
    lower(value(bidding)),
  ]
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: the staged body of an order or a withdrawal is never read
  const doc = group === 'order' || withdraw ? null : raw
  const stage = copyRow([
    seq,
    file,
    line,
    group,
    type,
    org,
    id,
    ...links,
    doc,
    withdraw,
    value(version) ?? null,
  ])
  if (group !== 'order' || withdraw) return { stage, orders: '', items: '' }
  const items = record.items as Record<string, unknown>[]
  return {
    stage,
    orders: copyRow([seq, ...ORDER_COLUMNS.map(([column]) => record[column])]),
    // Stryker disable next-line ArithmeticOperator: positions only keep the items in order, which shifted ones do too
    items: items
      .map((item, i) => copyRow([seq, i + 1, ...ITEM_COLUMNS.map(([column]) => item[column])]))
      .join(''),
  }
}

/**
 * The last line wins when a file holds the same key twice; of two versioned lines (placement.version), the
 * newer, whatever their order, and a line without a version (a withdrawal, a record of the platform's own
 * format) after both. One sort by key finds every line that another supersedes, about twice as fast as a
 * self-join.
 */
export const DROP_SUPERSEDED = `
DELETE FROM import_stage WHERE seq IN (
  SELECT seq FROM (
    SELECT seq, lead(seq) OVER (PARTITION BY grp, key ORDER BY version NULLS LAST, seq) AS later
    FROM import_stage
  ) lines
  WHERE later IS NOT NULL)`

/** Whether a staged line `s` brings owned children of the kind (a list that is not empty). */
const bringsChildren = (kind: RecordKind) => {
  const lists = Object.entries(kind.fields)
    .filter(([, f]) => isRelation(f) && f.embedded)
    .map(([name]) => `jsonb_array_length(coalesce(s.doc->'${name}', '[]')) > 0`)
  return lists.length === 0 ? 'FALSE' : `(${lists.join(' OR ')})`
}

/**
 * Versioned lines no newer than the stored record they would replace: dropped, so that files arriving in any
 * order never put an older version back, and a file imported again costs its reading only. A line as old as
 * the stored record is its source's same version, the same record: dropped too, unless it brings owned
 * children (a contratação's items harvested after it was imported), which it then writes; one without leaves
 * the stored children alone.
 */
export const DROP_OLDER = RECORD_KINDS.filter((kind) => kind.placement.version !== undefined)
  .map((kind) => {
    const stored = `t.${columnOf(kind, kind.placement.version as string)}`
    return `
DELETE FROM import_stage s USING ${kind.table} t
WHERE s.grp = '${kind.placement.group}' AND NOT s.withdraw AND s.version IS NOT NULL
  AND t.${kind.placement.key} = s.key::uuid
  AND (${stored} > s.version OR (${stored} = s.version AND NOT ${bringsChildren(kind)}))`
  })
  .join(';\n')

export const INDEX_STAGE = `
CREATE INDEX ON import_stage (grp, org, number);
CREATE INDEX ON import_orders (seq);
ANALYZE import_stage, import_orders`

/** Rows of the table that this run withdraws (by the key column `key` of alias `a`), as a condition. */
const withdrawn = (grp: string, a: string, key = 'id') =>
  `EXISTS (SELECT 1 FROM import_stage w WHERE w.withdraw AND w.grp = '${grp}' AND w.key = ${a}.${key}::text)`

/** Every broken link or key clash, as (file, line, field, reason). Withdrawn records do not exist. */
export const LINK_PROBLEMS = `
SELECT file, line, field, reason FROM (
  SELECT s.file, s.line, 'organization_uuid' AS field, 'names no organization' AS reason
  FROM import_stage s
  WHERE s.grp <> 'organization' AND NOT s.withdraw
    -- One anti-join with the organizations known, stored or staged: as two, the planner counted on one row
    -- left after the first (on a first load, none are stored) and probed the stage's index once a line.
    AND NOT EXISTS (SELECT 1 FROM (SELECT o.id FROM organizations o
      UNION ALL SELECT t.org FROM import_stage t WHERE t.grp = 'organization') known WHERE known.id = s.org)
  UNION ALL
  SELECT s.file, s.line, 'bidding_uuid', 'names no direct contract or public call of this organization'
  FROM import_stage s
  WHERE s.bidding_uuid IS NOT NULL AND NOT s.withdraw
    AND NOT EXISTS (SELECT 1 FROM biddings b WHERE b.id = s.bidding_uuid AND b.organization_id = s.org
      AND NOT ${withdrawn('bidding', 'b')})
    AND NOT EXISTS (SELECT 1 FROM import_stage t WHERE t.grp = 'bidding' AND NOT t.withdraw AND t.org = s.org
      AND t.key = s.bidding_uuid::text)
  UNION ALL
  SELECT s.file, s.line, 'arp_number', 'names no ARP of this organization'
  FROM import_stage s
  WHERE s.arp_number IS NOT NULL AND NOT s.withdraw
    AND NOT EXISTS (SELECT 1 FROM arps a WHERE a.organization_id = s.org AND a.number = s.arp_number
      AND NOT EXISTS (SELECT 1 FROM import_stage t WHERE t.grp = 'arp' AND t.key = a.id::text))
    AND NOT EXISTS (SELECT 1 FROM import_stage t WHERE t.grp = 'arp' AND NOT t.withdraw AND t.org = s.org
      AND t.number = s.arp_number)
  UNION ALL
  SELECT s.file, s.line, 'contract_number', 'names no contract of this organization'
  FROM import_stage s
  WHERE s.contract_number IS NOT NULL AND NOT s.withdraw
    AND NOT EXISTS (SELECT 1 FROM contracts c WHERE c.organization_id = s.org AND c.contract_number = s.contract_number
      AND NOT EXISTS (SELECT 1 FROM import_stage t WHERE t.grp = 'contract' AND t.key = c.id::text))
    AND NOT EXISTS (SELECT 1 FROM import_stage t WHERE t.grp = 'contract' AND NOT t.withdraw AND t.org = s.org
      AND t.number = s.contract_number)
  UNION ALL
  SELECT s.file, s.line, CASE s.grp WHEN 'contract' THEN 'contract_number' ELSE 'number' END,
    'is used by another ' || CASE s.grp WHEN 'contract' THEN 'contract' ELSE 'ARP' END ||
    ' of this organization (id ' || coalesce(c.id, a.id) || ')'
  FROM import_stage s
  LEFT JOIN contracts c ON s.grp = 'contract' AND c.organization_id = s.org AND c.contract_number = s.number
  LEFT JOIN arps a ON s.grp = 'arp' AND a.organization_id = s.org AND a.number = s.number
  WHERE s.grp IN ('contract', 'arp') AND NOT s.withdraw AND coalesce(c.id, a.id)::text <> s.key
    AND NOT EXISTS (SELECT 1 FROM import_stage t WHERE t.grp = s.grp AND t.key = coalesce(c.id, a.id)::text)
  UNION ALL
  SELECT s.file, s.line, CASE s.grp WHEN 'contract' THEN 'contract_number' ELSE 'number' END,
    'is used by another ' || CASE s.grp WHEN 'contract' THEN 'contract' ELSE 'ARP' END ||
    ' of this organization (line ' || t.line || ')'
  FROM import_stage s
  JOIN import_stage t ON t.grp = s.grp AND t.org = s.org AND t.number = s.number AND t.seq < s.seq AND NOT t.withdraw
    AND t.grp IN ('contract', 'arp') -- said of t too: the planner does not carry a list from s to t
  WHERE s.grp IN ('contract', 'arp') AND NOT s.withdraw
) problems
ORDER BY file, line`
