import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import type { Pool } from '../../src/db/pool.js'
import { orderFeedSql, type PublicFeedQuery, publicFeedSql } from '../../src/feeds/change-feeds.js'
import { type ListQuery, listText } from '../../src/listings/listing.js'
import { contracts } from '../../src/resources/index.js'
import { multiplyContracts, seededDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, first } from '../helpers/records.js'

// The feeds and the listings read a page off their indexes under either kind of plan (issue 66, point 5). A statement prepared by
// name is planned for its values five times, then PostgreSQL may keep one generic plan for every value: a plan
// that cannot see `since` or the cursor must still start its read where they point. Each statement is run with
// plan_cache_mode forced both ways over a log of some 10,000 entries, and the rows PostgreSQL read of the log,
// by its own count (EXPLAIN ANALYZE), are a page's, not the log's.

/** Rows a plan read of `table`: every scan of it, the rows it returned and those it read and dropped. */
function rowsRead(plan: Record<string, unknown>, table: string): number {
  const loops = Number(plan['Actual Loops'] ?? 1)
  const own =
    plan['Relation Name'] === table
      ? (Number(plan['Actual Rows'] ?? 0) +
          Number(plan['Rows Removed by Filter'] ?? 0) +
          Number(plan['Rows Removed by Index Recheck'] ?? 0)) *
        loops
      : 0
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? []
  return own + children.reduce((sum, child) => sum + rowsRead(child, table), 0)
}

/** A value as an SQL literal of EXECUTE's arguments (EXECUTE takes no bound parameters). */
function literal(client: pg.Client, value: unknown): string {
  if (typeof value === 'number') return String(value)
  if (Array.isArray(value)) return client.escapeLiteral(`{${value.join(',')}}`)
  return client.escapeLiteral(String(value))
}

const MODES = ['force_custom_plan', 'force_generic_plan'] as const

describe('the feeds and listings read a page off their indexes under custom and generic plans', () => {
  let db: TestDatabase
  let client: pg.Client
  const records = demoRecords(
    { organizations: 2, orders: 20, contracts: 10, arps: 3, directContracts: 3, publicCalls: 3 },
    66,
  )
  const organization = first(records, 'organization').uuid as string
  let middle = 0
  let midInstant = ''
  let orgMiddle = 0
  let prepared = 0

  /** The rows of `table` each plan read to run `text` with `values`. */
  async function readUnder(text: string, values: readonly unknown[], table: string) {
    const name = `plan_${++prepared}`
    await client.query(`PREPARE ${name} AS ${text}`)
    const read: Record<string, number> = {}
    try {
      for (const mode of MODES) {
        await client.query(`SET plan_cache_mode = ${mode}`)
        const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE ${name}(${values.map((v) => literal(client, v)).join(', ')})`,
        )
        read[mode] = rowsRead(
          (rows[0] as { 'QUERY PLAN': [{ Plan: Record<string, unknown> }] })['QUERY PLAN'][0].Plan,
          table,
        )
      }
    } finally {
      await client.query(`DEALLOCATE ${name}`)
      await client.query('RESET plan_cache_mode')
    }
    return read
  }

  before(async () => {
    db = await seededDatabase(records)
    // A log of some 10,000 entries, dated in the order they are numbered (as imports date them), spread over
    // both organizations and every kind.
    await db.pool.query(
      `INSERT INTO public_changes (resource, id, organization_id, change, changed_at)
       SELECT d.resource, d.id, d.organization_id, 'updated', now() - interval '1 day' + g * interval '1 second'
       FROM generate_series(1, 10000 / (SELECT count(*) FROM detail_documents)::int) g, detail_documents d
       ORDER BY g, d.resource, d.id`,
    )
    await db.pool.query(
      `INSERT INTO order_changes (organization_id, number, change, changed_at, org_seq)
       SELECT o.organization_id, o.number, 'updated', now() - interval '1 day' + g * interval '1 second',
         (SELECT coalesce(max(org_seq), 0) FROM order_changes c WHERE c.organization_id = o.organization_id)
           + row_number() OVER (PARTITION BY o.organization_id ORDER BY g, o.number)
       FROM generate_series(1, 10000 / (SELECT count(*) FROM order_documents)::int) g, order_documents o`,
    )
    await multiplyContracts(db.pool, 5000)
    await db.pool.query('ANALYZE public_changes, order_changes, contracts')
    const { rows } = await db.pool.query<{ seq: number; at: string }>(
      `SELECT seq::int, changed_at::text AS at FROM public_changes ORDER BY seq
       OFFSET (SELECT count(*) / 2 FROM public_changes) LIMIT 1`,
    )
    middle = rows[0]?.seq as number
    midInstant = rows[0]?.at as string
    orgMiddle = (
      await db.pool.query<{ n: number }>(
        'SELECT (max(org_seq) / 2)::int AS n FROM order_changes WHERE organization_id = $1',
        [organization],
      )
    ).rows[0]?.n as number
    client = new pg.Client({ connectionString: db.url })
    await client.connect()
  })
  after(async () => {
    await client?.end()
    await db.drop()
  })

  const FUTURE = '2999-01-01T00:00:00Z'
  const PAGE = 100
  const base: PublicFeedQuery = { after: 0, kinds: undefined, organizationId: undefined, withRecords: false }
  const publicCases: [string, Partial<PublicFeedQuery>][] = [
    ['from the start', {}],
    ['after a cursor in the middle', { after: Number.NaN }],
    ['since an instant to come', { since: FUTURE }],
    ['since an instant in the middle', { since: 'middle' }],
    ['since an instant before the first entry', { since: '2000-01-01T00:00:00Z' }],
    [
      'after a cursor in the middle, since an instant before it',
      { after: Number.NaN, since: '2000-01-01T00:00:00Z' },
    ],
    ['of some kinds, since an instant to come', { kinds: [contracts.path, 'arps'], since: FUTURE }],
    ['of some kinds, after a cursor in the middle', { kinds: [contracts.path], after: Number.NaN }],
    ['of an organization, since an instant to come', { organizationId: 'org', since: FUTURE }],
    ['of an organization, after a cursor in the middle', { organizationId: 'org', after: Number.NaN }],
    ['with records, since an instant in the middle', { withRecords: true, since: 'middle' }],
  ]
  for (const [name, asked] of publicCases) {
    it(`public feed ${name}: a page's rows, whatever the plan`, async () => {
      const query: PublicFeedQuery = {
        ...base,
        ...asked,
        after: Number.isNaN(asked.after) ? middle : (asked.after ?? 0),
        organizationId: asked.organizationId ? organization : undefined,
        since: asked.since === 'middle' ? midInstant : asked.since,
      }
      const { text, values } = publicFeedSql(query, PAGE + 1)
      const read = await readUnder(text, values, 'public_changes')
      for (const mode of MODES)
        assert.ok((read[mode] as number) <= 3 * PAGE, `${mode} read ${read[mode]} entries of the log`)
    })
  }

  for (const [name, since, afterSeq] of [
    ['since an instant to come', FUTURE, 0],
    ['since an instant in the middle', 'middle', 0],
    ['after a cursor in the middle', undefined, 'middle'],
  ] as const) {
    it(`an organ's orders feed ${name}: a page's rows, whatever the plan`, async () => {
      const { text, values } = orderFeedSql({
        organizationId: organization,
        after: afterSeq === 'middle' ? orgMiddle : afterSeq,
        since: since === 'middle' ? midInstant : since,
        perPage: PAGE,
      })
      const read = await readUnder(text, values, 'order_changes')
      for (const mode of MODES)
        assert.ok((read[mode] as number) <= 3 * PAGE, `${mode} read ${read[mode]} entries of the log`)
    })
  }

  /** The page statement a listing sends (its count kept, as after the first page), and its values. */
  async function listingStatement(query: ListQuery): Promise<{ text: string; values: unknown[] }> {
    const sent: { text: string; values: unknown[] }[] = []
    const capturing = {
      query: (config: { text: string; values: unknown[] }) => {
        sent.push({ text: config.text, values: config.values })
        return db.pool.query(config)
      },
    } as unknown as Pool
    const counted = { cached: () => '5000', keeper: () => () => {} }
    await listText(capturing, contracts, query, counted)
    return sent[0] as { text: string; values: unknown[] }
  }

  for (const [name, filters, cursor] of [
    ['page 1', {}, false],
    ['of an organization, page 1', { organization_uuid: 'org' }, false],
    ['after a cursor in the middle', {}, true],
    ['of an organization, after a cursor in the middle', { organization_uuid: 'org' }, true],
  ] as const) {
    it(`contracts listing ${name}: a page's rows, whatever the plan`, async () => {
      const organizationId = (
        await db.pool.query<{ id: string }>(
          'SELECT organization_id::text AS id FROM contracts ORDER BY id LIMIT 1',
        )
      ).rows[0]?.id as string
      const middleRow = (
        await db.pool.query<{ key: string; id: string }>(
          'SELECT date_start::text AS key, id::text FROM contracts ORDER BY date_start DESC, id DESC OFFSET 2500 LIMIT 1',
        )
      ).rows[0] as { key: string; id: string }
      const { text, values } = await listingStatement({
        page: 1,
        perPage: 20,
        filters: 'organization_uuid' in filters ? { organization_uuid: organizationId } : {},
        sort: contracts.defaultSort,
        relations: [],
        ...(cursor
          ? { after: { key: middleRow.key, id: middleRow.id, page: 2, sort: contracts.defaultSort } }
          : {}),
      })
      const read = await readUnder(text, values, 'contracts')
      for (const mode of MODES)
        assert.ok((read[mode] as number) <= 3 * 20, `${mode} read ${read[mode]} contracts`)
    })
  }
})
