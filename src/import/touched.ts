import { type Fields, isRelation, type Link, linkCondition, type Shape } from '../resources/fields.js'
import { Order, RECORD_KINDS, type RecordKind } from '../resources/index.js'

// Which documents of the read model an import changed, so that it rebuilds those and no others: the
// records it wrote or withdrew, the records whose documents show them (an order's contract shows the
// order; the order shows its contract's total), before and after the run (a relinked order leaves its old
// contract too), and every record that shows a supplier whose name it changed. All derived from the
// resources' links (src/resources), filled into two temporary tables the rebuild reads:
//   touched_orders (organization_id, number)   the order documents
//   touched_records (tbl, id)                  the detail documents, by their record's table and id

/** The kinds that have documents: orders, and the records of the public resources. */
const DOCUMENTED: readonly RecordKind[] = RECORD_KINDS.filter((k) => k.placement.group !== 'organization')

const isOrder = (kind: RecordKind) => kind === (Order as RecordKind)

/** Where a kind's document is touched, for its rows of alias `k`: the target table and the values. */
function touch(kind: RecordKind, k: string): { into: string; values: string } {
  return isOrder(kind)
    ? { into: 'touched_orders (organization_id, number)', values: `${k}.organization_id, ${k}.number` }
    : { into: 'touched_records (tbl, id)', values: `'${kind.table}', ${k}.id` }
}

/** A link a kind's document reads through, and what it shows of the linked rows. */
interface Usage {
  kind: RecordKind
  link: Link
  /** The linked rows' shape, for a linked relation (a summary shows the linked record's supplier). */
  shape?: Shape
}

const hasSupplier = (fields: Fields) =>
  Object.values(fields).some((f) => !isRelation(f) && 'supplier' in f.store)

const USAGES: readonly Usage[] = DOCUMENTED.flatMap((kind) =>
  Object.values(kind.fields).flatMap((f): Usage[] => {
    if (isRelation(f)) return f.link ? [{ kind, link: f.link, shape: f.shape }] : []
    return 'link' in f.store ? [{ kind, link: f.store.link }] : []
  }),
)

const kindOfTable = (table: string) => DOCUMENTED.find((k) => k.table === table) as RecordKind

/** The columns of a table the snapshot keeps: its key, organization and supplier, and what links read. */
function snapshotColumns(kind: RecordKind): string[] {
  const columns = isOrder(kind) ? ['organization_id', 'number'] : ['id', 'organization_id']
  if (hasSupplier(kind.fields)) columns.push('supplier_id')
  for (const { link } of USAGES)
    if (link.table === kind.table && !columns.includes(link.column)) columns.push(link.column)
  return columns
}

/** A staged line matched to a row `r` of the kind (orders by organization and number, others by id). */
const staged = (kind: RecordKind, r: string, s: string) =>
  isOrder(kind)
    ? `${s}.grp = 'order' AND ${s}.org = ${r}.organization_id AND ${s}.number = ${r}.number`
    : `${s}.grp = '${kind.placement.group}' AND ${r}.id = ${s}.key::uuid`

/** Run before the writes: the staged records' rows as they were (withdrawn ones included). */
export const SNAPSHOT: readonly string[] = DOCUMENTED.map((kind) => {
  const columns = snapshotColumns(kind)
  return `CREATE TEMP TABLE before_${kind.table} ON COMMIT DROP AS
    SELECT ${columns.map((c) => `r.${c}`).join(', ')} FROM ${kind.table} r
    WHERE EXISTS (SELECT 1 FROM import_stage s WHERE ${staged(kind, 'r', 's')})`
})

/** A kind's staged rows before and after the run (the rows as they are now, for the records written). */
function changedRows(kind: RecordKind): string {
  const columns = snapshotColumns(kind)
  return `(SELECT ${columns.join(', ')} FROM before_${kind.table}
    UNION ALL SELECT ${columns.map((c) => `r.${c}`).join(', ')} FROM ${kind.table} r
    WHERE EXISTS (SELECT 1 FROM import_stage s WHERE ${staged(kind, 'r', 's')}))`
}

/** Run after the writes: every document the run changed, into touched_orders and touched_records. */
export const TOUCHED: readonly string[] = (() => {
  const statements = [
    'CREATE TEMP TABLE touched_orders (organization_id uuid, number text) ON COMMIT DROP',
    'CREATE TEMP TABLE touched_records (tbl text, id uuid) ON COMMIT DROP',
    `CREATE TEMP TABLE changed_suppliers ON COMMIT DROP AS
      SELECT b.id FROM import_suppliers_before b JOIN suppliers s ON s.id = b.id WHERE s.name IS DISTINCT FROM b.name`,
  ]
  for (const kind of DOCUMENTED) {
    // The records the run wrote or withdrew.
    const own = touch(kind, 's')
    statements.push(
      isOrder(kind)
        ? `INSERT INTO ${own.into} SELECT s.org, s.number FROM import_stage s WHERE s.grp = 'order'`
        : `INSERT INTO ${own.into} SELECT '${kind.table}', s.key::uuid FROM import_stage s WHERE s.grp = '${kind.placement.group}'`,
    )
    // Records that show a renamed supplier: their own, or an owned child's (a bidding's providers).
    const k = touch(kind, 'k')
    if (hasSupplier(kind.fields))
      statements.push(
        `INSERT INTO ${k.into} SELECT ${k.values} FROM ${kind.table} k WHERE k.supplier_id IN (SELECT id FROM changed_suppliers)`,
      )
    for (const f of Object.values(kind.fields)) {
      if (!isRelation(f) || !f.embedded || !f.owner || !hasSupplier(f.shape.fields)) continue
      statements.push(
        `INSERT INTO ${k.into} SELECT ${k.values} FROM ${kind.table} k
         WHERE k.id IN (SELECT ${f.owner.column} FROM ${f.shape.table} WHERE supplier_id IN (SELECT id FROM changed_suppliers))`,
      )
    }
  }
  for (const { kind, link, shape } of USAGES) {
    const k = touch(kind, 'k')
    const linkedKind = kindOfTable(link.table)
    // Records linked, before or after the run, to a record the run wrote or withdrew.
    statements.push(
      `INSERT INTO ${k.into} SELECT ${k.values} FROM ${kind.table} k JOIN ${changedRows(linkedKind)} x
       ON ${linkCondition(link, 'x', 'k')}`,
    )
    // Records that show a summary of a linked record whose supplier the run renamed.
    if (shape && hasSupplier(shape.fields))
      statements.push(
        `INSERT INTO ${k.into} SELECT ${k.values} FROM ${kind.table} k JOIN ${link.table} x
         ON ${linkCondition(link, 'x', 'k')} WHERE x.supplier_id IN (SELECT id FROM changed_suppliers)`,
      )
  }
  statements.push(
    'CREATE INDEX ON touched_orders (organization_id, number)',
    'CREATE INDEX ON touched_records (tbl, id)',
    'ANALYZE touched_orders, touched_records',
  )
  return statements
})()
