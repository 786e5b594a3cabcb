import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { compiledRelease, type Release, versionedRelease } from '../../src/ocds/merge.js'

// The merge routine on its own, over releases made for each rule: what the compiled and the versioned
// release keep of the metadata, how objects, arrays by identifier, other arrays and nulls merge.

const OCID = 'ocds-xxxxxx-1'
const release = (n: number, fields: Record<string, unknown>): Release =>
  ({
    ocid: OCID,
    id: `${OCID}-${n}`,
    date: `2025-01-0${n}T00:00:00Z`,
    tag: n === 1 ? ['tender'] : ['tenderUpdate'],
    ...fields,
  }) as Release

describe('the OCDS merge', () => {
  it("names the compiled release after the latest release's date, tags it compiled, and merges no metadata", () => {
    const compiled = compiledRelease([release(1, { language: 'pt' }), release(2, { language: 'pt' })])
    assert.deepEqual(compiled, {
      ocid: OCID,
      id: `${OCID}-2025-01-02T00:00:00Z`,
      date: '2025-01-02T00:00:00Z',
      tag: ['compiled'],
      language: 'pt',
    })
  })

  it('versions every field but the metadata, each value with the release that gave it', () => {
    const versioned = versionedRelease([release(1, { language: 'pt' }), release(2, { language: 'en' })])
    assert.deepEqual(Object.keys(versioned), ['ocid', 'language'])
    assert.equal(versioned.ocid, OCID)
    assert.deepEqual(versioned.language, [
      { releaseID: `${OCID}-1`, releaseDate: '2025-01-01T00:00:00Z', releaseTag: ['tender'], value: 'pt' },
      {
        releaseID: `${OCID}-2`,
        releaseDate: '2025-01-02T00:00:00Z',
        releaseTag: ['tenderUpdate'],
        value: 'en',
      },
    ])
  })

  it('merges objects field by field, removes a field set to null, keeps one left out', () => {
    const compiled = compiledRelease([
      release(1, { tender: { title: 'A', description: 'a', value: { amount: 1, currency: 'BRL' } } }),
      release(2, { tender: { title: 'B', description: null } }),
    ])
    assert.deepEqual(compiled.tender, { title: 'B', value: { amount: 1, currency: 'BRL' } })
  })

  it('merges arrays of objects by id, and replaces any other array whole', () => {
    const compiled = compiledRelease([
      release(1, {
        parties: [
          { id: 'p1', name: 'One', roles: ['buyer', 'procuringEntity'] },
          { id: 'p2', name: 'Two', roles: ['tenderer'] },
        ],
        notes: [{ text: 'first' }, { author: 'second' }],
        mixed: [{ id: 'm1', text: 'first' }, { text: 'no id' }],
      }),
      release(2, {
        parties: [
          { id: 'p2', roles: ['supplier'] },
          { id: 'p3', name: 'Three', roles: ['tenderer'] },
        ],
        notes: [{ text: 'third' }],
        mixed: [{ id: 'm1', text: 'third' }],
      }),
    ])
    assert.deepEqual(compiled.parties, [
      { id: 'p1', name: 'One', roles: ['buyer', 'procuringEntity'] },
      { id: 'p2', name: 'Two', roles: ['supplier'] },
      { id: 'p3', name: 'Three', roles: ['tenderer'] },
    ])
    assert.deepEqual(compiled.notes, [{ text: 'third' }])
    // Not every object has an id: replaced whole too.
    assert.deepEqual(compiled.mixed, [{ id: 'm1', text: 'third' }])
  })

  it('versions an object of an array by id under its id, and a value only when it changes', () => {
    const versioned = versionedRelease([
      release(1, { awards: [{ id: 'a1', status: 'pending' }] }),
      release(2, { awards: [{ id: 'a1', status: 'pending' }] }),
      release(3, { awards: [{ id: 'a1', status: 'active' }] }),
    ])
    const awards = versioned.awards as { id: string; status: { releaseID: string; value: string }[] }[]
    assert.equal(awards.length, 1)
    assert.equal(awards[0]?.id, 'a1')
    assert.deepEqual(
      awards[0]?.status.map((v) => [v.releaseID, v.value]),
      [
        [`${OCID}-1`, 'pending'],
        [`${OCID}-3`, 'active'],
      ],
    )
  })

  it('refuses a record of no release', () => {
    assert.throws(() => compiledRelease([]), RangeError)
    assert.throws(() => versionedRelease([]), RangeError)
  })
})
