import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { JsonValue as Json } from '../../src/json.js'
import { declaredAt, differences } from '../../src/readmodel/differences.js'
import type { AnyField, Relation } from '../../src/resources/fields.js'
import { contracts } from '../../src/resources/index.js'

// What a history says changed between two versions (src/readmodel/differences.ts), on the contract's shape:
// each field by its path and its Portuguese label, elements of a relation by their key, added, removed or
// changed, and where each difference lies in the shape.

const shape = contracts.record
const orders = shape.fields.orders as Relation
const terms = shape.fields.terms as Relation
const label = (field: string, of?: Relation) => ((of ? of.shape : shape).fields[field] as AnyField).label
const diff = (before: Json, after: Json) => differences(shape, before, after)

describe('the differences between two versions', () => {
  it('name each changed field by its path and label, with its values before and after', () => {
    assert.deepEqual(
      diff({ amount_total: '1.00', object_details: 'x' }, { amount_total: '2.00', object_details: 'x' }),
      [
        {
          field: 'amount_total',
          label: label('amount_total'),
          before: '1.00',
          after: '2.00',
          path: ['amount_total'],
        },
      ],
    )
    // A field the shape does not declare is named by its key; one that appears was null before.
    assert.deepEqual(diff({}, { extra: 1 }), [
      { field: 'extra', label: 'extra', before: null, after: 1, path: ['extra'] },
    ])
    // A list the shape does not declare a relation is one value, whole.
    assert.deepEqual(diff({ extra: [1] }, { extra: [2] }), [
      { field: 'extra', label: 'extra', before: [1], after: [2], path: ['extra'] },
    ])
    // A relation that was not there is one difference, whole.
    assert.deepEqual(diff({ orders: null }, { orders: [] }), [
      { field: 'orders', label: orders.label, before: null, after: [], path: ['orders'] },
    ])
  })

  it('find nothing between values that are not both records', () => {
    assert.deepEqual(diff(null, { amount_total: '1.00' }), [])
    assert.deepEqual(diff({ amount_total: '1.00' }, [1]), [])
    assert.deepEqual(diff([1], [2]), [])
    assert.deepEqual(diff('ab', { amount_total: '1.00' }), [])
  })

  it('take a relation element by element: added, removed, and changed within', () => {
    const before = {
      orders: [
        { number: 'A', amount_total: '1.00' },
        { number: 'B', amount_total: '5.00' },
      ],
    }
    const after = {
      orders: [
        { number: 'C', amount_total: '3.00' },
        { number: 'A', amount_total: '2.00' },
      ],
    }
    assert.deepEqual(diff(before, after), [
      {
        field: 'orders[C]',
        label: `${orders.label} › C`,
        before: null,
        after: after.orders[0],
        path: ['orders'],
      },
      {
        field: 'orders[A].amount_total',
        label: `${orders.label} › A › ${label('amount_total', orders)}`,
        before: '1.00',
        after: '2.00',
        path: ['orders', 'amount_total'],
      },
      {
        field: 'orders[B]',
        label: `${orders.label} › B`,
        before: before.orders[1],
        after: null,
        path: ['orders'],
      },
    ])
  })

  it('name an element by its number, name, id or uuid, numbers included, else by its place', () => {
    const added = (element: Json) => (diff({ terms: [] }, { terms: [element] })[0] as { field: string }).field
    assert.equal(added({ number: 7 }), 'terms[7]')
    assert.equal(added({ name: 'n', id: 'i' }), 'terms[n]')
    assert.equal(added({ id: 'i', uuid: 'u' }), 'terms[i]')
    assert.equal(added({ uuid: 'u' }), 'terms[u]')
    assert.equal(added({ kind: 'x' }), 'terms[#1]')
    assert.equal(added(null), 'terms[#1]')
    // Without keys, elements are matched by place, and a removed one is named by its place before.
    assert.deepEqual(
      diff(
        { terms: [{ kind: 'a' }, { kind: 'b' }, { kind: 'c' }] },
        { terms: [{ kind: 'a' }, { kind: 'x' }] },
      ).map((d) => [d.field, d.label]),
      [
        ['terms[#2].kind', `${terms.label} › #2 › ${label('kind', terms)}`],
        ['terms[#3]', `${terms.label} › #3`],
      ],
    )
  })

  it('match elements by key only when every element has one', () => {
    // Keyed: the element put first is one addition, the rest unchanged.
    const a = { number: 'A', kind: 'a' }
    const b = { number: 'B', kind: 'b' }
    assert.deepEqual(
      diff({ terms: [a] }, { terms: [b, a] }).map((d) => d.field),
      ['terms[B]'],
    )
    // One element without a key: by place, so the same elements in another order differ (a version's fields
    // are all there, null or not: those of the later one are compared).
    const loose = { kind: 'c' }
    assert.deepEqual(
      diff({ terms: [loose, a] }, { terms: [a, loose] }).map((d) => d.field),
      ['terms[A].number', 'terms[A].kind', 'terms[#2].kind'],
    )
  })
})

describe('where a difference lies in the shape', () => {
  it('finds the field, or the relation for a whole element, or nothing', () => {
    assert.equal(declaredAt(shape, ['amount_total']).declared, shape.fields.amount_total)
    assert.equal(declaredAt(shape, ['orders', 'status_title']).declared, orders.shape.fields.status_title)
    assert.equal(declaredAt(shape, ['orders', 'amount_total']).declared, orders.shape.fields.amount_total)
    assert.equal(declaredAt(shape, ['orders']).shape, orders.shape)
    assert.deepEqual(declaredAt(shape, ['nothing']), {})
    assert.deepEqual(declaredAt(shape, ['amount_total', 'deeper']), {})
    assert.deepEqual(declaredAt(shape, []), {})
  })
})
