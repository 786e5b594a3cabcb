import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { clientTypes } from '../scripts/client-types.js'
import { importSchemaDocument } from '../src/import/schema.js'
import { openapiDocument } from '../src/openapi-document.js'

const committed = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'))

describe('published documents are current (npm run docs:export rewrites them)', () => {
  it('schema/import-record.schema.json matches the importer', () => {
    assert.deepEqual(committed('schema/import-record.schema.json'), importSchemaDocument())
  })

  it('docs/openapi.json matches the routes', async () => {
    assert.deepEqual(committed('docs/openapi.json'), JSON.parse(JSON.stringify(await openapiDocument())))
  })

  it("client/src/schema.ts is what openapi-typescript makes of docs/openapi.json (the client's types)", async () => {
    const generated = await clientTypes(committed('docs/openapi.json'))
    assert.ok(
      readFileSync(new URL('../client/src/schema.ts', import.meta.url), 'utf8') === generated,
      'client/src/schema.ts is stale: run npm run docs:export',
    )
  })
})

describe('the published import schema', () => {
  it('is a valid draft 2020-12 schema that accepts the demo records and refuses a bad one', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js')
    const { isCalendarDate, isDateTime } = await import('../src/checks.js')
    const { demoRecords } = await import('./helpers/records.js')
    const ajv = new Ajv2020({ strict: false })
    ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)
    ajv.addFormat('date', isCalendarDate)
    ajv.addFormat('date-time', isDateTime)
    const validate = ajv.compile(committed('schema/import-record.schema.json'))
    for (const record of demoRecords()) assert.ok(validate(record), JSON.stringify(validate.errors))
    assert.equal(validate({ type: 'organization', uuid: 'x', name: 'y', document: '1' }), false)
  })
})

describe('the published OpenAPI document', () => {
  it('declares Retry-After on every 429 and on every 503 but the readiness probe', async () => {
    const { paths } = (await openapiDocument()) as { paths: Record<string, Record<string, OperationLike>> }
    const missing: string[] = []
    for (const [route, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const status of ['429', '503']) {
          const answer = operation.responses?.[status]
          if (answer === undefined || (route === '/ready' && status === '503')) continue
          if (answer.headers?.['Retry-After'] === undefined) missing.push(`${method} ${route} ${status}`)
        }
      }
    }
    assert.deepEqual(missing, [])
  })
})

interface OperationLike {
  responses?: Record<string, { headers?: Record<string, unknown> }>
}
