// The benchmark's ceiling: a bare node:http server answering every request with one pre-serialized
// body (a typical order's size, given in bytes). Plain JavaScript so no loader sits in the process.
// Usage: node bench/baseline-server.mjs BYTES   (prints the port once listening)
import { createServer } from 'node:http'

const size = Number(process.argv[2] ?? 2000)
const filler = 'x'.repeat(Math.max(0, size - 40))
const body = Buffer.from(JSON.stringify({ message: 'Sucesso', data: { filler } }))
const server = createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
  })
  response.end(body)
})
server.keepAliveTimeout = 72_000
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
