import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import type { DemoRecord } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { buildTestApp } from '../helpers/app.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { turns } from '../helpers/http.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// Pages that hold still while imports run: listings read by cursor, the OCDS releases in the order they
// changed, and the records changed since an instant.

/** What the crawl reads of a release package. */
interface Package {
  releases: { ocid: string; id: string }[]
  links: { next?: string }
}

describe('reading while imports run', () => {
  let db: TestDatabase
  let app: FastifyInstance
  const records = demoRecords(
    { organizations: 2, orders: 10, contracts: 40, arps: 4, directContracts: 4, publicCalls: 6 },
    51,
  )
  const data = async (url: string) => {
    const response = await app.inject({ url })
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`)
    return response.json().data
  }
  const importLines = async (lines: readonly unknown[]) => {
    const result = await importRecords(db.pool, [source(ndjson(lines))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
  }
  const contracts = () => records.filter((r) => r.type === 'contract')

  before(async () => {
    db = await createTestDatabase()
    await importLines(records)
    // No cache: every page reads what the last import left.
    app = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '0', CACHE_MB: '0' } })
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  for (const [run, sort] of ['-date_start', 'amount_total', 'contract_number'].entries()) {
    it(`shows every contract there for the whole read once, by cursor, sorted ${sort}, while imports add and change others`, async () => {
      const there = new Set(contracts().map((c) => c.id as string))
      const seen: string[] = []
      let page = await data(`/v1/transparency/contracts?per_page=6&sort=${sort}`)
      seen.push(...page.data.map((c: { id: string }) => c.id))
      for (let step = 0; page.next_cursor !== null; step++) {
        // Between pages: new contracts at both ends of the order and in the middle, and changes to others
        // that move nothing (their sort values stay).
        const model = first(records, 'contract', (c) => c.bidding_uuid === null && c.arp_number === null)
        const added = [0, 1, 2].map((n) => ({
          ...model,
          id: `cccccccc-${run}${String(step).padStart(3, '0')}-4000-8000-00000000000${n}`,
          contract_number: `NOVO-${sort}-${step}-${n}`,
          amount_total: ['0.01', '500000.00', '99999999.99'][n],
          date_start: ['1990-01-01', '2024-06-15', '2099-12-31'][n],
        }))
        const changed = contracts()
          .filter((_, i) => i % 7 === step % 7)
          .map((c) => ({ ...c, object_details: `Alterado no passo ${step}` }))
        await importLines([...added, ...changed])
        records.push(...(added as DemoRecord[]))
        page = await data(`/v1/transparency/contracts?per_page=6&sort=${sort}&cursor=${page.next_cursor}`)
        seen.push(...page.data.map((c: { id: string }) => c.id))
      }
      assert.equal(new Set(seen).size, seen.length, 'no contract shown twice')
      for (const id of there) assert.ok(seen.includes(id), `${id} was skipped`)
    })
  }

  it('reads on to the end by cursor though the rows before the cursor are withdrawn between pages', async () => {
    // Six contracts that come first (the latest start), read as the first page, then withdrawn: the total
    // falls by a page, but the rows after the cursor are all still to come.
    const model = first(records, 'contract', (c) => c.bidding_uuid === null && c.arp_number === null)
    const early = [0, 1, 2, 3, 4, 5].map((n) => ({
      ...model,
      id: `dddddddd-0000-4000-8000-00000000000${n}`,
      contract_number: `PRIMEIRO-${n}`,
      date_start: `2199-01-0${n + 1}`,
    }))
    await importLines(early)
    const rest = new Set(contracts().map((c) => c.id as string))
    let page = await data('/v1/transparency/contracts?per_page=6&sort=-date_start')
    assert.deepEqual(
      page.data.map((c: { id: string }) => c.id).sort(),
      early.map((c) => c.id),
    )
    await importLines(
      early.map((c) => ({
        type: 'withdraw',
        record: 'contract',
        organization_uuid: model.organization_uuid,
        id: c.id,
      })),
    )
    const seen: string[] = []
    for (const _turn of turns(1000, 'the pages by cursor')) {
      if (page.next_cursor === null) break
      page = await data(`/v1/transparency/contracts?per_page=6&sort=-date_start&cursor=${page.next_cursor}`)
      seen.push(...page.data.map((c: { id: string }) => c.id))
    }
    for (const id of rest) assert.ok(seen.includes(id), `${id} was skipped`)
  })

  // Sort keys that can be null (a bidding without an opening date, a secret budget): nulls come last, and the
  // pages by cursor are the pages by number, none missed or repeated across the nulls.
  for (const sort of ['opening_date', '-opening_date', 'sum_amount_total', '-sum_amount_total'])
    it(`pages public calls by cursor over nulls, sorted ${sort}, as by page number`, async () => {
      const call = first(records, 'public_call')
      const nulls = [1, 2, 3].map((n) => ({
        ...call,
        id: `dddddddd-0000-4000-8000-00000000000${n}`,
        number: `SEM DATA ${n}/2026`,
        opening_date: null,
        budget_secret: n !== 2,
      }))
      if (!records.some((r) => r.id === nulls[0]?.id)) {
        await importLines(nulls)
        records.push(...(nulls as DemoRecord[]))
      }
      const byNumber: string[] = []
      for (let page = 1; ; page++) {
        const got = await data(`/v1/transparency/public-calls?per_page=4&sort=${sort}&page=${page}`)
        byNumber.push(...got.data.map((c: { id: string }) => c.id))
        if (got.current_page >= got.last_page) break
      }
      const byCursor: string[] = []
      let got = await data(`/v1/transparency/public-calls?per_page=4&sort=${sort}`)
      byCursor.push(...got.data.map((c: { id: string }) => c.id))
      for (const _turn of turns(1000, 'the pages by cursor')) {
        if (got.next_cursor === null) break
        got = await data(`/v1/transparency/public-calls?per_page=4&sort=${sort}&cursor=${got.next_cursor}`)
        byCursor.push(...got.data.map((c: { id: string }) => c.id))
      }
      assert.deepEqual(byCursor, byNumber)
      for (const record of nulls) assert.ok(byCursor.includes(record.id), record.id)
    })

  for (const [kind, type] of [
    ['arps', 'arp'],
    ['direct-contracts', 'direct_contract'],
    ['public-calls', 'public_call'],
  ] as const)
    it(`lists the ${kind} changed at or after an instant, to the microsecond`, async () => {
      const record = first(records, type)
      await importLines([{ ...record, object_details: `Mudado para updated_since (${kind})` }])
      const { rows } = await db.pool.query<{ at: string }>(
        `SELECT to_char(max(changed_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at
         FROM public_changes WHERE resource = $1 AND id = $2`,
        [kind, record.id],
      )
      const at = rows[0]?.at as string
      const later = `${at.slice(0, 20)}${String(Number(at.slice(20, 26)) + 1).padStart(6, '0')}Z`
      const ids = async (since: string) =>
        (await data(`/v1/transparency/${kind}?updated_since=${since}&per_page=100`)).data.map(
          (r: { id: string }) => r.id,
        )
      assert.ok((await ids(at)).includes(record.id), `${kind} changed exactly at ${at}`)
      assert.ok(!(await ids(later)).includes(record.id), `${kind} not after ${at}`)
    })

  it('refuses a cursor of another sort, or one it did not give', async () => {
    const page = await data('/v1/transparency/contracts?per_page=3')
    for (const [query, message] of [
      [`sort=amount_total&cursor=${page.next_cursor}`, /^Cursor inválido: cursor\. Use o next_cursor/],
      ['cursor=abc', /^Cursor inválido: cursor\./],
      [
        `cursor=${Buffer.from('l1.["-date_start","not a date","00000000-0000-4000-8000-000000000000",2]').toString('base64url')}`,
        /^Cursor inválido: cursor\./,
      ],
    ] as const) {
      const response = await app.inject({ url: `/v1/transparency/contracts?${query}` })
      assert.equal(response.statusCode, 422, query)
      assert.match(response.json().message, message, query)
    }
  })

  it('gives every OCDS process to a crawler that follows links.next from after=, a changed one again', async () => {
    const crawl = async (url: string) => {
      const releases: { ocid: string; id: string }[] = []
      for (let next: string | undefined = url; next; ) {
        const response: { statusCode: number; body: string; json(): Package } = await app.inject({
          url: next.replace(/^https?:\/\/[^/]+/, ''),
        })
        assert.equal(response.statusCode, 200, response.body)
        const body = response.json()
        // Every page says where to resume, the last too: past the end, a page with no release, and the
        // same link again for later.
        assert.ok(body.links.next, 'links.next on every page')
        if (body.releases.length === 0) {
          assert.equal(
            body.links.next.replace(/^https?:\/\/[^/]+/, ''),
            next.replace(/^https?:\/\/[^/]+/, ''),
          )
          break
        }
        releases.push(...body.releases)
        next = body.links.next
      }
      return releases
    }
    const all = await crawl('/v1/ocds/releases?after=&per_page=5')
    const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM ocds_releases')
    assert.equal(all.length, rows[0]?.n)
    assert.equal(new Set(all.map((r) => r.ocid)).size, all.length)
    // Changed after a crawler passed it: the process comes again after the cursor, with its new release.
    const lastSeen = await app.inject({ url: '/v1/ocds/releases?after=&per_page=1' })
    const firstOcid = lastSeen.json().releases[0].ocid as string
    const processId = firstOcid.split('-').slice(2).join('-')
    const bidding =
      records.find((r) => r.id === processId) ??
      records.find((r) => r.type === 'contract' && r.id === processId)
    assert.ok(bidding, firstOcid)
    await importLines([{ ...bidding, object_details: 'Objeto de uma contratação alterada' }])
    const cursor = new URL(lastSeen.json().links.next).searchParams.get('after') as string
    const rest = await crawl(`/v1/ocds/releases?after=${cursor}&per_page=50`)
    assert.equal(rest.at(-1)?.ocid, firstOcid)
    assert.notEqual(rest.at(-1)?.id, lastSeen.json().releases[0].id)
  })

  it('lists and exports the records changed since an instant', async () => {
    const { rows } = await db.pool.query<{ at: string }>(
      'SELECT max(changed_at)::text AS at FROM public_changes',
    )
    const since = new Date(new Date((rows[0] as { at: string }).at).getTime() + 1000).toISOString()
    const contract: DemoRecord = {
      ...first(records, 'contract'),
      object_details: 'Mudado depois do instante',
    }
    await new Promise((resolve) => setTimeout(resolve, 1100))
    await importLines([contract])
    const page = await data(`/v1/transparency/contracts?updated_since=${since}&per_page=100`)
    assert.ok(page.data.some((c: { id: string }) => c.id === contract.id))
    const { rows: changed } = await db.pool.query<{ id: string }>(
      "SELECT DISTINCT id FROM public_changes WHERE resource = 'contracts' AND changed_at >= $1",
      [since],
    )
    assert.deepEqual(page.data.map((c: { id: string }) => c.id).sort(), changed.map((r) => r.id).sort())
    const csv = await app.inject({
      url: `/v1/transparency/export?resource=contracts&format=csv&updated_since=${since}`,
    })
    assert.equal(csv.statusCode, 200)
    assert.equal(csv.body.trimEnd().split('\r\n').length, changed.length + 1)
    const bad = await app.inject({ url: '/v1/transparency/contracts?updated_since=ontem' })
    assert.equal(bad.statusCode, 422)
    assert.match(bad.json().message, /^Parâmetro inválido: updated_since\. Aceita um instante ISO 8601/)
  })
})
