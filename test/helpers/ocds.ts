import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import AjvDraft04 from 'ajv-draft-04'
import { isDateTime } from '../../src/checks.js'
import { componentSchema, published } from './published.js'

// The official OCDS 1.1 schemas and codelists (test/ocds/standard, draft-04), compiled once for the tests
// that check what compras publishes against them.

const OCDS = new URL('../ocds/standard/', import.meta.url)
const readJson = (file: string) => JSON.parse(readFileSync(new URL(file, OCDS), 'utf8'))
export const releaseSchema = readJson('release-schema.json')
// A CommonJS module whose class is its `default` export.
const Ajv04 = AjvDraft04.default
export const ajv = new Ajv04({ strict: false, allErrors: true })
ajv.addFormat('date-time', isDateTime)
ajv.addFormat('uri', (value: string) => URL.canParse(value))
ajv.addFormat('email', (value: string) => /^[^@\s]+@[^@\s]+$/.test(value))
ajv.addSchema(releaseSchema)
const versionedSchema = readJson('versioned-release-validation-schema.json')
ajv.addSchema(versionedSchema)
export const validateRelease = ajv.compile({ $ref: releaseSchema.id })
export const validateReleasePackage = ajv.compile(readJson('release-package-schema.json'))
export const validateRecordPackage = ajv.compile(readJson('record-package-schema.json'))
export const validateVersioned = ajv.compile<Json>({ $ref: versionedSchema.id })
/** A release as the OpenAPI document publishes it (src/ocds/schemas.ts). */
const validatePublishedRelease = componentSchema('OcdsRelease')
export const validateValue = ajv.compile({ $ref: `${releaseSchema.id}#/definitions/Value` })

const codelists = new Map<string, Set<string>>()
function codes(file: string): Set<string> {
  let set = codelists.get(file)
  if (!set) {
    const lines = readFileSync(new URL(`codelists/${file}`, OCDS), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
    set = new Set(lines.map((line) => line.split(',')[0] as string))
    codelists.set(file, set)
  }
  return set
}

type Schema = Record<string, unknown>
/** Walks a value with its schema; every field bound to a codelist must hold one of its codes. */
export function checkCodelists(schema: Schema, value: unknown, where: string, problems: string[]): void {
  let s = schema
  while (typeof s.$ref === 'string') {
    s = releaseSchema.definitions[(s.$ref as string).replace('#/definitions/', '')] as Schema
  }
  if (value === null || value === undefined) return
  if (typeof s.codelist === 'string') {
    const list = codes(s.codelist)
    for (const code of Array.isArray(value) ? value : [value]) {
      if (!list.has(code as string)) problems.push(`${where}: ${String(code)} is not in ${s.codelist}`)
    }
    return
  }
  if (Array.isArray(value) && s.items) {
    value.forEach((item, i) => {
      checkCodelists(s.items as Schema, item, `${where}[${i}]`, problems)
    })
  } else if (typeof value === 'object' && s.properties) {
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const property = (s.properties as Record<string, Schema>)[key]
      if (property) checkCodelists(property, v, `${where}.${key}`, problems)
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: OCDS documents read freely, after schema validation
export type Json = Record<string, any>

/** A release that validates, whose codelist values are all known, whose milestones' values are Values. */
export function checkRelease(release: Json, where: string): void {
  assert.ok(validateRelease(release), `${where}: ${ajv.errorsText(validateRelease.errors)}`)
  // And as the OpenAPI document describes it: every field the release has, described there.
  assert.ok(
    validatePublishedRelease(release),
    `${where}: ${published.errorsText(validatePublishedRelease.errors)}`,
  )
  const problems: string[] = []
  checkCodelists(releaseSchema, release, where, problems)
  assert.deepEqual(problems, [])
  for (const contract of release.contracts ?? []) {
    for (const milestone of contract.implementation?.milestones ?? []) {
      assert.ok(validateValue(milestone.value), `${where}: milestone ${milestone.id} value`)
    }
  }
}
