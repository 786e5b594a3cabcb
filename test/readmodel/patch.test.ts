import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import type { JsonValue as Json } from '../../src/json.js'
import { applyPatch, restore, restoreAll, reversePatch, storedPatch } from '../../src/readmodel/patch.js'

// The reverse patches of a record's history (src/readmodel/patch.ts): for any two documents, the stored
// patch turns the later back into the earlier, byte for byte, and it is never larger than the earlier whole.

const SEED = 20_261_126
const RUNS = Number(process.env.FUZZ_RUNS ?? 300)

/** Values like a detail's: strings, numbers, nulls, nested objects, and lists of elements with keys or not. */
const value: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<Json>(null, true, false, '', '1234.50', '2026-01-01'),
    fc.string({ maxLength: 12 }),
    fc.integer(),
    fc.dictionary(fc.constantFrom('a', 'b', 'number', 'id', 'value'), tie('value'), { maxKeys: 4 }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.uniqueArray(fc.record({ number: fc.string({ maxLength: 4 }), value: tie('value') }), {
      selector: (element) => element.number,
      maxLength: 6,
    }),
  ),
})).value

/** A document and a later version of it: the same fields, some values changed, elements added or removed. */
const versions = fc
  .dictionary(fc.constantFrom('amount_total', 'terms', 'orders', 'object_details', 'date_end'), value, {
    minKeys: 1,
  })
  .chain((before) =>
    fc
      .record(Object.fromEntries(Object.keys(before).map((name) => [name, fc.option(value, { freq: 2 })])))
      .map((changes) => {
        const after: Record<string, Json> = {}
        for (const [name, was] of Object.entries(before))
          after[name] = changes[name] === null ? (was as Json) : (changes[name] as Json)
        return [before as Json, after as Json] as const
      }),
  )

describe('reverse patches', () => {
  it('restore the version before, byte for byte, and are never larger than it', () => {
    fc.assert(
      fc.property(versions, ([before, after]) => {
        const beforeText = JSON.stringify(before)
        const afterText = JSON.stringify(after)
        const stored = storedPatch(afterText, beforeText)
        assert.equal(restore(afterText, stored), beforeText)
        assert.ok(stored.length <= beforeText.length + 6, stored) // at most `{"w":…}` around it
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('hold any two JSON values, whatever their shapes', () => {
    fc.assert(
      fc.property(value, value, (before, after) => {
        const patch = reversePatch(after, before)
        if (patch === undefined) return // the same, or not patchable: stored whole
        assert.equal(JSON.stringify(applyPatch(after, patch)), JSON.stringify(before))
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('keep one changed element of a long list as that element, not the list', () => {
    const orders = Array.from({ length: 2000 }, (_, i) => ({ number: `${i}/2026`, amount_total: '10.00' }))
    const before = { amount_total: '20000.00', orders }
    const after = {
      amount_total: '20010.00',
      orders: [
        ...orders.slice(0, 1000),
        { number: 'new/2026', amount_total: '10.00' },
        ...orders.slice(1000),
      ],
    }
    const stored = storedPatch(JSON.stringify(after), JSON.stringify(before))
    assert.ok(stored.length < 100, stored)
    assert.equal(restore(JSON.stringify(after), stored), JSON.stringify(before))
    // The same fields in another order are another text: restored in the order they had.
    const reordered = storedPatch('{"b":[1,{"c":2,"d":3}],"a":1}', '{"a":1,"b":[1,{"d":3,"c":2}]}')
    assert.equal(restore('{"b":[1,{"c":2,"d":3}],"a":1}', reordered), '{"a":1,"b":[1,{"d":3,"c":2}]}')
    // A document whose every field changed is kept whole, marked as such.
    const whole = storedPatch('{"a":"x"}', '{"b":"y"}')
    assert.equal(whole, '{"w":{"b":"y"}}')
    assert.equal(restore('{"a":"x"}', whole), '{"b":"y"}')
  })

  // What a patch names, exactly: only what differs, elements by their key. A patch that named more would still
  // restore the version, so the round trips above cannot tell; these pin each rule.
  it('name only the fields that differ, and nothing for the same document', () => {
    assert.equal(reversePatch({ a: 1, b: 'x' }, { a: 1, b: 'x' }), undefined)
    assert.equal(reversePatch({ l: [1, { c: 2 }] }, { l: [1, { c: 2 }] }), undefined)
    assert.deepEqual(reversePatch({ a: 1, b: 'x', l: [1, 2] }, { a: 2, b: 'x', l: [1, 2] }), { s: { a: 2 } })
    assert.deepEqual(reversePatch({ a: 1, l: [1, 2] }, { a: 1, l: [1, 3] }), {
      p: { l: { a: [{ c: [0, 1] }, { v: 3 }] } },
    })
    assert.deepEqual(reversePatch({ a: 1, l: [1, 2] }, { a: 1, l: [1, 2, 3] }), {
      p: { l: { a: [{ c: [0, 2] }, { v: 3 }] } },
    })
    // Values that look alike and are not the same text: a number and an empty object, an array and an
    // object with a length, a string and an object keyed by its positions.
    assert.deepEqual(reversePatch({ a: 1 }, { a: {} }), { s: { a: {} } })
    assert.deepEqual(reversePatch({ a: 'xy' }, { a: { 0: 'x', 1: 'y' } }), { s: { a: { 0: 'x', 1: 'y' } } })
    assert.deepEqual(reversePatch({ a: [] }, { a: { length: 0 } }), { s: { a: { length: 0 } } })
    assert.deepEqual(reversePatch({ a: { length: 0 } }, { a: [] }), { s: { a: [] } })
    // Fields in another order are another text: the object whole.
    assert.equal(reversePatch({ a: 1, b: 2, c: 3 }, { a: 1, c: 3, b: 2 }), undefined)
    assert.deepEqual(reversePatch({ x: { a: 1, b: 1 }, y: 1 }, { x: { b: 1, a: 1 }, y: 1 }), {
      s: { x: { b: 1, a: 1 } },
    })
  })

  it('match elements by id, uuid or number, and by place when a key is missing or repeated', () => {
    for (const name of ['id', 'uuid', 'number']) {
      const before = [{ [name]: 'a' }, { [name]: 'b' }]
      const after = [{ [name]: 'n' }, ...before]
      assert.deepEqual(reversePatch(after, before), { a: [{ c: [1, 2] }] }, name)
    }
    assert.deepEqual(reversePatch([{ id: 7 }, { id: 1 }], [{ id: 1 }]), { a: [{ c: [1, 1] }] })
    // A changed element is patched in place, not given whole.
    assert.deepEqual(reversePatch([{ id: 1, v: 'x', w: 1 }], [{ id: 1, v: 'y', w: 1 }]), {
      a: [{ e: [0, { s: { v: 'y' } }] }],
    })
    // A repeated key, or an element without one: matched by place.
    assert.deepEqual(reversePatch([{ id: 'n' }, { id: 'a' }, { id: 'a' }], [{ id: 'a' }, { id: 'a' }]), {
      a: [{ e: [0, { s: { id: 'a' } }] }, { c: [1, 1] }],
    })
    assert.deepEqual(reversePatch([{ v: 1 }, { id: 'a' }], [{ id: 'a' }]), { a: [{ v: { id: 'a' } }] })
  })

  it('keep a small change as a patch, and read past an update that kept none', () => {
    const before = JSON.stringify({ a: 'x'.repeat(200), b: 1 })
    const after = JSON.stringify({ a: 'x'.repeat(200), b: 2 })
    const stored = storedPatch(after, before)
    assert.equal(stored, '{"s":{"b":1}}')
    assert.equal(restoreAll(after, [null]), after)
    assert.equal(restoreAll(after, [null, stored, null]), before)
  })
})
