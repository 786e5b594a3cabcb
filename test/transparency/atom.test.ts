import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import Parser from 'rss-parser'
import type { DemoRecord } from '../../src/demo/generator.js'
import { xmlText } from '../../src/feeds/atom.js'
import { importRecords } from '../../src/import/importer.js'
import { PUBLIC_RESOURCES } from '../../src/resources/index.js'
import { serving } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { eventually } from '../helpers/http.js'
import { demoRecords, first, ndjson, source } from '../helpers/records.js'

// The Atom feeds of the listings (issue 70, part 1) as a feed reader meets them: each valid against RFC 4287's
// RELAX NG schema (jing, Debian's; .ci/run installs it), read by a feed reader from npm (rss-parser) into the
// records the JSON listing gives for the same filters, newest change first, cached and conditional; a bad filter
// is the listing's 422 as XML, and every portal listing, organ page and supplier page links its feed.

const SCHEMA = path.resolve('test/fixtures/atom.rnc')
const JING = '/usr/bin/jing'

/** jing's verdict on a feed: its problems, none when valid; undefined without jing. */
async function validate(xml: string): Promise<string | undefined> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'atom-'))
  try {
    const file = path.join(dir, 'feed.xml')
    writeFileSync(file, xml)
    return await new Promise((resolve, reject) => {
      execFile(JING, ['-c', SCHEMA, file], { timeout: 60_000 }, (error, stdout) => {
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') reject(error)
        else resolve(error ? stdout || String(error) : '')
      })
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
const hasJing = async () =>
  validate('').then(
    () => true,
    () => false,
  )

describe('the Atom feeds of the listings', () => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof serving>>
  const records = demoRecords(
    { organizations: 2, orders: 8, contracts: 9, arps: 4, directContracts: 5, publicCalls: 6 },
    70,
  )
  const parser = new Parser()
  const feed = async (query: string) => {
    const response = await fetch(`${server.base}/v1/transparency/${query}`)
    return { response, text: await response.text() }
  }
  const listed = async (resource: string, filters: string) => {
    const response = await fetch(`${server.base}/v1/transparency/${resource}?per_page=100${filters}`)
    const body = (await response.json()) as { data: { data: { id: string }[] } }
    return body.data.data.map((item) => item.id).sort()
  }
  /** The record ids of a feed's entries, in the feed's order (each entry links its detail). */
  const idsOf = (items: readonly Record<string, unknown>[]) =>
    items.map((item) => String(item.id).split('/').at(-1))

  before(async () => {
    db = await seededDatabase(records)
    server = await serving(db)
  })
  after(async () => {
    await server?.close()
    await db?.drop()
  })

  it('gives every kind as a valid Atom feed that a feed reader reads into the records of the JSON listing', async (t) => {
    const jing = await hasJing()
    if (!jing) t.diagnostic('no jing (apt install jing): the feeds were not checked against RFC 4287 schema')
    const organization = first(records, 'organization').uuid as string
    for (const resource of PUBLIC_RESOURCES)
      for (const filters of ['', `&organization_uuid=${organization}`]) {
        const { response, text } = await feed(`${resource.path}.atom?${filters.slice(1)}`)
        assert.equal(response.status, 200, text)
        assert.equal(response.headers.get('content-type'), 'application/atom+xml; charset=utf-8')
        if (jing) assert.equal(await validate(text), '', `${resource.path}${filters}`)
        const read = await parser.parseString(text)
        assert.deepEqual(idsOf(read.items).sort(), await listed(resource.path, filters), resource.path)
        assert.ok(read.items.length > 0, resource.path)
        const one = read.items[0] as { id: string; link: string; title: string; contentSnippet?: string }
        assert.match(one.id, new RegExp(`^tag:localhost,2026:${resource.path}/[0-9a-f-]{36}$`))
        assert.match(one.link, new RegExp(`^http://localhost:3000/${resource.portal.path}/[0-9a-f-]{36}$`))
        assert.ok(one.title.startsWith(resource.noun.singular.charAt(0).toUpperCase()), one.title)
        assert.match(text, /<summary type="text">[^<]*R\$ [0-9.]+,[0-9]{2}/)
      }
  })

  it('puts the records last changed first, each at its last change, and follows a question by its words', async () => {
    const changed: DemoRecord = {
      ...first(records, 'contract'),
      object_details: 'Aquisição de colchões hospitalares',
    }
    assert.equal((await importRecords(db.pool, [source(ndjson([changed]))])).ok, true)
    await eventually(async () => {
      const read = await parser.parseString((await feed('contracts.atom')).text)
      assert.equal(idsOf(read.items)[0], changed.id)
      const { rows } = await db.pool.query<{ at: string }>(
        "SELECT max(changed_at) AS at FROM public_changes WHERE resource = 'contracts' AND id = $1",
        [changed.id],
      )
      assert.equal(
        new Date(read.items[0]?.isoDate as string).getTime(),
        new Date(rows[0]?.at as string).getTime(),
      )
      // Its new words find it, as the listing's q does.
      const found = await parser.parseString((await feed('contracts.atom?q=colchoes')).text)
      assert.deepEqual(idsOf(found.items), [changed.id])
      assert.deepEqual(await listed('contracts', '&q=colchoes'), [changed.id])
    })
  })

  it('answers an unchanged feed with 304 to its ETag, and keeps it until the next import', async () => {
    const { response } = await feed('public-calls.atom')
    const tag = response.headers.get('etag') as string
    assert.ok(tag)
    const again = await fetch(`${server.base}/v1/transparency/public-calls.atom`, {
      headers: { 'if-none-match': tag },
    })
    assert.equal(again.status, 304)
    assert.equal(response.headers.get('cache-control'), 'public, max-age=60')
  })

  it("refuses what the listing refuses, with the listing's message as XML", async () => {
    // What a feed takes is its listing's filters: a listing's page or order is no part of its question.
    const { response: unknown, text: refused } = await feed('contracts.atom?page=2')
    assert.equal(unknown.status, 422)
    assert.match(
      refused,
      /<message>Parâmetro desconhecido: page\. Aceitos: organization_uuid, number, .*, q\.<\/message>/,
    )
    const cases = [
      ['arps.atom?modality_id=abc', 'arps?modality_id=abc', 422],
      ['contracts.atom?provider_document=12345678901', 'contracts?provider_document=12345678901', 422],
      [
        'direct-contracts.atom?organization_uuid=0b000000-0000-4000-8000-000000000999',
        'direct-contracts?organization_uuid=0b000000-0000-4000-8000-000000000999',
        404,
      ],
    ] as const
    for (const [atom, listing, status] of cases) {
      const { response, text } = await feed(atom)
      assert.equal(response.status, status, atom)
      assert.equal(response.headers.get('content-type'), 'application/xml; charset=utf-8')
      const json = (await (await fetch(`${server.base}/v1/transparency/${listing}`)).json()) as {
        message: string
      }
      assert.equal(
        text,
        `<?xml version="1.0" encoding="utf-8"?>\n<response><success>false</success><message>${xmlText(json.message)}</message></response>\n`,
      )
    }
  })

  it('links each portal listing, organ and supplier to its feeds, in the head and as "Acompanhar"', async () => {
    const html = async (pathname: string) => (await fetch(`${server.base}${pathname}`)).text()
    const listing = await html('/contratos?q=colchoes')
    assert.ok(
      listing.includes(
        '<link rel="alternate" type="application/atom+xml" title="Contratos com estes filtros" href="/v1/transparency/contracts.atom?q=colchoes"/>',
      ),
    )
    assert.ok(listing.includes('Acompanhar estes resultados (Atom)'))
    const organization = first(records, 'organization').uuid as string
    const organ = await html(`/orgaos/${organization}`)
    for (const resource of PUBLIC_RESOURCES)
      assert.ok(
        organ.includes(`href="/v1/transparency/${resource.path}.atom?organization_uuid=${organization}"`),
      )
    assert.ok(organ.includes('Acompanhar este órgão (Atom)'))
    const company = (
      records.find((r) => r.type === 'contract' && String(r.provider_document).length === 14) as DemoRecord
    ).provider_document as string
    const supplier = await html(`/fornecedores/${company}`)
    assert.ok(supplier.includes(`href="/v1/transparency/contracts.atom?provider_document=${company}"`))
    assert.ok(supplier.includes('Acompanhar este fornecedor (Atom)'))
  })

  it('writes any text as XML can hold it', () => {
    assert.equal(xmlText('a & b < c > "d"'), 'a &amp; b &lt; c &gt; &quot;d&quot;')
    assert.equal(xmlText('sem\u0001controle\u0008, tab\tfica'), 'semcontrole, tab\tfica')
    assert.equal(xmlText('meio \ud800 par'), 'meio \ufffd par')
  })
})
