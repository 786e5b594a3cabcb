import { Command, InvalidArgumentError, Option } from 'commander'

/** PNCP's record kinds (src/pncp/mapping.ts, kept here so that --help loads nothing). */
export const PNCP_KIND_NAMES = ['contratacao', 'contrato', 'ata', 'termo', 'item', 'resultado']

/**
 * An action whose module loads when its command runs: `token list` does not load the server, and
 * `--help` loads nothing.
 */
const lazy =
  <A extends unknown[]>(load: () => Promise<(...args: A) => Promise<void> | void>) =>
  async (...args: A): Promise<void> =>
    (await load())(...args)

function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number')
  return Number(value)
}

function positiveNumber(value: string): number {
  const n = Number(value)
  if (!/^\d+(\.\d+)?$/.test(value) || n <= 0) throw new InvalidArgumentError('must be a positive number')
  return n
}

function numberList(value: string): number[] {
  if (!/^\d+(,\d+)*$/.test(value)) throw new InvalidArgumentError('must be numbers separated by commas')
  return value.split(',').map(Number)
}

export function buildCli(): Command {
  const program = new Command('compras')
    .description('Public-procurement data service: supply orders, transparency queries and exports')
    .showHelpAfterError()

  program
    .command('serve')
    .description('migrate the database and serve the API (embedded PostgreSQL unless DATABASE_URL is set)')
    .action(lazy(() => import('./serve.js').then((m) => m.serveCommand)))

  program
    .command('migrate')
    .description('apply the pending database migrations')
    .action(lazy(() => import('./migrate.js').then((m) => m.migrateCommand)))

  program
    .command('import')
    .description('import NDJSON records (docs/import-format.md); all of them or, on any problem, none')
    .argument('<files...>', 'NDJSON files; - reads standard input')
    .action(lazy(() => import('./import.js').then((m) => m.importCommand)))

  const pncp = program.command('pncp').description("PNCP's published data (docs/pncp-mapping.md)")
  pncp
    .command('import')
    .description(
      "import PNCP's JSON as its API serves it: pages, arrays or records; all or, on any problem, none",
    )
    .argument('<paths...>', 'JSON files, or directories read recursively (their .json files, in name order)')
    .addOption(
      new Option('--kind <kind>', 'every record is of this kind, whatever its fields say').choices(
        PNCP_KIND_NAMES,
      ),
    )
    .option('--rejects <file>', 'import the rest, and write each refused record here with its reasons')
    .action(lazy(() => import('./pncp.js').then((m) => m.pncpImportCommand)))
  pncp
    .command('harvest')
    .description(
      "fetch PNCP's published records, page by page, into files that `pncp import` reads; resumable",
    )
    .option('--from <day>', 'first day (YYYY-MM-DD)')
    .option('--to <day>', 'last day (YYYY-MM-DD); at most today')
    .option(
      '--since-last',
      'what PNCP changed since the last complete harvest into --out (its /atualizacao endpoints)',
    )
    .option('--uf <uf>', "contratações of one state (PNCP's contratos and atas take no state)")
    .option('--cnpj <cnpj>', 'one organ, every kind')
    .option('--modalities <list>', 'PNCP modality ids, comma-separated (default: all, 1 to 13)', numberList)
    .option(
      '--kinds <list>',
      "contratacoes, contratos, atas, itens, resultados, termos (default: the directory's, else contratacoes,contratos,atas)",
      (v: string) => v.split(',').map((k) => k.trim()),
    )
    .option('--out <dir>', 'where the pages and the state file go', 'pncp')
    .option('--rate <n>', 'requests a second, at most', positiveNumber, 2)
    .option('--timeout <seconds>', 'seconds a page may take', positiveNumber, 60)
    .option('--import', 'import the directory when the harvest ends (as `pncp import --rejects`)')
    .action(lazy(() => import('./pncp.js').then((m) => m.pncpHarvestCommand)))

  program
    .command('dump')
    .description('write every stored record in the import format (to move data between instances)')
    .option('--out <file>', 'write to this file instead of standard output')
    .action(lazy(() => import('./dump.js').then((m) => m.dumpCommand)))

  program
    .command('demo')
    .description('generate realistic demo records in the import format')
    .option('--scale <scale>', 'small, medium or large', 'small')
    .option('--seed <n>', 'random seed: the same seed gives the same records', positiveInteger, 1)
    .option('--out <file>', 'write to this file instead of standard output')
    .option('--organizations <n>', 'number of organizations (overrides the scale)', positiveInteger)
    .option('--orders <n>', 'number of supply orders', positiveInteger)
    .option('--items <n>', 'items of every order (default: 1 to 9)', positiveInteger)
    .option('--contracts <n>', 'number of contracts', positiveInteger)
    .option('--arps <n>', 'number of price-registration records', positiveInteger)
    .option('--direct-contracts <n>', 'number of direct contracts', positiveInteger)
    .option('--public-calls <n>', 'number of public calls', positiveInteger)
    .action(lazy(() => import('./demo.js').then((m) => m.demoCommand)))

  program
    .command('export')
    .description(
      'write every record of a transparency listing as XLSX or CSV, as GET /v1/transparency/export does; ' +
        'or, with --resource ocds, every OCDS release as JSON Lines, as GET /v1/ocds/releases.jsonl does',
    )
    .requiredOption('--resource <resource>', 'contracts, direct-contracts, public-calls, arps, or ocds')
    .option('--format <format>', 'xlsx or csv (not for ocds)')
    .requiredOption('--out <file>', 'the file to write')
    .option('--separator <char>', 'CSV separator: , (default) or ;')
    .option('--organization-uuid <uuid>', 'filter: organization')
    .option('--number <text>', 'filter: number')
    .option('--bidding-number <text>', 'filter: bidding number')
    .option('--modality-id <id>', 'filter: modality id (GET /v1/transparency/helpers/bidding-modalities)')
    .option('--status-id <id>', 'filter: bidding status id')
    .option('--management-status-id <id>', 'filter: management status id')
    .option('--provider-document <digits>', 'filter: supplier CNPJ (14 digits)')
    .option('--provider-name <text>', "filter: words of the supplier's name, in order")
    .option('--date-from <yyyy-mm-dd>', 'filter: from this day')
    .option('--date-to <yyyy-mm-dd>', 'filter: up to this day')
    .option('--updated-since <instant>', 'filter: changed at this ISO 8601 instant or later')
    .option('--q <text>', 'filter: full-text search')
    .option('--sort <field>', 'a sort value of the listing; -field for descending')
    .action(lazy(() => import('./export.js').then((m) => m.exportCommand)))

  program
    .command('snapshot')
    .description(
      "every OCDS release and record as gzipped JSON Lines by year, with a manifest and the feeds' cursors",
    )
    .option(
      '--out <dir>',
      'the folder of the snapshots (SNAPSHOT_DIR by default): each in its own, `latest` the newest',
    )
    .action(lazy(() => import('./snapshot.js').then((m) => m.snapshotCommand)))

  const token = program.command('token').description('order-query access tokens, one organization each')
  token
    .command('issue')
    .description('create a token; it is printed alone on the last line, and only then')
    .requiredOption('--organization <uuid>', 'the organization the token reads orders of')
    .option('--label <text>', 'a note for the operator, such as who received it')
    .action(lazy(() => import('./token.js').then((m) => m.tokenIssueCommand)))
  token
    .command('list')
    .description('list tokens with their organization, label, creation, last use and revocation')
    .action(lazy(() => import('./token.js').then((m) => m.tokenListCommand)))
  token
    .command('revoke')
    .description('revoke a token; every instance refuses it within a second')
    .argument('<id>', 'the token id from token list')
    .action(lazy(() => import('./token.js').then((m) => m.tokenRevokeCommand)))

  const webhook = program
    .command('webhook')
    .description('webhook subscriptions: the public change feed POSTed, signed (Standard Webhooks 1.0)')
  webhook
    .command('add')
    .description('subscribe an endpoint; prints its id and its new secret, only then')
    .requiredOption('--url <url>', 'the endpoint: http or https, a public address')
    .option(
      '--kinds <list>',
      'kinds to follow, comma-separated (contracts,direct-contracts,public-calls,arps)',
    )
    .option('--filter <query>', "the listings' filters, as a query string: 'organization_uuid=...&q=...'")
    .action(lazy(() => import('./webhook.js').then((m) => m.webhookAddCommand)))
  webhook
    .command('list')
    .description('list the subscriptions: endpoint, kinds, filter, entries behind, failing or disabled')
    .action(lazy(() => import('./webhook.js').then((m) => m.webhookListCommand)))
  webhook
    .command('remove')
    .description('remove a subscription')
    .argument('<id>', 'the subscription id from webhook list')
    .action(lazy(() => import('./webhook.js').then((m) => m.webhookRemoveCommand)))
  webhook
    .command('rotate-secret')
    .description('a new secret, printed only now; the old one signs too for 24 hours')
    .argument('<id>', 'the subscription id from webhook list')
    .action(lazy(() => import('./webhook.js').then((m) => m.webhookRotateCommand)))
  webhook
    .command('deliveries')
    .description("a subscription's last attempts: entry, status, time, error")
    .argument('<id>', 'the subscription id from webhook list')
    .option('--limit <n>', 'how many, newest first', positiveInteger, 20)
    .action(lazy(() => import('./webhook.js').then((m) => m.webhookDeliveriesCommand)))
  webhook
    .command('redeliver')
    .description('deliver again every entry after a cursor of the public feed (enables a disabled one)')
    .argument('<id>', 'the subscription id from webhook list')
    .requiredOption('--from <cursor>', "a cursor of the feed (an entry's, or 0 for the start)")
    .action(lazy(() => import('./webhook.js').then((m) => m.webhookRedeliverCommand)))

  return program
}
