import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { issueToken } from '../../src/auth/tokens.js'
import { loadMigrations, migrate } from '../../src/db/migrate.js'
import type { DemoRecord } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { syncReadModel } from '../../src/readmodel/build.js'
import { buildTestApp } from '../helpers/app.js'
import { createTestDatabase, seededDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// Hardening, items 4 (a filter must not confirm a CPF; a per-address limit on the public routes),
// 8 (inputs that gave 500 or a 200 that broke later) and 12 (numbers with surrounding spaces).

describe('public parameters under hostile input', () => {
  let db: TestDatabase
  let app: FastifyInstance
  const demo = demoRecords(
    { organizations: 2, orders: 20, contracts: 8, arps: 4, directContracts: 3, publicCalls: 3 },
    17,
  )
  const org = first(demo, 'organization')
  const person = { name: 'Joana D’Arc Figueiredo', document: '52998224725' }
  const personContract: DemoRecord = {
    ...first(demo, 'contract', (c) => c.organization_uuid === org.uuid),
    id: 'dddddddd-0000-4000-8000-000000000001',
    contract_number: ' CPF/2024 ',
    provider_company_name: person.name,
    provider_document: person.document,
    bidding_uuid: null,
    arp_number: null,
  }
  const spaced: DemoRecord = {
    ...first(demo, 'order', (o) => o.organization_uuid === org.uuid),
    number: '  77/2025\t',
    contract_number: null,
    arp_number: null,
  }
  let token = ''

  const get = (url: string) => app.inject({ method: 'GET', url })

  before(async () => {
    db = await seededDatabase([...demo, personContract, spaced])
    ;({ token } = await issueToken(db.pool, org.uuid as string, null))
    app = await buildTestApp(db)
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  it('refuses a CPF in provider_document (422 that says why), in listings and exports alike', async () => {
    for (const url of [
      `/v1/transparency/contracts?provider_document=${person.document}&per_page=1`,
      `/v1/transparency/public-calls?provider_document=${person.document}`,
      `/v1/transparency/export?resource=arps&format=csv&provider_document=${person.document}`,
    ]) {
      const response = await get(url)
      assert.equal(response.statusCode, 422, url)
      assert.deepEqual(response.json(), {
        success: false,
        message:
          'Parâmetro inválido: provider_document. Aceita um CNPJ, só os 14 dígitos (um CPF não é aceito, ' +
          'para proteger as pessoas; use provider_name).',
      })
    }
    const company = first(demo, 'contract', (c) => (c.provider_document as string).length === 14)
    const byCnpj = await get(`/v1/transparency/contracts?provider_document=${company.provider_document}`)
    assert.equal(byCnpj.statusCode, 200)
    assert.ok(byCnpj.json().data.total >= 1)
  })

  it("finds a person supplier's records by name, showing nothing the mask hides", async () => {
    for (const name of ['joana figueiredo', 'JOANA D’ARC', 'figueir']) {
      const response = await get(`/v1/transparency/contracts?provider_name=${encodeURIComponent(name)}`)
      assert.equal(response.statusCode, 200, name)
      const page = response.json().data
      assert.deepEqual(
        page.data.map((c: { id: string }) => c.id),
        [personContract.id],
        name,
      )
      assert.ok(!response.body.includes(person.document))
    }
    // LIKE's wildcards are taken literally, not as a way to match everything.
    const wildcard = await get('/v1/transparency/contracts?provider_name=%25%25%25')
    assert.equal(wildcard.json().data.total, 0)
    const short = await get('/v1/transparency/contracts?provider_name=ab')
    assert.equal(short.statusCode, 422)
  })

  const invalid: [string, number, RegExp][] = [
    ['/v1/transparency/contracts?q=a%00b', 422, /^Parâmetro inválido: q\./],
    ['/v1/transparency/contracts?number=%00', 422, /^Parâmetro inválido: number\./],
    ['/v1/transparency/arps?bidding_number=x%01y', 422, /^Parâmetro inválido: bidding_number\./],
    ['/v1/transparency/contracts?provider_name=abc%00', 422, /^Parâmetro inválido: provider_name\./],
    ['/v1/transparency/contracts?page=9223372036854775807', 422, /^Parâmetro inválido: page\./],
    ['/v1/transparency/contracts?page=460000000000000000', 422, /^Parâmetro inválido: page\./],
    ['/v1/transparency/contracts?page=1e3', 422, /^Parâmetro inválido: page\./],
    ['/v1/transparency/contracts?page=-1', 422, /^Parâmetro inválido: page\./],
    ['/v1/transparency/contracts?page=%201', 422, /^Parâmetro inválido: page\./],
    ...['page', 'per_page', 'modality_id', 'management_status_id'].flatMap(
      (name): [string, number, RegExp][] =>
        ['Infinity', '-Infinity', 'NaN', '0x10', '1.5'].map((value) => [
          `/v1/transparency/contracts?${name}=${value}`,
          422,
          new RegExp(`^Parâmetro inválido: ${name}\\.`),
        ]),
    ),
    ['/v1/transparency/public-calls?status_id=Infinity', 422, /^Parâmetro inválido: status_id\./],
    ['/v1/transparency/contracts?date_from=0000-01-01', 422, /^Parâmetro inválido: date_from\./],
    ['/v1/transparency/direct-contracts?date_to=0000-12-31', 422, /^Parâmetro inválido: date_to\./],
    ['/v1/transparency/export?resource=contracts&format=csv&page=1', 422, /^Parâmetro desconhecido: page\./],
    ['/v1/transparency/export?resource=contracts&format=csv&modality_id=-Infinity', 422, /modality_id/],
    [
      '/v1/transparency/contracts?organization_uuid=urn:uuid:01cb8d32-0cc4-427c-b0c9-7841255138e1',
      422,
      /^Parâmetro inválido: organization_uuid\./,
    ],
    [
      '/v1/transparency/contracts/urn:uuid:01cb8d32-0cc4-427c-b0c9-7841255138e1',
      400,
      /^Identificador inválido\.$/,
    ],
    ['/v1/transparency/arps/%7B01cb8d32-0cc4-427c-b0c9-7841255138e1%7D', 400, /^Identificador inválido\.$/],
  ]
  for (const [url, status, message] of invalid) {
    it(`answers ${status} for ${url.replace('/v1/transparency/', '')}`, async () => {
      const response = await get(url)
      assert.equal(response.statusCode, status, response.body)
      assert.equal(response.json().success, false)
      assert.match(response.json().message, message)
    })
  }

  it('serves a page far past the end as an empty page, not an error', async () => {
    const response = await get('/v1/transparency/contracts?page=999999999999999&per_page=100')
    assert.equal(response.statusCode, 200)
    const page = response.json().data
    assert.deepEqual([page.data, page.from, page.to, page.current_page], [[], null, null, 999999999999999])
  })

  it('imports numbers without surrounding spaces, and finds them with or without them', async () => {
    const { rows } = await db.pool.query('SELECT number FROM orders WHERE number LIKE $1', ['%77/2025%'])
    assert.deepEqual(rows, [{ number: '77/2025' }])
    for (const asked of ['77/2025', ' 77/2025 ']) {
      const response = await app.inject({
        method: 'GET',
        url: `/external/orders?order_number=${encodeURIComponent(asked)}`,
        headers: { authorization: token },
      })
      assert.equal(response.statusCode, 200, asked)
      assert.equal(response.json().data.number, '77/2025')
    }
    // Sent again with other spaces, it is the same order, not a second one.
    const again = await importRecords(db.pool, [
      source(ndjson([{ ...spaced, number: '77/2025 ', object: 'Outro' }])),
    ])
    assert.equal(again.ok, true)
    const after = await db.pool.query('SELECT number, object FROM orders WHERE number LIKE $1', ['%77/2025%'])
    assert.deepEqual(after.rows, [{ number: '77/2025', object: 'Outro' }])
    const listed = await get(`/v1/transparency/contracts?number=${encodeURIComponent('  CPF/2024 ')}`)
    assert.equal(listed.json().data.total, 1)
    assert.equal(listed.json().data.data[0].contract_number, 'CPF/2024')
  })

  it('refuses a number with a control character at import, naming the line and field', async () => {
    const result = await importRecords(db.pool, [source(ndjson([{ ...spaced, number: 'A\u0001B' }]))])
    assert.equal(result.ok, false)
    assert.deepEqual(result.problems, [
      { file: 'test.ndjson', line: 1, field: 'number', reason: 'must not contain control characters' },
    ])
  })

  it("limits public requests per address, with the order query's headers on the refusal alone", async () => {
    const limited = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '5' } })
    try {
      const ask = (remoteAddress: string) =>
        limited.inject({ method: 'GET', url: '/v1/transparency/helpers/bidding-statuses', remoteAddress })
      for (let i = 1; i <= 5; i++) {
        const response = await ask('198.51.100.77')
        assert.equal(response.statusCode, 200)
        // A public answer is kept by shared caches for everyone: it carries no one client's count.
        assert.equal(response.headers['x-ratelimit-remaining'], undefined)
      }
      const refused = await ask('198.51.100.77')
      assert.equal(refused.statusCode, 429)
      assert.equal(refused.headers['retry-after'], '60')
      assert.equal(refused.headers['x-ratelimit-limit'], '5')
      assert.equal(refused.headers['x-ratelimit-remaining'], '0')
      assert.equal(refused.headers['x-ratelimit-reset'], '60')
      assert.deepEqual(refused.json(), {
        success: false,
        message: 'Muitas requisições deste endereço. Tente novamente em alguns segundos.',
      })
      assert.equal((await ask('198.51.100.78')).statusCode, 200)
    } finally {
      await limited.close()
    }
  })
})

describe('migration 0006 trims the numbers already stored', () => {
  it('trims what collides with nothing, keeps a colliding pair, and the documents are rebuilt', async () => {
    const db = await createTestDatabase({ migrated: false })
    try {
      // The schema as it was before 0006, with data imported then.
      const migrations = await loadMigrations()
      await db.pool.query(`CREATE TABLE schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`)
      for (const migration of migrations.filter((m) => m.version < 6)) {
        await db.pool.query(migration.sql)
        await db.pool.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          migration.version,
          migration.name,
        ])
      }
      // Today's importer records its runs (0008), builds OCDS releases (0009) and listing items (0011),
      // logs changes (0015), orders releases (0016), keeps history (0017, 0019), numbers the feeds (0018) and
      // keeps OCDS records (0020), projects prices (0021), keeps suppliers' names (0022), PNCP's versions
      // (0023), PNCP's items and results (0025), integrity flags (0027) and their scopes (0028), all idempotent:
      // what it needs, ahead of their turn.
      for (const version of [8, 9, 11, 15, 16, 17, 18, 19, 20, 21, 22, 23, 25, 27, 28])
        await db.pool.query((migrations.find((m) => m.version === version) as { sql: string }).sql)
      const records = demoRecords(
        { organizations: 1, orders: 6, contracts: 3, arps: 1, directContracts: 1, publicCalls: 1 },
        5,
      )
      assert.equal((await importRecords(db.pool, [source(ndjson(records))])).ok, true)
      const [a, b] = records.filter((r) => r.type === 'order') as [DemoRecord, DemoRecord]
      const contract = first(records, 'contract')
      await db.pool.query(`UPDATE orders SET number = ' ' || number || ' ' WHERE number = $1`, [a.number])
      await db.pool.query(`UPDATE contracts SET contract_number = contract_number || ' ' WHERE id = $1`, [
        contract.id,
      ])
      await db.pool.query(
        `UPDATE orders SET contract_number = contract_number || ' ' WHERE contract_number = $1`,
        [contract.contract_number],
      )
      // b exists both as itself and with a space: trimming would make two orders one, so both stay.
      const copy = await db.pool.query(
        `INSERT INTO orders (organization_id, number, unit_id, object, modality_id, status_id, supplier_id,
           representative_name, expense_classification_title, expense_type_title, location_delivery,
           deadline_delivery, amount_total)
         SELECT organization_id, number || ' ', unit_id, object, modality_id, status_id, supplier_id,
           representative_name, expense_classification_title, expense_type_title, location_delivery,
           deadline_delivery, amount_total FROM orders WHERE number = $1 RETURNING id`,
        [b.number],
      )
      assert.equal(copy.rowCount, 1)
      await db.pool.query(`UPDATE order_documents SET body = '{"stale":true}'`)

      assert.deepEqual(await migrate(db.pool), [
        '0006_hardening',
        '0007_read_model_versions',
        '0008_operations',
        '0009_ocds',
        '0010_token_changes',
        '0011_listing_items',
        '0012_access_log_without_key',
        '0013_listing_organization_modality',
        '0014_documents_uncompressed',
        '0015_change_log',
        '0016_ocds_release_order',
        '0017_history',
        '0018_cursor_identity',
        '0019_bounded_history',
        '0020_ocds_records',
        '0021_prices',
        '0022_supplier_names',
        '0023_pncp',
        '0024_pncp_files',
        '0025_pncp_items',
        '0026_arp_without_supplier',
        '0027_integrity_flags',
        '0028_indicator_scopes',
        '0029_webhooks',
      ])
      await syncReadModel(db.pool) // as `compras migrate` does after the migrations
      const numbers = await db.pool.query(
        'SELECT number FROM orders WHERE number LIKE $1 OR number LIKE $2 ORDER BY 1',
        [`%${a.number}%`, `%${b.number}%`],
      )
      assert.deepEqual(
        numbers.rows.map((r) => r.number),
        [a.number, b.number, `${b.number} `].sort(),
      )
      const stored = await db.pool.query('SELECT contract_number FROM contracts WHERE id = $1', [contract.id])
      assert.equal(stored.rows[0].contract_number, contract.contract_number)
      const links = await db.pool.query(
        'SELECT count(*)::int AS n FROM orders WHERE contract_number LIKE $1',
        [`${contract.contract_number} %`],
      )
      assert.equal(links.rows[0].n, 0)
      const document = await db.pool.query('SELECT body FROM order_documents WHERE number = $1', [a.number])
      assert.equal(JSON.parse(document.rows[0].body).number, a.number)
    } finally {
      await db.drop()
    }
  })
})
