import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { issueToken } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { eventually } from '../helpers/http.js'
import { demoRecords, first } from '../helpers/records.js'

// A seeded, bounded fuzz of every route's parameters: whatever comes in, the answer is in the route's
// envelope, never a stack trace or SQL, never a 5xx but the spec's order-query 500s, never a whole CPF,
// and no request is left holding a connection.

const SEED = 20_261_122
const RUNS = Number(process.env.FUZZ_RUNS ?? 150)

const HOSTILE: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u001f\u007f',
  '\t\r\n',
  'Infinity',
  '-Infinity',
  'NaN',
  '1e308',
  '-0',
  '0x1F',
  '9223372036854775807',
  '460000000000000000',
  '99999999999999999999999',
  '-1',
  '1.5',
  '0000-01-01',
  '2025-02-30',
  '9999-12-31',
  '10000-01-01',
  '2025-13-01T00:00:00Z',
  'urn:uuid:01cb8d32-0cc4-427c-b0c9-7841255138e1',
  '{01cb8d32-0cc4-427c-b0c9-7841255138e1}',
  '01CB8D32-0CC4-427C-B0C9-7841255138E1',
  '00000000-0000-0000-0000-000000000000',
  "' OR 1=1 --",
  '%',
  '%%%',
  '_',
  '\\',
  '<script>alert(1)</script>',
  '\ud800',
  '😀'.repeat(50),
  'a'.repeat(5000),
  '12345678901',
  '12345678000195',
  'documents,orders,terms,managers,inspectors,commitments,providers,arps,contracts',
  '-date_start',
  'amount_total',
  ',,,',
]
const hostile = fc.constantFrom(...HOSTILE)
/** Values a listing accepts, so that many runs get past validation into the query itself. */
const plausible = fc.constantFrom(
  '1',
  '2',
  '3',
  '20',
  '100',
  '2024-01-01',
  '2025-12-31',
  'computador',
  'ltda',
  'serviço de limpeza',
  '-date_start',
  'number',
  '-amount_total',
  'documents',
  'orders,terms',
  'providers,arps,contracts',
)
const value = fc.oneof(
  { weight: 4, arbitrary: plausible },
  { weight: 3, arbitrary: hostile },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String) },
  { weight: 1, arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)) },
)

const LISTING_NAMES = [
  'page',
  'per_page',
  'organization_uuid',
  'number',
  'bidding_number',
  'modality_id',
  'status_id',
  'management_status_id',
  'provider_document',
  'provider_name',
  'date_from',
  'date_to',
  'q',
  'sort',
  'with_relations',
]
const names = (known: readonly string[]) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...known) },
    { weight: 1, arbitrary: fc.constantFrom('foo', '', '__proto__', 'constructor', 'page[]', 'a.b', '%00') },
  )
/**
 * A query string: plausible values for known names, and at most one hostile value or unknown name among
 * them (several at once would mostly stop at the first 422), sometimes raw percent junk.
 */
const query = (known: readonly string[]) =>
  fc
    .tuple(
      fc.array(fc.tuple(fc.constantFrom(...known), plausible), { maxLength: 3 }),
      fc.option(fc.tuple(names(known), value), { nil: undefined, freq: 1 }),
      fc.oneof(
        { weight: 8, arbitrary: fc.constant('') },
        { weight: 1, arbitrary: fc.constantFrom('&%', '&x=%zz', '&%E0%A4%A=1') },
      ),
    )
    .map(([pairs, odd, junk]) =>
      [...pairs, ...(odd ? [odd] : [])]
        .map(([name, v]) => `${encodeURIComponent(name)}=${encodeURIComponent(v.toWellFormed())}`)
        .join('&')
        .concat(junk),
    )

const STACK_OR_SQL = /\n\s+at |Error:|SELECT |INSERT |syntax error|relation "|column "|pg_|node_modules/

describe('fuzzing every route', () => {
  let db: TestDatabase
  let app: FastifyInstance
  let token = ''
  const records = demoRecords(
    { organizations: 2, orders: 20, contracts: 8, arps: 4, directContracts: 3, publicCalls: 3 },
    41,
  )
  const person = {
    ...first(records, 'contract'),
    id: 'eeeeeeee-0000-4000-8000-000000000001',
    contract_number: 'PESSOA/2024',
    provider_company_name: 'Pessoa Fuzz',
    provider_document: '11144477735',
  }
  const cpfs = [
    person.provider_document,
    ...records
      .filter((r) => r.type === 'contract')
      .flatMap((c) => [...(c.managers as { cpf: string }[]), ...(c.inspectors as { cpf: string }[])])
      .map((p) => p.cpf),
    ...records
      .filter((r) => r.type === 'order' && (r.provider_document as string).length === 11)
      .map((r) => r.provider_document as string),
  ]
  const ids = records.filter((r) => 'id' in r).map((r) => r.id as string)
  const logged: string[] = []

  /** Answers within a bound, or fails the property: no request may hang. */
  async function ask(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    let timer: NodeJS.Timeout | undefined
    try {
      return await Promise.race([
        app.inject({ method: 'GET', url, headers }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within 10 s: ${url}`)), 10_000)
        }),
      ])
    } finally {
      clearTimeout(timer)
    }
  }

  function checkCommon(url: string, response: LightMyRequestResponse) {
    assert.doesNotMatch(response.body.slice(0, 100_000), STACK_OR_SQL, url)
    for (const cpf of cpfs) assert.ok(!response.body.includes(cpf), `${url}: CPF ${cpf} in the body`)
  }

  function checkPublic(url: string, response: LightMyRequestResponse, file = false) {
    assert.ok(
      [200, 400, 404, 422].includes(response.statusCode),
      `${url}: ${response.statusCode} ${response.body}`,
    )
    if (response.statusCode === 200 && file) {
      assert.match(response.headers['content-type'] as string, /spreadsheetml|text\/csv/)
      // A CSV file is text: no whole CPF in it either (the XLSX path writes the same values: export tests).
      if ((response.headers['content-type'] as string).startsWith('text/csv')) checkCommon(url, response)
      return
    }
    const body = response.json()
    if (response.statusCode === 200) {
      assert.equal(body.success, true, url)
      assert.equal(body.message, 'Dados recuperados com sucesso')
    } else {
      assert.deepEqual(Object.keys(body), ['success', 'message'], url)
      assert.equal(body.success, false)
      assert.equal(typeof body.message, 'string')
    }
    checkCommon(url, response)
  }

  before(async () => {
    db = await seededDatabase([...records, person])
    ;({ token } = await issueToken(db.pool, first(records, 'organization').uuid as string, null))
    // Every request logged, at info: the log must not hold a whole CPF either.
    app = await buildTestApp(db, {
      env: { PUBLIC_RATE_LIMIT: '0', AUTH_FAILURE_LIMIT: '1000000', LOG_LEVEL: 'info', LOG_REQUESTS: 'true' },
      logStream: new Writable({
        write(chunk, _encoding, done) {
          logged.push(String(chunk))
          done()
        },
      }),
    })
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  for (const kind of ['contracts', 'direct-contracts', 'public-calls', 'arps']) {
    it(`listing ${kind}: every parameter with every hostile value answers in the envelope`, async () => {
      for (const name of LISTING_NAMES)
        for (const v of HOSTILE) {
          const url = `/v1/transparency/${kind}?${name}=${encodeURIComponent(v.toWellFormed())}`
          checkPublic(url, await ask(url))
        }
    })

    it(`listing ${kind}: any query string answers in the envelope`, async () => {
      await fc.assert(
        fc.asyncProperty(query(LISTING_NAMES), async (q) => {
          const url = `/v1/transparency/${kind}?${q}`
          checkPublic(url, await ask(url))
        }),
        { seed: SEED, numRuns: RUNS },
      )
    })

    it(`detail ${kind}: any id answers in the envelope`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(value, fc.constantFrom(...ids)), async (id) => {
          const url = `/v1/transparency/${kind}/${encodeURIComponent(id.toWellFormed())}`
          const response = await ask(url)
          if (response.statusCode === 404 && id === '') return // the listing's path without a slash
          checkPublic(url, response)
        }),
        { seed: SEED, numRuns: RUNS },
      )
    })
  }

  it('export: every parameter with every hostile value answers with a file or in the envelope', async () => {
    for (const name of [...LISTING_NAMES, 'separator', 'resource', 'format'])
      for (const v of HOSTILE) {
        const url = `/v1/transparency/export?resource=contracts&format=csv&${name}=${encodeURIComponent(v.toWellFormed())}`
        checkPublic(url, await ask(url), true)
      }
  })

  it('export: any query string answers with a file or in the envelope', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('contracts', 'direct-contracts', 'public-calls', 'arps', 'orders', ''),
        fc.constantFrom('xlsx', 'csv', 'pdf', ''),
        query([...LISTING_NAMES, 'separator', 'resource', 'format']),
        async (resource, format, q) => {
          const url = `/v1/transparency/export?resource=${resource}&format=${format}&${q}`
          checkPublic(url, await ask(url), true)
        },
      ),
      { seed: SEED, numRuns: RUNS },
    )
  })

  const PRICE_NAMES = [
    'q',
    'unit',
    'organization_uuid',
    'provider_document',
    'modality_id',
    'date_from',
    'date_to',
    'sort',
    'per_page',
    'cursor',
  ]

  it('price research and its file: every parameter with every hostile value answers in the envelope', async () => {
    for (const name of PRICE_NAMES)
      for (const v of HOSTILE) {
        const value = encodeURIComponent(v.toWellFormed())
        const research = `/v1/transparency/prices?q=caneta&${name}=${value}`
        checkPublic(research, await ask(research))
        const file = `/v1/transparency/prices/export?format=csv&q=caneta&${name}=${value}`
        checkPublic(file, await ask(file), true)
      }
  })

  it('price research: any query string answers in the envelope', async () => {
    await fc.assert(
      fc.asyncProperty(query(PRICE_NAMES), async (q) => {
        const url = `/v1/transparency/prices?${q}`
        checkPublic(url, await ask(url))
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('suppliers and organizations: any query and any id answer in the envelope, and no CPF has a page', async () => {
    for (const cpf of cpfs) {
      const masked = `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`
      for (const id of [cpf, masked]) {
        const url = `/v1/transparency/suppliers/${encodeURIComponent(id)}`
        const response = await ask(url)
        assert.equal(response.statusCode, 404, url)
        checkPublic(url, response)
      }
    }
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('suppliers', 'organizations'),
        fc.option(
          value.map((v) => v.slice(0, 90)),
          { nil: undefined },
        ),
        query(['q', 'document', 'per_page', 'cursor']),
        async (which, id, q) => {
          const url =
            id === undefined
              ? `/v1/transparency/${which}?${q}`
              : `/v1/transparency/${which}/${encodeURIComponent(id.toWellFormed())}`
          const response = await ask(url)
          if (response.statusCode === 404 && id === '') return // the list's path without a slash
          checkPublic(url, response)
        },
      ),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('helpers and unknown paths answer in the envelope', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('helpers/bidding-modalities', 'helpers/bidding-statuses', 'helpers/nada', 'x', ''),
        query(['foo']),
        async (path, q) => {
          const url = `/v1/transparency/${path}?${q}`
          checkPublic(url, await ask(url))
        },
      ),
      { seed: SEED, numRuns: RUNS },
    )
  })

  const ORDER_ANSWERS = new Map([
    [200, ['Ordem recuperada com sucesso']],
    [401, ['Unauthorized']],
    [429, ['Too Many Requests']],
    [500, ['Número da ordem é obrigatório', 'Ordem não encontrada']],
  ])
  async function checkOrder(url: string, headers: Record<string, string>) {
    const response = await ask(url, headers)
    const body = response.json()
    assert.deepEqual(Object.keys(body), ['message', 'data'], url)
    assert.ok(
      ORDER_ANSWERS.get(response.statusCode)?.includes(body.message),
      `${url}: ${response.statusCode} ${response.body}`,
    )
    if (response.statusCode !== 200) assert.deepEqual(body.data, [])
    assert.doesNotMatch(response.body, STACK_OR_SQL, url)
  }
  /** A header value as a client can send it (printable ASCII). */
  const headerValue = (v: string) => v.replace(/[^\x20-\x7e]/g, '')

  it('order query: every hostile order number and token answers only the spec answers', async () => {
    for (const v of HOSTILE)
      for (const headers of [{}, { authorization: token }, { authorization: headerValue(v) }] as Record<
        string,
        string
      >[])
        await checkOrder(`/external/orders?order_number=${encodeURIComponent(v.toWellFormed())}`, headers)
  })

  it('order query: any query string, with or without a token, answers only the spec answers', async () => {
    await fc.assert(
      fc.asyncProperty(
        query(['order_number']),
        fc.oneof(fc.constant<string | undefined>(undefined), fc.constant('valid'), value.map(headerValue)),
        async (q, authorization) => {
          const headers: Record<string, string> =
            authorization === undefined
              ? {}
              : { authorization: authorization === 'valid' ? token : authorization }
          await checkOrder(`/external/orders?${q}`, headers)
        },
      ),
      { seed: SEED, numRuns: RUNS * 2 },
    )
  })

  it('logged every request, and no whole CPF, during the fuzz', () => {
    const log = logged.join('')
    assert.ok(logged.length > 100, `${logged.length} log lines`)
    for (const cpf of cpfs) assert.ok(!log.includes(cpf), `CPF ${cpf.slice(3, 9)} in the log`)
  })

  it('leaves no connection busy or waiting once the fuzz is over', async () => {
    // Settled, not at one instant: the access log's batch (written every second) may be on its way, and
    // PostgreSQL's autovacuum, which the fuzz's writes wake, is no connection of ours. A stuck query stays.
    await eventually(async () => {
      const { rows } = await db.pool.query<{ query: string }>(
        `SELECT query FROM pg_stat_activity WHERE datname = current_database() AND state = 'active'
         AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      )
      assert.deepEqual(
        rows.map((row) => row.query),
        [],
      )
      assert.equal(db.pool.waitingCount, 0)
    })
  })
})
