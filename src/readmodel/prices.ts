import type { PoolClient } from '../db/pool.js'
import type { RebuildScope } from './documents.js'

// The price research's rows (migrations/0021_prices.sql): one per item of every stored order, with what the
// statistics and the filters read (its description's id, unit, unit price, quantity, organization,
// supplier, modality and day), kept in step with the orders an import touched. A withdrawn order's rows go
// with it (ON DELETE CASCADE); an order written again gets its rows again, so a changed price, supplier,
// modality or date is seen at commit.

/** The orders in scope, by id. */
const ordersInScope = (scope: RebuildScope) =>
  scope === 'all'
    ? 'SELECT id FROM orders'
    : 'SELECT o.id FROM orders o JOIN touched_orders t ON t.organization_id = o.organization_id AND t.number = o.number'

/** Rebuilds the price rows of the orders in scope; returns how many it wrote. */
export async function projectPrices(client: PoolClient, scope: RebuildScope): Promise<number> {
  await client.query(
    scope === 'all'
      ? 'TRUNCATE price_items'
      : `DELETE FROM price_items WHERE order_id IN (${ordersInScope(scope)})`,
  )
  await client.query(
    `INSERT INTO item_descriptions (description, search)
     SELECT d, to_tsvector('compras_pt', d) FROM (
       SELECT DISTINCT i.description AS d FROM order_items i WHERE i.order_id IN (${ordersInScope(scope)})) x
     ON CONFLICT (md5(description)) DO NOTHING`,
  )
  const { rowCount } = await client.query(
    `INSERT INTO price_items (order_id, position, description_id, unit, amount, quantity, organization_id,
       supplier_id, modality_id, day)
     SELECT i.order_id, i.position, d.id, i.unit_measurement, i.amount, i.quantity, o.organization_id,
       o.supplier_id, o.modality_id, (o.deadline_delivery AT TIME ZONE 'UTC')::date
     FROM orders o JOIN order_items i ON i.order_id = o.id
     JOIN item_descriptions d ON md5(d.description) = md5(i.description) AND d.description = i.description
     WHERE o.id IN (${ordersInScope(scope)})`,
  )
  return rowCount ?? 0
}
