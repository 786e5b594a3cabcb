import { readFileSync } from 'node:fs'
import { Ajv, type ValidateFunction } from 'ajv'
import { isCalendarDate, isDateTime, isUuid } from '../../src/checks.js'

// The published OpenAPI document (docs/openapi.json) as a validator: what clients generate their code from,
// held against what the service serves.

const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'))
export const published = new Ajv({ strict: false, allErrors: true })
published.addFormat('uuid', isUuid)
published.addFormat('date', isCalendarDate)
published.addFormat('date-time', isDateTime)
published.addFormat('uri', (value: string) => URL.canParse(value))
published.addSchema(document, 'openapi')

/** The published 200 schema of GET path, as the document writes it (refs into its components). */
export function answerSchema(path: string): ValidateFunction {
  const pointer = `/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/get/responses/200/content/application~1json/schema`
  return published.compile({ $ref: `openapi#${pointer}` })
}

/** A component of the document (`OcdsRelease`...). */
export const componentSchema = (name: string): ValidateFunction =>
  published.compile({ $ref: `openapi#/components/schemas/${name}` })
