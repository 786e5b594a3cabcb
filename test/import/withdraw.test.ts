import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { MemoryLimiter } from '../../src/auth/rate-limit.js'
import { issueToken } from '../../src/auth/tokens.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { dumpRecords } from '../../src/import/dump.js'
import { importRecords } from '../../src/import/importer.js'
import { buildTestApp } from '../helpers/app.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { assertFresh, documents } from '../helpers/readmodel.js'
import { demoRecords, first, ndjson, recordKey, source } from '../helpers/records.js'

// A withdrawal line removes a stored record by its key. The record then disappears from every face:
// the order query, details, listings, relations, exports and the dump. A withdrawal that would leave
// other records pointing to nothing is refused, and a refused file changes nothing at all.

const BIDDING_PATHS: Record<string, string> = {
  direct_contract: 'direct-contracts',
  public_call: 'public-calls',
}

describe('withdrawn records', () => {
  let db: TestDatabase
  let app: FastifyInstance
  let token: string
  const records = demoRecords(
    { organizations: 2, orders: 40, contracts: 12, arps: 6, directContracts: 4, publicCalls: 6 },
    31,
  )
  const organization = first(records, 'organization')
  const mine = (r: DemoRecord) => r.organization_uuid === organization.uuid

  /** Imports the lines; when the import takes them, the fixture follows, so later tests pick live records. */
  const importLines = async (lines: readonly Record<string, unknown>[]) => {
    const result = await importRecords(db.pool, [source(ndjson(lines))])
    if (!result.ok) return result
    for (const line of lines) {
      const key =
        line.type === 'withdraw'
          ? recordKey({
              type: line.record,
              organization_uuid: line.organization_uuid,
              number: line.number,
              id: line.id,
            })
          : recordKey(line)
      const at = records.findIndex((r) => recordKey(r) === key)
      if (line.type === 'withdraw') records.splice(at, 1)
      else if (at >= 0) records[at] = line as DemoRecord
      else records.push(line as DemoRecord)
    }
    return result
  }
  const get = (url: string, authorization?: string) =>
    app.inject({ method: 'GET', url, headers: authorization === undefined ? {} : { authorization } })
  const orderQuery = (number: unknown) =>
    get(`/external/orders?order_number=${encodeURIComponent(String(number))}`, token)
  const data = async (url: string) => {
    const response = await get(url)
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`)
    return response.json().data
  }
  const dump = async () => {
    const out: Record<string, unknown>[] = []
    for await (const record of dumpRecords(db.pool, 50)) out.push(record)
    return out.map(recordKey).sort()
  }
  const snapshot = async () => ({ dump: await dump(), documents: await documents(db.pool) })
  const ordersOf = (contract: DemoRecord) =>
    records.filter((o) => o.type === 'order' && mine(o) && o.contract_number === contract.contract_number)

  before(async () => {
    db = await createTestDatabase()
    const result = await importLines(records)
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    ;({ token } = await issueToken(db.pool, organization.uuid as string, 'withdraw'))
    // No cache: every answer reads what the last import left (dropping caches on import is store.test.ts's).
    app = await buildTestApp(db, { limiter: new MemoryLimiter(), env: { CACHE_MB: '0' } })
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  it('an order: gone from the order query, from its contract and ARP, and from the dump', async () => {
    const order = first(
      records,
      'order',
      (o) => mine(o) && o.contract_number !== null && o.arp_number !== null,
    )
    const contract = first(records, 'contract', (c) => mine(c) && c.contract_number === order.contract_number)
    const arp = first(records, 'arp', (a) => mine(a) && a.number === order.arp_number)
    const numbers = async (url: string) =>
      ((await data(url)).orders as { number: string }[]).map((o) => o.number)
    assert.equal((await orderQuery(order.number)).statusCode, 200)
    assert.ok(
      (await numbers(`/v1/transparency/contracts/${contract.id}?with_relations=orders`)).includes(
        order.number as string,
      ),
    )

    const result = await importLines([
      { type: 'withdraw', record: 'order', organization_uuid: organization.uuid, number: order.number },
    ])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    assert.equal(result.withdrawn.order, 1)
    assert.equal(result.counts.order, 0)

    const answer = await orderQuery(order.number)
    assert.deepEqual([answer.statusCode, answer.body], [500, '{"message":"Ordem não encontrada","data":[]}'])
    assert.ok(
      !(await numbers(`/v1/transparency/contracts/${contract.id}?with_relations=orders`)).includes(
        order.number as string,
      ),
    )
    assert.ok(
      !(await numbers(`/v1/transparency/arps/${arp.id}?with_relations=orders`)).includes(
        order.number as string,
      ),
    )
    const listed = await data(
      `/v1/transparency/contracts?organization_uuid=${organization.uuid}&per_page=100&with_relations=orders`,
    )
    const inListing = listed.data.find((c: { id: string }) => c.id === contract.id)
    assert.ok(!inListing.orders.some((o: { number: string }) => o.number === order.number))
    assert.ok(!(await dump()).includes(recordKey(order)))
    await assertFresh(db.pool)
  })

  it('a contract with its orders, in one file: every face forgets it, and its ARP and bidding stop listing it', async () => {
    const contract = first(
      records,
      'contract',
      (c) => mine(c) && c.bidding_uuid !== null && c.arp_number !== null && ordersOf(c).length > 0,
    )
    const bidding = records.find((r) => r.id === contract.bidding_uuid) as DemoRecord
    const detail = `/v1/transparency/contracts/${contract.id}`
    const exported = async () =>
      (
        await get(
          `/v1/transparency/export?resource=contracts&format=csv&organization_uuid=${organization.uuid}`,
        )
      ).body
    assert.equal((await get(detail)).statusCode, 200)
    assert.ok((await exported()).includes(contract.contract_number as string))

    const orders = ordersOf(contract)
    const result = await importLines([
      { type: 'withdraw', record: 'contract', organization_uuid: organization.uuid, id: contract.id },
      ...orders.map((o) => ({
        type: 'withdraw',
        record: 'order',
        organization_uuid: o.organization_uuid,
        number: o.number,
      })),
    ])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    assert.deepEqual([result.withdrawn.contract, result.withdrawn.order], [1, orders.length])

    const gone = await get(detail)
    assert.equal(gone.statusCode, 404)
    assert.equal(gone.json().message, 'Registro não encontrado.')
    const listing = await data(
      `/v1/transparency/contracts?organization_uuid=${organization.uuid}&per_page=100`,
    )
    assert.ok(!listing.data.some((c: { id: string }) => c.id === contract.id))
    const csv = await exported()
    assert.ok(
      !csv
        .split('\r\n')
        .some(
          (line) => line.includes(contract.id as string) || line.includes(`"${contract.contract_number}"`),
        ),
    )
    const arp = first(records, 'arp', (a) => mine(a) && a.number === contract.arp_number)
    const arpContracts = (await data(`/v1/transparency/arps/${arp.id}?with_relations=contracts`)).contracts
    assert.ok(!arpContracts.some((c: { id: string }) => c.id === contract.id))
    const biddingContracts = (
      await data(
        `/v1/transparency/${BIDDING_PATHS[bidding.type as string]}/${bidding.id}?with_relations=contracts`,
      )
    ).contracts
    assert.ok(!biddingContracts.some((c: { id: string }) => c.id === contract.id))
    for (const order of orders) {
      assert.equal((await orderQuery(order.number)).statusCode, 500)
    }
    const left = await dump()
    assert.ok(!left.includes(recordKey(contract)))
    for (const order of orders) assert.ok(!left.includes(recordKey(order)))
    await assertFresh(db.pool)
  })

  it('refuses a withdrawal that would leave records pointing to nothing, and changes nothing at all', async () => {
    const contract = first(records, 'contract', (c) => mine(c) && ordersOf(c).length > 1)
    const before = await snapshot()
    const result = await importLines([
      { type: 'withdraw', record: 'contract', organization_uuid: organization.uuid, id: contract.id },
    ])
    assert.equal(result.ok, false)
    assert.equal(result.withdrawn.contract, 0)
    const [problem] = result.problems
    assert.equal(problem?.line, 1)
    assert.equal(problem?.field, 'id')
    assert.match(
      problem?.reason ?? '',
      /^is linked by \d+ orders \(.+, \.\.\.\); withdraw or relink them in the same file$/,
    )
    assert.deepEqual(await snapshot(), before)
    assert.equal((await get(`/v1/transparency/contracts/${contract.id}`)).statusCode, 200)
  })

  it('refuses a withdrawal of a record that exactly one other record links to, and names it', async () => {
    const contract = first(records, 'contract', (c) => mine(c) && ordersOf(c).length > 0)
    const keep = ordersOf(contract)
      .slice(1)
      .map((o): DemoRecord => ({ ...o, contract_number: null }))
    assert.equal((await importLines(keep)).ok, true)
    const [only] = ordersOf(contract)
    const before = await snapshot()
    const result = await importLines([
      { type: 'withdraw', record: 'contract', organization_uuid: organization.uuid, id: contract.id },
    ])
    assert.equal(result.ok, false)
    assert.equal(
      result.problems[0]?.reason,
      `is linked by 1 orders (${only?.number}); withdraw or relink them in the same file`,
    )
    assert.deepEqual(await snapshot(), before)
  })

  it('accepts the same withdrawal when the file relinks the records that pointed to it', async () => {
    const contract = first(
      records,
      'contract',
      (c) => mine(c) && c.arp_number === null && ordersOf(c).length > 0,
    )
    const orders = ordersOf(contract).map((o): DemoRecord => ({ ...o, contract_number: null }))
    const result = await importLines([
      ...orders,
      { type: 'withdraw', record: 'contract', organization_uuid: organization.uuid, id: contract.id },
    ])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    for (const order of orders) {
      const answer = await orderQuery(order.number)
      assert.equal(answer.statusCode, 200)
      assert.equal(answer.json().data.contract_number, null)
    }
    assert.equal((await get(`/v1/transparency/contracts/${contract.id}`)).statusCode, 404)
    await assertFresh(db.pool)
  })

  for (const kind of ['public_call', 'direct_contract'] as const)
    it(`withdraws a ${kind} while the same file relinks its contracts and ARPs, to null or to another`, async () => {
      const bidding = first(
        records,
        kind,
        (b) =>
          mine(b) &&
          records.some((r) => (r.type === 'contract' || r.type === 'arp') && r.bidding_uuid === b.id),
      )
      const another = first(records, 'public_call', (b) => mine(b) && b.id !== bidding.id)
      const linked = records.filter(
        (r) => (r.type === 'contract' || r.type === 'arp') && r.bidding_uuid === bidding.id,
      )
      const relinked = linked.map((r, i): DemoRecord => ({ ...r, bidding_uuid: i % 2 ? another.id : null }))
      const result = await importLines([
        ...relinked,
        { type: 'withdraw', record: kind, organization_uuid: organization.uuid, id: bidding.id },
      ])
      assert.equal(result.ok, true, JSON.stringify(result.problems))
      assert.equal((await get(`/v1/transparency/${BIDDING_PATHS[kind]}/${bidding.id}`)).statusCode, 404)
      for (const record of relinked) {
        const path = record.type === 'contract' ? 'contracts' : 'arps'
        const detail = await data(`/v1/transparency/${path}/${record.id}`)
        assert.equal(detail.bidding_uuid, record.bidding_uuid)
      }
      await assertFresh(db.pool)
    })

  it('answers what the database refuses past the checks as a problem of its line, never a raw error', async () => {
    // A rule of the operator's own, that the import's checks know nothing of.
    await db.pool.query('ALTER TABLE contracts ADD CONSTRAINT operator_limit CHECK (amount_total < 1e9)')
    try {
      const contract = first(records, 'contract', mine)
      const other = first(records, 'contract', (c) => mine(c) && c.id !== contract.id)
      const result = await importLines([
        { ...other, object_details: `${other.object_details}.` },
        { ...contract, amount_total: '5000000000.00' },
      ])
      assert.equal(result.ok, false)
      assert.equal(result.problems.length, 1)
      const [problem] = result.problems
      assert.equal(problem?.line, 2)
      assert.match(problem?.reason ?? '', /^the database refused it: .*operator_limit/)
      // Nothing of the file was written.
      assert.notEqual(
        (await data(`/v1/transparency/contracts/${other.id}`)).object_details,
        `${other.object_details}.`,
      )
    } finally {
      await db.pool.query('ALTER TABLE contracts DROP CONSTRAINT operator_limit')
    }
  })

  it('refuses a file that withdraws a record and links a record of its own to it', async () => {
    const contract = first(records, 'contract', (c) => mine(c) && ordersOf(c).length > 0)
    const [order] = ordersOf(contract)
    const before = await snapshot()
    const result = await importLines([
      { type: 'withdraw', record: 'contract', organization_uuid: organization.uuid, id: contract.id },
      ...ordersOf(contract).map((o) => ({
        type: 'withdraw',
        record: 'order',
        organization_uuid: o.organization_uuid,
        number: o.number,
      })),
      { ...order, number: 'NOVA/2026' },
    ])
    assert.equal(result.ok, false)
    assert.deepEqual(
      result.problems.map((p) => [p.line, p.field]),
      [[ordersOf(contract).length + 2, 'contract_number']],
    )
    assert.deepEqual(await snapshot(), before)
  })

  it('refuses a new number for a contract that stored orders still link to by the old one', async () => {
    const contract = first(records, 'contract', (c) => mine(c) && ordersOf(c).length > 0)
    const before = await snapshot()
    const result = await importLines([{ ...contract, contract_number: 'RENUMERADO/2026' }])
    assert.equal(result.ok, false)
    assert.equal(result.problems[0]?.field, 'contract_number')
    assert.match(
      result.problems[0]?.reason ?? '',
      /^changes from .+, which \d+ orders? \(.+\) link to; relink or withdraw them in the same file$/,
    )
    assert.deepEqual(await snapshot(), before)
  })

  it('refuses a withdrawal of a record that is not stored, naming the line and the key', async () => {
    const other = first(records, 'organization', (o) => o.uuid !== organization.uuid)
    const order = first(records, 'order', (o) => mine(o))
    const foreign = first(records, 'contract', (c) => c.organization_uuid === other.uuid)
    const before = await snapshot()
    const result = await importLines([
      { type: 'withdraw', record: 'order', organization_uuid: organization.uuid, number: 'NAO-EXISTE/1900' },
      // A contract of another organization is not this organization's to withdraw.
      { type: 'withdraw', record: 'contract', organization_uuid: organization.uuid, id: foreign.id },
      // Withdrawn as a public call, although it is stored as a direct contract.
      {
        type: 'withdraw',
        record: 'public_call',
        organization_uuid: organization.uuid,
        id: first(records, 'direct_contract', mine).id,
      },
      { type: 'withdraw', record: 'order', organization_uuid: order.organization_uuid, number: order.number },
    ])
    assert.equal(result.ok, false)
    assert.deepEqual(
      result.problems.map((p) => [p.line, p.field, p.reason]),
      [
        [1, 'number', 'names no stored order of this organization'],
        [2, 'id', 'names no stored contract of this organization'],
        [3, 'id', 'names no stored public call of this organization'],
      ],
    )
    assert.deepEqual(await snapshot(), before)
  })

  it('takes a withdrawn record back when a later file brings it again', async () => {
    const order = first(
      records,
      'order',
      (o) => mine(o) && o.contract_number === null && o.arp_number === null,
    )
    assert.equal(
      (
        await importLines([
          { type: 'withdraw', record: 'order', organization_uuid: organization.uuid, number: order.number },
        ])
      ).ok,
      true,
    )
    assert.equal((await orderQuery(order.number)).statusCode, 500)
    assert.equal((await importLines([order])).ok, true)
    const answer = await orderQuery(order.number)
    assert.equal(answer.statusCode, 200)
    assert.equal(answer.json().data.number, order.number)
    await assertFresh(db.pool)
  })

  it('keeps the later of a withdrawal and a record with the same key in one file', async () => {
    const order = first(
      records,
      'order',
      (o) => mine(o) && o.contract_number === null && o.arp_number === null,
    )
    const withdrawal = {
      type: 'withdraw',
      record: 'order',
      organization_uuid: organization.uuid,
      number: order.number,
    }
    const kept = await importLines([withdrawal, { ...order, object: 'Trazida de volta' }])
    assert.equal(kept.ok, true, JSON.stringify(kept.problems))
    assert.deepEqual([kept.counts.order, kept.withdrawn.order], [1, 0])
    assert.equal((await orderQuery(order.number)).json().data.object, 'Trazida de volta')
    const gone = await importLines([{ ...order, object: 'Logo retirada' }, withdrawal])
    assert.equal(gone.ok, true, JSON.stringify(gone.problems))
    assert.deepEqual([gone.counts.order, gone.withdrawn.order], [0, 1])
    assert.equal((await orderQuery(order.number)).statusCode, 500)
    await assertFresh(db.pool)
  })

  it('checks a withdrawal line against the format, with a reason for each mistake', async () => {
    const org = organization.uuid
    const result = await importLines([
      {
        type: 'withdraw',
        record: 'order',
        organization_uuid: org,
        id: '00000000-0000-4000-8000-000000000000',
      },
      { type: 'withdraw', record: 'contract', organization_uuid: org, number: '1/2025' },
      { type: 'withdraw', record: 'organization', organization_uuid: org, id: org },
      { type: 'withdraw', record: 'order', organization_uuid: org, number: 'X/1', status_title: 'Emitida' },
      { type: 'withdraw', record: 'contract', organization_uuid: org },
      { type: 'withdraw', record: 'order', organization_uuid: org, number: 'X/1', id: org },
    ])
    assert.equal(result.ok, false)
    const byLine = new Map(result.problems.map((p) => [p.line, p]))
    const key = 'is not a field of this withdrawal: an order is named by number, any other record by id'
    assert.deepEqual(
      result.problems.map((p) => [p.line, p.field, p.reason]),
      [
        [1, 'number', 'is required'],
        [2, 'id', 'is required'],
        [3, 'record', byLine.get(3)?.reason],
        [4, 'status_title', 'is not a field of this record'],
        [5, 'id', 'is required'],
        [6, 'id', key],
      ],
    )
    // Organizations cannot be withdrawn: tokens and the access log point to them.
    assert.match(byLine.get(3)?.reason ?? '', /^must be one of: (?!.*organization).*\border\b/)
  })
})
