import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** How a test's server answers one path. */
export type Route = (request: IncomingMessage, response: ServerResponse) => void

export interface RouteServer {
  base: string
  close(): Promise<void>
}

/**
 * A server of a test's own on a free port: its routes by path (the query left out), the API's 404 for any other,
 * and each path's requests counted in `asked`.
 */
export async function routeServer(
  routes: Readonly<Record<string, Route>>,
  asked: Map<string, number>,
): Promise<RouteServer> {
  const server = createServer((request, response) => {
    const at = (request.url ?? '').split('?')[0] as string
    asked.set(at, (asked.get(at) ?? 0) + 1)
    const route = routes[at]
    if (route) return route(request, response)
    response.writeHead(404, { 'content-type': 'application/json' })
    response.end('{"success":false,"message":"Rota não encontrada."}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
