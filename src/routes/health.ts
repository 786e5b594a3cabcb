import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Pool } from '../db/pool.js'
import type { Replicas } from '../db/replicas.js'

const Status = Type.Object({ status: Type.String({ examples: ['ok'] }) })
const Replica = Type.Object({
  name: Type.String({ description: 'host:port/database', examples: ['10.0.0.12:5432/compras'] }),
  state: Type.Union(
    [
      Type.Literal('starting'),
      Type.Literal('up'),
      Type.Literal('lagging'),
      Type.Literal('down'),
      Type.Literal('not a standby'),
    ],
    { description: 'up: serves reads; lagging: more than REPLICA_MAX_LAG behind; down: does not answer' },
  ),
  lag_seconds: Type.Union([Type.Number(), Type.Null()], {
    description: 'How far behind the primary it was at its last check, at most; null: unknown',
  }),
})
const Readiness = Type.Object({
  status: Type.String({ examples: ['ok'] }),
  replicas: Type.Optional(
    Type.Array(Replica, {
      description:
        'With DATABASE_REPLICA_URLS: each replica as last checked (every second). A replica out of the rotation ' +
        'leaves the instance ready: the primary serves its reads.',
    }),
  ),
})
/** Any route's answer to a request that is malformed before routing (src/plugins/client-errors.ts). */
const Malformed = Type.Object(
  { success: Type.Literal(false), message: Type.String() },
  { description: 'A malformed request (a bad header or URL), answered before routing' },
)

export interface HealthOptions {
  pool: Pool
  replicas?: Replicas | undefined
}

/** GET /health: the process answers. GET /ready: the database answers too. */
const health: FastifyPluginAsyncTypebox<HealthOptions> = async (app, { pool, replicas }) => {
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
        summary: 'Readiness: the public reads can be served (their pool answers within its connect timeout)',
        security: [],
        response: { 200: Readiness, 400: Malformed, 503: Readiness },
      },
      logLevel: 'warn',
    },
    async (request, reply) => {
      try {
        await pool.query('SELECT 1')
        return replicas ? { status: 'ok', replicas: replicas.statuses } : { status: 'ok' }
      } catch (error) {
        request.log.error({ err: error }, 'readiness check: database unreachable')
        const status = 'database unreachable'
        return reply.code(503).send(replicas ? { status, replicas: replicas.statuses } : { status })
      }
    },
  )
}

export default health
