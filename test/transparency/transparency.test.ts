import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { gunzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import type { DemoRecord } from '../../src/demo/generator.js'
import { BIDDING_MODALITIES, BIDDING_STATUSES, MANAGEMENT_STATUSES } from '../../src/domain.js'
import { listingSql } from '../../src/listings/listing.js'
import type { AnyField } from '../../src/resources/fields.js'
import { PUBLIC_RESOURCES, type PublicResource } from '../../src/resources/index.js'
import { PNCP_BIDDING_SHOWN, PNCP_SHOWN } from '../../src/resources/pncp.js'
import { buildTestApp } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { demoRecords, first } from '../helpers/records.js'

const CONTRACT_FIELDS = [
  'bidding_uuid',
  'contract_number',
  'object_details',
  'amount_total',
  'provider_company_name',
  'contractor_company_name',
  'managers',
  'inspectors',
  'commitments',
  'bidding_modality',
  'term_title',
  'bidding_number',
  'date_start',
  'date_end',
  'documents',
  'terms',
  'orders',
]
const BIDDING_FIELDS = [
  'number',
  'modality',
  'budget_secret',
  'status',
  'register_price',
  'opening_date',
  'object_details',
  'company_name',
  'electronic_dispute_mode',
  'adjudication_mode',
  'judgment_criteria',
  'competent_authority',
  'agent',
  'type_range_bids',
  'range_bids',
  'sum_amount_total',
  'precision',
  'sum_amount_total_finish',
  'documents',
  'providers',
  'arps',
  'contracts',
]
const ARP_FIELDS = [
  'bidding_uuid',
  'number',
  'object_details',
  'amount_total',
  'company_name',
  'provider_company_name',
  'provider_representative_name',
  'bidding_modality',
  'bidding_number',
  'date_signature',
  'date_expiration',
  'documents',
  'contracts',
  'terms',
  'orders',
]
const MONEY = /^\d+\.\d{2}$/
const DAY = /^\d{4}-\d\d-\d\d$/
const MASKED = /^\*\*\*\.\d{3}\.\d{3}-\*\*$/

const money = (value: unknown) => (value === null ? null : Number(value).toFixed(2))

describe('transparency queries', () => {
  let db: TestDatabase
  let app: FastifyInstance
  const demo = demoRecords(
    { organizations: 3, orders: 60, contracts: 30, arps: 12, directContracts: 9, publicCalls: 12 },
    5,
  )
  const org = first(demo, 'organization')
  // Records made to test search, masking and secrecy.
  const person = { name: 'Maria da Silva', document: '12345678901', representative: 'Maria da Silva' }
  const special: DemoRecord = {
    ...first(demo, 'contract', (r) => r.organization_uuid === org.uuid),
    id: 'aaaaaaaa-0000-4000-8000-000000000001',
    contract_number: 'ESPECIAL/2024',
    object_details: 'Licitação para aquisição de computadores portáteis',
    provider_company_name: person.name,
    provider_document: person.document,
    bidding_uuid: null,
    arp_number: null,
    amount_total: '1234.5',
    date_start: '2024-01-15',
  }
  const secret: DemoRecord = {
    ...first(demo, 'public_call', (r) => r.organization_uuid === org.uuid),
    id: 'aaaaaaaa-0000-4000-8000-000000000002',
    number: 'SIGILOSO 1/2024',
    budget_secret: true,
    sum_amount_total: '999.00',
  }
  // The same person as a public call's provider and as the supplier of orders under a contract and an ARP.
  const contractOfOrg = first(demo, 'contract', (c) => c.organization_uuid === org.uuid)
  const arpOfOrg = first(demo, 'arp', (a) => a.organization_uuid === org.uuid)
  const orderOfOrg = first(demo, 'order', (o) => o.organization_uuid === org.uuid)
  const personAsProvider: DemoRecord = {
    ...secret,
    id: 'aaaaaaaa-0000-4000-8000-000000000003',
    number: 'PESSOA 1/2024',
    budget_secret: false,
    providers: [{ name: person.name, document: person.document, representative_name: null }],
  }
  const personOrders: DemoRecord[] = [
    {
      ...orderOfOrg,
      number: 'PESSOA-C/2024',
      contract_number: contractOfOrg.contract_number,
      arp_number: null,
    },
    { ...orderOfOrg, number: 'PESSOA-A/2024', contract_number: null, arp_number: arpOfOrg.number },
  ].map((order) => ({
    ...order,
    provider_name: person.name,
    provider_document: person.document,
    representative_name: person.representative,
  }))
  const records = [...demo, special, secret, personAsProvider, ...personOrders]
  const ofType = (type: string) => records.filter((r) => r.type === type)
  const cpfs = ofType('contract').flatMap((c) =>
    [...(c.managers as { cpf: string }[]), ...(c.inspectors as { cpf: string }[])].map((p) => p.cpf),
  )

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers })
  const data = async (url: string) => {
    const response = await get(url)
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`)
    const body = response.json()
    assert.equal(body.success, true)
    assert.equal(body.message, 'Dados recuperados com sucesso')
    return body.data
  }
  const failure = async (url: string, status: number, message: string | RegExp) => {
    const response = await get(url)
    assert.equal(response.statusCode, status, response.body)
    const body = response.json()
    assert.deepEqual(Object.keys(body), ['success', 'message'])
    assert.equal(body.success, false)
    if (typeof message === 'string') assert.equal(body.message, message)
    else assert.match(body.message, message)
  }

  before(async () => {
    db = await seededDatabase(records)
    app = await buildTestApp(db)
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  describe('detail', () => {
    it('serves a contract with every field of 2.7 in order, typed, its relations filled', async () => {
      const contract = first(
        records,
        'contract',
        (c) => (c.terms as unknown[]).length > 0 && c.contract_number !== special.contract_number,
      )
      const got = await data(`/v1/transparency/contracts/${contract.id}`)
      assert.deepEqual(Object.keys(got), [...CONTRACT_FIELDS, ...PNCP_SHOWN])
      assert.equal(got.bidding_uuid, contract.bidding_uuid)
      assert.equal(got.contract_number, contract.contract_number)
      assert.equal(got.amount_total, money(contract.amount_total))
      assert.equal(got.provider_company_name, contract.provider_company_name)
      assert.equal(got.contractor_company_name, contract.contractor_company_name)
      assert.equal(got.bidding_modality, contract.bidding_modality)
      assert.equal(got.date_start, contract.date_start)
      assert.equal(got.date_end, contract.date_end)
      assert.deepEqual(got.documents, contract.documents)
      const managers = contract.managers as { role: string; name: string; cpf: string; office: string }[]
      assert.deepEqual(
        got.managers,
        managers.map((m) => ({ ...m, cpf: `***.${m.cpf.slice(3, 6)}.${m.cpf.slice(6, 9)}-**` })),
      )
      for (const p of [...got.managers, ...got.inspectors]) assert.match(p.cpf, MASKED)
      for (const commitment of got.commitments) {
        assert.deepEqual(Object.keys(commitment), [
          'year',
          'number',
          'emission_date',
          'description',
          'value',
          'expense_account_code',
          'expense_account_name',
        ])
        assert.ok(Number.isInteger(commitment.year))
        assert.match(commitment.value, MONEY)
        assert.match(commitment.emission_date, DAY)
      }
      const terms = contract.terms as Record<string, unknown>[]
      assert.equal(got.terms.length, terms.length)
      assert.deepEqual(Object.keys(got.terms[0]), [
        'number',
        'kind',
        'description',
        'signature_date',
        'date_start',
        'date_end',
        'value',
        'documents',
      ])
      assert.deepEqual(got.terms[0].documents, terms[0]?.documents)
      const linked = ofType('order').filter(
        (o) =>
          o.organization_uuid === contract.organization_uuid &&
          o.contract_number === contract.contract_number,
      )
      assert.equal(got.orders.length, linked.length)
      for (const order of got.orders) {
        assert.deepEqual(Object.keys(order), [
          'number',
          'object',
          'status_title',
          'amount_total',
          'deadline_delivery',
          'provider_name',
          'provider_document',
        ])
        assert.match(order.amount_total, MONEY)
        assert.match(order.deadline_delivery, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
      }
    })

    it('serves money with two decimals and masks a supplier that is a person', async () => {
      const got = await data(`/v1/transparency/contracts/${special.id}`)
      assert.equal(got.amount_total, '1234.50')
      const listed = await data(`/v1/transparency/contracts?number=${encodeURIComponent('ESPECIAL/2024')}`)
      assert.equal(listed.total, 1)
      assert.equal(listed.data[0].provider_company_name, person.name)
    })

    for (const [path, type] of [
      ['direct-contracts', 'direct_contract'],
      ['public-calls', 'public_call'],
    ] as const) {
      it(`serves a ${type} with every field of 2.8 in order and its providers, ARPs and contracts`, async () => {
        const bidding = first(records, type, (b) =>
          records.some((r) => r.type === 'contract' && r.bidding_uuid === b.id),
        )
        const got = await data(`/v1/transparency/${path}/${bidding.id}`)
        assert.deepEqual(Object.keys(got), [
          ...BIDDING_FIELDS,
          ...PNCP_SHOWN,
          ...PNCP_BIDDING_SHOWN,
          'items',
          'results',
        ])
        // The platform's own biddings have no PNCP items or results.
        assert.deepEqual([got.items, got.results], [[], []])
        assert.equal(typeof got.budget_secret, 'boolean')
        assert.equal(typeof got.register_price, 'boolean')
        assert.ok(Number.isInteger(got.precision))
        assert.equal(got.modality, bidding.modality)
        assert.equal(got.status, bidding.status)
        assert.equal(got.opening_date, bidding.opening_date)
        assert.equal(got.sum_amount_total, bidding.budget_secret ? null : money(bidding.sum_amount_total))
        assert.equal(got.sum_amount_total_finish, money(bidding.sum_amount_total_finish))
        assert.deepEqual(got.documents, bidding.documents)
        assert.deepEqual(
          got.providers.map((p: { name: string }) => p.name),
          (bidding.providers as { name: string }[]).map((p) => p.name),
        )
        const contracts = ofType('contract').filter((c) => c.bidding_uuid === bidding.id)
        assert.deepEqual(
          got.contracts.map((c: { id: string }) => c.id).sort(),
          contracts.map((c) => c.id).sort(),
        )
        // A summary's id leads to the record.
        const followed = await data(`/v1/transparency/contracts/${got.contracts[0].id}`)
        assert.equal(followed.contract_number, got.contracts[0].contract_number)
        const arps = ofType('arp').filter((a) => a.bidding_uuid === bidding.id)
        assert.equal(got.arps.length, arps.length)
      })
    }

    it('keeps a secret budget secret', async () => {
      const got = await data(`/v1/transparency/public-calls/${secret.id}`)
      assert.equal(got.budget_secret, true)
      assert.equal(got.sum_amount_total, null)
    })

    it('serves an ARP with every field of 2.9 in order, its contracts, terms and orders', async () => {
      const arp = first(records, 'arp', (a) =>
        records.some(
          (r) =>
            r.type === 'order' && r.arp_number === a.number && r.organization_uuid === a.organization_uuid,
        ),
      )
      const got = await data(`/v1/transparency/arps/${arp.id}`)
      assert.deepEqual(Object.keys(got), [...ARP_FIELDS, ...PNCP_SHOWN])
      assert.equal(got.number, arp.number)
      assert.equal(got.amount_total, money(arp.amount_total))
      assert.equal(got.provider_representative_name, arp.provider_representative_name)
      assert.equal(got.date_signature, arp.date_signature)
      const orders = ofType('order').filter(
        (o) => o.arp_number === arp.number && o.organization_uuid === arp.organization_uuid,
      )
      assert.equal(got.orders.length, orders.length)
      const contracts = ofType('contract').filter(
        (c) => c.arp_number === arp.number && c.organization_uuid === arp.organization_uuid,
      )
      assert.equal(got.contracts.length, contracts.length)
    })

    it('never shows a whole CPF, in details or listings with every relation', async () => {
      const bodies: string[] = []
      for (const [path, type] of [
        ['contracts', 'contract'],
        ['direct-contracts', 'direct_contract'],
        ['public-calls', 'public_call'],
        ['arps', 'arp'],
      ] as const)
        for (const record of ofType(type))
          bodies.push((await get(`/v1/transparency/${path}/${record.id}`)).body)
      for (const url of [
        '/v1/transparency/contracts?per_page=100&with_relations=managers,inspectors,commitments,documents,terms,orders',
        '/v1/transparency/direct-contracts?per_page=100&with_relations=documents,providers,arps,contracts',
        '/v1/transparency/public-calls?per_page=100&with_relations=documents,providers,arps,contracts',
        '/v1/transparency/arps?per_page=100&with_relations=documents,terms,orders',
      ])
        bodies.push((await get(url)).body)
      const all = bodies.join('\n')
      const suppliers = records.flatMap((r) => [
        r.provider_document,
        ...((r.providers as { document: string }[] | undefined) ?? []).map((p) => p.document),
      ])
      const personal = [
        ...cpfs,
        ...suppliers.filter((d): d is string => typeof d === 'string' && d.length === 11),
      ]
      assert.ok(personal.includes(person.document))
      for (const cpf of personal) assert.ok(!all.includes(cpf), `CPF ${cpf} leaked`)
      // Each place a person shows up was served, masked.
      const mask = `***.${person.document.slice(3, 6)}.${person.document.slice(6, 9)}-**`
      assert.match(all, /"cpf":"\*\*\*\.\d{3}\.\d{3}-\*\*"/)
      const call = JSON.parse((await get(`/v1/transparency/public-calls/${personAsProvider.id}`)).body).data
      assert.deepEqual(call.providers, [{ name: person.name, document: mask, representative_name: null }])
      for (const [path, id, number] of [
        ['contracts', contractOfOrg.id, 'PESSOA-C/2024'],
        ['arps', arpOfOrg.id, 'PESSOA-A/2024'],
      ]) {
        const owner = JSON.parse((await get(`/v1/transparency/${path}/${id}`)).body).data
        const order = owner.orders.find((o: { number: string }) => o.number === number)
        assert.equal(order.provider_document, mask, `${path}: ${number}`)
      }
    })

    it('answers 400 for a malformed id and 404 for a missing one or another kind', async () => {
      await failure('/v1/transparency/contracts/123', 400, 'Identificador inválido.')
      await failure('/v1/transparency/arps/not-a-uuid', 400, 'Identificador inválido.')
      await failure(
        '/v1/transparency/contracts/00000000-0000-4000-8000-000000000000',
        404,
        'Registro não encontrado.',
      )
      const call = first(records, 'public_call')
      await failure(`/v1/transparency/direct-contracts/${call.id}`, 404, 'Registro não encontrado.')
      await failure('/v1/transparency/nada', 404, 'Rota não encontrada.')
      await failure('/v1/outra', 404, 'Rota não encontrada.')
    })
  })

  describe('listings', () => {
    it('paginates in the spec envelope, 20 by default, newest first and stable across pages', async () => {
      const total = ofType('contract').length
      const page1 = await data('/v1/transparency/contracts')
      assert.deepEqual(Object.keys(page1), [
        'data',
        'current_page',
        'per_page',
        'total',
        'last_page',
        'from',
        'to',
        'next_cursor',
      ])
      assert.equal(page1.per_page, 20)
      assert.equal(page1.total, total)
      assert.equal(page1.last_page, Math.ceil(total / 20))
      assert.equal(page1.from, 1)
      assert.equal(page1.to, 20)
      const seen: { id: string; date_start: string }[] = []
      for (let page = 1; page <= Math.ceil(total / 7); page++) {
        const got = await data(`/v1/transparency/contracts?per_page=7&page=${page}`)
        assert.equal(got.current_page, page)
        assert.equal(got.from, (page - 1) * 7 + 1)
        assert.equal(got.to, (page - 1) * 7 + got.data.length)
        seen.push(...got.data)
      }
      assert.equal(new Set(seen.map((c) => c.id)).size, total)
      const dates = seen.map((c) => c.date_start)
      assert.deepEqual(dates, [...dates].sort().reverse())
      const beyond = await data(`/v1/transparency/contracts?page=${page1.last_page + 1}`)
      assert.deepEqual([beyond.data, beyond.from, beyond.to, beyond.total], [[], null, null, total])
      // The same pages by cursor, from the first page's next_cursor: the same records in the same order.
      const byCursor: { id: string }[] = []
      let next = (await data('/v1/transparency/contracts?per_page=7')).next_cursor as string | null
      byCursor.push(...(await data('/v1/transparency/contracts?per_page=7')).data)
      for (let page = 2; next !== null; page++) {
        const got = await data(`/v1/transparency/contracts?per_page=7&cursor=${next}`)
        assert.equal(got.current_page, page)
        assert.equal(got.from, (page - 1) * 7 + 1)
        byCursor.push(...got.data)
        next = got.next_cursor
      }
      assert.deepEqual(
        byCursor.map((c) => c.id),
        seen.map((c) => c.id),
      )
    })

    it('lists items with their id and organization, the spec fields, and relations only when asked', async () => {
      const plain = await data('/v1/transparency/contracts?per_page=1')
      const item = plain.data[0]
      assert.deepEqual(Object.keys(item), [
        'id',
        'organization_uuid',
        ...CONTRACT_FIELDS.filter(
          (f) => !['managers', 'inspectors', 'commitments', 'documents', 'terms', 'orders'].includes(f),
        ),
        ...PNCP_SHOWN,
        'management_status',
      ])
      const rich = await data('/v1/transparency/contracts?per_page=1&with_relations=documents,orders')
      assert.deepEqual(Object.keys(rich.data[0]).slice(-2), ['documents', 'orders'])
      const arps = await data('/v1/transparency/arps?per_page=2&with_relations=documents,terms,orders')
      assert.deepEqual(Object.keys(arps.data[0]).slice(-3), ['documents', 'terms', 'orders'])
      const calls = await data(
        '/v1/transparency/public-calls?per_page=2&with_relations=providers,contracts,arps,documents',
      )
      assert.deepEqual(Object.keys(calls.data[0]).slice(-4), ['documents', 'providers', 'arps', 'contracts'])
      const direct = await data('/v1/transparency/direct-contracts?per_page=2')
      assert.equal(direct.total, ofType('direct_contract').length)
      assert.ok(!('providers' in direct.data[0]))
    })

    const filterCases: [string, string, (r: DemoRecord) => boolean][] = []
    const contract = first(demo, 'contract', (c) => c.bidding_number !== null)
    filterCases.push(
      [
        'contracts',
        `organization_uuid=${org.uuid}`,
        (r) => r.type === 'contract' && r.organization_uuid === org.uuid,
      ],
      [
        'contracts',
        `number=${encodeURIComponent(contract.contract_number as string)}`,
        (r) => r.type === 'contract' && r.contract_number === contract.contract_number,
      ],
      [
        'contracts',
        `bidding_number=${encodeURIComponent(contract.bidding_number as string)}`,
        (r) => r.type === 'contract' && r.bidding_number === contract.bidding_number,
      ],
      [
        'contracts',
        `modality_id=${BIDDING_MODALITIES.indexOf(contract.bidding_modality as never) + 1}`,
        (r) => r.type === 'contract' && r.bidding_modality === contract.bidding_modality,
      ],
      [
        'contracts',
        `management_status_id=${MANAGEMENT_STATUSES.indexOf(contract.management_status as never) + 1}`,
        (r) => r.type === 'contract' && r.management_status === contract.management_status,
      ],
      [
        'contracts',
        `provider_document=${contract.provider_document}`,
        (r) => r.type === 'contract' && r.provider_document === contract.provider_document,
      ],
      [
        'contracts',
        'date_from=2025-01-01&date_to=2025-06-30',
        (r) =>
          r.type === 'contract' &&
          (r.date_start as string) >= '2025-01-01' &&
          (r.date_start as string) <= '2025-06-30',
      ],
      ['contracts', 'q=licitacao', (r) => r.id === special.id],
      [
        'contracts',
        'q=COMPUTADOR',
        (r) => r.type === 'contract' && /computador/i.test(r.object_details as string),
      ],
      [
        'public-calls',
        `status_id=${BIDDING_STATUSES.indexOf(secret.status as never) + 1}`,
        (r) => r.type === 'public_call' && r.status === secret.status,
      ],
      [
        'public-calls',
        `organization_uuid=${org.uuid}&modality_id=${BIDDING_MODALITIES.indexOf(secret.modality as never) + 1}`,
        (r) => r.type === 'public_call' && r.organization_uuid === org.uuid && r.modality === secret.modality,
      ],
      [
        'direct-contracts',
        'date_from=2025-01-01&date_to=2025-12-31',
        (r) =>
          r.type === 'direct_contract' &&
          r.opening_date !== null &&
          (r.opening_date as string).slice(0, 4) === '2025',
      ],
      [
        'arps',
        `organization_uuid=${org.uuid}&management_status_id=2`,
        (r) => r.type === 'arp' && r.organization_uuid === org.uuid && r.management_status === 'Vigente',
      ],
    )
    const provider = (first(demo, 'public_call').providers as { document: string }[])[0]?.document as string
    filterCases.push([
      'public-calls',
      `provider_document=${provider}`,
      (r) =>
        r.type === 'public_call' &&
        (r.providers as { document: string }[]).some((p) => p.document === provider),
    ])
    for (const [path, query, match] of filterCases) {
      it(`filters ${path} by ${query}, combined with pagination`, async () => {
        const expected = records.filter(match)
        const got = await data(`/v1/transparency/${path}?${query}&per_page=2`)
        assert.equal(got.total, expected.length)
        assert.equal(got.data.length, Math.min(2, expected.length))
        assert.equal(got.last_page, Math.max(1, Math.ceil(expected.length / 2)))
        for (const item of got.data)
          assert.ok(
            expected.some((r) => r.id === item.id),
            `unexpected ${item.id}`,
          )
      })
    }

    // date_to takes its whole day: a filter of one day finds the records of that day, whatever the hour.
    for (const [path, type, field] of [
      ['contracts', 'contract', 'date_start'],
      ['arps', 'arp', 'date_signature'],
      ['public-calls', 'public_call', 'opening_date'],
      ['direct-contracts', 'direct_contract', 'opening_date'],
    ] as const) {
      it(`finds ${path} of one day with date_from and date_to both that day`, async () => {
        const record = first(records, type, (r) => typeof r[field] === 'string')
        const day = (record[field] as string).slice(0, 10)
        const expected = records.filter((r) => r.type === type && String(r[field] ?? '').slice(0, 10) === day)
        const got = await data(`/v1/transparency/${path}?date_from=${day}&date_to=${day}&per_page=100`)
        assert.ok(
          got.data.some((item: { id: string }) => item.id === record.id),
          `${record.id} of ${record[field]}`,
        )
        assert.equal(got.total, expected.length)
      })
    }

    it('finds Portuguese words whatever their accents, case and inflection', async () => {
      const got = await data('/v1/transparency/contracts?q=licitacao%20computador')
      assert.deepEqual(
        got.data.map((c: { id: string }) => c.id),
        [special.id],
      )
    })

    it('sorts by an allowed field, ascending or with - descending', async () => {
      const ascending = await data('/v1/transparency/contracts?sort=amount_total&per_page=100')
      const amounts = ascending.data.map((c: { amount_total: string }) => Number(c.amount_total))
      assert.deepEqual(
        amounts,
        [...amounts].sort((a, b) => a - b),
      )
      const descending = await data('/v1/transparency/arps?sort=-date_expiration&per_page=100')
      const dates = descending.data.map((a: { date_expiration: string }) => a.date_expiration)
      assert.deepEqual(dates, [...dates].sort().reverse())
    })

    it('sorts by every allowed field both ways, blanks and secret budgets last, the same across pages', async () => {
      let blanks = 0
      for (const resource of PUBLIC_RESOURCES) {
        for (const [sort, name] of Object.entries(resource.sorts)) {
          const kind = (resource.record.fields[name] as AnyField).kind
          for (const direction of ['', '-']) {
            const url = `/v1/transparency/${resource.path}?sort=${direction}${sort}`
            const whole = await data(`${url}&per_page=100`)
            assert.ok(whole.total <= 100, url)
            const values = whole.data.map((item: Record<string, unknown>) => item[name] as string | null)
            const present = values.filter((v: string | null) => v !== null)
            blanks += values.length - present.length
            // Blanks (null, and a secret budget's null) come last whichever way the sort goes.
            assert.deepEqual(values, [...present, ...values.filter((v: string | null) => v === null)], url)
            if (kind !== 'text' && kind !== 'number') {
              const key = (v: string) => (kind === 'money' ? Number(v) : v)
              const sorted = [...present].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
              assert.deepEqual(present, direction === '-' ? sorted.reverse() : sorted, url)
            }
            // Equal values keep one order: walking small pages gives the whole page's order.
            const walked: string[] = []
            for (let page = 1; page <= Math.ceil(whole.total / 4); page++)
              walked.push(
                ...(await data(`${url}&per_page=4&page=${page}`)).data.map((i: { id: string }) => i.id),
              )
            assert.deepEqual(
              walked,
              whole.data.map((i: { id: string }) => i.id),
              url,
            )
          }
        }
      }
      assert.ok(blanks > 0, 'the fixture has blank values to sort')
    })

    it("reads an organization's page of one modality, and its count, off the index alone", async () => {
      // The page's ids and the total read only the filter's and the order's columns: the joins through
      // which the items' other fields are read must not be in these statements, or PostgreSQL reads every
      // row from the table again (see joins in src/resources/fields.ts). A filter on a joined table keeps
      // its join.
      const client = await db.pool.connect()
      try {
        await client.query('VACUUM contracts, arps, biddings')
        // So few rows would be read off the table at once; the plan that would be chosen on many is asked for.
        await client.query('SET enable_seqscan = off; SET enable_bitmapscan = off')
        const scans = async (sql: string, values: unknown[]) => {
          const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${sql}`, values)
          return JSON.stringify(rows[0]['QUERY PLAN']).match(/"Node Type":"[^"]*Scan"/g) ?? []
        }
        for (const resource of PUBLIC_RESOURCES) {
          const filters = { organization_uuid: org.uuid as string, modality_id: 1 }
          const { rowsFrom, where, orderBy, sortKey, values } = listingSql(resource, {
            filters,
            sort: resource.defaultSort,
          })
          const a = resource.record.alias
          assert.doesNotMatch(rowsFrom, /JOIN/, resource.path)
          const page = `SELECT ${a}.id, ${sortKey} FROM ${rowsFrom} WHERE ${where} ORDER BY ${orderBy} LIMIT 20`
          assert.deepEqual(await scans(page, values), ['"Node Type":"Index Only Scan"'], resource.path)
          const count = `SELECT count(*) FROM ${rowsFrom} WHERE ${where}`
          assert.deepEqual(await scans(count, values), ['"Node Type":"Index Only Scan"'], resource.path)
        }
        // One statement for a filter, whatever the order of its parameters in the URL.
        const contracts = PUBLIC_RESOURCES[0] as PublicResource
        const forward = listingSql(contracts, {
          filters: { organization_uuid: org.uuid as string, modality_id: 1 },
          sort: '-date_start',
        })
        const backward = listingSql(contracts, {
          filters: { modality_id: 1, organization_uuid: org.uuid as string },
          sort: '-date_start',
        })
        assert.deepEqual(backward, forward)
        // The values in the filters' declared order (src/resources/filters.ts, filterSql).
        assert.deepEqual(forward.values, [org.uuid, 1])
        const bySupplier = listingSql(contracts, {
          filters: { provider_document: person.document },
          sort: '-date_start',
        })
        assert.match(
          bySupplier.rowsFrom,
          /^contracts c +LEFT JOIN suppliers c_s ON c_s\.id = c\.supplier_id$/,
        )
      } finally {
        await client.query('RESET ALL')
        client.release()
      }
    })

    it('answers 404 "Organização não encontrada." for an unknown organization', async () => {
      await failure(
        '/v1/transparency/arps?organization_uuid=00000000-0000-4000-8000-000000000000',
        404,
        'Organização não encontrada.',
      )
    })

    const invalid: [string, RegExp][] = [
      [
        '/v1/transparency/contracts?per_page=101',
        /^Parâmetro inválido: per_page\. Aceita um número inteiro de 1 a 100\.$/,
      ],
      ['/v1/transparency/contracts?per_page=0', /^Parâmetro inválido: per_page\./],
      [
        '/v1/transparency/contracts?page=abc',
        /^Parâmetro inválido: page\. Aceita um número inteiro a partir de 1\.$/,
      ],
      [
        '/v1/transparency/contracts?organization_uuid=xyz',
        /^Parâmetro inválido: organization_uuid\. Aceita um UUID\.$/,
      ],
      [
        '/v1/transparency/contracts?modality_id=21',
        /^Parâmetro inválido: modality_id\. Aceita um id de \/v1\/transparency\/helpers\/bidding-modalities\.$/,
      ],
      [
        '/v1/transparency/contracts?date_from=2025-13-01',
        /^Parâmetro inválido: date_from\. Aceita uma data AAAA-MM-DD\.$/,
      ],
      ['/v1/transparency/contracts?provider_document=123', /^Parâmetro inválido: provider_document\./],
      [
        '/v1/transparency/contracts?sort=object_details',
        /^Parâmetro inválido: sort\. Aceita um destes valores: date_start, -date_start, date_end/,
      ],
      [
        '/v1/transparency/contracts?status_id=1',
        /^Parâmetro desconhecido: status_id\. Aceitos: page, per_page, organization_uuid/,
      ],
      ['/v1/transparency/contracts?foo=bar', /^Parâmetro desconhecido: foo\./],
      [
        '/v1/transparency/arps?with_relations=documents,contracts',
        /^Parâmetro inválido: with_relations\. Relação desconhecida: contracts\. Aceita: documents, terms, orders\.$/,
      ],
      [
        '/v1/transparency/public-calls?management_status_id=1',
        /^Parâmetro desconhecido: management_status_id/,
      ],
    ]
    for (const [url, message] of invalid) {
      it(`answers 422 naming the parameter for ${url.split('?')[1]}`, async () => {
        await failure(url, 422, message)
      })
    }
  })

  describe('helpers', () => {
    const cases = [
      ['bidding-modalities', BIDDING_MODALITIES],
      ['bidding-statuses', BIDDING_STATUSES],
      ['management-statuses', MANAGEMENT_STATUSES],
    ] as const
    for (const [path, values] of cases) {
      it(`lists ${path} as [{id, name}]`, async () => {
        const got = await data(`/v1/transparency/helpers/${path}`)
        assert.deepEqual(
          got,
          values.map((name, i) => ({ id: i + 1, name })),
        )
      })
    }

    it('gives ids that filter as promised', async () => {
      const modalities = await data('/v1/transparency/helpers/bidding-modalities')
      for (const { id, name } of modalities.slice(0, 6)) {
        const got = await data(`/v1/transparency/public-calls?modality_id=${id}&per_page=100`)
        assert.equal(got.total, ofType('public_call').filter((c) => c.modality === name).length)
        for (const item of got.data) assert.equal(item.modality, name)
      }
    })
  })

  describe('serving', () => {
    it('sets ETag and Cache-Control, and answers 304 to If-None-Match', async () => {
      const first = await get('/v1/transparency/contracts?per_page=3')
      assert.ok(first.headers.etag)
      assert.equal(first.headers['cache-control'], 'public, max-age=60')
      const again = await get('/v1/transparency/contracts?per_page=3', {
        'if-none-match': first.headers.etag as string,
      })
      assert.equal(again.statusCode, 304)
      assert.equal(again.body, '')
      const detail = await get(`/v1/transparency/contracts/${special.id}`)
      assert.ok(detail.headers.etag)
    })

    it('compresses when asked and allows browsers from any origin', async () => {
      const response = await get('/v1/transparency/contracts?per_page=50', {
        'accept-encoding': 'gzip',
        origin: 'https://example.org',
      })
      assert.equal(response.headers['content-encoding'], 'gzip')
      assert.equal(response.headers['access-control-allow-origin'], '*')
      const body = JSON.parse(gunzipSync(response.rawPayload).toString())
      assert.equal(body.success, true)
    })

    it('describes every transparency route in the OpenAPI document', async () => {
      const document = (await get('/openapi.json')).json()
      for (const path of ['contracts', 'direct-contracts', 'public-calls', 'arps']) {
        const detail = document.paths[`/v1/transparency/${path}/{id}`].get
        assert.ok(detail.responses['200'] && detail.responses['400'] && detail.responses['404'])
        const listing = document.paths[`/v1/transparency/${path}`].get
        const names = listing.parameters.map((p: { name: string }) => p.name)
        for (const name of ['page', 'per_page', 'organization_uuid', 'q', 'sort', 'with_relations'])
          assert.ok(names.includes(name), `${path} ${name}`)
        assert.ok(listing.responses['422'])
      }
      for (const helper of ['bidding-modalities', 'bidding-statuses', 'management-statuses']) {
        assert.ok(document.paths[`/v1/transparency/helpers/${helper}`].get)
      }
    })
  })
})
