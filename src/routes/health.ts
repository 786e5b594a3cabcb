import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Pool } from '../db/pool.js'

const Status = Type.Object({ status: Type.String({ examples: ['ok'] }) })
/** Any route's answer to a request that is malformed before routing (src/plugins/client-errors.ts). */
const Malformed = Type.Object(
  { success: Type.Literal(false), message: Type.String() },
  { description: 'A malformed request (a bad header or URL), answered before routing' },
)

export interface HealthOptions {
  pool: Pool
}

/** GET /health: the process answers. GET /ready: the database answers too. */
const health: FastifyPluginAsyncTypebox<HealthOptions> = async (app, { pool }) => {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['operations'],
        summary: 'Liveness: the process is up',
        security: [],
        response: { 200: Status, 400: Malformed },
      },
      logLevel: 'warn',
    },
    async () => ({ status: 'ok' }),
  )

  app.get(
    '/ready',
    {
      schema: {
        operationId: 'getReady',
        tags: ['operations'],
        summary: 'Readiness: the database answers',
        security: [],
        response: { 200: Status, 400: Malformed, 503: Status },
      },
      logLevel: 'warn',
    },
    async (request, reply) => {
      try {
        await pool.query('SELECT 1')
        return { status: 'ok' }
      } catch (error) {
        request.log.error({ err: error }, 'readiness check: database unreachable')
        return reply.code(503).send({ status: 'database unreachable' })
      }
    },
  )
}

export default health
