import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import type { DemoRecord } from '../../src/demo/generator.js'
import { cnpjFrom } from '../../src/demo/tax-ids.js'
import { importRecords } from '../../src/import/importer.js'
import { CARDINAL_MAX } from '../../src/indicators/flags.js'
import { DIRECT_AWARD_LIMITS } from '../../src/indicators/limits.js'
import { projectIndicators } from '../../src/indicators/project.js'
import { serving } from '../helpers/app.js'
import { createTestDatabase, seededDatabase, type TestDatabase } from '../helpers/db.js'
import {
  call,
  contract,
  direct,
  order,
  org,
  type Supplier,
  supplier,
  term,
  uuid,
} from '../helpers/indicator-records.js'
import { ndjson, source } from '../helpers/records.js'

// The integrity indicators' rules said as arithmetic (fast-check), each against the same rule worked out in
// integers here; and the flags an import leaves, over any sequence of imports, equal to those computed from
// scratch (src/indicators/project.ts computes only what an import touched). docs/indicators.md gives the rules.

const [X, Y, Z] = [1, 2, 3].map((n) => supplier(n)) as [Supplier, Supplier, Supplier]
const SUPPLIERS = [X, Y, Z]
const cents = (text: string) => Math.round(Number(text) * 100)
const reais = (n: number) => (n / 100).toFixed(2)
/** Noon in Brasília on the nth day of a year. */
const noon = (year: number, day: number) => new Date(Date.UTC(year, 0, 1 + day, 15)).toISOString()

describe('the integrity rules, as arithmetic', () => {
  let db: TestDatabase
  // Each run is a new organization, so that its flags are its own.
  let next = 100
  const fresh = () => org(next++)
  const load = async (records: readonly DemoRecord[]) => {
    const result = await importRecords(db.pool, [source(ndjson(records))])
    assert.equal(result.ok, true, JSON.stringify(result.problems))
  }
  const flagsOf = async (organization: DemoRecord, code: string) =>
    (
      await db.pool.query<{
        supplier_ids: string[]
        figures: Record<string, string | number>
        records: { id: string }[]
      }>(
        `SELECT supplier_ids::text[] AS supplier_ids, figures, records FROM integrity_flags WHERE organization_id = $1 AND code = $2 ORDER BY key`,
        [organization.uuid, code],
      )
    ).rows
  const supplierIds = async () =>
    new Map(
      (
        await db.pool.query<{ id: string; document: string }>(
          'SELECT id::text AS id, document FROM suppliers',
        )
      ).rows.map((r) => [r.document, r.id]),
    )

  before(async () => {
    db = await createTestDatabase()
  })
  after(async () => {
    await db?.drop()
  })

  it('R011: a supplier whose direct contracts by value, each at most the limit, add up past it in a year', async () => {
    const cases = fc.record({
      limits: fc.constantFrom(...DIRECT_AWARD_LIMITS.filter((l) => l.year > 2021)),
      contracts: fc.array(
        fc.record({
          // Shares of the limit: several add up near it; some are past it alone.
          share: fc.oneof(
            fc.double({ min: 0.2, max: 0.6, noNaN: true }),
            fc.double({ min: 0.95, max: 1.05, noNaN: true }),
          ),
          who: fc.nat({ max: 1 }),
        }),
        { minLength: 1, maxLength: 5 },
      ),
    })
    await fc.assert(
      fc.asyncProperty(cases, async ({ limits, contracts }) => {
        const organization = fresh()
        const cap = cents(limits.other)
        const values = contracts.map((c) => Math.max(1, Math.round(cap * c.share)))
        await load([
          organization,
          ...contracts.map((c, k) =>
            direct(organization, reais(values[k] as number), noon(limits.year, 10 * k + 1), [
              SUPPLIERS[c.who] as Supplier,
            ]),
          ),
        ])
        const ids = await supplierIds()
        const expected = [0, 1].flatMap((who) => {
          const within = values.filter((v, k) => contracts[k]?.who === who && v <= cap)
          const total = within.reduce((a, b) => a + b, 0)
          return within.length >= 2 && total > cap
            ? [[ids.get((SUPPLIERS[who] as Supplier).document), reais(total), within.length]]
            : []
        })
        const found = (await flagsOf(organization, 'R011')).map((f) => [
          f.supplier_ids[0],
          f.figures.total,
          f.figures.count,
        ])
        assert.deepEqual(found.sort(), expected.sort(), `${values.join(', ')} of ${cap}`)
      }),
      { numRuns: 15, seed: 11 },
    )
  })

  it('BR-ADITIVO-25: additive terms that add more than 25% of the value, 50% for a reform, in cents', async () => {
    const cases = fc.record({
      amount: fc.integer({ min: 100, max: 100_000_000 }),
      // The additions' share of the value, near both limits, split among the terms.
      share: fc.oneof(
        fc.double({ min: 0.24, max: 0.26, noNaN: true }),
        fc.double({ min: 0.49, max: 0.51, noNaN: true }),
      ),
      terms: fc.integer({ min: 1, max: 3 }),
      empty: fc.boolean(),
      reform: fc.boolean(),
    })
    await fc.assert(
      fc.asyncProperty(cases, async ({ amount, share, terms, empty, reform }) => {
        const organization = fresh()
        const added = Math.max(terms, Math.round(amount * share))
        const parts = Array.from(
          { length: terms },
          (_, k) => Math.floor(added / terms) + (k < added % terms ? 1 : 0),
        )
        const written = parts.map((part, k) =>
          term(reais(part), reform && k === 0 ? 'Reforma do edifício' : 'Acréscimo'),
        )
        // A term without a value (an apostille) counts for nothing.
        if (empty) written.push(term(null, 'Apostilamento'))
        const record = contract(organization, reais(amount), '2025-02-01', X, { terms: written })
        await load([organization, record])
        // A share of the value in cents, half up: a quarter is (amount + 2) / 4, a half (amount + 1) / 2.
        const allowed = reform ? Math.floor((amount + 1) / 2) : Math.floor((amount + 2) / 4)
        const found = await flagsOf(organization, 'BR-ADITIVO-25')
        assert.equal(found.length === 1, added > allowed, `${added} added to ${amount} (reform ${reform})`)
        if (found.length === 1) assert.equal(found[0]?.figures.added, reais(added))
      }),
      { numRuns: 15, seed: 25 },
    )
  })

  it('BR-PRAZO-PROPOSTA: fewer working days from the opening to the closing than art. 55 asks', async () => {
    const cases = fc.record({
      day: fc.integer({ min: 0, max: 330 }),
      length: fc.integer({ min: 0, max: 60 }),
      technique: fc.boolean(),
    })
    await fc.assert(
      fc.asyncProperty(cases, async ({ day, length, technique }) => {
        const organization = fresh()
        // 09:00 and 17:00 in Brasília: the days are the same there and in UTC.
        const opening = new Date(Date.UTC(2025, 0, 1 + day, 12))
        const closing = new Date(Date.UTC(2025, 0, 1 + day + length, 20))
        await load([
          organization,
          call(organization, [X, Y], {
            opening_date: opening.toISOString(),
            closing_date: closing.toISOString(),
            judgment_criteria: technique ? 'Técnica e preço' : 'Menor preço',
          }),
        ])
        let working = 0
        for (let k = 1; k <= length; k++) {
          const weekday = new Date(opening.getTime() + k * 86_400_000).getUTCDay()
          if (weekday !== 0 && weekday !== 6) working++
        }
        const found = await flagsOf(organization, 'BR-PRAZO-PROPOSTA')
        assert.equal(found.length === 1, working < (technique ? 35 : 8), `${working} working days`)
        if (found.length === 1) assert.equal(found[0]?.figures.working_days, working)
      }),
      { numRuns: 15, seed: 55 },
    )
  })

  it("R050: a supplier with more than half of an organization's year, of five commitments or more", async () => {
    const cases = fc.array(
      fc.record({ value: fc.integer({ min: 1, max: 1_000_000 }), who: fc.nat({ max: 2 }) }),
      { minLength: 3, maxLength: 8 },
    )
    await fc.assert(
      fc.asyncProperty(cases, async (commitments) => {
        const organization = fresh()
        await load([
          organization,
          ...commitments.map((c, k) =>
            contract(
              organization,
              reais(c.value),
              `2025-03-${String(k + 1).padStart(2, '0')}`,
              SUPPLIERS[c.who] as Supplier,
            ),
          ),
        ])
        const total = commitments.reduce((a, c) => a + c.value, 0)
        const ids = await supplierIds()
        const expected = [0, 1, 2].flatMap((who) => {
          const own = commitments.filter((c) => c.who === who).reduce((a, c) => a + c.value, 0)
          return commitments.length >= 5 && 2 * own > total
            ? [ids.get((SUPPLIERS[who] as Supplier).document)]
            : []
        })
        const found = (await flagsOf(organization, 'R050')).map((f) => f.supplier_ids[0])
        assert.deepEqual(found, expected)
      }),
      { numRuns: 15, seed: 50 },
    )
  })

  it("R017: a price above its description's Q3 + 1.5 × IQR, quartiles interpolated, among ten or more", async () => {
    const cases = fc.array(
      fc.oneof(fc.integer({ min: 100, max: 200 }), fc.integer({ min: 150, max: 1_000 })),
      { minLength: 8, maxLength: 14 },
    )
    let description = 0
    await fc.assert(
      fc.asyncProperty(cases, async (prices) => {
        const organization = fresh()
        const name = `Item da propriedade ${++description}`
        await load([
          organization,
          ...prices.map((p, k) => order(organization, name, 'UN', p / 100, SUPPLIERS[k % 3] as Supplier)),
        ])
        // Quartiles in quarter cents: the rank (n − 1) × p falls on a quarter; the fence (5 Q3 − 3 Q1) / 2 in
        // eighth cents, exactly as the decimals give it.
        const sorted = [...prices].sort((a, b) => a - b)
        const quarter = (q: number) => {
          const rank = (sorted.length - 1) * q
          const low = Math.floor(rank)
          const part = Math.round((rank - low) * 4)
          const a = sorted[low] as number
          return 4 * a + part * ((sorted[low + 1] ?? a) - a)
        }
        const fence = 5 * quarter(0.75) - 3 * quarter(0.25)
        const expected = sorted.length >= 10 ? prices.filter((p) => 8 * p > fence).sort((a, b) => a - b) : []
        const found = (await flagsOf(organization, 'R017'))
          .map((f) => cents(f.figures.amount as string))
          .sort((a, b) => a - b)
        assert.deepEqual(found, expected, `${sorted.join(' ')}: fence ${fence / 800}`)
        if (found.length > 0)
          assert.equal(
            cents((await flagsOf(organization, 'R017'))[0]?.figures.fence as string),
            Math.round(fence / 8),
          )
      }),
      { numRuns: 20, seed: 17 },
    )
  })
})

describe('the flags an import leaves, over any imports, equal the flags computed from scratch', () => {
  let db: TestDatabase
  before(async () => {
    db = await createTestDatabase()
  })
  after(async () => {
    await db?.drop()
  })

  /** What the indicators keep, as text to compare: flags, organizations' years, commitments, fences. */
  const kept = async (client: { query: typeof db.pool.query }) => {
    const rows = async (sql: string) => (await client.query(sql)).rows.map((row) => JSON.stringify(row))
    return {
      flags: await rows('SELECT * FROM integrity_flags ORDER BY key'),
      years: await rows('SELECT * FROM integrity_organization_years ORDER BY organization_id, year'),
      commitments: await rows(
        'SELECT kind, organization_id, ref, supplier_id, year, value::text, modality_id FROM integrity_commitments ORDER BY 1, 2, 3, 4',
      ),
      fences: await rows('SELECT * FROM price_fences ORDER BY description_id, unit'),
    }
  }

  const year = fc.constantFrom(2024, 2025)
  const who = fc.nat({ max: 2 }).map((n) => SUPPLIERS[n] as Supplier)
  // Each step writes or withdraws a record of a small pool, so that steps change and relink the same records.
  const step = fc.oneof(
    fc.record({
      kind: fc.constant('direct' as const),
      i: fc.nat({ max: 3 }),
      share: fc.double({ min: 0.3, max: 1.02, noNaN: true }),
      year,
      day: fc.nat({ max: 300 }),
      providers: fc.uniqueArray(who, { minLength: 1, maxLength: 2, selector: (s) => s.document }),
      works: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('contract' as const),
      i: fc.nat({ max: 2 }),
      amount: fc.integer({ min: 1_000, max: 5_000_000 }),
      year,
      who,
      added: fc.option(fc.double({ min: 0.1, max: 0.6, noNaN: true })),
      // Carries direct contract i (when stored, in its organization), so that it is not a commitment of its own.
      carries: fc.option(fc.nat({ max: 3 })),
    }),
    fc.record({
      kind: fc.constant('order' as const),
      i: fc.nat({ max: 7 }),
      prices: fc.array(fc.oneof(fc.integer({ min: 100, max: 300 }), fc.integer({ min: 300, max: 2_000 })), {
        minLength: 1,
        maxLength: 3,
      }),
      description: fc.nat({ max: 1 }),
      year,
      who,
      // Under contract i (when stored, in its organization).
      under: fc.option(fc.nat({ max: 2 })),
    }),
    fc.record({
      kind: fc.constant('withdraw' as const),
      what: fc.constantFrom('direct', 'contract', 'order'),
      i: fc.nat({ max: 7 }),
    }),
  )

  type Step = typeof step extends fc.Arbitrary<infer T> ? T : never

  it('gives the same flags, years, commitments and fences as computing every one again', async () => {
    // Each run is a world of its own: two organizations and their records, under ids no other run has, so that a
    // counterexample replays alone (the comparisons between organizations see every world, as they should).
    let world = 0
    let organizations: DemoRecord[] = []
    let stored = { direct: new Set<number>(), contract: new Set<number>(), order: new Set<number>() }
    const owner = (i: number) => organizations[i % 2] as DemoRecord
    const directId = (i: number) => uuid('d6', world * 10 + i)
    const contractId = (i: number) => uuid('c6', world * 10 + i)
    const contractNumber = (i: number) => `CP ${i}/2024`
    const record = (s: Exclude<Step, { kind: 'withdraw' }>): DemoRecord => {
      switch (s.kind) {
        case 'direct': {
          const cap = cents(
            (DIRECT_AWARD_LIMITS.find((l) => l.year === s.year) ?? DIRECT_AWARD_LIMITS[0])?.[
              s.works ? 'works' : 'other'
            ] as string,
          )
          return direct(owner(s.i), reais(Math.round(cap * s.share)), noon(s.year, s.day), s.providers, {
            id: directId(s.i),
            number: `DP ${s.i}/2024`,
            legal_basis: `Lei 14.133/2021, Art. 75, ${s.works ? 'I' : 'II'}`,
          })
        }
        case 'contract':
          return contract(owner(s.i), reais(s.amount), `${s.year}-05-0${s.i + 1}`, s.who, {
            id: contractId(s.i),
            contract_number: contractNumber(s.i),
            bidding_uuid:
              s.carries !== null && stored.direct.has(s.carries) && s.carries % 2 === s.i % 2
                ? directId(s.carries)
                : null,
            terms: s.added === null ? [] : [term(reais(Math.round(s.amount * s.added)))],
          })
        case 'order': {
          const linked = s.under !== null && stored.contract.has(s.under) && s.under % 2 === s.i % 2
          const base = order(owner(s.i), '', 'UN', 0, s.who, `${s.year}-06-01T12:00:00.000000Z`, {
            number: `OP ${s.i}/2024`,
            contract_number: linked ? contractNumber(s.under as number) : null,
          })
          const items = s.prices.map((p, k) => ({
            number_item: String(k + 1),
            description: `Material ${s.description === 0 ? 'de limpeza' : 'de escritório'}`,
            brand: 'Marca',
            unit_measurement: k % 2 === 0 ? 'UN' : 'Unidade',
            quantity: 1,
            amount: p / 100,
            amount_total: p / 100,
          }))
          return { ...base, items, amount_total: Number(reais(s.prices.reduce((a, b) => a + b, 0))) }
        }
      }
    }
    const withdrawal = (what: 'direct' | 'contract' | 'order', i: number) =>
      what === 'order'
        ? { type: 'withdraw', record: 'order', organization_uuid: owner(i).uuid, number: `OP ${i}/2024` }
        : {
            type: 'withdraw',
            record: what === 'direct' ? 'direct_contract' : 'contract',
            organization_uuid: owner(i).uuid,
            id: what === 'direct' ? directId(i) : contractId(i),
          }
    const run = async (steps: readonly Step[]) => {
      world++
      organizations = [0, 1].map((k) => ({
        type: 'organization',
        uuid: uuid('0b', 2 * world + k),
        name: `Órgão do mundo ${world}`,
        document: cnpjFrom([
          9,
          8,
          ...String(2 * world + k)
            .padStart(6, '0')
            .split('')
            .map(Number),
          0,
          0,
          0,
          1,
        ]),
      }))
      stored = { direct: new Set(), contract: new Set(), order: new Set() }
      // What an earlier run may have left wrong is computed again, so that each run starts from flags as they
      // should be.
      const healing = await db.pool.connect()
      try {
        await healing.query('BEGIN')
        await projectIndicators(healing, 'all')
        await healing.query('COMMIT')
      } finally {
        healing.release()
      }
      const setUp = await importRecords(db.pool, [source(ndjson(organizations))])
      assert.equal(setUp.ok, true, JSON.stringify(setUp.problems))
      for (const s of steps) {
        const line = s.kind === 'withdraw' ? withdrawal(s.what, s.i) : record(s)
        const result = await importRecords(db.pool, [source(ndjson([line]))])
        // Every record is one the import takes; a withdrawal of what is not stored, or still linked to, is
        // refused and writes nothing.
        if (s.kind !== 'withdraw') assert.equal(result.ok, true, JSON.stringify(result.problems))
        if (result.ok) {
          const set = s.kind === 'withdraw' ? stored[s.what] : stored[s.kind]
          if (s.kind === 'withdraw') set.delete(s.i)
          else set.add(s.i)
        }
        const incremental = await kept(db.pool)
        const client = await db.pool.connect()
        try {
          await client.query('BEGIN')
          await projectIndicators(client, 'all')
          assert.deepEqual(incremental, await kept(client as never), JSON.stringify(s))
        } finally {
          await client.query('ROLLBACK')
          client.release()
        }
      }
    }
    // Two direct contracts of one supplier adding up past the limit (R011), one carried by a contract (no
    // commitment of its own), which then moves to another year: only R011's flag tells the year it left.
    const carried: Step[] = [
      { kind: 'direct', i: 0, share: 0.6, year: 2025, day: 10, providers: [X], works: false },
      { kind: 'direct', i: 2, share: 0.6, year: 2025, day: 20, providers: [X], works: false },
      { kind: 'contract', i: 0, amount: 100_000, year: 2025, who: X, added: null, carries: 0 },
      { kind: 'direct', i: 0, share: 0.6, year: 2024, day: 10, providers: [X], works: false },
    ]
    const prices = (i: number, amounts: number[], under: number | null = null): Step => ({
      kind: 'order',
      i,
      prices: amounts,
      description: 0,
      year: 2025,
      who: Y,
      under,
    })
    // Twelve prices, 100 to 200 and 260 under the fence of 265; an order withdrawn leaves nine, too few to fence
    // (its rows go by cascade).
    const withdrawn: Step[] = [
      prices(0, [100, 110, 120]),
      prices(2, [130, 140, 150]),
      prices(4, [160, 170, 180]),
      prices(6, [190, 200, 260]),
      { kind: 'withdraw', what: 'order', i: 0 },
    ]
    // A price far above eleven others, its order then placed under a contract with the same prices: the flag
    // names the contract.
    const relinked: Step[] = [
      { kind: 'contract', i: 0, amount: 100_000, year: 2025, who: Y, added: null, carries: null },
      prices(0, [100, 100, 100]),
      prices(2, [100, 100, 100]),
      prices(4, [100, 100, 100]),
      prices(6, [100, 100, 900]),
      prices(6, [100, 100, 900], 0),
    ]
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => run(steps)),
      { numRuns: 10, seed: 69, examples: [[carried], [withdrawn], [relinked]] },
    )
  })
})

describe('flags past what one answer shows', () => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof serving>>
  const organization = org(70)
  const many = contract(organization, '1000.00', '2025-01-02', X)
  const flagged = `contracts/${many.id}`
  before(async () => {
    db = await seededDatabase([organization, many])
    // One flag more than an answer of Cardinal's shape may hold, written as the projection writes them; twelve
    // of them name one contract.
    await db.pool.query(
      `INSERT INTO integrity_flags (key, code, organization_id, year, records, figures)
       SELECT 'R018:' || gen_random_uuid(), 'R018', $1, 2025,
         CASE WHEN n <= 12 THEN jsonb_build_array(jsonb_build_object('resource', 'contracts', 'id', $3::text))
              ELSE '[]' END,
         '{"value": "1.00", "items": 2}'
       FROM generate_series(1, $2::int) n`,
      [organization.uuid, CARDINAL_MAX + 1, many.id],
    )
    server = await serving(db)
  })
  after(async () => {
    await server?.close()
    await db?.drop()
  })

  it("refuses Cardinal's shape past 50,000 flags with a 422 that asks for filters", async () => {
    const response = await fetch(`${server.base}/v1/transparency/indicators?format=cardinal`)
    assert.equal(response.status, 422)
    assert.deepEqual(await response.json(), {
      success: false,
      message: 'Mais de 50.000 sinais para o formato cardinal: filtre por ano, código ou órgão.',
    })
    const within = await fetch(`${server.base}/v1/transparency/indicators?format=cardinal&record=${flagged}`)
    assert.equal(within.status, 200)
  })

  it("shows ten of a record's flags on its page and leads to them all, counted", async () => {
    const html = await (await fetch(`${server.base}/contratos/${many.id}`)).text()
    const box = html.slice(html.indexOf('id="sinais-de-alerta"'))
    assert.equal((box.slice(0, box.indexOf('</section>')).match(/<li>/g) ?? []).length, 10)
    assert.ok(html.includes(`href="/indicadores?record=${encodeURIComponent(flagged)}"`))
    assert.ok(html.includes('Ver os 12 sinais deste registro'))
    const list = await (
      await fetch(`${server.base}/indicadores?record=${encodeURIComponent(flagged)}`)
    ).text()
    assert.ok(list.includes('<h2 id="sinais">Sinais (12)</h2>'))
    assert.ok(list.includes(`<input type="hidden" name="record" value="${flagged}"/>`))
    const summary = (await (
      await fetch(`${server.base}/v1/transparency/indicators/summary?record=${flagged}`)
    ).json()) as { data: { total: number } }
    assert.equal(summary.data.total, 12)
  })
})
