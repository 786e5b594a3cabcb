import { type AnyField, type Fields, isRelation, type Relation, sqlType } from '../resources/fields.js'
import { Order, RECORD_KINDS, type RecordKind } from '../resources/index.js'
import { inRecord } from '../resources/json.js'

// The set-based writes of the import, derived from the resources' definitions: each field is written
// where its store says (a column, a lookup's id, the supplier's id, the unit's id), owned children are
// replaced whole, suppliers and units are upserted first, and the search columns are written with the
// records.
// Every statement reads only the staging tables (src/import/stage.ts) and the data tables.

/** An owned relation of fields, by name. */
const owned = (fields: Fields) =>
  Object.entries(fields).filter((entry): entry is [string, Relation] => {
    const f = entry[1]
    return isRelation(f) && f.embedded
  })

/** A field's stage column, for the fields that place a record. */
function placed(kind: RecordKind, name: string): string | undefined {
  const p = kind.placement
  if (name === 'organization_uuid' || (p.group === 'organization' && name === p.key)) return 's.org'
  if (name === p.number) return 's.number' // before the key: an order is keyed by organization and number
  if (name === p.key) return 's.key::uuid'
  if (name === p.arp) return 's.arp_number'
  if (name === p.contract) return 's.contract_number'
  if (name === p.bidding) return 's.bidding_uuid'
  return undefined
}

/** A record kind's values as the source of its INSERT: the typed stage for orders, the jsonb otherwise. */
interface Source {
  /** `d.<field>` is the field's value, typed. */
  from: string
  columns: string[]
  values: string[]
  joins: string[]
  /** What each field's stored value is read from, in this statement: a text to search, for example. */
  read: Map<string, string>
}

function source(kind: RecordKind): Source {
  const typed = kind === (Order as RecordKind)
  const columns: string[] = []
  const values: string[] = []
  const joins: string[] = []
  const typedFields: string[] = []
  const read = new Map<string, string>()
  let unit = false
  for (const [name, f] of Object.entries(kind.fields)) {
    if (!typed && isRelation(f) && f.embedded && f.owner) {
      const names = childNames(name, f)
      if (names !== undefined) read.set(name, names)
    }
    if (!inRecord(f) || isRelation(f)) continue
    const field = f as AnyField
    const { store } = field
    const column = 'column' in store ? store.column : undefined
    const stage = placed(kind, name)
    if (stage !== undefined) {
      columns.push(column ?? name)
      values.push(stage)
      continue
    }
    typedFields.push(`${name} ${'lookup' in store || 'supplier' in store ? 'text' : sqlType(field)}`)
    if ('lookup' in store) {
      const alias = `l_${name}`
      columns.push(store.column)
      values.push(`${alias}.id`)
      joins.push(`JOIN ${store.lookup} ${alias} ON ${alias}.name = d.${name}`)
    } else if ('supplier' in store) {
      // The supplier's name is written to suppliers first; a record reads it back from there.
      read.set(name, `sp.${store.supplier}`)
      if (store.supplier !== 'document') continue
      columns.push('supplier_id')
      values.push('sp.id')
      // A record that may name no supplier (a PNCP ata) is written with none.
      joins.push(`${field.nullable ? 'LEFT JOIN' : 'JOIN'} suppliers sp ON sp.document = d.${name}`)
    } else if ('unit' in store) {
      if (unit) continue
      unit = true
      const [nameField, shortField] = unitFields(kind)
      columns.push('unit_id')
      values.push('u.id')
      joins.push(
        `JOIN units u ON u.organization_id = s.org AND u.name = d.${nameField} AND u.name_short = d.${shortField}`,
      )
    } else if (column !== undefined) {
      columns.push(column)
      values.push(`d.${name}`)
      read.set(name, `d.${name}`)
    }
  }
  if (kind.placement.typeColumn) {
    columns.push(kind.placement.typeColumn)
    values.push('s.type')
  }
  return {
    from: typed
      ? 'JOIN import_orders d ON d.seq = s.seq'
      : `CROSS JOIN LATERAL jsonb_to_record(s.doc) AS d(${typedFields.join(', ')})`,
    columns,
    values,
    joins,
    read,
  }
}

/**
 * The search column's value (migrations/0003_search.sql) as the record is written: its own fields, its
 * supplier's name and its children's names, read from the stage and the suppliers written first. Written
 * by the upsert, a row is not written twice (an UPDATE after the children rewrote every index entry of it).
 */
function searchOnWrite(kind: RecordKind, read: ReadonlyMap<string, string>): string | undefined {
  const parts = kind.search?.map((name) => read.get(name))
  if (!parts || parts.some((part) => part === undefined)) return undefined
  return `to_tsvector('compras_pt', concat_ws(' ', ${parts.join(', ')}))`
}

/**
 * The names of a record's owned children, in their order, as the stored search reads them (`storedSearch`):
 * from the staged record, through the suppliers written first where a child's name is its supplier's.
 */
function childNames(name: string, relation: Relation): string | undefined {
  const fields = Object.entries(relation.shape.fields)
  const label = relation.shape.fields.name
  if (label === undefined || isRelation(label)) return undefined
  const elements = `jsonb_array_elements(s.doc->'${name}') WITH ORDINALITY e(value, ord)`
  if ('supplier' in label.store && label.store.supplier === 'name') {
    const document = fields.find(
      ([, f]) => !isRelation(f) && 'supplier' in f.store && f.store.supplier === 'document',
    )
    if (!document) return undefined
    // The supplier looked up per element, through its unique index: as a join, with the function's rows
    // unknown to it, the planner hashed the whole suppliers table once per record. Every child's supplier was
    // written first, so none is null.
    return `(SELECT string_agg((SELECT sw.name FROM suppliers sw WHERE sw.document = e.value->>'${document[0]}'),
      ' ' ORDER BY e.ord) FROM ${elements})`
  }
  if ('column' in label.store)
    return `(SELECT string_agg(e.value->>'name', ' ' ORDER BY e.ord) FROM ${elements})`
  return undefined
}

/** The fields that name a record's unit (its name and short name), for orders. */
function unitFields(kind: RecordKind): [string, string] {
  const byUnit = (attribute: 'name' | 'name_short') =>
    Object.entries(kind.fields).find(
      ([, f]) => !isRelation(f) && 'unit' in f.store && f.store.unit === attribute,
    )?.[0]
  return [byUnit('name') as string, byUnit('name_short') as string]
}

/**
 * Inserts or replaces the records of one kind, each by its conflict key. Into an empty table (`first`) it
 * only inserts: the stage holds one line per key (superseded lines dropped, clashes refused), so nothing
 * can conflict, and ON CONFLICT's speculative insertion would cost a third more.
 */
function upsert(kind: RecordKind, first = false): string {
  const { from: sourceFrom, columns, values, joins, read } = source(kind)
  if (kind.search) {
    const search = searchOnWrite(kind, read)
    if (search === undefined)
      throw new Error(`${kind.table}: a search field the import cannot read as it writes`)
    columns.push('search')
    values.push(search)
  }
  const conflict = kind.placement.conflict
  const updates = [...columns, 'updated_at'].filter((c) => !conflict.includes(c))
  return `
INSERT INTO ${kind.table} (${[...columns, 'updated_at'].join(', ')})
SELECT ${[...values, 'now()'].join(', ')}
FROM import_stage s ${sourceFrom}
${joins.join('\n')}
WHERE s.grp = '${kind.placement.group}' AND NOT s.withdraw
${first ? '' : `ON CONFLICT (${conflict.join(', ')}) DO UPDATE SET ${updates.map((c) => `${c} = excluded.${c}`).join(', ')}`}`
}

/**
 * The columns and values of owned children read from JSON elements `e`: their own columns, their
 * supplier's id; `fixed` columns, their position. Children of children come after, joined by position.
 */
function childValues(relation: Relation, element: string) {
  const columns: string[] = []
  const values: string[] = []
  const joins: string[] = []
  for (const [name, f] of Object.entries(relation.shape.fields)) {
    if (isRelation(f)) continue
    const { store } = f
    if ('supplier' in store) {
      if (store.supplier !== 'document') continue
      columns.push('supplier_id')
      values.push(`sp_${element}.id`)
      joins.push(`JOIN suppliers sp_${element} ON sp_${element}.document = ${element}.value->>'${name}'`)
    } else if ('column' in store) {
      columns.push(store.column)
      const text = `${element}.value->>'${name}'`
      values.push(sqlType(f) === 'text' ? text : `(${text})::${sqlType(f)}`)
    }
  }
  for (const [column, value] of Object.entries(relation.owner?.fixed ?? {})) {
    columns.push(column)
    values.push(`'${value}'`)
  }
  columns.push('position')
  values.push(`${element}.ord`)
  return { columns, values, joins }
}

/** Replaces the owned children of the staged records of a kind (their own children go with them). */
/** A kind's owned children, replaced whole; into empty tables (`first`), only inserted. */
function children(kind: RecordKind, first = false): string[] {
  const group = kind.placement.group
  const staged = `SELECT key::uuid FROM import_stage WHERE grp = '${group}' AND NOT withdraw`
  return owned(kind.fields).flatMap(([name, relation]) => {
    const { shape, owner } = relation
    if (!owner) return []
    const fixed = Object.entries(owner.fixed ?? {})
      .map(([column, value]) => ` AND ${column} = '${value}'`)
      .join('')
    const own = childValues(relation, 'e')
    const statements = [
      ...(first ? [] : [`DELETE FROM ${shape.table} WHERE ${owner.column} IN (${staged})${fixed}`]),
      `INSERT INTO ${shape.table} (${owner.column}, ${own.columns.join(', ')})
       SELECT s.key::uuid, ${own.values.join(', ')}
       FROM import_stage s CROSS JOIN LATERAL jsonb_array_elements(s.doc->'${name}') WITH ORDINALITY e(value, ord)
       ${own.joins.join(' ')}
       WHERE s.grp = '${group}' AND NOT s.withdraw`,
    ]
    // Children of the children (a term's documents), joined to their owner row by its position.
    for (const [inner, nested] of owned(shape.fields)) {
      if (!nested.owner) continue
      const values = childValues(nested, 'n')
      statements.push(`INSERT INTO ${nested.shape.table} (${nested.owner.column}, ${values.columns.join(', ')})
       SELECT c.id, ${values.values.join(', ')}
       FROM import_stage s CROSS JOIN LATERAL jsonb_array_elements(s.doc->'${name}') WITH ORDINALITY e(value, ord)
       JOIN ${shape.table} c ON c.${owner.column} = s.key::uuid AND c.position = e.ord${fixed.replaceAll(' AND ', ' AND c.')}
       CROSS JOIN LATERAL jsonb_array_elements(e.value->'${inner}') WITH ORDINALITY n(value, ord)
       ${values.joins.join(' ')}
       WHERE s.grp = '${group}' AND NOT s.withdraw`)
    }
    return statements
  })
}

/** An order's items, from their typed stage: replaced whole; into an empty table (`first`), only inserted. */
function orderItems(first = false): string[] {
  const [name, relation] = owned(Order.fields)[0] as [string, Relation]
  const { shape, owner } = relation
  const columns = Object.keys(shape.fields)
  return [
    ...(first
      ? []
      : [
          `DELETE FROM ${shape.table} i USING orders o, import_stage s
     WHERE s.grp = 'order' AND o.organization_id = s.org AND o.number = s.number AND i.${owner?.column} = o.id`,
        ]),
    `INSERT INTO ${shape.table} (${owner?.column}, position, ${columns.join(', ')})
     SELECT o.id, i.position, ${columns.map((c) => `i.${c}`).join(', ')}
     FROM import_items i
     JOIN import_stage s ON s.seq = i.seq
     JOIN orders o ON o.organization_id = s.org AND o.number = s.number
     -- ${name}`,
  ]
}

/** Every (seq, sub, supplier document, supplier name) this run names, from every kind and owned child. */
function supplierMentions(): string {
  const parts: string[] = []
  for (const kind of RECORD_KINDS) {
    const group = kind.placement.group
    const supplierOf = (fields: Fields, attribute: 'document' | 'name') =>
      Object.entries(fields).find(
        ([, f]) => !isRelation(f) && 'supplier' in f.store && f.store.supplier === attribute,
      )?.[0]
    const document = supplierOf(kind.fields, 'document')
    const name = supplierOf(kind.fields, 'name')
    if (document && name) {
      parts.push(
        kind === (Order as RecordKind)
          ? `SELECT s.seq, 0 AS sub, d.${document} AS document, d.${name} AS name
             FROM import_stage s JOIN import_orders d ON d.seq = s.seq WHERE s.grp = '${group}'`
          : `SELECT s.seq, 0 AS sub, s.doc->>'${document}' AS document, s.doc->>'${name}' AS name
             FROM import_stage s WHERE s.grp = '${group}' AND NOT s.withdraw
             ${(kind.fields[document] as AnyField).nullable ? `AND s.doc->>'${document}' IS NOT NULL` : ''}`,
      )
    }
    for (const [relationName, relation] of owned(kind.fields)) {
      const d = supplierOf(relation.shape.fields, 'document')
      const n = supplierOf(relation.shape.fields, 'name')
      if (!d || !n) continue
      parts.push(`SELECT s.seq, e.ord AS sub, e.value->>'${d}' AS document, e.value->>'${n}' AS name
        FROM import_stage s CROSS JOIN LATERAL jsonb_array_elements(s.doc->'${relationName}') WITH ORDINALITY e(value, ord)
        WHERE s.grp = '${group}' AND NOT s.withdraw`)
    }
  }
  return parts.join('\n  UNION ALL\n  ')
}

/** One row per tax id: the last record of the run that names a supplier gives its name. */
const UPSERT_SUPPLIERS = `
INSERT INTO suppliers (document, name)
SELECT DISTINCT ON (document) document, name FROM (
  ${supplierMentions()}
) found
ORDER BY document, seq DESC, sub DESC
ON CONFLICT (document) DO UPDATE SET name = excluded.name`

/**
 * Every name a company (CNPJ) is recorded under, with the first and last day an import gave it: what its page
 * lists. A person's name is not kept here: a person has no page.
 */
const RECORD_SUPPLIER_NAMES = `
INSERT INTO supplier_names (supplier_id, name, first_seen, last_seen)
SELECT sp.id, found.name, current_date, current_date FROM (
  SELECT DISTINCT document, name FROM (
  ${supplierMentions()}
  ) mentioned WHERE length(document) = 14
) found JOIN suppliers sp ON sp.document = found.document
ON CONFLICT (supplier_id, name) DO UPDATE SET last_seen = excluded.last_seen`

/** The suppliers this run names, as they were: a changed name must reach other organizations' documents. */
export const SNAPSHOT_SUPPLIERS = `
CREATE TEMP TABLE import_suppliers_before ON COMMIT DROP AS
SELECT id, name FROM suppliers WHERE document IN (SELECT document FROM (
  ${supplierMentions()}
) found)`

/** The units the run's orders name, per organization. */
function upsertUnits(): string {
  const [name, short] = unitFields(Order as RecordKind)
  return `
INSERT INTO units (organization_id, name, name_short)
SELECT DISTINCT s.org, d.${name}, d.${short}
FROM import_stage s JOIN import_orders d ON d.seq = s.seq
WHERE s.grp = 'order'
ON CONFLICT (organization_id, name, name_short) DO NOTHING`
}

const byGroup = (group: string) => RECORD_KINDS.find((k) => k.placement.group === group) as RecordKind

/** The statement that deletes the records of a kind the run withdraws (with their owned children). */
const withdrawal = (kind: RecordKind) =>
  kind === (Order as RecordKind)
    ? `DELETE FROM orders o USING import_stage s
       WHERE s.withdraw AND s.grp = 'order' AND o.organization_id = s.org AND o.number = s.number`
    : `DELETE FROM ${kind.table} WHERE id IN (
         SELECT key::uuid FROM import_stage WHERE withdraw AND grp = '${kind.placement.group}')`

/**
 * The records the run withdraws, deleted before the writes, what points to them first, so that a record
 * written in their place (the same number under another key) finds it gone. Biddings are the exception:
 * contracts and ARPs point to them by key, and a file may relink those while it withdraws the bidding
 * (import-format.md), so biddings go after contracts and ARPs are written.
 */
const WITHDRAWALS: readonly string[] = [...RECORD_KINDS]
  .reverse()
  .filter((kind) => kind.placement.group !== 'organization' && kind.placement.group !== 'bidding')
  .map(withdrawal)

/**
 * Tables to analyze at that point when the run changes a large share of them: fresh statistics, or the
 * planner joins the stage to a table it believes empty and multiplies rows (src/import/importer.ts).
 */
export interface Analyze {
  analyze: readonly string[]
}

/**
 * In dependency order: what a statement joins to is written before it. `first`: a first load, into
 * tables with no record stored yet but organizations (and perhaps suppliers and units left by withdrawn
 * records, which stay upserts): records and children are only inserted, with nothing to replace.
 */
function writeSteps(first: boolean): readonly (string | Analyze)[] {
  return [
    ...WITHDRAWALS,
    upsert(byGroup('organization')),
    UPSERT_SUPPLIERS,
    RECORD_SUPPLIER_NAMES,
    upsertUnits(),
    { analyze: ['units', 'suppliers'] },
    upsert(byGroup('bidding'), first),
    ...children(byGroup('bidding'), first),
    upsert(byGroup('arp'), first),
    ...children(byGroup('arp'), first),
    upsert(byGroup('contract'), first),
    ...children(byGroup('contract'), first),
    withdrawal(byGroup('bidding')),
    { analyze: ['biddings', 'arps', 'contracts'] },
    upsert(byGroup('order'), first),
    ...orderItems(first),
  ]
}

export const WRITE_STEPS = writeSteps(false)
export const FIRST_LOAD_STEPS = writeSteps(true)

/** Every table an import writes, for the statistics after a large run. */
export const WRITTEN_TABLES: readonly string[] = [
  'organizations',
  'units',
  'suppliers',
  'biddings',
  'bidding_providers',
  'arps',
  'contracts',
  'contract_people',
  'contract_commitments',
  'additive_terms',
  'documents',
  'orders',
  'order_items',
]
