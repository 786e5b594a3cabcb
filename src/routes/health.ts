import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Pool } from '../db/pool.js'

const Status = Type.Object({ status: Type.String({ examples: ['ok'] }) })

export interface HealthOptions {
  pool: Pool
}

/** GET /health: the process answers. GET /ready: the database answers too. */
const health: FastifyPluginAsyncTypebox<HealthOptions> = async (app, { pool }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness: the process is up',
        response: { 200: Status },
      },
      logLevel: 'warn',
    },
    async () => ({ status: 'ok' }),
  )

  app.get(
    '/ready',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness: the database answers',
        response: { 200: Status, 503: Status },
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
