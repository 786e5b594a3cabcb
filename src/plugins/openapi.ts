import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { LIST } from '../queries/parameters.js'

const DESCRIPTION = `Public-procurement data of the platform's public bodies (organs).

- **Supply-order query** (\`/external\`): complete supply orders for integrators, with a per-organ access token.
- **Transparency queries** (\`/v1/transparency\`): contracts, direct contracts, public calls and price-registration
  records (ARPs), public and without a token.

Every answer carries an \`X-Request-Id\` header: the request's own when it sent a sane one (1 to 128 of
\`A-Z a-z 0-9 . _ : @ / + = -\`), else a new UUID. Quote it when reporting a problem: the instance's log lines about
the request, and an order query's access record, carry it too.

Public answers (\`/v1\`) carry \`Cache-Control: public, max-age=60\`, \`Vary: Accept-Encoding\` and an \`ETag\` of
their own per encoding (gzip and br on request), and answer 304 to an \`If-None-Match\` that lists it (or \`*\`). They
carry no per-client header: the \`X-RateLimit-*\` headers of the per-address limit come only with its 429. Order
answers (\`/external\`) carry \`Cache-Control: no-store\`: no proxy or browser may keep them.

The document is generated from the same schemas that validate requests and serialize responses.`

interface OpenApiParameter {
  in?: string
  schema?: Record<string, unknown>
  style?: string
  explode?: boolean
}
type OpenApiDocument = { paths?: Record<string, Record<string, { parameters?: OpenApiParameter[] }>> }

/**
 * Query parameters validated as comma-separated text (LIST: `kinds`, `with_relations`) published as what they
 * are, an array of their values, comma-separated (style form, explode false), so generated clients type them.
 */
function publishLists(document: OpenApiDocument): OpenApiDocument {
  for (const operations of Object.values(document.paths ?? {}))
    for (const operation of Object.values(operations))
      for (const parameter of operation.parameters ?? []) {
        const values = parameter.schema?.[LIST]
        if (parameter.in !== 'query' || !Array.isArray(values)) continue
        const { description } = parameter.schema as { description?: string }
        parameter.schema = {
          type: 'array',
          items: { type: 'string', enum: values },
          ...(description ? { description } : {}),
        }
        parameter.style = 'form'
        parameter.explode = false
      }
  return document
}

/** The OpenAPI document (from the route schemas) at /openapi.json and an API reference page at /docs. */
export default fp(
  async function openapi(app: FastifyInstance) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'compras',
          version: '1.0.0',
          description: DESCRIPTION,
          license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
        },
        servers: [{ url: '/', description: 'This instance' }],
        tags: [
          {
            name: 'orders',
            description: 'Supply-order query for integrators (version 1.0.0), token required',
          },
          {
            name: 'transparency',
            description: 'Public transparency queries, listings and helpers; no token',
          },
          { name: 'operations', description: 'Liveness, readiness and this document' },
        ],
        components: {
          securitySchemes: {
            AccessToken: {
              type: 'apiKey',
              in: 'header',
              name: 'Authorization',
              description:
                "The organ's raw access token, without `Bearer` or any other prefix. Tokens are issued by the " +
                'operator (`compras token issue`), one per organ.',
            },
          },
        },
      },
      transformObject: (document) =>
        'openapiObject' in document
          ? (publishLists(document.openapiObject as OpenApiDocument) as typeof document.openapiObject)
          : document.swaggerObject,
      // Components are named after their schemas ($id: Order, Contract, ContractPage...), not def-0, def-1.
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) =>
          typeof json.$id === 'string' ? json.$id : `def-${i}`,
      },
    })
    await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true })
    app.get(
      '/openapi.json',
      {
        schema: {
          operationId: 'getOpenApiDocument',
          tags: ['operations'],
          summary: 'This document (OpenAPI 3.0), as this instance serves it',
          description:
            'The same document is committed as docs/openapi.json; clients generate their types from it.',
          security: [],
          response: {
            200: {
              description: 'The OpenAPI document',
              type: 'object',
              additionalProperties: true,
              properties: { openapi: { type: 'string', example: '3.0.3' } },
            },
            400: {
              description: 'A malformed request (a bad header or URL), answered before routing',
              type: 'object',
              required: ['success', 'message'],
              properties: { success: { type: 'boolean', enum: [false] }, message: { type: 'string' } },
            },
          },
        },
      },
      async () => app.swagger(),
    )
  },
  { name: 'openapi' },
)
