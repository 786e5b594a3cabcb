// `npm run docs:export`: writes the published documents from the code that defines them, so they
// cannot drift: the import format's JSON Schema and the OpenAPI document. A test checks both are current.
import { writeFileSync } from 'node:fs'
import { importSchemaDocument } from '../src/import/schema.js'
import { openapiDocument } from '../src/openapi-document.js'

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`
writeFileSync(new URL('../schema/import-record.schema.json', import.meta.url), json(importSchemaDocument()))
writeFileSync(new URL('../docs/openapi.json', import.meta.url), json(await openapiDocument()))
process.stdout.write('wrote schema/import-record.schema.json and docs/openapi.json\n')
