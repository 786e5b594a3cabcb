// `npm run docs:export`: writes the published documents from the code that defines them, so they
// cannot drift: the import format's JSON Schema, the OpenAPI document, and the client's types generated from
// it. A test checks all three are current.
import { writeFileSync } from 'node:fs'
import { importSchemaDocument } from '../src/import/schema.js'
import { openapiDocument } from '../src/openapi-document.js'
import { clientTypes } from './client-types.js'

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`
writeFileSync(new URL('../schema/import-record.schema.json', import.meta.url), json(importSchemaDocument()))
const document = await openapiDocument()
writeFileSync(new URL('../docs/openapi.json', import.meta.url), json(document))
writeFileSync(new URL('../client/src/schema.ts', import.meta.url), await clientTypes(document))
process.stdout.write('wrote schema/import-record.schema.json, docs/openapi.json and client/src/schema.ts\n')
