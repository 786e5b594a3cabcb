import type { RecordType } from '../domain.js'
import { type AnyField, type Fields, importSchema, isRelation, type JsonSchema } from '../resources/fields.js'
import { RECORD_KINDS, type RecordKind } from '../resources/index.js'
import { inRecord } from '../resources/json.js'

// The NDJSON import format as JSON Schema (draft 2020-12), derived from the resources' definitions
// (src/resources): a record is the resource in the API's own shape, plus the keys that place it. The
// importer compiles it, and `npm run docs:export` writes it to schema/import-record.schema.json.

const MAX_ITEMS = 1000

/** Every field a record of `fields` holds in the import format, required unless optional, nothing else. */
function objectSchema(
  fields: Fields,
  head: Record<string, JsonSchema> = {},
  description?: string,
): JsonSchema {
  const properties: Record<string, JsonSchema> = { ...head }
  const required = Object.keys(head)
  for (const [name, f] of Object.entries(fields)) {
    if (!inRecord(f)) continue
    if (!f.optional) required.push(name)
    properties[name] = isRelation(f)
      ? {
          type: 'array',
          items: objectSchema(f.shape.fields, {}, f.shape.description),
          maxItems: f.maxItems ?? MAX_ITEMS,
          ...(f.minItems ? { minItems: f.minItems } : {}),
        }
      : importSchema(f as AnyField)
  }
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required,
    additionalProperties: false,
  }
}

/**
 * A withdrawal: a line that removes a stored record by its key, atomically with the rest of the file. An
 * order is named by organization_uuid and number, every other record by organization_uuid and id.
 * Organizations cannot be withdrawn: tokens and the access log point to them.
 */
function withdrawSchema(): JsonSchema {
  const kinds = RECORD_KINDS.filter((kind) => kind.placement.group !== 'organization')
  const byNumber = kinds.filter((kind) => kind.placement.group === 'order')
  const fieldOf = (kind: RecordKind, name: string) => importSchema(kind.fields[name] as AnyField)
  const order = byNumber[0] as RecordKind
  const other = kinds.find((kind) => kind.placement.group !== 'order') as RecordKind
  return {
    type: 'object',
    description:
      'Withdraws a stored record, which then disappears from every answer, listing, export and dump. ' +
      'An order is named by organization_uuid and number, any other record by organization_uuid and id. ' +
      'Refused when it names no stored record of that type, or when stored records still link to it and ' +
      'the same file neither withdraws nor relinks them.',
    properties: {
      type: { const: 'withdraw' },
      record: { type: 'string', enum: kinds.flatMap((kind) => kind.types) },
      organization_uuid: fieldOf(order, 'organization_uuid'),
      number: fieldOf(order, order.placement.key),
      id: fieldOf(other, other.placement.key),
    },
    required: ['type', 'record', 'organization_uuid'],
    additionalProperties: false,
    if: { properties: { record: { enum: byNumber.flatMap((kind) => kind.types) } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keyword; never awaited
    then: { required: ['number'], properties: { number: true, id: false } },
    else: { required: ['id'], properties: { id: true, number: false } },
  }
}

/** Each line type's schema: a record of each type, and a withdrawal. */
export const recordSchemas: Readonly<Record<RecordType | 'withdraw', JsonSchema>> = {
  ...Object.fromEntries(
    RECORD_KINDS.flatMap((kind) =>
      kind.types.map((type) => [
        type,
        objectSchema(kind.fields, { type: { const: type } }, kind.about(type)),
      ]),
    ),
  ),
  withdraw: withdrawSchema(),
} as Record<RecordType | 'withdraw', JsonSchema>

/** The whole format as one published JSON Schema document. */
export function importSchemaDocument(): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'urn:compras:import-record',
    title: 'compras import record',
    description:
      'One line of a compras NDJSON import file. See docs/import-format.md. Formats: uuid, date (YYYY-MM-DD), ' +
      'date-time (ISO 8601 with Z or an offset, up to six fractional digits).',
    oneOf: Object.keys(recordSchemas).map((type) => ({ $ref: `#/$defs/${type}` })),
    $defs: recordSchemas,
  }
}
