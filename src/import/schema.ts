import type { RecordType } from '../domain.js'
import { type AnyField, type Fields, importSchema, isRelation, type JsonSchema } from '../resources/fields.js'
import { RECORD_KINDS } from '../resources/index.js'
import { inRecord } from '../resources/json.js'

// The NDJSON import format as JSON Schema (draft 2020-12), derived from the resources' definitions
// (src/resources): a record is the resource in the API's own shape, plus the keys that place it. The
// importer compiles it, and `npm run docs:export` writes it to schema/import-record.schema.json.

const MAX_ITEMS = 1000

/** Every field a record of `fields` holds in the import format, all required, nothing else. */
function objectSchema(
  fields: Fields,
  head: Record<string, JsonSchema> = {},
  description?: string,
): JsonSchema {
  const properties: Record<string, JsonSchema> = { ...head }
  for (const [name, f] of Object.entries(fields)) {
    if (!inRecord(f)) continue
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
    required: Object.keys(properties),
    additionalProperties: false,
  }
}

/** Each record type's schema. */
export const recordSchemas: Readonly<Record<RecordType, JsonSchema>> = Object.fromEntries(
  RECORD_KINDS.flatMap((kind) =>
    kind.types.map((type) => [type, objectSchema(kind.fields, { type: { const: type } }, kind.about(type))]),
  ),
) as Record<RecordType, JsonSchema>

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
