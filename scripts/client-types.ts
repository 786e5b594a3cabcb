import openapiTS, { astToString, NULL, STRING, tsIntersection, tsLiteral, tsUnion } from 'openapi-typescript'
import ts from 'typescript'

// The client's types (client/src/schema.ts), generated from the OpenAPI document by openapi-typescript:
// `npm run docs:export` writes them, and a test fails when the committed file is not what the document gives.

const HEADER =
  '// Generated from docs/openapi.json by openapi-typescript (`npm run docs:export`). Do not edit.\n\n'

/** `string & {}`: any string, without swallowing the listed literals (editors still offer them). */
const ANY_OTHER_STRING = tsIntersection([STRING, ts.factory.createTypeLiteralNode([])])

export async function clientTypes(document: unknown): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], {
    // An open enum (`x-extensible-enum`: the values listed today, others may come) is its values or any
    // other string, so an exhaustive switch over it keeps a default.
    transform(schema) {
      const values = (schema as { 'x-extensible-enum'?: unknown })['x-extensible-enum']
      if (!Array.isArray(values)) return undefined
      const type = tsUnion([...values.map((value) => tsLiteral(value)), ANY_OTHER_STRING])
      return schema.nullable ? tsUnion([type, NULL]) : type
    },
  })
  return HEADER + astToString(ast)
}
