import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { RECORD_TYPES, type RecordType } from '../domain.js'
import { recordSchemas } from './schema.js'

export interface RecordProblem {
  field: string
  reason: string
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|[+-](\d{2}):(\d{2}))$/

export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value)
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (year < 1 || month < 1 || month > 12 || day < 1) return false
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate()
}

export function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value)
  if (!match || !isCalendarDate(match[1] as string)) return false
  const [hour, minute, second] = [Number(match[2]), Number(match[3]), Number(match[4])]
  if (hour > 23 || minute > 59 || second > 59) return false
  return match[7] === undefined || (Number(match[7]) <= 23 && Number(match[8]) <= 59)
}

const ajv = new Ajv({ allErrors: false, strict: true, strictTypes: false })
ajv.addFormat('uuid', UUID)
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
    case 'format':
      return { field: fieldPath(error.instancePath), reason: `must be a valid ${String(params.format)}` }
    case 'pattern':
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

/** Checks one parsed line against its record type's schema. Returns the problem, or undefined when valid. */
export function checkRecord(value: unknown, rawLine: string): RecordProblem | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { field: '(record)', reason: 'must be a JSON object' }
  }
  const type = (value as { type?: unknown }).type
  if (type === undefined) return { field: 'type', reason: 'is required' }
  const validate = typeof type === 'string' ? validators.get(type) : undefined
  if (!validate) return { field: 'type', reason: `must be one of: ${RECORD_TYPES.join(', ')}` }
  if (!validate(value)) return describe((validate.errors as ErrorObject[])[0] as ErrorObject)
  // PostgreSQL cannot store NUL or unpaired surrogates; both can only come in as \u escapes.
  if ((rawLine.includes('\\u0000') || /\\u[dD][89a-fA-F]/.test(rawLine)) && hasUnstorableText(value)) {
    return {
      field: '(record)',
      reason: 'contains a NUL character or an unpaired surrogate, which cannot be stored',
    }
  }
  return undefined
}
