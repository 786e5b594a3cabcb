import type { JsonValue } from '../json.js'

// How a document's earlier version is kept compactly: as the patch that turns the version after it back into
// it (a reverse delta, as RCS keeps files). The latest version is the document the read model serves, so a
// record that never changed costs nothing, and an earlier version is the latest with the patches of the
// changes after it applied, newest first. A patch names only what differs: an object's changed fields, an
// array's elements matched by their key (id, uuid or number) so that one order added to a contract's list of
// two thousand costs one element, not the list.
//
// Documents are JSON as PostgreSQL writes it and JSON.stringify writes it back byte for byte (compact, in the
// served field order), so a version rebuilt from patches is the text the detail endpoint served.

/** A patch of an object's fields: each changed field's old value, or the patch of its value. */
interface ObjectPatch {
  /** Fields whose old value is given whole. */
  s?: Record<string, JsonValue>
  /** Fields whose old value is the new one patched. */
  p?: Record<string, Patch>
}

/** A patch of an array: the old array as runs of the new one's elements, patched elements, and literal ones. */
interface ArrayPatch {
  a: Segment[]
}

/** `c`: `n` elements of the new array from index `i`; `e`: element `i` patched; `v`: an element given whole. */
type Segment = { c: [number, number] } | { e: [number, Patch] } | { v: JsonValue }

export type Patch = ObjectPatch | ArrayPatch

const isObject = (value: JsonValue): value is { [key: string]: JsonValue } =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Whether two values are the same JSON text: the same values, and objects' fields in the same order. */
function same(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    // Stryker disable next-line EqualityOperator: one step past the end compares undefined with undefined, the same
    for (let i = 0; i < a.length; i++) if (!same(a[i] as JsonValue, b[i] as JsonValue)) return false
    return true
  }
  const keys = Object.keys(a)
  const others = Object.keys(b)
  if (keys.length !== others.length) return false
  // Stryker disable next-line EqualityOperator: one step past the end compares undefined with undefined, the same
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string
    if (key !== others[i] || !same(a[key] as JsonValue, b[key] as JsonValue)) return false
  }
  return true
}

/** An element's identity in its array: its id, uuid or number, when it has one. */
export function elementKey(element: JsonValue): string | undefined {
  if (!isObject(element)) return undefined
  for (const name of ['id', 'uuid', 'number']) {
    const value = element[name]
    if (typeof value === 'string' || typeof value === 'number') return `${name}:${value}`
  }
  return undefined
}

/** The keys of an array's elements, when every element has one and none repeats. */
function keysOf(array: JsonValue[]): string[] | undefined {
  const keys = array.map(elementKey)
  if (keys.some((key) => key === undefined) || new Set(keys).size !== keys.length) return undefined
  return keys as string[]
}

/** The patch that turns `after` back into `before`; undefined when they are the same. */
export function reversePatch(after: JsonValue, before: JsonValue): Patch | undefined {
  if (same(after, before)) return undefined
  if (isObject(after) && isObject(before)) {
    const afterKeys = Object.keys(after)
    const beforeKeys = Object.keys(before)
    // A patch keeps the new object's fields in place: an object whose fields (or their order) differ is
    // given whole.
    if (afterKeys.length !== beforeKeys.length || afterKeys.some((key, i) => key !== beforeKeys[i]))
      return undefined
    const patch: ObjectPatch = {}
    for (const key of afterKeys) {
      const from = after[key] as JsonValue
      const to = before[key] as JsonValue
      if (same(from, to)) continue
      // An object or array is patched rather than given whole: its patch names only what changed, and
      // storedPatch keeps the whole version where the patch comes out larger.
      const inner = reversePatch(from, to)
      if (inner !== undefined) {
        patch.p ??= {}
        patch.p[key] = inner
      } else {
        patch.s ??= {}
        patch.s[key] = to
      }
    }
    return patch
  }
  if (Array.isArray(after) && Array.isArray(before)) {
    const afterKeys = keysOf(after)
    const beforeKeys = keysOf(before)
    const index = new Map<string, number>()
    if (afterKeys && beforeKeys) for (const [i, key] of afterKeys.entries()) index.set(key, i)
    const segments: Segment[] = []
    before.forEach((element, i) => {
      // The same element in the new array: by its key, or (without keys) at the same place.
      const at =
        // Stryker disable next-line EqualityOperator,ConditionalExpression: past after's end the element is undefined, given whole below alike
        afterKeys && beforeKeys ? index.get(beforeKeys[i] as string) : i < after.length ? i : undefined
      // Stryker disable next-line ConditionalExpression,BlockStatement: without it an unmatched element reaches the same { v } below
      if (at === undefined) {
        segments.push({ v: element })
        return
      }
      const was = after[at] as JsonValue
      if (same(was, element)) {
        const last = segments.at(-1)
        if (last && 'c' in last && last.c[0] + last.c[1] === at) last.c[1]++
        else segments.push({ c: [at, 1] })
        return
      }
      const inner = reversePatch(was, element)
      segments.push(inner !== undefined ? { e: [at, inner] } : { v: element })
    })
    return { a: segments }
  }
  return undefined
}

/** `after` with a patch made by reversePatch applied: the version before it. Nothing of `after` is changed. */
export function applyPatch(after: JsonValue, patch: Patch): JsonValue {
  if ('a' in patch) {
    const array = after as JsonValue[]
    const result: JsonValue[] = []
    for (const segment of patch.a) {
      if ('c' in segment) result.push(...array.slice(segment.c[0], segment.c[0] + segment.c[1]))
      else if ('e' in segment) result.push(applyPatch(array[segment.e[0]] as JsonValue, segment.e[1]))
      else result.push(segment.v)
    }
    return result
  }
  const object = after as { [key: string]: JsonValue }
  const result: { [key: string]: JsonValue } = {}
  for (const [key, value] of Object.entries(object)) {
    const inner = patch.p?.[key]
    if (patch.s && key in patch.s) result[key] = patch.s[key] as JsonValue
    else result[key] = inner ? applyPatch(value, inner) : value
  }
  return result
}

/** A version kept whole among the patches (a checkpoint, or where a patch would be as large as it). */
export const wholeVersion = (text: string) => `{"w":${text}}`

/** The text of a reverse patch between two documents' texts, or of `before` whole where that is shorter. */
export function storedPatch(afterText: string, beforeText: string): string {
  const patch = reversePatch(JSON.parse(afterText) as JsonValue, JSON.parse(beforeText) as JsonValue)
  // Stryker disable next-line ConditionalExpression: JSON.stringify(undefined) is undefined too
  const text = patch === undefined ? undefined : JSON.stringify(patch)
  // A document so changed that its patch is as large as it: the version itself, marked as such.
  // Stryker disable next-line EqualityOperator: at equal lengths either form restores the same text
  return text !== undefined && text.length < beforeText.length ? text : wholeVersion(beforeText)
}

/** The version before a document's text, from its stored patch. */
export function restore(afterText: string, stored: string): string {
  return restoreAll(afterText, [stored])
}

/**
 * A document's text with stored patches applied in order, newest first (null: an update that kept no patch,
 * the same version): the document parsed once and written once, however many patches. A patch that is a
 * version whole takes the place of what came before it, so `afterText` is not read when the first one is.
 */
export function restoreAll(afterText: string | undefined, stored: readonly (string | null)[]): string {
  let document: JsonValue | undefined
  let text = afterText
  for (const one of stored) {
    if (one === null) continue
    const parsed = JSON.parse(one) as Patch | { w: JsonValue }
    if ('w' in parsed) {
      document = parsed.w
      text = undefined
      continue
    }
    document ??= JSON.parse(text as string) as JsonValue
    document = applyPatch(document, parsed)
  }
  return document === undefined ? (text as string) : JSON.stringify(document)
}

export type { JsonValue }
