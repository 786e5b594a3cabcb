import type { JsonValue } from '../json.js'
import { type AnyField, isRelation, type Relation, type Shape } from '../resources/fields.js'
import { elementKey } from './patch.js'

// What changed from one version of a record to the next, named so that a person can read it: computed once,
// when the import makes the version (src/readmodel/log.ts), and kept beside the entry, so that a history costs
// what changed, not its versions times the record's size.

/** One difference between two versions: where, in a person's words, and the values before and after. */
export interface Difference {
  /** The path of the field: `amount_total`, `terms[3].value`, an array element by its number, name or id. */
  field: string
  /** The same, in Portuguese, from the resource's labels: `Termos aditivos › 3 › Valor`. */
  label: string
  /** null for what the later version added. */
  before: JsonValue
  /** null for what it removed. */
  after: JsonValue
  /**
   * The declared fields it lies under, from the record's shape: `['terms', 'value']`; for a whole element of a
   * relation added or removed, the relation's name alone.
   */
  path: string[]
}

const isObject = (value: JsonValue): value is { [key: string]: JsonValue } =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const same = (a: JsonValue, b: JsonValue) => JSON.stringify(a) === JSON.stringify(b)

/** How an element is named in a path: its number, then its name, then its id, else its place (from 1). */
function elementName(element: JsonValue, position: number): string {
  if (isObject(element)) {
    for (const name of ['number', 'name', 'id', 'uuid']) {
      const value = element[name]
      if (typeof value === 'string' || typeof value === 'number') return String(value)
    }
  }
  return `#${position + 1}`
}

/** The differences between two versions of a record (or of two elements of a relation), in field order. */
export function differences(
  shape: Shape,
  before: JsonValue,
  after: JsonValue,
  path = '',
  label = '',
  declared: readonly string[] = [],
): Difference[] {
  const found: Difference[] = []
  if (!isObject(before) || !isObject(after)) return found
  for (const name of Object.keys(after)) {
    const was = before[name] as JsonValue
    const is = after[name] as JsonValue
    if (same(was, is)) continue
    const field = shape.fields[name] as AnyField | Relation | undefined
    const at = path ? `${path}.${name}` : name
    const named = `${label ? `${label} › ` : ''}${field?.label ?? name}`
    if (field && isRelation(field) && Array.isArray(was) && Array.isArray(is)) {
      found.push(...elements(field.shape, was, is, at, named, [...declared, name]))
      continue
    }
    found.push({ field: at, label: named, before: was ?? null, after: is ?? null, path: [...declared, name] })
  }
  return found
}

/** The differences between two versions of a relation's rows: added, removed, and changed elements. */
function elements(
  shape: Shape,
  before: JsonValue[],
  after: JsonValue[],
  path: string,
  label: string,
  declared: readonly string[],
): Difference[] {
  const keyed = [...before, ...after].every((element) => elementKey(element) !== undefined)
  const key = (element: JsonValue, i: number) => (keyed ? (elementKey(element) as string) : `#${i}`)
  // Each element of the earlier version under its key, with its place there (which names it when it has no key).
  const previous = new Map(before.map((element, i) => [key(element, i), { element, i }]))
  const found: Difference[] = []
  after.forEach((element, i) => {
    const name = elementName(element, i)
    const was = previous.get(key(element, i))?.element
    previous.delete(key(element, i))
    if (was === undefined)
      found.push({
        field: `${path}[${name}]`,
        label: `${label} › ${name}`,
        before: null,
        after: element,
        path: [...declared],
      })
    else found.push(...differences(shape, was, element, `${path}[${name}]`, `${label} › ${name}`, declared))
  })
  for (const { element, i } of previous.values()) {
    const name = elementName(element, i)
    found.push({
      field: `${path}[${name}]`,
      label: `${label} › ${name}`,
      before: element,
      after: null,
      path: [...declared],
    })
  }
  return found
}

/**
 * What a difference's path names in the record's shape: the field it is (for its formatting), or, for a
 * whole element of a relation, the relation's shape (for describing the element).
 */
export function declaredAt(record: Shape, path: readonly string[]): { declared?: AnyField; shape?: Shape } {
  let shape = record
  let found: AnyField | Relation | undefined
  for (const name of path) {
    found = shape.fields[name] as AnyField | Relation | undefined
    if (found === undefined) return {}
    if (isRelation(found)) shape = found.shape
  }
  if (found === undefined) return {}
  return isRelation(found) ? { shape: found.shape } : { declared: found }
}

/** The differences between two documents' texts, as kept beside the entry of the later one (JSON text). */
export function storedDifferences(record: Shape, beforeText: string, afterText: string): string {
  return JSON.stringify(
    differences(record, JSON.parse(beforeText) as JsonValue, JSON.parse(afterText) as JsonValue),
  )
}
