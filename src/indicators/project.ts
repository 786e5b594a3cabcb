import type { PoolClient } from '../db/pool.js'
import { COMMITMENTS_SQL, INDICATORS, type Indicator, organizationYearsSql } from './indicators.js'

// The flags, kept in step with the records in the import's transaction (src/readmodel/build.ts runs this after
// the documents): the flags and years of every organization the import touched are computed again whole, then
// the comparisons between organizations, from their years. A withdrawn record's flags go with it; history and
// the change feeds do not see flags.

/** The organizations whose records the import wrote, withdrew or showed again (src/import/touched.ts). */
const TOUCHED_ORGANIZATIONS = `CREATE TEMP TABLE indicator_scope ON COMMIT DROP AS
  SELECT organization_id FROM biddings WHERE id IN (SELECT id FROM touched_records WHERE tbl = 'biddings')
  UNION SELECT organization_id FROM contracts WHERE id IN (SELECT id FROM touched_records WHERE tbl = 'contracts')
  UNION SELECT organization_id FROM touched_orders
  UNION SELECT organization_id FROM before_biddings
  UNION SELECT organization_id FROM before_contracts
  UNION SELECT organization_id FROM before_orders`

/** The records an import's projections cover: all (a first load), or those it touched (RebuildScope). */
type Scope = 'all' | 'touched'

const COLUMNS = 'key, code, organization_id, year, supplier_ids, records, figures'

const codes = (indicators: readonly Indicator[]) => indicators.map((i) => `'${i.code}'`).join(', ')

const PER_ORGANIZATION = (INDICATORS as readonly Indicator[]).filter((i) => i.scope === 'organization')
const ACROSS = (INDICATORS as readonly Indicator[]).filter((i) => i.scope === 'all')

/** Computes the flags of the organizations in scope, then the comparisons between all organizations. */
export async function projectIndicators(client: PoolClient, scope: Scope): Promise<void> {
  let orgs = 'SELECT id FROM organizations'
  if (scope === 'touched') {
    await client.query(TOUCHED_ORGANIZATIONS)
    // Its size, for the plans: a few organizations are read by their indexes, not by scanning every table.
    await client.query('ANALYZE indicator_scope')
    orgs = 'SELECT organization_id FROM indicator_scope'
  }
  // Their commitments, each real once, read once for the rules and the years that add them up.
  await client.query(`CREATE TEMP TABLE indicator_commitments ON COMMIT DROP AS ${COMMITMENTS_SQL(orgs)}`)
  await client.query(
    `DELETE FROM integrity_flags WHERE code IN (${codes(PER_ORGANIZATION)}) AND organization_id IN (${orgs})`,
  )
  for (const indicator of PER_ORGANIZATION)
    await client.query(
      `INSERT INTO integrity_flags (${COLUMNS}) ${indicator.sql(orgs, 'indicator_commitments')}`,
    )
  await client.query(`DELETE FROM integrity_organization_years WHERE organization_id IN (${orgs})`)
  await client.query(organizationYearsSql('indicator_commitments'))
  // Fences move with every organization's year: the comparisons are made again over all of them (a row per
  // organization and year, a few thousand for the whole country).
  await client.query(`DELETE FROM integrity_flags WHERE code IN (${codes(ACROSS)})`)
  for (const indicator of ACROSS)
    await client.query(`INSERT INTO integrity_flags (${COLUMNS}) ${indicator.sql('', '')}`)
}
