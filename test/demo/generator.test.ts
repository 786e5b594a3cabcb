import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { type DemoRecord, generateDemo, SCALES } from '../../src/demo/generator.js'
import { isValidCnpj, isValidCpf } from '../../src/demo/tax-ids.js'
import { BIDDING_MODALITIES, ORDER_STATUSES } from '../../src/domain.js'
import { checkRecord } from '../../src/import/record-validation.js'

const records: DemoRecord[] = [...generateDemo(SCALES.small, 11)]
const ofType = (type: string) => records.filter((r) => r.type === type)
const cents = (value: unknown) => Math.round((value as number) * 100)

describe('demo generator', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const again = [...generateDemo(SCALES.small, 11)]
    assert.deepEqual(again, records)
    const other = [...generateDemo(SCALES.small, 12)]
    assert.notDeepEqual(other, records)
  })

  it('makes the counts of the scale', () => {
    assert.equal(ofType('organization').length, SCALES.small.organizations)
    assert.equal(ofType('order').length, SCALES.small.orders)
    assert.equal(ofType('contract').length, SCALES.small.contracts)
    assert.equal(ofType('arp').length, SCALES.small.arps)
    assert.equal(ofType('direct_contract').length, SCALES.small.directContracts)
    assert.equal(ofType('public_call').length, SCALES.small.publicCalls)
  })

  it('writes only records that the import accepts', () => {
    for (const record of records) {
      assert.equal(
        checkRecord(record, JSON.stringify(record)),
        undefined,
        JSON.stringify(record).slice(0, 200),
      )
    }
  })

  it('gives valid CNPJ and CPF check digits', () => {
    for (const org of ofType('organization'))
      assert.ok(isValidCnpj(org.document as string), org.document as string)
    const documents = [
      ...ofType('order').map((r) => r.provider_document),
      ...ofType('contract').map((r) => r.provider_document),
      ...ofType('arp').map((r) => r.provider_document),
    ] as string[]
    for (const document of documents)
      assert.ok(document.length === 11 ? isValidCpf(document) : isValidCnpj(document), document)
    const people = ofType('contract').flatMap((c) => [
      ...(c.managers as { cpf: string }[]),
      ...(c.inspectors as { cpf: string }[]),
    ])
    assert.ok(people.length > 0)
    for (const person of people) assert.ok(isValidCpf(person.cpf), person.cpf)
  })

  it('keeps the arithmetic: item total = quantity × unit value, order total = sum of items', () => {
    for (const order of ofType('order')) {
      const items = order.items as { quantity: number; amount: number; amount_total: number }[]
      let sum = 0
      for (const item of items) {
        assert.equal(cents(item.amount_total), item.quantity * cents(item.amount))
        sum += cents(item.amount_total)
      }
      assert.equal(cents(order.amount_total), sum)
    }
  })

  it('uses all 20 modalities and the 4 order statuses', () => {
    const modalities = new Set([
      ...ofType('direct_contract').map((r) => r.modality),
      ...ofType('public_call').map((r) => r.modality),
    ])
    assert.deepEqual([...modalities].sort(), [...BIDDING_MODALITIES].sort())
    assert.deepEqual(new Set(ofType('order').map((r) => r.status_title)), new Set(ORDER_STATUSES))
  })

  it('sometimes leaves nullable fields null, sometimes fills them', () => {
    for (const field of [
      'contract_number',
      'arp_number',
      'invoice_number',
      'invoice_issue_date',
      'process_number',
    ]) {
      const values = ofType('order').map((r) => r[field])
      assert.ok(values.includes(null), `${field} is never null`)
      assert.ok(
        values.some((v) => v !== null),
        `${field} is always null`,
      )
    }
  })

  it('links orders, contracts, ARPs and biddings inside one organization', () => {
    const key = (org: unknown, value: unknown) => `${org} ${value}`
    const contracts = new Set(ofType('contract').map((c) => key(c.organization_uuid, c.contract_number)))
    const arps = new Set(ofType('arp').map((a) => key(a.organization_uuid, a.number)))
    const biddings = new Set(
      [...ofType('direct_contract'), ...ofType('public_call')].map((b) => key(b.organization_uuid, b.id)),
    )
    let linkedOrders = 0
    for (const order of ofType('order')) {
      if (order.contract_number !== null) {
        linkedOrders++
        assert.ok(contracts.has(key(order.organization_uuid, order.contract_number)))
      }
      if (order.arp_number !== null) assert.ok(arps.has(key(order.organization_uuid, order.arp_number)))
    }
    assert.ok(linkedOrders > 0)
    for (const record of [...ofType('contract'), ...ofType('arp')]) {
      if (record.bidding_uuid !== null)
        assert.ok(biddings.has(key(record.organization_uuid, record.bidding_uuid)))
    }
    for (const contract of ofType('contract')) {
      if (contract.arp_number !== null)
        assert.ok(arps.has(key(contract.organization_uuid, contract.arp_number)))
    }
  })

  it('writes timestamps in UTC with six fractional digits and plausible document URLs', () => {
    for (const order of ofType('order'))
      assert.match(order.deadline_delivery as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    for (const contract of ofType('contract')) {
      for (const doc of contract.documents as { url: string; name: string }[]) {
        assert.match(doc.url, /^https:\/\/\S+\.pdf$/)
        assert.ok(doc.url.endsWith(doc.name))
      }
    }
  })

  it('honours a fixed number of items per order', () => {
    const orders = [...generateDemo({ ...SCALES.small, orders: 20, itemsPerOrder: 5 }, 3)].filter(
      (r) => r.type === 'order',
    )
    assert.ok(orders.every((o) => (o.items as unknown[]).length === 5))
  })
})
