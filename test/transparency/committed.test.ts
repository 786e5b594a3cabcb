import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DemoRecord } from '../../src/demo/generator.js'
import { cnpjFrom, cpfFrom } from '../../src/demo/tax-ids.js'
import { serving } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, first, TINY } from '../helpers/records.js'

// Value committed to a supplier, each real once (issue 66, point 6): an order under a contract of the same
// supplier is the contract's, a direct contract a contract carries is the contract's, an ARP's registered value
// is a ceiling and never added. Worked out by hand over records chosen so that a naive sum counts money twice.

const demo = demoRecords(TINY, 9)
const [orgA, orgB] = demo.filter((r) => r.type === 'organization') as [DemoRecord, DemoRecord]
const x = { document: cnpjFrom([1, 1, 2, 2, 3, 3, 4, 4, 0, 0, 0, 1]), name: 'Xavier Suprimentos Ltda' }
const y = { document: cnpjFrom([5, 5, 6, 6, 7, 7, 8, 8, 0, 0, 0, 1]), name: 'Ypsilon Serviços S.A.' }
const person = { document: cpfFrom([2, 2, 2, 5, 5, 5, 8, 8, 8]), name: 'João Pereira' }

const contractOf = (
  id: string,
  org: DemoRecord,
  number: string,
  amount: string,
  bidding: string | null = null,
): DemoRecord => ({
  ...first(demo, 'contract'),
  id,
  organization_uuid: org.uuid,
  contract_number: number,
  bidding_uuid: bidding,
  arp_number: null,
  provider_document: x.document,
  provider_company_name: x.name,
  amount_total: amount,
  date_start: '2025-02-01',
  terms: [],
})

const directOf = (
  id: string,
  org: DemoRecord,
  number: string,
  total: string,
  finish: string | null,
  providers: { document: string; name: string }[],
): DemoRecord => ({
  ...first(demo, 'direct_contract'),
  id,
  organization_uuid: org.uuid,
  number,
  opening_date: '2025-03-01T12:00:00.000000Z',
  sum_amount_total: total,
  sum_amount_total_finish: finish,
  providers: providers.map((p) => ({ name: p.name, document: p.document, representative_name: null })),
})

const orderOf = (
  number: string,
  org: DemoRecord,
  supplier: { document: string; name: string },
  amount: number,
  under: { contract?: string; arp?: string } = {},
): DemoRecord => ({
  ...first(demo, 'order'),
  organization_uuid: org.uuid,
  number,
  provider_name: supplier.name,
  provider_document: supplier.document,
  contract_number: under.contract ?? null,
  arp_number: under.arp ?? null,
  deadline_delivery: '2025-04-10T12:00:00.000000Z',
  amount_total: amount,
  items: [
    {
      number_item: '1',
      description: 'Cadeira giratória',
      brand: 'Marca',
      unit_measurement: 'UN',
      quantity: 1,
      amount,
      amount_total: amount,
    },
  ],
})

const D2 = 'dc000000-0000-4000-8000-000000000002'
const records: DemoRecord[] = [
  ...demo.filter((r) => r.type === 'organization'),
  // A: X's contract C1 (5,000), an order under it (1,000: C1's), an order under nothing (137), and Y's order
  // naming C1, a contract that is not Y's (70: Y's own commitment).
  contractOf('c1000000-0000-4000-8000-000000000001', orgA, 'C1/2025', '5000.00'),
  orderOf('O1/2025', orgA, x, 1000, { contract: 'C1/2025' }),
  orderOf('O2/2025', orgA, x, 137),
  orderOf('O5/2025', orgA, y, 70, { contract: 'C1/2025' }),
  // B: X's direct contract D1 (800, no contract carries it); D2 of X and Y (finished at 1,500) carried by X's
  // contract C2 (1,500): X's commitment is C2, Y's is D2; X's ARP A1 (10,000, a ceiling) with an order (300);
  // a person's order (50).
  directOf('dc000000-0000-4000-8000-000000000001', orgB, 'DISP 1/2025', '800.00', null, [x]),
  directOf(D2, orgB, 'DISP 2/2025', '2000.00', '1500.00', [x, y]),
  contractOf('c2000000-0000-4000-8000-000000000002', orgB, 'C2/2025', '1500.00', D2),
  {
    ...first(demo, 'arp'),
    id: 'a1000000-0000-4000-8000-000000000001',
    organization_uuid: orgB.uuid,
    bidding_uuid: null,
    number: 'A1/2025',
    amount_total: '10000.00',
    provider_document: x.document,
    provider_company_name: x.name,
    date_signature: '2025-01-15',
    terms: [],
  },
  orderOf('O3/2025', orgB, x, 300, { arp: 'A1/2025' }),
  orderOf('O4/2025', orgB, person, 50),
]

describe('value committed, each real once', () => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof serving>>
  const get = async (path: string) => {
    const response = await fetch(server.base + path)
    assert.equal(response.status, 200, path)
    // biome-ignore lint/suspicious/noExplicitAny: answers read as JSON, checked field by field
    return ((await response.json()) as { data: Record<string, any> }).data
  }

  before(async () => {
    db = await seededDatabase(records)
    server = await serving(db)
  })
  after(async () => {
    await server.close()
    await db.drop()
  })

  it("adds up a supplier's commitments once: contracts, direct contracts and orders no contract of its carries", async () => {
    const page = await get(`/v1/transparency/suppliers/${x.document}`)
    // C1 5,000 + O2 137 + D1 800 + C2 1,500 + O3 300. Not O1 (C1's), not D2 (C2's), never A1's 10,000.
    assert.deepEqual(page.totals.committed, {
      count: 5,
      value: '7737.00',
      first: '2025-02-01',
      last: '2025-04-10',
    })
    // The kinds stay as they are, overlapping: every order, every contract, the ARP's ceiling.
    assert.equal(page.totals.orders.value, '1437.00')
    assert.equal(page.totals.arps.value, '10000.00')
    assert.deepEqual(
      page.years.map((year: { year: number; committed: { value: string } }) => [
        year.year,
        year.committed.value,
      ]),
      [[2025, '7737.00']],
    )
    assert.deepEqual(
      Object.fromEntries(
        page.organizations.map((o: { organization_uuid: string; committed: { value: string } }) => [
          o.organization_uuid,
          o.committed.value,
        ]),
      ),
      { [orgA.uuid as string]: '5137.00', [orgB.uuid as string]: '2600.00' },
    )
    // Y: D2 at its finished total (no contract of Y's carries it), and its order naming X's contract.
    const other = await get(`/v1/transparency/suppliers/${y.document}`)
    assert.deepEqual(other.totals.committed, {
      count: 2,
      value: '1570.00',
      first: '2025-03-01',
      last: '2025-04-10',
    })
  })

  it("adds up an organization's commitments once, and ranks its suppliers by them", async () => {
    const b = await get(`/v1/transparency/organizations/${orgB.uuid}`)
    // C2 1,500 + D1 800 + O3 300 + O4 50: D2 once, carried by C2.
    assert.equal(b.totals.committed.value, '2650.00')
    assert.deepEqual(b.top_suppliers, [
      {
        document: x.document,
        name: x.name,
        company: true,
        contracts: 1,
        direct_contracts: 1,
        orders: 1,
        value: '2600.00',
      },
      {
        document: y.document,
        name: y.name,
        company: true,
        contracts: 0,
        direct_contracts: 1,
        orders: 0,
        value: '1500.00',
      },
      {
        document: `***.${person.document.slice(3, 6)}.${person.document.slice(6, 9)}-**`,
        name: person.name,
        company: false,
        contracts: 0,
        direct_contracts: 0,
        orders: 1,
        value: '50.00',
      },
    ])
    const a = await get(`/v1/transparency/organizations/${orgA.uuid}`)
    assert.equal(a.totals.committed.value, '5207.00')
    assert.deepEqual(
      a.top_suppliers.map((s: { document: string; value: string }) => [s.document, s.value]),
      [
        [x.document, '5137.00'],
        [y.document, '70.00'],
      ],
    )
  })

  it('shows the committed value on the portal, the ARP apart', async () => {
    const supplier = await (await fetch(`${server.base}/fornecedores/${x.document}`)).text()
    assert.match(supplier, /Valor comprometido: <strong class="money">R\$ 7\.737,00<\/strong>/)
    assert.match(supplier, /\(teto registrado\)/)
    const organ = await (await fetch(`${server.base}/orgaos/${orgB.uuid}`)).text()
    const ranked = [...organ.matchAll(/<li><a href="\/fornecedores\/(\d{14})"/g)].map((m) => m[1])
    assert.deepEqual(ranked, [x.document, y.document])
    assert.match(organ, /R\$ 2\.600,00; 1 contrato, 1 contratação direta, 1 ordem fora de contrato/)
  })

  it('finds a supplier by its name or CNPJ on the portal, and by its CNPJ written whole on the API', async () => {
    const formatted = `${x.document.slice(0, 2)}.${x.document.slice(2, 5)}.${x.document.slice(5, 8)}/${x.document.slice(8, 12)}-${x.document.slice(12)}`
    const api = await get(`/v1/transparency/suppliers/${formatted}`)
    assert.equal(api.document, x.document)
    const empty = await fetch(`${server.base}/fornecedores`)
    assert.equal(empty.status, 200)
    assert.match(await empty.text(), /<label for="f-q">Nome ou CNPJ do fornecedor<\/label>/)
    for (const q of ['xavier', encodeURIComponent(formatted)]) {
      const found = await (await fetch(`${server.base}/fornecedores?q=${q}`)).text()
      assert.match(found, new RegExp(`<a href="/fornecedores/${x.document}">${x.name}</a>`), q)
      assert.ok(!found.includes(y.name), q)
    }
    // A person is never listed, nor found by a CPF.
    const people = await (await fetch(`${server.base}/fornecedores?q=${person.document}`)).text()
    assert.match(people, /Nenhum fornecedor encontrado/)
    const short = await fetch(`${server.base}/fornecedores?q=xa`)
    assert.equal(short.status, 422)
    // The supplier's page leads back to the search, and a CNPJ written whole finds it.
    const page = await (await fetch(`${server.base}/fornecedores/${x.document}`)).text()
    assert.match(page, /<a href="\/fornecedores">Fornecedores<\/a>/)
    const whole = await fetch(`${server.base}/fornecedores/${formatted}`, { redirect: 'manual' })
    assert.equal(whole.status, 301)
    assert.equal(whole.headers.get('location'), `/fornecedores/${x.document}`)
  })
})
