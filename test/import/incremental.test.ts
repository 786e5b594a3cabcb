import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DemoRecord } from '../../src/demo/generator.js'
import { importRecords, largeShare, stagedRows } from '../../src/import/importer.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { assertFresh, changed, documents } from '../helpers/readmodel.js'
import { demoRecords, first, ndjson, recordKey, source, TINY } from '../helpers/records.js'

// An import rebuilds the documents its records changed, and the documents that show them, and no other:
// every other document stays byte for byte as it was, and the read model stays what a full rebuild gives.

/** How many times ANALYZE ran on the orders and on their items (autovacuum's own runs not counted). */
async function analyses(pool: TestDatabase['pool']): Promise<{ orders: number; order_items: number }> {
  const { rows } = await pool.query<{ relname: 'orders' | 'order_items'; n: string }>(
    "SELECT relname, analyze_count AS n FROM pg_stat_user_tables WHERE relname IN ('orders', 'order_items')",
  )
  const counts = { orders: 0, order_items: 0 }
  for (const row of rows) counts[row.relname] = Number(row.n)
  return counts
}

/** The statistics views lag their backends a little. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 600))

describe('incremental imports', () => {
  let db: TestDatabase
  const records = demoRecords(
    { organizations: 3, orders: 90, contracts: 24, arps: 12, directContracts: 6, publicCalls: 9 },
    23,
  )
  const byId = (id: unknown) => records.find((r) => r.id === id) as DemoRecord
  const contractOf = (order: DemoRecord) =>
    records.find(
      (r) =>
        r.type === 'contract' &&
        r.organization_uuid === order.organization_uuid &&
        r.contract_number === order.contract_number,
    ) as DemoRecord
  const arpOf = (record: DemoRecord) =>
    records.find(
      (r) =>
        r.type === 'arp' &&
        r.organization_uuid === record.organization_uuid &&
        r.number === record.arp_number,
    ) as DemoRecord
  const biddingPath = (bidding: DemoRecord) =>
    bidding.type === 'direct_contract' ? 'direct-contracts' : 'public-calls'
  const orderKey = (order: DemoRecord) => `order ${order.organization_uuid} ${order.number}`
  const run = async (lines: unknown[]) => {
    const before = await documents(db.pool)
    const result = await importRecords(db.pool, [source(ndjson(lines))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    // Later tests start from what this one left: the fixture follows the database.
    for (const line of lines as DemoRecord[]) {
      records[records.findIndex((r) => recordKey(r) === recordKey(line))] = line
    }
    await assertFresh(db.pool)
    return changed(before, await documents(db.pool))
  }

  before(async () => {
    db = await createTestDatabase()
    assert.equal((await importRecords(db.pool, [source(ndjson(records))])).ok, true)
    await assertFresh(db.pool)
  })
  after(() => db.drop())

  it("rebuilds a changed order, its contract's and its ARP's documents, and nothing else", async () => {
    const order = first(records, 'order', (o) => o.contract_number !== null && o.arp_number !== null)
    const status = order.status_title === 'Emitida' ? 'Recebido total' : 'Emitida'
    const touched = await run([{ ...order, status_title: status }])
    assert.deepEqual(
      touched,
      [`arps ${arpOf(order).id}`, `contracts ${contractOf(order).id}`, orderKey(order)].sort(),
    )
  })

  it('rebuilds nothing when a record comes again unchanged', async () => {
    const order = first(records, 'order', (o) => o.contract_number !== null)
    const contract = contractOf(order)
    assert.deepEqual(
      await run([order, contract, byId(contract.bidding_uuid ?? first(records, 'public_call').id)]),
      [],
    )
  })

  it("rebuilds the orders that show a contract's total, and the bidding and ARP that list it", async () => {
    const contract = first(
      records,
      'contract',
      (c) =>
        c.bidding_uuid !== null &&
        c.arp_number !== null &&
        records.some(
          (o) =>
            o.type === 'order' &&
            o.organization_uuid === c.organization_uuid &&
            o.contract_number === c.contract_number,
        ),
    )
    const orders = records.filter(
      (o) =>
        o.type === 'order' &&
        o.organization_uuid === contract.organization_uuid &&
        o.contract_number === contract.contract_number,
    )
    const bidding = byId(contract.bidding_uuid)
    const touched = await run([{ ...contract, amount_total: '999999.99' }])
    assert.deepEqual(
      touched,
      [
        `contracts ${contract.id}`,
        `arps ${arpOf(contract).id}`,
        `${biddingPath(bidding)} ${bidding.id}`,
        ...orders.map(orderKey),
      ].sort(),
    )
  })

  it('rebuilds both contracts when an order moves from one to another', async () => {
    const order = first(records, 'order', (o) => o.contract_number !== null && o.arp_number === null)
    const from = contractOf(order)
    const to = first(
      records,
      'contract',
      (c) => c.organization_uuid === order.organization_uuid && c.id !== from.id && c.arp_number === null,
    )
    const touched = await run([{ ...order, contract_number: to.contract_number }])
    assert.deepEqual(touched, [`contracts ${from.id}`, `contracts ${to.id}`, orderKey(order)].sort())
  })

  it('rebuilds every document that shows a supplier whose name an import changes, in every organization', async () => {
    const order = first(records, 'order')
    const renamed = { ...order, provider_name: 'Fornecedor Renomeado S.A.' }
    const showing = await db.pool.query<{ key: string }>(
      `SELECT 'order ' || organization_id || ' ' || number AS key FROM order_documents WHERE body LIKE $1
       UNION SELECT resource || ' ' || id FROM detail_documents WHERE body LIKE $1`,
      [`%${JSON.stringify(order.provider_name).slice(1, -1)}%`],
    )
    const organizations = new Set(
      records.filter((r) => r.provider_document === order.provider_document).map((r) => r.organization_uuid),
    )
    const touched = await run([renamed])
    // The order itself changes, and every document that showed the old name now shows the new one.
    assert.ok(touched.includes(orderKey(order)))
    for (const { key } of showing.rows) assert.ok(touched.includes(key), `${key} still shows the old name`)
    assert.ok(organizations.size >= 1)
    const stale = await db.pool.query(
      `SELECT count(*)::int AS n FROM (SELECT body FROM order_documents UNION ALL SELECT body FROM detail_documents) d
       WHERE body LIKE $1`,
      [`%${JSON.stringify(order.provider_name).slice(1, -1)}%`],
    )
    assert.equal(stale.rows[0].n, 0)
  })

  it('analyzes after a bulk load, and runs no ANALYZE on a small import', async () => {
    const own = await createTestDatabase()
    try {
      const analyzed = async () => (await analyses(own.pool)).orders
      const bulk = demoRecords({ ...TINY, orders: 1200 }, 29)
      assert.equal((await importRecords(own.pool, [source(ndjson(bulk))])).ok, true)
      await settle()
      const afterBulk = await analyzed()
      assert.ok(afterBulk >= 1, 'a bulk load into an empty table analyzes it')
      const order = first(bulk, 'order')
      assert.equal(
        (
          await importRecords(own.pool, [
            source(ndjson([{ ...order, object: 'Objeto de uma pequena importação' }])),
          ])
        ).ok,
        true,
      )
      await settle()
      assert.equal(await analyzed(), afterBulk)
    } finally {
      await own.drop()
    }
  })
})

describe('which runs analyze a table', () => {
  it('those that write at least 1,000 rows and a tenth of the table, counted as empty when never analyzed', () => {
    assert.equal(largeShare(999, -1), false)
    assert.equal(largeShare(1000, -1), true)
    assert.equal(largeShare(1000, 0), true)
    assert.equal(largeShare(1000, 10_000), true)
    assert.equal(largeShare(1000, 10_001), false)
    assert.equal(largeShare(1001, 10_010), true)
    assert.equal(largeShare(5000, 1_000_000), false)
    assert.equal(largeShare(100_000, 1_000_000), true)
  })

  it('counts the rows a run writes per table from its records', () => {
    const written = { organization: 2, order: 3, contract: 5, arp: 7, direct_contract: 11, public_call: 13 }
    assert.deepEqual(stagedRows(written, 17), {
      organizations: 2,
      units: 3,
      suppliers: 3 + 5 + 7 + 11 + 13,
      biddings: 24,
      bidding_providers: 24,
      arps: 7,
      contracts: 5,
      contract_people: 5,
      contract_commitments: 5,
      additive_terms: 12,
      documents: 5 + 7 + 24,
      orders: 3,
      order_items: 17,
    })
  })

  it('analyzes a table a run changes a large share of, and not one it changes a small share of', async () => {
    const own = await createTestDatabase()
    try {
      // 1,100 orders of 10 items: a first load analyzes both tables it fills.
      const bulk = demoRecords({ ...TINY, orders: 1100, itemsPerOrder: 10 }, 31)
      assert.equal((await importRecords(own.pool, [source(ndjson(bulk))])).ok, true)
      await settle()
      const loaded = await analyses(own.pool)
      assert.ok(loaded.orders >= 1 && loaded.order_items >= 1, JSON.stringify(loaded))
      // 1,000 of the orders again with one item each: most of the orders, a tenth of 11,000 items at most.
      const orders = bulk.filter((r) => r.type === 'order').slice(0, 1000)
      const again = orders.map((o) => ({ ...o, items: (o.items as object[]).slice(0, 1) }))
      assert.equal((await importRecords(own.pool, [source(ndjson(again))])).ok, true)
      await settle()
      const after = await analyses(own.pool)
      assert.ok(after.orders > loaded.orders, 'orders, changed a large share of, analyzed')
      assert.equal(after.order_items, loaded.order_items, 'order items, a small share, left to autovacuum')
    } finally {
      await own.drop()
    }
  })
})
