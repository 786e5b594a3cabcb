import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { isCalendarDate, isDateTime, isUuid, NO_CONTROL_PATTERN, normalizeNumber } from '../checks.js'
import { RECORD_TYPES, type RecordType } from '../domain.js'
import { type AnyField, isRelation } from '../resources/fields.js'
import { RECORD_KINDS } from '../resources/index.js'
import { recordSchemas } from './schema.js'

export interface RecordProblem {
  field: string
  reason: string
}

const ajv = new Ajv({ allErrors: false, strict: true, strictTypes: false })
ajv.addFormat('uuid', isUuid)
ajv.addFormat('date', isCalendarDate)
ajv.addFormat('date-time', isDateTime)

const validators = new Map<string, ValidateFunction>(
  Object.entries(recordSchemas).map(([type, schema]) => [type, ajv.compile(schema)]),
)

/** `/items/0/quantity` → `items[0].quantity` */
function fieldPath(instancePath: string, property?: string): string {
  const parts = instancePath.split('/').slice(1)
  if (property !== undefined) parts.push(property)
  return parts.reduce(
    (path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part),
    '',
  )
}

/** Why a withdrawal's key field is refused: the only `false` subschemas are its number/id choice. */
const WITHDRAWAL_KEY =
  'is not a field of this withdrawal: an order is named by number, any other record by id'

function describe(error: ErrorObject): RecordProblem {
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'required':
      return { field: fieldPath(error.instancePath, String(params.missingProperty)), reason: 'is required' }
    case 'additionalProperties':
      return {
        field: fieldPath(error.instancePath, String(params.additionalProperty)),
        reason: 'is not a field of this record',
      }
    case 'enum':
      return {
        field: fieldPath(error.instancePath),
        reason: `must be one of: ${(params.allowedValues as string[]).join('; ')}`,
      }
    case 'false schema':
      return { field: fieldPath(error.instancePath), reason: WITHDRAWAL_KEY }
    case 'format':
      return { field: fieldPath(error.instancePath), reason: `must be a valid ${String(params.format)}` }
    case 'pattern':
      if (params.pattern === NO_CONTROL_PATTERN)
        return { field: fieldPath(error.instancePath), reason: 'must not contain control characters' }
      return {
        field: fieldPath(error.instancePath),
        reason: `has the wrong form (must match ${String(params.pattern)})`,
      }
    case 'type':
      return {
        field: fieldPath(error.instancePath),
        reason: `must be ${String(params.type).replace(',', ' or ')}`,
      }
    default:
      return { field: fieldPath(error.instancePath) || '(record)', reason: error.message ?? 'is invalid' }
  }
}

function hasUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000') || !value.isWellFormed()
  if (Array.isArray(value)) return value.some(hasUnstorableText)
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasUnstorableText)
  return false
}

export type CheckedRecord = { type: RecordType } & Record<string, unknown>

/** The fields that are keys or links by number: stored without surrounding white space (docs/import-format.md). */
const NUMBER_FIELDS = ['number', 'contract_number', 'arp_number'] as const

/** Trims keys and links by number in place, so that " 12/2025" and "12/2025" are the same order. */
function normalize(record: Record<string, unknown>): void {
  for (const field of NUMBER_FIELDS) {
    const value = record[field]
    if (typeof value === 'string') record[field] = normalizeNumber(value)
  }
}

/** Checks one parsed line against its record type's schema. Returns the problem, or undefined when valid. */
export function checkRecord(value: unknown, rawLine: string): RecordProblem | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { field: '(record)', reason: 'must be a JSON object' }
  }
  const type = (value as { type?: unknown }).type
  if (type === undefined) return { field: 'type', reason: 'is required' }
  const validate = typeof type === 'string' ? validators.get(type) : undefined
  if (!validate)
    return { field: 'type', reason: `must be one of: ${[...RECORD_TYPES, 'withdraw'].join(', ')}` }
  normalize(value as Record<string, unknown>)
  if (!validate(value)) return describe((validate.errors as ErrorObject[])[0] as ErrorObject)
  const orphan =
    resultWithoutItem(value as Record<string, unknown>) ?? halfSupplier(value as Record<string, unknown>)
  if (orphan !== undefined) return orphan
  // PostgreSQL cannot store NUL or unpaired surrogates; both can only come in as \u escapes.
  if ((rawLine.includes('\\u0000') || /\\u[dD][89a-fA-F]/.test(rawLine)) && hasUnstorableText(value)) {
    return {
      field: '(record)',
      reason: 'contains a NUL character or an unpaired surrogate, which cannot be stored',
    }
  }
  return undefined
}

/**
 * A bidding's items have numbers of their own, and each result names one of them (docs/import-format.md): its
 * price is that item's.
 */
function resultWithoutItem(record: Record<string, unknown>): RecordProblem | undefined {
  const items = new Set<number>()
  for (const [i, item] of ((record.items ?? []) as { number_item: number }[]).entries()) {
    if (items.has(item.number_item))
      return {
        field: `items[${i}].number_item`,
        reason: `repeats another item's number (${item.number_item})`,
      }
    items.add(item.number_item)
  }
  const results = record.results
  if (!Array.isArray(results)) return undefined
  for (const [i, result] of (results as { number_item: number }[]).entries())
    if (!items.has(result.number_item))
      return {
        field: `results[${i}].number_item`,
        reason: `names no item of this record (${result.number_item})`,
      }
  return undefined
}

/**
 * Per record type, its supplier's name and tax id fields where a record may name no supplier (an ARP: PNCP's
 * atas name none). A supplier is stored by its tax id with its name: both are given, or neither.
 */
const OPTIONAL_SUPPLIERS = new Map(
  RECORD_KINDS.flatMap((kind) => {
    const supplier = (attribute: 'name' | 'document') =>
      Object.entries(kind.fields).find(
        ([, f]) => !isRelation(f) && 'supplier' in f.store && f.store.supplier === attribute,
      )
    const [name, document] = [supplier('name'), supplier('document')]
    if (!name || !document || !(document[1] as AnyField).nullable) return []
    return kind.types.map((type) => [type, [name[0], document[0]] as const] as const)
  }),
)

function halfSupplier(record: Record<string, unknown>): RecordProblem | undefined {
  const fields = OPTIONAL_SUPPLIERS.get(record.type as RecordType)
  if (fields === undefined) return undefined
  const [name, document] = fields
  if ((record[name] === null) === (record[document] === null)) return undefined
  const [missing, given] = record[name] === null ? [name, document] : [document, name]
  return {
    field: missing,
    reason: `is null while ${given} is given: a supplier is named by both, or neither`,
  }
}
