import type { PoolClient } from '../db/pool.js'
import type { RebuildScope } from './documents.js'

// The price research's rows (migrations/0021_prices.sql): one per item of every stored order, with what the
// statistics and the filters read (its description's id, unit, unit price, quantity, organization,
// supplier, modality and day), kept in step with the orders an import touched. A withdrawn order's rows go
// with it (ON DELETE CASCADE); an order written again gets its rows again, so a changed price, supplier,
// modality or date is seen at commit.

/** The orders in scope, by id. */
const ordersInScope = (scope: RebuildScope) =>
  // Stryker disable next-line ConditionalExpression: every order in place of the touched ones gives the same rows, slower
  scope === 'all'
    ? 'SELECT id FROM orders'
    : 'SELECT o.id FROM orders o JOIN touched_orders t ON t.organization_id = o.organization_id AND t.number = o.number'

const COLUMNS = [
  'description_id',
  'unit',
  'amount',
  'quantity',
  'organization_id',
  'supplier_id',
  'modality_id',
  'day',
] as const

/** The rows the orders in scope should have, with their item's description (not yet its id). */
const wanted = (scope: RebuildScope) => `
  SELECT i.order_id, i.position, i.description, compras_unit(i.unit_measurement) AS unit, i.amount, i.quantity, o.organization_id,
    o.supplier_id, o.modality_id, (o.deadline_delivery AT TIME ZONE 'UTC')::date AS day
  FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.id IN (${ordersInScope(scope)})`

/** The descriptions of `rows` (with a `description` column) that item_descriptions lacks, added. */
const ADD_DESCRIPTIONS = (rows: string) => `INSERT INTO item_descriptions (description, search)
  SELECT d, to_tsvector('compras_pt', d) FROM (SELECT DISTINCT description AS d FROM ${rows} w) x
  WHERE NOT EXISTS (SELECT 1 FROM item_descriptions e WHERE md5(e.description) = md5(x.d))
  ON CONFLICT (md5(description)) DO NOTHING`

/**
 * Writes the price rows `rows` (keyed by `owner` and position, with their description, not yet its id) into
 * `table`: a row that did not change is not written again.
 */
const upsertChanged = (table: 'price_items' | 'price_results', owner: string, rows: string) => `
  INSERT INTO ${table} (${owner}, position, ${COLUMNS.join(', ')})
  SELECT w.${owner}, w.position, d.id, ${COLUMNS.slice(1)
    .map((c) => `w.${c}`)
    .join(', ')}
  FROM ${rows} w JOIN item_descriptions d ON md5(d.description) = md5(w.description) AND d.description = w.description
  ON CONFLICT (${owner}, position) DO UPDATE SET ${COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}
  WHERE (${COLUMNS.map((c) => `${table}.${c}`).join(', ')}) IS DISTINCT FROM
    (${COLUMNS.map((c) => `excluded.${c}`).join(', ')})`

/** Brings the price rows of orders and of results in line with what the import wrote. */
export async function projectPrices(client: PoolClient, scope: RebuildScope): Promise<void> {
  await projectOrderPrices(client, scope)
  await projectResultPrices(client, scope)
}

/**
 * Brings the price rows of the orders in scope in line with them. The orders' items
 * are read once (kept aside in `price_scope` for an import); a row that did not change is not written again (an
 * import that changes an order's status changes none of its prices), so an import costs what changed in its
 * prices, not the index maintenance of every item it touched.
 */
async function projectOrderPrices(client: PoolClient, scope: RebuildScope): Promise<void> {
  let rows: string
  if (scope === 'all') {
    // DELETE, not TRUNCATE: an import may run as a role with no more than the rights to write rows.
    await client.query('DELETE FROM price_items')
    rows = `(${wanted(scope)})`
  } else {
    await client.query(`CREATE TEMP TABLE price_scope ON COMMIT DROP AS ${wanted(scope)}`)
    // Stryker disable next-line StringLiteral: statistics only steer the plan; the rows are the same without them
    await client.query('ANALYZE price_scope')
    rows = 'price_scope'
  }
  await client.query(ADD_DESCRIPTIONS(rows))
  await client.query(upsertChanged('price_items', 'order_id', rows))
  // Items an order no longer has (a withdrawn order's rows went with it).
  if (scope === 'touched')
    await client.query(
      `DELETE FROM price_items p WHERE p.order_id IN (SELECT order_id FROM price_scope)
       AND NOT EXISTS (SELECT 1 FROM price_scope w WHERE w.order_id = p.order_id AND w.position = p.position)`,
    )
}

/**
 * The rows the results of the biddings in scope should have: each result with its item's description and
 * normalized unit, its bidding's organization and modality, its supplier, and its date (the result's, else the
 * bidding's opening). A revoked or annulled bidding's results are no price.
 */
const wantedResults = (scope: RebuildScope) => `
  SELECT r.bidding_id, r.position, i.description, compras_unit(i.unit_measurement) AS unit, r.amount, r.quantity,
    b.organization_id, r.supplier_id, b.modality_id,
    coalesce(r.result_date, (b.opening_date AT TIME ZONE 'UTC')::date, (b.updated_at AT TIME ZONE 'UTC')::date) AS day
  FROM bidding_results r
  JOIN biddings b ON b.id = r.bidding_id
  JOIN bidding_statuses st ON st.id = b.status_id AND st.name NOT IN ('Revogado', 'Anulado')
  JOIN bidding_items i ON i.bidding_id = r.bidding_id AND i.number_item = r.number_item
  ${scope === 'all' ? '' : "WHERE r.bidding_id IN (SELECT id FROM touched_records WHERE tbl = 'biddings')"}`

/** Brings the price rows of the results of the biddings in scope in line with them, as for orders. */
async function projectResultPrices(client: PoolClient, scope: RebuildScope): Promise<void> {
  if (scope === 'all') await client.query('DELETE FROM price_results')
  await client.query(`CREATE TEMP TABLE result_scope ON COMMIT DROP AS ${wantedResults(scope)}`)
  // Stryker disable next-line StringLiteral: statistics only steer the plan; the rows are the same without them
  await client.query('ANALYZE result_scope')
  await client.query(ADD_DESCRIPTIONS('result_scope'))
  await client.query(upsertChanged('price_results', 'bidding_id', 'result_scope'))
  // Results a bidding no longer has, or no longer as a price (a withdrawn bidding's rows went with it).
  if (scope === 'touched')
    await client.query(
      `DELETE FROM price_results p WHERE p.bidding_id IN (SELECT id FROM touched_records WHERE tbl = 'biddings')
       AND NOT EXISTS (SELECT 1 FROM result_scope w WHERE w.bidding_id = p.bidding_id AND w.position = p.position)`,
    )
  await client.query('DROP TABLE result_scope')
}
