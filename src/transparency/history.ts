import { elementKey, type Json, restore } from '../readmodel/patch.js'
import type { ChangeRow, DocumentStore } from '../readmodel/store.js'
import { type AnyField, isRelation, type Relation, type Shape } from '../resources/fields.js'
import type { PublicResource } from '../resources/index.js'

// A public record's versions (migrations/0017_history.sql, src/readmodel/patch.ts), without HTTP: each as its
// detail endpoint served it, and what changed from one to the next, named so that a person can read it.

export interface Version {
  /** From 1, the oldest. */
  version: number
  /** When the import that made it ran (ISO 8601 UTC, microseconds); null for a record older than the log. */
  changed_at: string | null
  change: 'created' | 'updated'
  /** The record as its detail endpoint served it then (JSON text). */
  document: string
}

/**
 * Every version of a record, oldest first; undefined when there is no such record (or it was withdrawn).
 * The latest is the document served now; each earlier one is the next with the patch of the change that
 * followed it. A record published before the change log has one version: today's.
 */
export async function versionsOf(
  store: DocumentStore,
  resource: PublicResource,
  id: string,
  /** The record's document as served now, when the caller has read it already. */
  served?: string,
): Promise<Version[] | undefined> {
  const [current, rows] = await Promise.all([
    served ?? store.detail(resource.path, id),
    store.changesOf(resource.path, id),
  ])
  if (current === undefined) return undefined
  if (rows.length === 0) return [{ version: 1, changed_at: null, change: 'created', document: current }]
  const texts: string[] = new Array(rows.length)
  texts[rows.length - 1] = current
  for (let k = rows.length - 1; k > 0; k--) {
    const patch = (rows[k] as ChangeRow).restore
    // An update with no patch (written by a build before history) shows as the version after it.
    texts[k - 1] = patch === null ? (texts[k] as string) : restore(texts[k] as string, patch)
  }
  return rows.map((row, k) => ({
    version: k + 1,
    changed_at: row.changed_at,
    change: k === 0 ? 'created' : row.change,
    document: texts[k] as string,
  }))
}

/** One difference between two versions: where, in a person's words, and the values before and after. */
export interface Difference {
  /** The path of the field: `amount_total`, `terms[3].value`, an array element by its number, name or id. */
  field: string
  /** The same, in Portuguese, from the resource's labels: `Termos aditivos › 3 › Valor`. */
  label: string
  /** null for what the later version added. */
  before: Json
  /** null for what it removed. */
  after: Json
  /** The field as the resource declares it, for its formatting (undefined for a whole element). */
  declared?: AnyField
  /** The shape of the element added or removed, for describing it. */
  shape?: Shape
}

const isObject = (value: Json): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const same = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b)

/** How an element is named in a path: its number, then its name, then its id, else its place (from 1). */
function elementName(element: Json, position: number): string {
  if (isObject(element)) {
    for (const name of ['number', 'name', 'id', 'uuid']) {
      const value = element[name]
      if (typeof value === 'string' || typeof value === 'number') return String(value)
    }
  }
  return `#${position + 1}`
}

/** The differences between two versions of a record (or of two elements of a relation), in field order. */
export function differences(shape: Shape, before: Json, after: Json, path = '', label = ''): Difference[] {
  const found: Difference[] = []
  if (!isObject(before) || !isObject(after)) return found
  for (const name of Object.keys(after)) {
    const was = before[name] as Json
    const is = after[name] as Json
    if (same(was, is)) continue
    const declared = shape.fields[name] as AnyField | Relation | undefined
    const field = path ? `${path}.${name}` : name
    const named = `${label ? `${label} › ` : ''}${declared?.label ?? name}`
    if (declared && isRelation(declared) && Array.isArray(was) && Array.isArray(is)) {
      found.push(...elements(declared.shape, was, is, field, named))
      continue
    }
    found.push({
      field,
      label: named,
      before: was ?? null,
      after: is ?? null,
      ...(declared && !isRelation(declared) ? { declared } : {}),
    })
  }
  return found
}

/** The differences between two versions of a relation's rows: added, removed, and changed elements. */
function elements(shape: Shape, before: Json[], after: Json[], path: string, label: string): Difference[] {
  const keyed = [...before, ...after].every((element) => elementKey(element) !== undefined)
  const key = (element: Json, i: number) => (keyed ? (elementKey(element) as string) : `#${i}`)
  const previous = new Map(before.map((element, i) => [key(element, i), element]))
  const found: Difference[] = []
  after.forEach((element, i) => {
    const name = elementName(element, i)
    const was = previous.get(key(element, i))
    previous.delete(key(element, i))
    if (was === undefined)
      found.push({
        field: `${path}[${name}]`,
        label: `${label} › ${name}`,
        before: null,
        after: element,
        shape,
      })
    else found.push(...differences(shape, was, element, `${path}[${name}]`, `${label} › ${name}`))
  })
  let i = 0
  for (const element of previous.values()) {
    const name = elementName(element, i++)
    found.push({
      field: `${path}[${name}]`,
      label: `${label} › ${name}`,
      before: element,
      after: null,
      shape,
    })
  }
  return found
}

/** The history as served: every version's moment, change and differences from the one before, oldest first. */
export function historyText(resource: PublicResource, id: string, versions: readonly Version[]): string {
  let previous: Json = null
  const served = versions.map((version) => {
    const document = JSON.parse(version.document) as Json
    const changes =
      previous === null
        ? []
        : differences(resource.record, previous, document).map(({ field, label, before, after }) => ({
            field,
            label,
            before,
            after,
          }))
    previous = document
    return { version: version.version, changed_at: version.changed_at, change: version.change, changes }
  })
  return JSON.stringify({ kind: resource.path, id, versions: served })
}

/** One version whole, as served: its number, moment and change, and the record as it was. */
export function versionText(resource: PublicResource, id: string, version: Version): string {
  const head = JSON.stringify({
    kind: resource.path,
    id,
    version: version.version,
    changed_at: version.changed_at,
    change: version.change,
  })
  return `${head.slice(0, -1)},"record":${version.document}}`
}
