// A process that starts a standby pair and waits to be killed (test/cleanup.test.ts): it prints the pair's ports
// and the primary's data folder as one JSON line.
import { query, startStandbyPair } from './standby.js'

const pair = await startStandbyPair(1)
const [{ data_directory: dataDirectory }] = (await query<{ data_directory: string }>(
  pair.primary.url,
  'SHOW data_directory',
)) as [{ data_directory: string }]
process.stdout.write(
  `${JSON.stringify({ ports: [pair.primary.port, pair.standby.port], primaryDir: dataDirectory })}\n`,
)
// Waits to be killed; stops its pair after ten minutes if nobody does.
setTimeout(() => void pair.stop().then(() => process.exit(0)), 600_000)
