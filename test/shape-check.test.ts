import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { ValidateFunction } from 'ajv'
import type { FastifyInstance } from 'fastify'
import { issueToken } from '../src/auth/tokens.js'
import { type DemoRecord, generateDemo, SCALES } from '../src/demo/generator.js'
import { PUBLIC_RESOURCES } from '../src/resources/index.js'
import { buildTestApp } from './helpers/app.js'
import { seededDatabase, type TestDatabase } from './helpers/db.js'
import { turns } from './helpers/http.js'
import { answerSchema, published } from './helpers/published.js'

// Every record of the demo dataset, served by every detail, every listing page (with every relation)
// and the order query, validated against the response schema the published OpenAPI document gives it:
// what clients generate their code from must be what they get.

describe('every served body matches its published schema', () => {
  let db: TestDatabase
  let app: FastifyInstance
  const records: DemoRecord[] = [...generateDemo(SCALES.small, 2025)]
  const check = (validate: ValidateFunction, url: string, body: unknown) =>
    assert.ok(validate(body), `${url}: ${published.errorsText(validate.errors, { separator: '\n' })}`)
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const response = await app.inject({ method: 'GET', url, headers })
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`)
    return response.json()
  }

  before(async () => {
    db = await seededDatabase(records)
    app = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '0' } })
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  for (const resource of PUBLIC_RESOURCES) {
    it(`${resource.path}: every detail, and every listing page with every relation`, async () => {
      const detail = answerSchema(`/v1/transparency/${resource.path}/{id}`)
      const ofType = records.filter((r) => r.type === resource.type)
      assert.ok(ofType.length > 0)
      for (const record of ofType) {
        const url = `/v1/transparency/${resource.path}/${record.id}`
        check(detail, url, await get(url))
      }
      const listing = answerSchema(`/v1/transparency/${resource.path}`)
      let seen = 0
      for (let page = 1; ; page++) {
        const url = `/v1/transparency/${resource.path}?per_page=7&page=${page}&with_relations=${resource.offered.join(',')}`
        const body = await get(url)
        check(listing, url, body)
        seen += body.data.data.length
        if (page >= body.data.last_page) break
      }
      assert.equal(seen, ofType.length)
      // Without relations too: the relation arrays are optional, the rest is not.
      check(listing, resource.path, await get(`/v1/transparency/${resource.path}?per_page=100`))
    })
  }

  it('orders: every order through the order query', async () => {
    const validate = answerSchema('/external/orders')
    const tokens = new Map<string, string>()
    for (const organization of records.filter((r) => r.type === 'organization'))
      tokens.set(
        organization.uuid as string,
        (await issueToken(db.pool, organization.uuid as string, null)).token,
      )
    const orders = records.filter((r) => r.type === 'order')
    // Under the order limit: 60 a second per token.
    for (const [i, order] of orders.entries()) {
      if (i % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 1000))
      const url = `/external/orders?order_number=${encodeURIComponent(order.number as string)}`
      check(
        validate,
        url,
        await get(url, { authorization: tokens.get(order.organization_uuid as string) as string }),
      )
    }
  })

  it('helpers: every list of ids', async () => {
    for (const path of ['bidding-modalities', 'bidding-statuses', 'management-statuses']) {
      const url = `/v1/transparency/helpers/${path}`
      check(answerSchema(url), url, await get(url))
    }
  })

  it('prices, suppliers and organizations: every page of each', async () => {
    const research = answerSchema('/v1/transparency/prices')
    for (const q of ['caneta', 'papel', 'toner', 'helicoptero']) {
      let url = `/v1/transparency/prices?q=${q}&per_page=100`
      for (const _turn of turns(10_000, 'the pages of items')) {
        const body = await get(url)
        check(research, url, body)
        if (!body.data.items.has_more) break
        url = `/v1/transparency/prices?q=${q}&per_page=100&cursor=${body.data.items.next_cursor}`
      }
    }
    const suppliers = (await get('/v1/transparency/suppliers?per_page=100')) as {
      data: { data: { document: string }[] }
    }
    check(answerSchema('/v1/transparency/suppliers'), 'suppliers', suppliers)
    for (const { document } of suppliers.data.data) {
      const url = `/v1/transparency/suppliers/${document}`
      check(answerSchema('/v1/transparency/suppliers/{cnpj}'), url, await get(url))
    }
    const organizations = (await get('/v1/transparency/organizations?per_page=100')) as {
      data: { data: { uuid: string }[] }
    }
    check(answerSchema('/v1/transparency/organizations'), 'organizations', organizations)
    for (const { uuid } of organizations.data.data) {
      const url = `/v1/transparency/organizations/${uuid}`
      check(answerSchema('/v1/transparency/organizations/{uuid}'), url, await get(url))
    }
  })
  it('OCDS: every release page, and each process as a record package and its releases as release packages', async () => {
    const page = answerSchema('/v1/ocds/releases')
    const record = answerSchema('/v1/ocds/records/{ocid}')
    const one = answerSchema('/v1/ocds/releases/{id}')
    const ocids: string[] = []
    let url = '/v1/ocds/releases?per_page=100'
    for (const _turn of turns(10_000, 'the releases by change')) {
      const body = await get(url)
      check(page, url, body)
      if (body.releases.length === 0) break
      ocids.push(...body.releases.map((r: { ocid: string }) => r.ocid))
      url = new URL(body.links.next).pathname + new URL(body.links.next).search
    }
    assert.ok(ocids.length > 0)
    for (const ocid of ocids) {
      const url = `/v1/ocds/records/${ocid}?versioned=true`
      const body = await get(url)
      check(record, url, body)
      for (const link of body.records[0].releases) {
        const path = new URL(link.url).pathname
        check(one, path, await get(path))
      }
    }
    check(answerSchema('/v1/ocds/package.json'), 'package.json', await get('/v1/ocds/package.json'))
  })
})
