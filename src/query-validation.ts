import { Ajv, type ValidateFunction } from 'ajv'
import type { FastifySchemaCompiler } from 'fastify'
import { isCalendarDate, isDateTime, isUuid } from './checks.js'

// Request validation without Ajv's type coercion. Ajv coerces "Infinity" to an integer (Infinity % 1 is
// NaN, which it reads as "no remainder") and then lets it past `maximum`, and its uuid and date formats
// take `urn:uuid:` prefixes and year 0000, which PostgreSQL refuses. Query strings are text; an integer
// parameter is converted here only when it is plain digits, so anything else fails the schema as text.

const DIGITS = /^[0-9]{1,15}$/

const ajv = new Ajv({
  coerceTypes: false,
  useDefaults: true,
  removeAdditional: false, // an unknown query parameter is an error the client hears about
  allErrors: false, // one error is enough to answer, and allErrors lets a crafted input cost more
  addUsedSchema: false,
  strict: false, // the route schemas carry OpenAPI keywords (examples) that Ajv does not know
})
ajv.addFormat('uuid', isUuid)
ajv.addFormat('date', isCalendarDate)
ajv.addFormat('date-time', isDateTime)

type Data = Record<string, unknown>

function propertiesOf(schema: unknown, type: 'integer' | 'boolean'): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {}
  return Object.entries(properties)
    .filter(([, property]) => property.type === type)
    .map(([name]) => name)
}

const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false }

/**
 * Compiles a route's request schemas (querystring, params) for Fastify; see the file comment. Integers in
 * the query and the path (a history's version) are read from plain digits.
 */
export const requestValidator: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const validate: ValidateFunction = ajv.compile(schema as object)
  const integers = httpPart === 'querystring' || httpPart === 'params' ? propertiesOf(schema, 'integer') : []
  const booleans = httpPart === 'querystring' ? propertiesOf(schema, 'boolean') : []
  const check = (data: unknown) => {
    if (data !== null && typeof data === 'object') {
      for (const name of integers) {
        const value = (data as Data)[name]
        if (typeof value === 'string' && DIGITS.test(value)) (data as Data)[name] = Number(value)
      }
      for (const name of booleans) {
        const value = (data as Data)[name]
        if (typeof value === 'string' && Object.hasOwn(BOOLEANS, value))
          (data as Data)[name] = BOOLEANS[value]
      }
    }
    const ok = validate(data)
    check.errors = validate.errors
    return ok
  }
  check.errors = null as ValidateFunction['errors']
  return check
}

/** The same checks for callers outside HTTP (the CLI's export), on a query given as strings. */
export function compileQuery(schema: object): (query: Data) => ValidateFunction['errors'] | null {
  const check = requestValidator({ schema, httpPart: 'querystring', method: 'GET', url: '' })
  return (query) => {
    const ok = (check as (data: unknown) => boolean)(query)
    return ok ? null : ((check as unknown as { errors: ValidateFunction['errors'] }).errors ?? null)
  }
}
