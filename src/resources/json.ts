import {
  type AnyField,
  type Fields,
  isRelation,
  joins,
  type Relation,
  recordSql,
  type Shape,
  servedSql,
} from './fields.js'
import { array, type JsonField, object } from './sql.js'

// The JSON of a shape's rows, built in SQL: as served (the API's documents and listings) or as a record
// of the import format (the dump). Relations nest as arrays, in their own order.

export type Face = 'served' | 'record'

/** A field as the face has it; a relation as its array of rows. */
function value(f: AnyField | Relation, a: string, face: Face): string {
  if (!isRelation(f)) return face === 'served' ? servedSql(f, a) : recordSql(f, a)
  const { shape } = f
  const { where, orderBy } = f.rows(a)
  const names = Object.keys(shape.fields).filter((n) => face === 'served' || inRecord(shape.fields[n]))
  return array(
    jsonObject(shape, names, shape.alias, face),
    `FROM ${shape.table} ${shape.alias} ${joins(shape.fields, shape.alias)} WHERE ${where}`,
    orderBy,
  )
}

/** Whether a field is part of the import format: stored fields and owned children, not derived ones. */
export function inRecord(f: AnyField | Relation | undefined): boolean {
  if (f === undefined) return false
  return isRelation(f) ? f.embedded : !f.derived
}

/** The JSON object of the named fields of a row of alias `a`, in the given order. */
export function jsonObject<F extends Fields>(
  shape: Shape<F>,
  names: readonly string[],
  a: string,
  face: Face,
) {
  return object(jsonFields(shape, names, a, face))
}

export function jsonFields<F extends Fields>(
  shape: Shape<F>,
  names: readonly string[],
  a: string,
  face: Face,
): JsonField[] {
  return names.map((name) => {
    const f = shape.fields[name]
    if (f === undefined) throw new Error(`${shape.name} has no field ${name}`)
    return [name, value(f, a, face)] as const
  })
}

/** A shape's table with the joins its fields read through, under alias `a`; with `readBy`, those it reads. */
export function from<F extends Fields>(shape: Shape<F>, a: string = shape.alias, readBy?: string): string {
  return `${shape.table} ${a} ${joins(shape.fields, a, readBy)}`
}
