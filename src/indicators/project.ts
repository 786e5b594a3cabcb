import type { PoolClient } from '../db/pool.js'
import {
  commitmentRowsSql,
  INDICATORS,
  type Indicator,
  type IndicatorScope,
  organizationYearsSql,
  priceFencesSql,
  priceFlagKey,
  pricesSql,
  type Scope,
  yearOf,
} from './indicators.js'

// The flags, kept in step with the records in the import's transaction (src/readmodel/build.ts runs this after
// the documents and the prices), computed again only for what the import touched: the per-record rules for the
// records it wrote, withdrew or showed again; the rules of an organization's year for the years whose
// commitments or direct contracts changed, before or after; R017 for the descriptions whose prices changed
// (their fences move) and the prices of the records touched; then the comparisons between organizations, whole.
// A withdrawn record's flags go with it; history and the change feeds do not see flags.

/** The records an import's projections cover: all (a first load, a new version of the rules), or those it touched. */
type Projected = 'all' | 'touched'

const COLUMNS = 'key, code, organization_id, year, supplier_ids, records, figures'

const of = (kind: IndicatorScope['kind']) =>
  (INDICATORS as readonly Indicator[]).filter((indicator) => indicator.scope.kind === kind)
const codes = (indicators: readonly Indicator[]) => indicators.map((i) => `'${i.code}'`).join(', ')

const BY_RECORD = of('record')
const BY_YEAR = of('year')
const BY_PRICE = of('prices')
const ACROSS = of('all')

const everything = () => 'TRUE'

/** The records the import touched (src/import/touched.ts), each once, with their sizes for the plans. */
const TOUCHED = [
  `CREATE TEMP TABLE indicator_biddings ON COMMIT DROP AS
     SELECT DISTINCT id FROM touched_records WHERE tbl = 'biddings'`,
  `CREATE TEMP TABLE indicator_contracts ON COMMIT DROP AS
     SELECT DISTINCT id FROM touched_records WHERE tbl = 'contracts'`,
  'CREATE TEMP TABLE indicator_orders ON COMMIT DROP AS SELECT DISTINCT organization_id, number FROM touched_orders',
  'ANALYZE indicator_biddings, indicator_contracts, indicator_orders',
]

const inBiddings = (id: string) => `${id} IN (SELECT id FROM indicator_biddings)`
const inContracts = (id: string) => `${id} IN (SELECT id FROM indicator_contracts)`
const inOrders = (organization: string, number: string) =>
  `(${organization}, ${number}) IN (SELECT organization_id, number FROM indicator_orders)`
const inYears = (organization: string, year: string) =>
  `(${organization}, ${year}) IN (SELECT organization_id, year FROM indicator_years)`

/** The commitments of the records touched, as they were (taken out) and as they are (put in), then the years moved. */
const COMMITMENTS = [
  'CREATE TEMP TABLE commitments_before (LIKE integrity_commitments) ON COMMIT DROP',
  `WITH contracts AS (DELETE FROM integrity_commitments k
       WHERE k.kind = 'contracts' AND k.ref IN (SELECT id::text FROM indicator_contracts) RETURNING k.*),
     direct AS (DELETE FROM integrity_commitments k
       WHERE k.kind = 'direct_contracts' AND k.ref IN (SELECT id::text FROM indicator_biddings) RETURNING k.*),
     orders AS (DELETE FROM integrity_commitments k
       WHERE k.kind = 'orders' AND ${inOrders('k.organization_id', 'k.ref')} RETURNING k.*)
   INSERT INTO commitments_before
     SELECT * FROM contracts UNION ALL SELECT * FROM direct UNION ALL SELECT * FROM orders`,
  `CREATE TEMP TABLE commitments_after ON COMMIT DROP AS ${commitmentRowsSql(
    (kind) =>
      kind === 'contracts'
        ? inContracts('x.id')
        : kind === 'direct_contracts'
          ? inBiddings('x.id')
          : inOrders('x.organization_id', 'x.number'),
    'SELECT id FROM indicator_biddings',
  )}`,
  'INSERT INTO integrity_commitments SELECT * FROM commitments_after',
  // The years in scope: those whose commitments changed (a record's value, supplier, modality or day, before or
  // after), those of the direct contracts touched (R011 sums them whether or not a contract carries them), and
  // those of R011's flags that name one (a direct contract that left a flagged group).
  `CREATE TEMP TABLE indicator_years ON COMMIT DROP AS
     SELECT organization_id, year FROM (
       (SELECT * FROM commitments_before EXCEPT ALL SELECT * FROM commitments_after)
       UNION ALL (SELECT * FROM commitments_after EXCEPT ALL SELECT * FROM commitments_before)) moved
     UNION SELECT b.organization_id, ${yearOf('b.opening_date')} FROM biddings b
       WHERE ${inBiddings('b.id')} AND b.kind = 'direct_contract' AND b.opening_date IS NOT NULL
     UNION SELECT f.organization_id, f.year FROM indicator_biddings t
       JOIN integrity_flags f ON f.records @> jsonb_build_array(jsonb_build_object('resource', 'direct-contracts', 'id', t.id::text))
       WHERE f.code IN (${codes(BY_YEAR)})`,
  'ANALYZE indicator_years',
]

/**
 * The descriptions whose prices changed since the last import (every statement that writes price rows records
 * its descriptions: migrations/0028_indicator_scopes.sql), taken; then their fences, computed again.
 */
const DESCRIPTIONS = [
  'CREATE TEMP TABLE indicator_descriptions (description_id integer) ON COMMIT DROP',
  `WITH taken AS (DELETE FROM price_descriptions_changed RETURNING description_id)
   INSERT INTO indicator_descriptions SELECT description_id FROM taken`,
]
const FENCES = [
  'ANALYZE indicator_descriptions',
  'DELETE FROM price_fences WHERE description_id IN (SELECT description_id FROM indicator_descriptions)',
  priceFencesSql('description_id IN (SELECT description_id FROM indicator_descriptions)'),
  'DELETE FROM integrity_flags WHERE description_id IN (SELECT description_id FROM indicator_descriptions)',
]

/**
 * The prices R017 judges again: those above their fence, of the descriptions whose prices changed, and every
 * price of the orders and biddings touched (a relinked order's flag names its new contract), their flags taken
 * out first.
 */
const PRICES = [
  `CREATE TEMP TABLE indicator_prices ON COMMIT DROP AS
     SELECT p.* FROM (${pricesSql(() => 'p.description_id IN (SELECT description_id FROM indicator_descriptions)')}) p
       JOIN price_fences f ON f.description_id = p.description_id AND f.unit = p.unit AND p.amount > f.fence
     UNION ${pricesSql((table) =>
       table === 'price_items'
         ? 'p.order_id IN (SELECT o.id FROM orders o JOIN indicator_orders t ON t.organization_id = o.organization_id AND t.number = o.number)'
         : inBiddings('p.bidding_id'),
     )}`,
  `DELETE FROM integrity_flags WHERE key IN (SELECT ${priceFlagKey('p')} FROM indicator_prices p)`,
]

/** The scope of an import: the records, years and prices it touched. */
const TOUCHED_SCOPE: Scope = {
  biddings: inBiddings,
  contracts: inContracts,
  organizations: (organization) => `${organization} IN (SELECT organization_id FROM indicator_years)`,
  years: inYears,
  commitments: `(SELECT * FROM integrity_commitments k WHERE ${inYears('k.organization_id', 'k.year')})`,
  prices: 'indicator_prices',
}

/** Everything: a first load, or the rules changed. */
const ALL_SCOPE: Scope = {
  biddings: everything,
  contracts: everything,
  organizations: everything,
  years: everything,
  commitments: 'integrity_commitments',
  prices: `(${pricesSql(everything)})`,
}

/** Whether a temporary table has a row. */
async function any(client: PoolClient, table: string): Promise<boolean> {
  const { rows } = await client.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${table}) AS found`)
  return rows[0]?.found === true
}

/**
 * Computes the flags of what the import touched (or of everything), then the comparisons between organizations.
 * What did not move is not computed again: the years' rules and the comparisons when no organization's year
 * changed, the fences when no price did.
 */
export async function projectIndicators(client: PoolClient, projected: Projected): Promise<void> {
  // Statements without values go together, in one round trip each list (the simple protocol runs them in order).
  const run = async (statements: readonly string[]) => {
    await client.query(statements.join(';\n'))
  }
  let scope = ALL_SCOPE
  let years = true
  if (projected === 'touched') {
    scope = TOUCHED_SCOPE
    await run([
      ...TOUCHED,
      ...COMMITMENTS,
      ...(['biddings', 'contracts'] as const).map((table) => {
        const rules = BY_RECORD.filter((i) => i.scope.kind === 'record' && i.scope.table === table)
        return `DELETE FROM integrity_flags WHERE key IN (SELECT c || ':' || t.id FROM indicator_${table} t,
           unnest(ARRAY[${codes(rules)}]) c)`
      }),
    ])
    years = await any(client, 'indicator_years')
    if (years)
      await run([
        `DELETE FROM integrity_flags WHERE code IN (${codes(BY_YEAR)}) AND ${inYears('organization_id', 'year')}`,
        `DELETE FROM integrity_organization_years WHERE ${inYears('organization_id', 'year')}`,
      ])
    await run(DESCRIPTIONS)
    if (await any(client, 'indicator_descriptions')) await run(FENCES)
    await run(PRICES)
  } else {
    // DELETE, not TRUNCATE: an import may run as a role with no more than the rights to write rows.
    await run([
      `DELETE FROM integrity_flags WHERE code IN (${codes([...BY_RECORD, ...BY_YEAR, ...BY_PRICE])})`,
      'DELETE FROM integrity_organization_years',
      'DELETE FROM integrity_commitments',
      `INSERT INTO integrity_commitments ${commitmentRowsSql(everything)}`,
      'DELETE FROM price_descriptions_changed',
      'DELETE FROM price_fences',
      priceFencesSql('TRUE'),
    ])
  }
  const inserts = (indicators: readonly Indicator[], columns = COLUMNS) =>
    indicators.map((indicator) => `INSERT INTO integrity_flags (${columns}) ${indicator.sql(scope)}`)
  await run([...inserts(BY_RECORD), ...inserts(BY_PRICE, `${COLUMNS}, description_id`)])
  if (!years) return
  await run([
    ...inserts(BY_YEAR),
    organizationYearsSql(scope.commitments),
    // Fences move with every organization's year: the comparisons are made again over all of them (a row per
    // organization and year, a few thousand for the whole country).
    `DELETE FROM integrity_flags WHERE code IN (${codes(ACROSS)})`,
    ...inserts(ACROSS),
  ])
}
