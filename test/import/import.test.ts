import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { after, before, beforeEach, describe, it } from 'node:test'
import type { DemoRecord } from '../../src/demo/generator.js'
import { dumpRecords } from '../../src/import/dump.js'
import { IMPORT_LOCK, type ImportProgress, importRecords } from '../../src/import/importer.js'
import { MAX_LINE_BYTES } from '../../src/import/lines.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { until } from '../helpers/http.js'
import { byKey, demoRecords, first, ndjson, source } from '../helpers/records.js'

const TABLES = [
  'organizations',
  'units',
  'suppliers',
  'biddings',
  'bidding_providers',
  'arps',
  'contracts',
  'contract_people',
  'contract_commitments',
  'additive_terms',
  'documents',
  'orders',
  'order_items',
]

async function counts(db: TestDatabase): Promise<Record<string, number>> {
  const result: Record<string, number> = {}
  for (const table of TABLES) {
    const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)
    result[table] = rows[0]?.n ?? 0
  }
  return result
}

async function dump(db: TestDatabase) {
  const records = []
  for await (const record of dumpRecords(db.pool, 7)) records.push(record)
  return records
}

/** A record without links, so that it imports beside its organization alone. */
function unlinked<T extends Record<string, unknown>>(record: T): T {
  for (const link of ['contract_number', 'arp_number', 'bidding_uuid'] as const) {
    if (link in record && !(record.type === 'contract' && link === 'contract_number')) {
      ;(record as Record<string, unknown>)[link] = null
    }
  }
  return record
}

async function wipe(db: TestDatabase) {
  await db.pool.query(`TRUNCATE ${TABLES.join(', ')} CASCADE`)
}

describe('import', () => {
  let db: TestDatabase
  const demo = demoRecords()
  before(async () => {
    db = await createTestDatabase()
  })
  after(() => db.drop())
  beforeEach(() => wipe(db))

  it('round trip: what goes in comes out of the database unchanged', async () => {
    const result = await importRecords(db.pool, [source(ndjson(demo))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    assert.equal(result.problemCount, 0)
    assert.equal(result.lines, demo.length)
    assert.equal(result.counts.organization, 2)
    assert.equal(result.counts.order, 12)
    assert.equal(result.counts.contract, 6)
    assert.equal(result.counts.arp, 4)
    assert.equal(result.counts.direct_contract, 3)
    assert.equal(result.counts.public_call, 3)
    const out = await dump(db)
    assert.equal(out.length, demo.length)
    assert.deepEqual(byKey(out), byKey(demo))
  })

  it('is idempotent: the same file twice leaves the database as once', async () => {
    await importRecords(db.pool, [source(ndjson(demo))])
    const once = await counts(db)
    const dumpOnce = await dump(db)
    const again = await importRecords(db.pool, [source(ndjson(demo))])
    assert.equal(again.ok, true)
    assert.deepEqual(await counts(db), once)
    assert.deepEqual(byKey(await dump(db)), byKey(dumpOnce))
  })

  it('replaces a record whose key exists, children included', async () => {
    await importRecords(db.pool, [source(ndjson(demo))])
    const order = first(demo, 'order', (r) => (r.items as unknown[]).length > 1)
    const items = order.items as Record<string, unknown>[]
    order.items = [items[0]]
    order.status_title = 'Recebido total'
    const contract = first(demo, 'contract')
    contract.managers = []
    contract.documents = []
    contract.object_details = 'Objeto alterado'
    const result = await importRecords(db.pool, [source(ndjson([order, contract]))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    const stored = byKey(await dump(db))
    assert.deepEqual(stored.get(`order ${order.organization_uuid} ${order.number}`), order)
    assert.deepEqual(stored.get(`contract ${contract.id}`), contract)
    assert.equal(stored.size, demo.length)
  })

  it('stores contract and ARP numbers trimmed, and links padded references to them', async () => {
    const arp: DemoRecord = {
      ...first(demo, 'arp', (a) => a.bidding_uuid === null),
      number: '  ATA-PAD/2025 ',
    }
    const contract: DemoRecord = {
      ...first(demo, 'contract', (c) => c.organization_uuid === arp.organization_uuid),
      contract_number: ' CT-PAD/2025  ',
      arp_number: 'ATA-PAD/2025   ',
      bidding_uuid: null,
    }
    const order: DemoRecord = {
      ...first(demo, 'order', (o) => o.organization_uuid === arp.organization_uuid),
      contract_number: '\tCT-PAD/2025',
      arp_number: ' ATA-PAD/2025',
    }
    const organization = first(demo, 'organization', (o) => o.uuid === arp.organization_uuid)
    const result = await importRecords(db.pool, [source(ndjson([organization, arp, contract, order]))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    const { rows } = await db.pool.query(
      `SELECT (SELECT number FROM arps WHERE id = $1) AS arp,
              (SELECT contract_number FROM contracts WHERE id = $2) AS contract,
              (SELECT arp_number FROM contracts WHERE id = $2) AS contract_arp,
              (SELECT contract_number FROM orders WHERE number = $3) AS order_contract,
              (SELECT arp_number FROM orders WHERE number = $3) AS order_arp`,
      [arp.id, contract.id, (order.number as string).trim()],
    )
    assert.deepEqual(rows[0], {
      arp: 'ATA-PAD/2025',
      contract: 'CT-PAD/2025',
      contract_arp: 'ATA-PAD/2025',
      order_contract: 'CT-PAD/2025',
      order_arp: 'ATA-PAD/2025',
    })
  })

  it('keeps the last of two lines with the same key', async () => {
    const org = first(demo, 'organization')
    const renamed = { ...org, name: 'Prefeitura Municipal de Ouro Preto' }
    const result = await importRecords(db.pool, [source(ndjson([org, renamed]))])
    assert.equal(result.ok, true)
    assert.equal(result.counts.organization, 1)
    const { rows } = await db.pool.query('SELECT name FROM organizations')
    assert.deepEqual(rows, [{ name: 'Prefeitura Municipal de Ouro Preto' }])
  })

  it('resolves links across files of one run, in any order', async () => {
    const orgs = demo.filter((r) => r.type === 'organization')
    const rest = demo.filter((r) => r.type !== 'organization').reverse()
    const result = await importRecords(db.pool, [
      source(ndjson(rest), 'rest.ndjson'),
      source(ndjson(orgs), 'orgs.ndjson'),
    ])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    assert.equal((await dump(db)).length, demo.length)
  })

  it('keeps microseconds and normalises offsets to UTC', async () => {
    const org = first(demo, 'organization')
    const order = unlinked(first(demo, 'order', (r) => r.organization_uuid === org.uuid))
    order.deadline_delivery = '2025-03-10T14:30:15.123456-03:00'
    order.invoice_issue_date = '2025-03-01T00:00:00.000001Z'
    const result = await importRecords(db.pool, [source(ndjson([org, order]))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    const [stored] = (await dump(db)).filter((r) => r.type === 'order')
    assert.equal(stored?.deadline_delivery, '2025-03-10T17:30:15.123456Z')
    assert.equal(stored?.invoice_issue_date, '2025-03-01T00:00:00.000001Z')
  })

  it('accepts a byte-order mark, CRLF line ends and blank lines', async () => {
    const org = first(demo, 'organization')
    const content = `\uFEFF${JSON.stringify(org)}\r\n\r\n   \n`
    const result = await importRecords(db.pool, [source(content)])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    assert.equal(result.counts.organization, 1)
  })

  it('tells where it is, every thousand records and at each phase, and records the run', async () => {
    // 80 copies of the demo: 2,400 lines, each key kept once (the last line wins).
    const content = ndjson(Array.from({ length: 80 }, () => demo).flat())
    const lines = demo.length * 80
    const size = Buffer.byteLength(content)
    const heard: ImportProgress[] = []
    const started = performance.now()
    const result = await importRecords(db.pool, [{ ...source(content), size }], {
      onProgress: (progress) => heard.push({ ...progress }),
    })
    const took = (performance.now() - started) / 1000
    assert.equal(result.ok, true, JSON.stringify(result.problems))
    assert.equal(result.lines, lines)
    assert.ok(result.seconds > 0 && result.seconds <= took, `${result.seconds} s of ${took}`)
    const at = (phase: ImportProgress['phase'], records: number) => ({
      phase,
      records,
      bytes: size,
      totalBytes: size,
    })
    assert.deepEqual(heard, [
      at('reading', 1000),
      at('reading', 2000),
      at('checking', lines),
      at('writing', lines),
      at('documents', lines),
    ])
    // The run is kept for the metrics, with the documents it built: all of them, on a first load.
    const { rows } = await db.pool.query(
      `SELECT ok, records::int, documents::int, seconds > 0 AS timed,
         (SELECT count(*) FROM order_documents)::int + (SELECT count(*) FROM detail_documents)::int
           + (SELECT count(*) FROM ocds_releases)::int AS stored
       FROM import_runs ORDER BY id DESC LIMIT 1`,
    )
    assert.equal(rows[0].ok, true)
    assert.equal(rows[0].records, lines)
    assert.equal(rows[0].timed, true)
    assert.ok(rows[0].stored > 0)
    assert.equal(rows[0].documents, rows[0].stored)
  })

  it('tells no total when a source has no known size, and stops telling at checking when refused', async () => {
    const org = JSON.stringify(first(demo, 'organization'))
    const bad = '{"type":"nothing"}'
    const heard: ImportProgress[] = []
    const result = await importRecords(
      db.pool,
      [{ ...source(org), size: Buffer.byteLength(org) }, source(bad)],
      {
        onProgress: (progress) => heard.push({ ...progress }),
      },
    )
    assert.equal(result.ok, false)
    const bytes = Buffer.byteLength(org) + bad.length
    assert.deepEqual(heard, [{ phase: 'checking', records: 2, bytes, totalBytes: undefined }])
    const { rows } = await db.pool.query(
      'SELECT ok, records::int, documents::int FROM import_runs ORDER BY id DESC LIMIT 1',
    )
    assert.deepEqual(rows[0], { ok: false, records: 2, documents: 0 })
  })

  it('gives the error of a source that fails while read, writes nothing, and leaves no transaction open', async () => {
    const line = `${JSON.stringify(first(demo, 'organization'))}\n`
    const failing = Readable.from(
      (async function* () {
        yield Buffer.from(line)
        throw new Error('the disk went away')
      })(),
    )
    await assert.rejects(
      importRecords(db.pool, [{ name: 'failing.ndjson', stream: failing }]),
      /the disk went away/,
    )
    assert.equal((await counts(db)).organizations, 0)
    const open = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
    )
    assert.equal(open.rows[0]?.n, 0)
    assert.equal((await importRecords(db.pool, [source(ndjson(demo))])).ok, true)
  })

  it('waits while another import holds the import lock', async () => {
    const other = await db.pool.connect()
    try {
      await other.query('BEGIN')
      await other.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK])
      const running = importRecords(db.pool, [source(ndjson(demo))])
      // Only this database's import lock: other test files import into databases of their own meanwhile.
      const waiting = async () =>
        (
          await db.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_locks
             WHERE locktype = 'advisory' AND NOT granted AND objid = $1
               AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
            [IMPORT_LOCK],
          )
        ).rows[0]?.n === 1
      const waited = await until(waiting, 5000).then(
        () => true,
        () => false,
      )
      assert.equal((await counts(db)).organizations, 0)
      await other.query('COMMIT')
      assert.equal((await running).ok, true)
      assert.equal(waited, true, 'the import did not wait for the lock')
    } finally {
      other.release()
    }
  })

  describe('a file with any bad line is rejected whole', () => {
    const org = first(demo, 'organization')
    const order = unlinked(first(demo, 'order', (r) => r.organization_uuid === org.uuid))
    const contract = unlinked(first(demo, 'contract', (r) => r.organization_uuid === org.uuid))
    const cases: [string, unknown, string, RegExp][] = [
      ['bad JSON', '{"type": "organization",', '(line)', /^invalid JSON/],
      ['not an object', '[1, 2]', '(record)', /must be a JSON object/],
      ['no type', { name: 'x' }, 'type', /is required/],
      [
        'an unknown type',
        { ...org, type: 'tender' },
        'type',
        /must be one of: organization, order, contract/,
      ],
      ['a missing field', (({ object: _, ...rest }) => rest)(order), 'object', /is required/],
      ['a mistyped field', { ...order, amount_total: '12.50' }, 'amount_total', /must be number/],
      [
        'a mistyped item field',
        { ...order, items: [{ ...(order.items as object[])[0], quantity: 1.5 }] },
        'items[0].quantity',
        /must be integer/,
      ],
      [
        'a modality outside 2.3',
        { ...order, modality_name: 'Pregão' },
        'modality_name',
        /must be one of: Adesão; Pregão Eletrônico/,
      ],
      [
        'a status outside section 3',
        { ...order, status_title: 'Entregue' },
        'status_title',
        /must be one of: Emitida; Recebido total/,
      ],
      ['an impossible date', { ...contract, date_start: '2025-02-30' }, 'date_start', /must be a valid date/],
      [
        'a timestamp without zone',
        { ...order, deadline_delivery: '2025-03-10T14:30:15' },
        'deadline_delivery',
        /must be a valid date-time/,
      ],
      [
        'a field that is not in the format',
        { ...order, arp_amount_total: 10 },
        'arp_amount_total',
        /is not a field of this record/,
      ],
      [
        'a CPF with punctuation',
        {
          ...contract,
          managers: [{ role: 'Gestor', name: 'Ana', cpf: '123.456.789-01', office: 'Analista' }],
        },
        'managers[0].cpf',
        /wrong form/,
      ],
      [
        'a money text with three decimals',
        { ...contract, amount_total: '10.001' },
        'amount_total',
        /wrong form/,
      ],
      ['a NUL character', `${JSON.stringify({ ...org, name: 'a\u0000b' })}`, '(record)', /NUL/],
      ['a negative amount', { ...order, amount_total: -1 }, 'amount_total', /must be >= 0/],
    ]
    for (const [what, bad, field, reason] of cases) {
      it(`rejects ${what}, naming line, field and reason, and writes nothing`, async () => {
        const before = await counts(db)
        const result = await importRecords(db.pool, [
          source(ndjson([org, order, bad, contract]), 'bad.ndjson'),
        ])
        assert.equal(result.ok, false)
        assert.equal(result.problemCount, 1)
        const [problem] = result.problems
        assert.equal(problem?.file, 'bad.ndjson')
        assert.equal(problem?.line, 3)
        assert.equal(problem?.field, field)
        assert.match(problem?.reason ?? '', reason)
        assert.deepEqual(await counts(db), before)
        assert.ok(Object.values(result.counts).every((n) => n === 0))
      })
    }

    const links: [string, Record<string, unknown>[], number, string, RegExp][] = [
      ['an order of an unknown organization', [order], 1, 'organization_uuid', /names no organization/],
      [
        'an order naming no contract',
        [org, { ...order, contract_number: '999/2099' }],
        2,
        'contract_number',
        /names no contract/,
      ],
      [
        'an order naming no ARP',
        [org, { ...order, arp_number: 'ARP 999/2099' }],
        2,
        'arp_number',
        /names no ARP/,
      ],
      [
        'a contract naming no bidding',
        [org, { ...contract, bidding_uuid: '00000000-0000-4000-8000-000000000000' }],
        2,
        'bidding_uuid',
        /names no direct contract or public call/,
      ],
      [
        'two contracts with one number',
        [org, contract, { ...contract, id: '11111111-1111-4111-8111-111111111111' }],
        3,
        'contract_number',
        /is used by another contract of this organization \(line 2\)/,
      ],
    ]
    for (const [what, records, line, field, reason] of links) {
      it(`rejects ${what} and writes nothing`, async () => {
        const result = await importRecords(db.pool, [source(ndjson(records))])
        assert.equal(result.ok, false)
        assert.deepEqual(
          result.problems.map((p) => [p.line, p.field]),
          [[line, field]],
        )
        assert.match(result.problems[0]?.reason ?? '', reason)
        assert.equal((await counts(db)).organizations, 0)
      })
    }

    it('rejects a line over 1 MiB, naming it, and reads on', async () => {
      const long = JSON.stringify({ ...org, name: 'x'.repeat(MAX_LINE_BYTES) })
      const result = await importRecords(db.pool, [source(ndjson([org, long, order]), 'long.ndjson')])
      assert.equal(result.ok, false)
      assert.equal(result.lines, 3)
      assert.deepEqual(result.problems, [
        {
          file: 'long.ndjson',
          line: 2,
          field: '(line)',
          reason: `line is longer than ${MAX_LINE_BYTES} bytes`,
        },
      ])
      assert.equal((await counts(db)).organizations, 0)
    })

    it('reports the problems of links and withdrawals together, in file and line order', async () => {
      const nowhere = { type: 'withdraw', record: 'order', organization_uuid: org.uuid, number: 'none/2099' }
      const result = await importRecords(db.pool, [
        source(ndjson([org, nowhere, { ...order, contract_number: '999/2099' }]), 'a.ndjson'),
        source(ndjson([{ ...order, number: 'other/2099', arp_number: 'ARP 999/2099' }]), 'b.ndjson'),
      ])
      assert.equal(result.ok, false)
      assert.deepEqual(
        result.problems.map((p) => [p.file, p.line, p.field]),
        [
          ['a.ndjson', 2, 'number'],
          ['a.ndjson', 3, 'contract_number'],
          ['b.ndjson', 1, 'arp_number'],
        ],
      )
      assert.equal((await counts(db)).organizations, 0)
    })

    it('rejects a contract number already used by a stored contract', async () => {
      await importRecords(db.pool, [source(ndjson([org, contract]))])
      const clash = { ...contract, id: '22222222-2222-4222-8222-222222222222' }
      const result = await importRecords(db.pool, [source(ndjson([clash]))])
      assert.equal(result.ok, false)
      assert.match(result.problems[0]?.reason ?? '', new RegExp(`used by another contract .*${contract.id}`))
    })

    it('lists the first 100 problems and counts the rest', async () => {
      const lines = [org, ...Array.from({ length: 150 }, () => '{oops')]
      const result = await importRecords(db.pool, [source(ndjson(lines))])
      assert.equal(result.ok, false)
      assert.equal(result.problemCount, 150)
      assert.equal(result.problems.length, 100)
      assert.equal(result.problems[0]?.line, 2)
      assert.equal(result.problems[99]?.line, 101)
    })

    it('leaves earlier data untouched when a later run fails', async () => {
      await importRecords(db.pool, [source(ndjson(demo))])
      const before = await counts(db)
      const dumped = await dump(db)
      const changed = { ...org, name: 'Nome novo' }
      const result = await importRecords(db.pool, [source(ndjson([changed, '{oops']))])
      assert.equal(result.ok, false)
      assert.deepEqual(await counts(db), before)
      assert.deepEqual(byKey(await dump(db)), byKey(dumped))
    })
  })
})
