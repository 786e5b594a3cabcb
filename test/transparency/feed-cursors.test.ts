import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { issueToken } from '../../src/auth/tokens.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { dumpRecords } from '../../src/import/dump.js'
import { importRecords } from '../../src/import/importer.js'
import { Cursors, loadLogIdentity } from '../../src/queries/cursors.js'
import { buildTestApp } from '../helpers/app.js'
import { createTestDatabase, seededDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, ndjson, source } from '../helpers/records.js'

// Cursors that say when to start over: a cursor of another log (a database loaded again from a dump), of
// the other feed, of another organ, or past the log's end is 410 Gone with a message to sync again; one in a
// spelling this service never writes is 422; an organ's cursors count its own changes only; a listing's
// cursor cannot be made to say another page.

type Json = Record<string, unknown>
interface Page {
  status: number
  body: Json & { data: Json & { data: Json[]; next_cursor: string } }
}

describe('cursors that say when to start over', () => {
  let db: TestDatabase
  let copy: TestDatabase
  let app: FastifyInstance
  let copyApp: FastifyInstance
  const records = demoRecords(
    { organizations: 2, orders: 16, contracts: 6, arps: 2, directContracts: 2, publicCalls: 2 },
    58,
  )
  const [orgA, orgB] = records.filter((r) => r.type === 'organization') as [DemoRecord, DemoRecord]
  let tokenA = ''
  let tokenB = ''
  let copyToken = ''
  /** Cursors of this database's log, as the service makes them: to make the ones no page gives. */
  let cursors: Cursors

  const get = async (target: FastifyInstance, url: string, token?: string): Promise<Page> => {
    const response = await target.inject({ url, headers: token ? { authorization: token } : {} })
    return { status: response.statusCode, body: response.json() }
  }
  const ordersOf = (organization: DemoRecord) =>
    records.filter((r) => r.type === 'order' && r.organization_uuid === organization.uuid)
  /** The position a cursor holds, read as this service writes it (the last dot-separated part). */
  const positionOf = (cursor: string) => Number(Buffer.from(cursor, 'base64url').toString().split('.').at(-1))

  before(async () => {
    db = await seededDatabase(records)
    ;({ token: tokenA } = await issueToken(db.pool, orgA.uuid as string, null))
    ;({ token: tokenB } = await issueToken(db.pool, orgB.uuid as string, null))
    cursors = new Cursors(await loadLogIdentity(db.pool))
    app = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '0' } })
    // The operator's rebuild: the dump of the first database loaded into a fresh one.
    copy = await createTestDatabase()
    const dumped: Json[] = []
    for await (const record of dumpRecords(db.pool)) dumped.push(record)
    const copied = await importRecords(copy.pool, [source(ndjson(dumped))])
    assert.equal(copied.ok, true, JSON.stringify(copied.problems))
    ;({ token: copyToken } = await issueToken(copy.pool, orgA.uuid as string, null))
    copyApp = await buildTestApp(copy, { env: { PUBLIC_RATE_LIMIT: '0' } })
  })
  after(async () => {
    await app.close()
    await copyApp.close()
    await db.drop()
    await copy.drop()
  })

  it("answers a cursor of the database's earlier life 410, on both feeds, and its own cursors as before", async () => {
    const publicPage = await get(app, '/v1/transparency/changes?per_page=3')
    const orderPage = await get(app, '/external/orders/changes?per_page=3', tokenA)
    const gone = await get(copyApp, `/v1/transparency/changes?after=${publicPage.body.data.next_cursor}`)
    assert.equal(gone.status, 410)
    assert.equal(gone.body.success, false)
    assert.match(
      gone.body.message as string,
      /^Cursor desconhecido: after\. .*Sincronize de novo desde o início/,
    )
    const goneOrders = await get(
      copyApp,
      `/external/orders/changes?after=${orderPage.body.data.next_cursor}`,
      copyToken,
    )
    assert.equal(goneOrders.status, 410)
    assert.deepEqual(goneOrders.body.data, [])
    // The same reads from the start work, and so do their own cursors.
    const fresh = await get(copyApp, '/v1/transparency/changes?per_page=3')
    assert.equal(fresh.status, 200)
    const onward = await get(copyApp, `/v1/transparency/changes?after=${fresh.body.data.next_cursor}`)
    assert.equal(onward.status, 200)
    // The bulk download refuses it alike, before any line.
    const lines = await copyApp.inject({
      url: `/v1/transparency/changes.jsonl?after=${publicPage.body.data.next_cursor}`,
    })
    assert.equal(lines.statusCode, 410)
  })

  it("refuses the other feed's cursor, and another organ's, with 410", async () => {
    const publicCursor = (await get(app, '/v1/transparency/changes?per_page=2')).body.data.next_cursor
    const orderCursor = (await get(app, '/external/orders/changes?per_page=2', tokenA)).body.data.next_cursor
    assert.equal((await get(app, `/external/orders/changes?after=${publicCursor}`, tokenA)).status, 410)
    assert.equal((await get(app, `/v1/transparency/changes?after=${orderCursor}`)).status, 410)
    assert.equal((await get(app, `/external/orders/changes?after=${orderCursor}`, tokenB)).status, 410)
    assert.equal((await get(app, `/external/orders/changes?after=${orderCursor}`, tokenA)).status, 200)
  })

  it("answers a cursor past the log's end 410, and one at its end with an empty page", async () => {
    const far = cursors.position('changes', 10_000_000)
    const farOrders = cursors.position('orders', 10_000, orgA.uuid as string)
    for (const gone of [
      await get(app, `/v1/transparency/changes?after=${far}`),
      await get(app, `/external/orders/changes?after=${farOrders}`, tokenA),
    ]) {
      assert.equal(gone.status, 410)
      assert.match(
        gone.body.message as string,
        /^Cursor desconhecido: after\. .*Sincronize de novo desde o início/,
      )
    }
    // An organ whose feed has no entry yet: any cursor of its own is past the end.
    const [newcomer] = demoRecords(
      { organizations: 1, orders: 0, contracts: 0, arps: 0, directContracts: 0, publicCalls: 0 },
      581,
    ).filter((r) => r.type === 'organization') as [DemoRecord]
    assert.equal((await importRecords(db.pool, [source(ndjson([newcomer]))])).ok, true)
    const { token: newToken } = await issueToken(db.pool, newcomer.uuid as string, null)
    const early = cursors.position('orders', 1, newcomer.uuid as string)
    assert.equal((await get(app, `/external/orders/changes?after=${early}`, newToken)).status, 410)
    // At the end: nothing yet, and the same cursor to come back with.
    let page = await get(app, '/v1/transparency/changes?per_page=1000')
    const end = page.body.data.next_cursor
    page = await get(app, `/v1/transparency/changes?after=${end}`)
    assert.equal(page.status, 200)
    assert.deepEqual(page.body.data.data, [])
    assert.equal(page.body.data.next_cursor, end)
    // A cursor given before logs had an identity (c1) is taken as this log's, on the public feed only.
    const legacy = Buffer.from('c1.1').toString('base64url')
    assert.equal((await get(app, `/v1/transparency/changes?after=${legacy}`)).status, 200)
  })

  it('accepts a cursor only as this service spells it', async () => {
    const cursor = (await get(app, '/v1/transparency/changes?per_page=2')).body.data.next_cursor
    const bytes = Buffer.from(cursor, 'base64url')
    // The same bytes in other spellings: padded, in standard base64, or with stray low bits.
    const variants = [
      `${cursor}=`,
      bytes.toString('base64').replace(/=+$/, ''),
      cursor.slice(0, -1) + String.fromCharCode(cursor.charCodeAt(cursor.length - 1) + 1),
    ].filter((v) => v !== cursor)
    for (const variant of variants) {
      const { status, body } = await get(app, `/v1/transparency/changes?after=${encodeURIComponent(variant)}`)
      assert.ok(status === 422 || status === 410, `${variant}: ${status}`)
      if (status === 422) assert.match(body.message as string, /^Cursor inválido: after\./)
    }
    const padded = await get(app, `/v1/transparency/changes?after=${cursor}%3D`)
    assert.equal(padded.status, 422)
  })

  it("numbers an organ's feed in its own sequence: other organs' changes do not show in its cursors", async () => {
    const first = await get(app, '/external/orders/changes?per_page=1000', tokenA)
    const count = first.body.data.data.length
    assert.equal(count, ordersOf(orgA).length)
    assert.equal(positionOf(first.body.data.next_cursor), count)
    // Other organs' orders change: A's feed is where it was.
    const changedB = ordersOf(orgB).map((o) => ({ ...o, object: `${o.object} (B alterada)` }))
    assert.equal((await importRecords(db.pool, [source(ndjson(changedB))])).ok, true)
    const again = await get(app, `/external/orders/changes?after=${first.body.data.next_cursor}`, tokenA)
    assert.equal(again.status, 200)
    assert.deepEqual(again.body.data.data, [])
    assert.equal(again.body.data.next_cursor, first.body.data.next_cursor)
    // One of A's changes: the next number of A's own sequence.
    const one = { ...(ordersOf(orgA)[0] as DemoRecord), object: 'Ordem de A alterada' }
    assert.equal((await importRecords(db.pool, [source(ndjson([one]))])).ok, true)
    const next = await get(app, `/external/orders/changes?after=${first.body.data.next_cursor}`, tokenA)
    assert.equal(next.body.data.data.length, 1)
    assert.equal(positionOf(next.body.data.next_cursor), count + 1)
  })

  it('refuses a listing cursor whose page was changed, or that another database made', async () => {
    const page1 = await get(app, '/v1/transparency/contracts?per_page=2')
    const cursor = page1.body.data.next_cursor
    const page2 = await get(app, `/v1/transparency/contracts?per_page=2&cursor=${cursor}`)
    assert.equal(page2.status, 200)
    assert.equal(page2.body.data.current_page, 2)
    // By page number, the last page gives no cursor on, and the one before it does.
    const lastPage = page1.body.data.last_page as number
    assert.ok(lastPage > 2)
    const last = await get(app, `/v1/transparency/contracts?per_page=2&page=${lastPage}`)
    assert.equal(last.body.data.next_cursor, null)
    const beforeLast = await get(app, `/v1/transparency/contracts?per_page=2&page=${lastPage - 1}`)
    assert.equal(typeof beforeLast.body.data.next_cursor, 'string')
    // The page number made up: the signature no longer holds.
    const [payload, signature] = cursor.split('.') as [string, string]
    const text = Buffer.from(payload, 'base64url').toString()
    const forged = `${Buffer.from(text.replace(/,2\]$/, ',900]')).toString('base64url')}.${signature}`
    assert.notEqual(forged, cursor)
    const refused = await get(app, `/v1/transparency/contracts?per_page=2&cursor=${forged}`)
    assert.equal(refused.status, 422)
    assert.match(refused.body.message as string, /^Cursor inválido: cursor\./)
    // Signed by another database's secret.
    assert.equal((await get(copyApp, `/v1/transparency/contracts?per_page=2&cursor=${cursor}`)).status, 422)
    // Signed with this database's own secret, but holding a key that is not a value of its sort's type (an
    // amount): refused as a cursor, not a failure of the server.
    for (const key of ['not an amount', '1e999999']) {
      const mistyped = cursors.listing({ sort: '-amount_total', key, id: orgA.uuid as string, page: 2 })
      const answer = await get(app, `/v1/transparency/contracts?sort=-amount_total&cursor=${mistyped}`)
      assert.equal(answer.status, 422, JSON.stringify(answer.body))
      assert.match(answer.body.message as string, /^Cursor inválido: cursor\./)
    }
    const typed = cursors.listing({ sort: '-amount_total', key: '1.00', id: orgA.uuid as string, page: 2 })
    assert.equal(
      (await get(app, `/v1/transparency/contracts?sort=-amount_total&cursor=${typed}`)).status,
      200,
    )
    // A page and a cursor together.
    const both = await get(app, `/v1/transparency/contracts?per_page=2&page=2&cursor=${cursor}`)
    assert.equal(both.status, 422)
    assert.match(both.body.message as string, /^Parâmetros em conflito: page e cursor/)
  })

  it('dates an import no earlier than the entries before it, though the clock went back', async () => {
    // The last entries as if dated a day ahead (a clock set back since): the next import follows them.
    const ahead = new Date(Date.now() + 86_400_000).toISOString()
    await db.pool.query('UPDATE change_log_identity SET last_change = $1', [ahead])
    const order: DemoRecord = {
      ...(ordersOf(orgA)[1] as DemoRecord),
      object: 'Ordem mudada depois do relógio',
    }
    assert.equal((await importRecords(db.pool, [source(ndjson([order]))])).ok, true)
    const { rows } = await db.pool.query<{ at: Date }>(
      'SELECT changed_at AS at FROM order_changes WHERE organization_id = $1 AND number = $2 ORDER BY seq DESC LIMIT 1',
      [orgA.uuid, order.number],
    )
    assert.ok(new Date(rows[0]?.at as unknown as string).getTime() >= Date.parse(ahead))
    // And `since` finds it from that instant on.
    const page = await get(app, `/external/orders/changes?since=${ahead}`, tokenA)
    assert.ok(page.body.data.data.some((e) => e.number === order.number))
  })

  it('reads the OCDS releases in change order by default, linking onward by cursor', async () => {
    const first = await app.inject({ url: '/v1/ocds/releases?per_page=2' })
    assert.equal(first.statusCode, 200)
    const next = new URL(first.json().links.next)
    assert.ok(next.searchParams.get('after'), 'onward by after, not by page')
    assert.equal(next.searchParams.get('page'), null)
  })

  it('reads from an instant off an index, with or without kinds, and on the organ feed too', async () => {
    const { rows } = await db.pool.query<{ at: string }>(
      'SELECT max(changed_at)::text AS at FROM order_changes',
    )
    const since = new Date(rows[0]?.at as string).toISOString()
    const orders = await get(app, `/external/orders/changes?since=${since}`, tokenA)
    assert.equal(orders.status, 200)
    assert.ok(orders.body.data.data.length >= 1)
    for (const entry of orders.body.data.data)
      assert.ok(Date.parse(entry.changed_at as string) >= Date.parse(since))
    // The public feed's since without kinds starts at the first entry at or after it, off its index. (A table
    // this small is read whole; with that off, the plan shows what serves a large one.)
    const client = await db.pool.connect()
    try {
      await client.query('SET enable_seqscan = off')
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        'EXPLAIN SELECT s.seq FROM public_changes s WHERE s.changed_at >= now() ORDER BY s.changed_at, s.seq LIMIT 1',
      )
      assert.match(
        plan.rows.map((r) => r['QUERY PLAN']).join('\n'),
        /Index (Only )?Scan using public_changes_changed/,
      )
      await client.query('RESET enable_seqscan')
    } finally {
      client.release()
    }
  })
})
