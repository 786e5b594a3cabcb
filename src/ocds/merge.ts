import type { JsonObject } from '../json.js'
// The OCDS merge routine (https://standard.open-contracting.org/1.1/en/schema/merging/), for the record of a
// process: its releases, oldest first, make the compiled release (the state now) and the versioned release
// (every value each field had, and the release that gave it). Plain functions over parsed releases.
//
// The standard takes its merge rules from the release schema. The fields compras publishes need two of them,
// which the data shows without the schema: an array of objects that all have an `id` is merged by identifier
// (an object of a later release updates the object with its id), and any other array is replaced whole. The
// schema's exceptions to that (additionalIdentifiers, additionalClassifications) are fields we do not publish.

/** A release as the merge reads it: the fields it merges, and the metadata it leaves out of them. */
export type Release = JsonObject & { ocid: string; id: string; date: string; tag: string[] }

/** One value a field of the versioned release had, and the release that gave it. */
interface Version {
  releaseID: string
  releaseDate: string
  releaseTag: string[]
  value: unknown
}

/** The release metadata that is not merged: each release has its own. */
const METADATA = new Set(['ocid', 'id', 'date', 'tag'])

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Whether an array is merged by identifier: it holds objects, and each has an id. */
const byIdentifier = (value: unknown): value is JsonObject[] =>
  // Stryker disable next-line EqualityOperator: the mapping never publishes an empty array (it leaves the field out)
  Array.isArray(value) && value.length > 0 && value.every((item) => isObject(item) && item.id !== undefined)

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Merges `source` into `target` (compiled): a later value replaces, a null removes, an omitted field stays. */
function compile(target: JsonObject, source: JsonObject, skip: ReadonlySet<string>): JsonObject {
  for (const [name, value] of Object.entries(source)) {
    if (skip.has(name)) continue
    if (value === null) delete target[name]
    else if (byIdentifier(value)) {
      const list = byIdentifier(target[name]) ? (target[name] as JsonObject[]) : []
      for (const item of value) {
        const found = list.find((existing) => same(existing.id, item.id))
        if (found) compile(found, item, NONE)
        else list.push(compile({}, item, NONE))
      }
      target[name] = list
    } else if (isObject(value))
      target[name] = compile(isObject(target[name]) ? target[name] : {}, value, NONE)
    else target[name] = structuredClone(value)
  }
  return target
}

const NONE: ReadonlySet<string> = new Set()

/**
 * Adds a release's values to the versioned `target`: each field is the list of its values, one per release
 * that changed it. In an array merged by identifier, each object's `id` names it and is not versioned.
 */
function addVersion(
  target: JsonObject,
  source: JsonObject,
  from: Omit<Version, 'value'>,
  skip: ReadonlySet<string>,
  listed: boolean,
) {
  for (const [name, value] of Object.entries(source)) {
    if (skip.has(name)) continue
    if (listed && name === 'id') target.id = value
    else if (byIdentifier(value)) {
      const list = Array.isArray(target[name]) ? (target[name] as JsonObject[]) : []
      for (const item of value) {
        let found = list.find((existing) => same(existing.id, item.id))
        if (!found) {
          found = {}
          list.push(found)
        }
        addVersion(found, item, from, NONE, true)
      }
      target[name] = list
    } else if (isObject(value)) {
      const inner = isObject(target[name]) ? target[name] : {}
      addVersion(inner, value, from, NONE, false)
      target[name] = inner
    } else {
      const versions = Array.isArray(target[name]) ? (target[name] as Version[]) : []
      const last = versions.at(-1)
      if (last === undefined || !same(last.value, value))
        versions.push({ ...from, value: structuredClone(value) })
      target[name] = versions
    }
  }
}

/**
 * The compiled release after one more release (the next, in date order): the state they add up to, tagged
 * `compiled`, its id and date the latest release's. `compiled` is the one before (undefined for the first
 * release), and is changed in place.
 */
export function compileNext(compiled: JsonObject | undefined, release: Release): JsonObject {
  // Stryker disable next-line StringLiteral: placeholders that hold the keys' order, set on the next two lines
  const target: JsonObject = compiled ?? { ocid: release.ocid, id: '', date: '', tag: ['compiled'] }
  target.id = `${release.ocid}-${release.date}`
  target.date = release.date
  return compile(target, release, METADATA)
}

/** The compiled release of a process's releases, oldest first: the state they add up to, tagged `compiled`. */
export function compiledRelease(releases: readonly Release[]): JsonObject {
  if (releases.length === 0) throw new RangeError('a record has at least one release')
  let compiled: JsonObject | undefined
  for (const release of releases) compiled = compileNext(compiled, release)
  return compiled as JsonObject
}

/**
 * The versioned release after one more release: every value of every field, and the release that gave it.
 * `versioned` is the one before (undefined for the first release), and is changed in place.
 */
export function versionNext(versioned: JsonObject | undefined, release: Release): JsonObject {
  const target: JsonObject = versioned ?? { ocid: release.ocid }
  addVersion(
    target,
    release,
    { releaseID: release.id, releaseDate: release.date, releaseTag: release.tag },
    METADATA,
    // Stryker disable next-line BooleanLiteral: the top level's id is metadata, skipped before `listed` is read
    false,
  )
  return target
}

/** The versioned release of a process's releases, oldest first: every value of every field, and whence. */
export function versionedRelease(releases: readonly Release[]): JsonObject {
  if (releases.length === 0) throw new RangeError('a record has at least one release')
  let versioned: JsonObject | undefined
  for (const release of releases) versioned = versionNext(versioned, release)
  return versioned as JsonObject
}
