import net from 'node:net'

/**
 * A TCP proxy in front of a real server (PostgreSQL, Redis), so that a test can cut the network and restore
 * it without ever stopping the machine's own server. Cut: every open connection is reset and new ones are
 * refused, as when the server's host goes away; restore: new connections go through again.
 */
export interface TcpProxy {
  /** The port to connect to instead of the server's. */
  readonly port: number
  /** Connections open through the proxy now. */
  readonly open: number
  cut(): void
  restore(): void
  close(): Promise<void>
}

export async function startProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<[net.Socket, net.Socket]>()
  let cut = false
  const server = net.createServer((client) => {
    if (cut) {
      client.resetAndDestroy()
      return
    }
    const upstream = net.connect(targetPort, targetHost)
    const pair: [net.Socket, net.Socket] = [client, upstream]
    pairs.add(pair)
    const end = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  const cutAll = () => {
    cut = true
    for (const [client, upstream] of pairs) {
      client.resetAndDestroy()
      upstream.destroy()
    }
    pairs.clear()
  }
  return {
    port,
    get open() {
      return pairs.size
    },
    cut: cutAll,
    restore() {
      cut = false
    },
    async close() {
      cutAll()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** The same URL, through the proxy. */
export function viaProxy(url: string, proxy: TcpProxy): string {
  const through = new URL(url)
  through.hostname = '127.0.0.1'
  through.port = String(proxy.port)
  return through.toString()
}
