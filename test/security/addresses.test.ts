import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { addressKey } from '../../src/address.js'
import { buildTestApp } from '../helpers/app.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'

// Every per-address limit counts an IPv6 client by its prefix (a /64 by default), so that a subscriber who
// holds 2^64 addresses does not get as many budgets.

describe('client addresses as the limits count them', () => {
  it('keeps an IPv4 address whole, and an IPv6 one to its prefix', () => {
    assert.equal(addressKey('203.0.113.9'), '203.0.113.9')
    assert.equal(addressKey('::ffff:203.0.113.9'), '203.0.113.9')
    assert.equal(addressKey('2001:db8:0:1:aaaa:bbbb:cccc:dddd'), '2001:db8:0:1:0:0:0:0/64')
    assert.equal(addressKey('2001:db8:0:1::1'), addressKey('2001:db8::1:ffff:ffff:ffff:ffff'))
    assert.notEqual(addressKey('2001:db8:0:1::1'), addressKey('2001:db8:0:2::1'))
    assert.equal(addressKey('2001:db8:0:1::1', 48), '2001:db8:0:0:0:0:0:0/48')
    assert.equal(addressKey('2001:db8:0:1::1', 56), addressKey('2001:db8:0:ff::1', 56))
    assert.notEqual(addressKey('2001:db8:0:1::1', 56), addressKey('2001:db8:0:100::1', 56))
    assert.equal(addressKey('2001:db8::1', 128), '2001:db8:0:0:0:0:0:1/128')
    assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0:0:0:0:0/64')
  })

  it('reads every way of writing an IPv6 address, and leaves what is not one as it is', () => {
    // An IPv4-mapped address, with octets of every length and a zone; an IPv4-compatible one is IPv6.
    assert.equal(addressKey('::ffff:203.10.113.99'), '203.10.113.99')
    assert.equal(addressKey('::ffff:203.10.113.99%eth0'), '203.10.113.99')
    assert.equal(addressKey('::5'), '0:0:0:0:0:0:0:0/64')
    assert.equal(addressKey('::5', 128), '0:0:0:0:0:0:0:5/128')
    // `::` at the end, at the start, and not at all; every bit kept at 128, none at 0.
    assert.equal(addressKey('2001:db8::', 128), '2001:db8:0:0:0:0:0:0/128')
    assert.equal(addressKey('::2001:db8', 128), '0:0:0:0:0:0:2001:db8/128')
    assert.equal(addressKey('1:2:3:4:5:6:7:ffff', 128), '1:2:3:4:5:6:7:ffff/128')
    assert.equal(addressKey('1:2:3:4:5:6:7:ffff', 0), '0:0:0:0:0:0:0:0/0')
    assert.equal(addressKey('2001:db8:ffff:ffff::', 33), '2001:db8:8000:0:0:0:0:0/33')
    for (const text of ['unknown', '', '2001:db8::1::2', '203.0.113.256'])
      assert.equal(addressKey(text), text)
  })

  describe('over HTTP', () => {
    let db: TestDatabase
    let app: FastifyInstance
    let perAddress: FastifyInstance
    const from = (
      target: FastifyInstance,
      address: string,
      url = '/v1/transparency/helpers/bidding-statuses',
    ) => target.inject({ method: 'GET', url, headers: { 'x-forwarded-for': address } })

    before(async () => {
      db = await createTestDatabase()
      app = await buildTestApp(db, { env: { TRUST_PROXY: 'true', PUBLIC_RATE_LIMIT: '3' } })
      perAddress = await buildTestApp(db, {
        env: { TRUST_PROXY: 'true', PUBLIC_RATE_LIMIT: '3', IPV6_PREFIX: '128' },
      })
    })
    after(async () => {
      await app.close()
      await perAddress.close()
      await db.drop()
    })

    it('gives one public budget to a whole /64, and another to the next /64', async () => {
      const statuses = []
      for (const address of ['2001:db8:0:1::1', '2001:db8:0:1::2', '2001:db8:0:1:ffff::3', '2001:db8:0:1::4'])
        statuses.push((await from(app, address)).statusCode)
      assert.deepEqual(statuses, [200, 200, 200, 429])
      const refused = await from(app, '2001:db8:0:1::99')
      assert.equal(refused.statusCode, 429)
      assert.ok(Number(refused.headers['retry-after']) >= 1)
      assert.equal((await from(app, '2001:db8:0:2::1')).statusCode, 200)
    })

    it('counts each address apart with IPV6_PREFIX=128', async () => {
      const statuses = []
      for (const address of ['2001:db8:0:5::1', '2001:db8:0:5::2', '2001:db8:0:5::3', '2001:db8:0:5::4'])
        statuses.push((await from(perAddress, address)).statusCode)
      assert.deepEqual(statuses, [200, 200, 200, 200])
    })
  })
})
