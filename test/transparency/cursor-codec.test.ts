import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { describe, it } from 'node:test'
import { CursorGone, ParameterError } from '../../src/errors.js'
import { Cursors, type ListCursor } from '../../src/queries/cursors.js'

// The cursors' spelling, without a database (src/queries/cursors.ts): what each feed's cursor holds,
// which texts are refused as invalid (422) and which as gone (410), and what a listing cursor must carry.

const LOG = { identity: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', secret: Buffer.alloc(32, 7) }
const OTHER = { identity: 'ffffffff-4e5f-4a6b-8c7d-9e0f1a2b3c4d', secret: Buffer.alloc(32, 9) }
const ORGANIZATION = '11111111-2222-4333-8444-555555555555'
const text = (plain: string) => Buffer.from(plain).toString('base64url')

/** The error a read throws: its class and its parameter. */
function refusal(read: () => unknown): [string, string] {
  try {
    read()
  } catch (error) {
    if (error instanceof ParameterError) return ['invalid', error.parameter]
    if (error instanceof CursorGone) return ['gone', error.parameter]
    throw error
  }
  assert.fail('the cursor was read')
}

describe('feed cursors', () => {
  const cursors = new Cursors(LOG)

  it("spells a position with its feed's mark, the log's tag and, for an organ, its organization", () => {
    assert.equal(Buffer.from(cursors.position('changes', 42), 'base64url').toString(), 'f2.0a1b2c3d4e5f.42')
    assert.equal(Buffer.from(cursors.position('releases', '7'), 'base64url').toString(), 'o2.0a1b2c3d4e5f.7')
    assert.equal(
      Buffer.from(cursors.position('orders', 3, ORGANIZATION), 'base64url').toString(),
      'g2.0a1b2c3d4e5f.11111111.3',
    )
  })

  it('reads back what it gave, at any position', () => {
    for (const seq of [0, 1, 9, 10, 123_456_789, 9_007_199_254_740_991]) {
      assert.equal(cursors.read('changes', cursors.position('changes', seq), 'after'), seq)
      assert.equal(
        cursors.read('orders', cursors.position('orders', seq, ORGANIZATION), 'after', ORGANIZATION),
        seq,
      )
    }
  })

  it("takes a legacy cursor as this log's, on its own feed only", () => {
    assert.equal(cursors.read('changes', text('c1.15'), 'after'), 15)
    assert.equal(cursors.read('releases', text('o1.15'), 'after'), 15)
    assert.deepEqual(
      refusal(() => cursors.read('releases', text('c1.15'), 'after')),
      ['gone', 'after'],
    )
    assert.deepEqual(
      refusal(() => cursors.read('orders', text('c1.15'), 'after', ORGANIZATION)),
      ['gone', 'after'],
    )
  })

  it("refuses another log's, another feed's and another organization's cursor as gone", () => {
    const other = new Cursors(OTHER)
    const gone = (read: () => unknown) => assert.deepEqual(refusal(read), ['gone', 'after'])
    gone(() => cursors.read('changes', other.position('changes', 5), 'after'))
    gone(() => cursors.read('changes', cursors.position('releases', 5), 'after'))
    gone(() => cursors.read('orders', cursors.position('orders', 5, OTHER.identity), 'after', ORGANIZATION))
    gone(() => cursors.read('orders', cursors.position('orders', 5), 'after', ORGANIZATION))
    gone(() => cursors.read('changes', cursors.position('orders', 5, ORGANIZATION), 'after'))
  })

  it('refuses a text it could not have given as invalid, naming the parameter', () => {
    const invalid = (cursor: string) =>
      assert.deepEqual(
        refusal(() => cursors.read('changes', cursor, 'since_cursor')),
        ['invalid', 'since_cursor'],
      )
    const good = cursors.position('changes', 5)
    invalid('')
    invalid(`${good}=`) // padded
    // Its last character one up: the bits past the text's last byte are no longer zero.
    invalid(`${good.slice(0, -1)}${String.fromCharCode(good.charCodeAt(good.length - 1) + 1)}`)
    invalid(`${good}!`)
    invalid(text('x9.0a1b2c3d4e5f.5')) // an unknown mark
    invalid(text('f2.0a1b2c3d4e5f.05')) // a position not written as the service writes it
    invalid(text('f2.0a1b2c3d4e5f.-1'))
    invalid(text('f2.0a1b2c3d4e5f.12345678901234567')) // 17 digits
    invalid(text('f2.0a1b2c3d4e5f.'))
    invalid(text('5')) // one part
    invalid(text('f2.0a1b2c3d4e5f.a.b.5')) // five parts
    invalid(text(`f2.${'0'.repeat(70)}.5`)) // longer than any cursor given
    assert.equal(
      cursors.read('changes', text(`f2.0a1b2c3d4e5f.${'9'.repeat(15)}`), 'after'),
      999_999_999_999_999,
    )
  })

  it('says what a reader should do, in Portuguese', () => {
    assert.equal(
      cursors.invalid('after').message,
      'Cursor inválido: after. Use o next_cursor (ou o cursor de uma entrada) de uma resposta anterior.',
    )
    assert.match(
      cursors.gone('after').message,
      /^Cursor desconhecido: after\..*Sincronize de novo desde o início, sem after\.$/,
    )
  })

  it('is used only once its identity is known', async () => {
    let asked = 0
    const pool = {
      query: async () => {
        asked++
        return { rows: [{ identity: LOG.identity, secret: LOG.secret }] }
      },
    }
    const late = new Cursors(pool as never)
    assert.throws(() => late.position('changes', 1), /before ready/)
    assert.throws(() => late.read('changes', 'x', 'after'), /before ready/)
    assert.throws(() => late.listing({ sort: 'id', key: null, id: ORGANIZATION, page: 2 }), /before ready/)
    await Promise.all([late.ready(), late.ready()])
    await late.ready()
    assert.equal(asked, 1, 'the identity is read once')
    assert.equal(late.position('changes', 1), cursors.position('changes', 1))
    const empty = new Cursors({ query: async () => ({ rows: [] }) } as never)
    await assert.rejects(empty.ready(), /compras migrate/)
    // A database that is down at first: ready() fails, and succeeds once it is back.
    let down = true
    const flaky = new Cursors({
      query: async () => {
        if (down) throw new Error('connection refused')
        return { rows: [{ identity: LOG.identity, secret: LOG.secret }] }
      },
    } as never)
    await assert.rejects(flaky.ready(), /connection refused/)
    down = false
    await flaky.ready()
    assert.equal(flaky.position('changes', 1), cursors.position('changes', 1))
  })
})

describe('listing cursors', () => {
  const cursors = new Cursors(LOG)
  const at: ListCursor = { sort: '-amount', key: '1234.50', id: ORGANIZATION, page: 3 }
  const refused = (cursor: string, sort = '-amount', pattern?: RegExp) =>
    assert.deepEqual(
      refusal(() => cursors.readListing(cursor, sort, pattern)),
      ['invalid', 'cursor'],
    )
  it('reads back the sort, key, id and page it was made with', () => {
    assert.deepEqual(cursors.readListing(cursors.listing(at), '-amount'), at)
    const nullKey = { ...at, key: null, page: 1 }
    assert.deepEqual(cursors.readListing(cursors.listing(nullKey), '-amount'), nullKey)
    const longKey = { ...at, key: 'x'.repeat(300) }
    assert.deepEqual(cursors.readListing(cursors.listing(longKey), '-amount'), longKey)
    assert.deepEqual(cursors.readListing(cursors.listing({ ...at, id: 'abc' }), '-amount', /^[a-c]+$/), {
      ...at,
      id: 'abc',
    })
  })

  it("refuses another sort's cursor, a forged one, and one of another log", () => {
    const made = cursors.listing(at)
    refused(made, 'amount')
    refused(new Cursors(OTHER).listing(at))
    const [payload, signature] = made.split('.') as [string, string]
    refused(`${text(`l2.${JSON.stringify(['-amount', '1234.50', ORGANIZATION, 4])}`)}.${signature}`)
    refused(`${payload}.${signature.slice(0, -2)}`)
    refused(`${payload}.${signature}.${signature}`)
    refused(`${payload}.${signature}=`) // a signature not spelled canonically
    refused(`${payload}.`)
    refused(payload)
    refused(`${payload}=.${signature}`)
    refused('')
    assert.throws(() => cursors.readListing('', '-amount'), {
      message:
        'Cursor inválido: cursor. Use o next_cursor de uma página anterior, com a mesma ordenação e os mesmos filtros.',
    })
  })

  it('refuses what its signature covers when it is not a cursor', () => {
    // Each payload is signed with the log's secret (HMAC-SHA-256, its first 16 bytes), as the service signs.
    const secretSigned = (payload: string) =>
      `${text(payload)}.${createHmac('sha256', LOG.secret).update(payload).digest().subarray(0, 16).toString('base64url')}`
    const cursor = (values: unknown[]) => secretSigned(`l2.${JSON.stringify(values)}`)
    assert.deepEqual(cursors.readListing(cursor(['-amount', null, ORGANIZATION, 1]), '-amount').page, 1)
    refused(secretSigned(`l1.${JSON.stringify(['-amount', null, ORGANIZATION, 1])}`))
    refused(secretSigned('l2.not json'))
    refused(secretSigned('l2.{"sort":"-amount"}'))
    refused(cursor(['-amount', null, ORGANIZATION]))
    refused(cursor(['-amount', null, ORGANIZATION, 1, 1]))
    refused(cursor(['-amount', 5, ORGANIZATION, 1]))
    refused(cursor(['-amount', 'x'.repeat(301), ORGANIZATION, 1]))
    refused(cursor(['-amount', null, 'not-a-uuid', 1]))
    refused(cursor(['-amount', null, `x${ORGANIZATION}`, 1]))
    refused(cursor(['-amount', null, `${ORGANIZATION}x`, 1]))
    refused(cursor(['-amount', null, 7, 1]))
    refused(cursor(['-amount', null, ORGANIZATION, 0]))
    refused(cursor(['-amount', null, ORGANIZATION, 1.5]))
    refused(cursor(['-amount', null, ORGANIZATION, '2']))
    refused(cursor(['-amount', null, ORGANIZATION, 2 ** 53]))
  })
})
