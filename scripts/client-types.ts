import openapiTS, { astToString } from 'openapi-typescript'

// The client's types (client/src/schema.ts), generated from the OpenAPI document by openapi-typescript:
// `npm run docs:export` writes them, and a test fails when the committed file is not what the document gives.

const HEADER =
  '// Generated from docs/openapi.json by openapi-typescript (`npm run docs:export`). Do not edit.\n\n'

export async function clientTypes(document: unknown): Promise<string> {
  return HEADER + astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]))
}
