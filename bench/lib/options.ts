import { Command, InvalidArgumentError, Option } from 'commander'
import { SCALES, type Scale } from '../../src/demo/generator.js'

function positive(value: string): number {
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a positive number')
  return n
}

export const program = new Command('bench')
  .description(
    'what a request costs the service, beside a bare server of the same design and a previous build',
  )
  .addOption(
    new Option('--scale <scale>', 'demo dataset scale').choices(Object.keys(SCALES)).default('large'),
  )
  .option('--connections <n>', 'concurrent connections of the load generator', positive, 32)
  .option('--duration <seconds>', 'measured seconds per scenario', positive, 10)
  .option('--warmup <seconds>', 'warm-up seconds before each scenario (0: none)', Number, 3)
  .option('--reload', 'load the dataset again even when the database already holds it')
  // The load's floor (bench/lib/floor.ts): measured when the run loads the dataset, unless --no-floor;
  // --floor measures it on a reused dataset too.
  .option(
    '--floor',
    "measure the load's floor (its rows written again in one transaction) on a reused dataset too",
  )
  .option('--no-floor', "skip the load's floor")
  .option('--out <dir>', 'where the results go', 'bench/results')
  .addOption(
    new Option('--generator <name>', 'load generator (default: wrk when installed, else autocannon)').choices(
      ['wrk', 'autocannon'],
    ),
  )
  .option(
    '--soak <minutes>',
    'minutes of mixed load on every route, resident memory sampled (0: none)',
    Number,
    5,
  )
  .option(
    '--only <text>',
    "run only the scenarios and steps whose name contains this, or one of its '|'-separated parts (a quick look; no export but the catch-up, `--only catch-up`; no report)",
  )
  .option(
    '--compare <git-ref>',
    'also measure the service of this ref (built in a temporary worktree), alternated with the current one',
  )
  .option(
    '--replica',
    "also measure a service reading from a streaming standby of the benchmark's embedded database (issue 57)",
  )
  .option(
    '--pncp [contratacoes]',
    'only `compras pncp import` over a generated PNCP directory of this many contratações (default 100000)',
  )
  .option(
    '--webhooks [subscriptions]',
    "only the service's webhook deliveries to a local receiver, with this many subscriptions (default 100)",
  )
  .option(
    '--rounds <n>',
    'rounds of the read scenarios, servers alternated in each (medians reported)',
    positive,
    1,
  )
  .parse()

export const options = program.opts<{
  scale: Scale
  connections: number
  duration: number
  warmup: number
  reload?: boolean
  floor?: boolean
  out: string
  only?: string
  compare?: string
  replica?: boolean
  rounds: number
  soak: number
  generator?: 'wrk' | 'autocannon'
  pncp?: true | string
  webhooks?: true | string
}>()

export const counts = SCALES[options.scale]

/** Whether --only lets the scenario or step of this name run: its name contains one of --only's parts. */
export const runs = (name: string) =>
  options.only === undefined || options.only.split('|').some((part) => name.includes(part))

/** Items of every order of the benchmark's dataset. */
export const ITEMS_PER_ORDER = 5

export const log = (line: string) => process.stdout.write(`${line}\n`)
