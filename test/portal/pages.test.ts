import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { type DemoRecord, generateDemo, SCALES } from '../../src/demo/generator.js'
import { day, formatValue, instant, money, taxId } from '../../src/format.js'
import { choices, recordWithHistory } from '../../src/portal/data.js'
import { DocumentStore } from '../../src/readmodel/store.js'
import { contracts, PUBLIC_RESOURCES } from '../../src/resources/index.js'
import { buildTestApp } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'

// The portal's pages over real HTTP answers (inject), on the small demo data plus a hostile record: what
// each page shows against what the API serves, the security headers, bad filters shown by their field,
// and text that must stay text. test/portal/browser.test.ts drives the same pages in Chromium.

const HOSTILE = '<script>alert(1)</script> "><img src=x onerror=alert(1)>'

/** The record ids a page links to under a portal path, in the page's order. */
const linkedIds = (html: string, path: string) =>
  [...html.matchAll(new RegExp(`href="/${path}/([0-9a-f-]{36})"`, 'g'))].map((m) => m[1] as string)

describe('portal formats', () => {
  it('writes money, days, instants and CNPJs as people in Brazil read them', () => {
    assert.equal(money('1234.56'), 'R$ 1.234,56')
    assert.equal(money('0.50'), 'R$ 0,50')
    assert.equal(money(1234567.5), 'R$ 1.234.567,50')
    assert.equal(day('2025-12-31'), '31/12/2025')
    assert.equal(instant('2026-01-01T02:30:00.000000Z'), '31/12/2025 23:30 (horário de Brasília)')
    assert.equal(taxId('12345678000190'), '12.345.678/0001-90')
    assert.equal(taxId('***.456.789-**'), '***.456.789-**')
    assert.equal(formatValue('boolean', true), 'Sim')
    assert.equal(formatValue('money', null), '—')
  })
})

describe('portal pages', () => {
  let db: TestDatabase
  let app: FastifyInstance
  const records: DemoRecord[] = [...generateDemo(SCALES.small, 2025)]
  const hostile = { ...(records.find((r) => r.type === 'contract') as DemoRecord) }
  hostile.id = 'aaaaaaaa-0000-4000-8000-0000000000aa'
  hostile.contract_number = 'HOSTIL/2026'
  hostile.object_details = HOSTILE
  records.push(hostile)

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers })
  const api = async (url: string) => (await get(url)).json()

  before(async () => {
    db = await seededDatabase(records)
    app = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '0' } })
  })
  after(async () => {
    await app.close()
    await db.drop()
  })

  it('has an icon, linked from every page: a 32×32 PNG inside an ICO', async () => {
    const home = await get('/')
    assert.match(home.body, /<link rel="icon" href="\/favicon.ico" sizes="32x32"\/?>/)
    const icon = await get('/favicon.ico')
    assert.equal(icon.statusCode, 200)
    assert.equal(icon.headers['content-type'], 'image/x-icon')
    const bytes = icon.rawPayload
    assert.deepEqual([bytes.readUInt16LE(2), bytes.readUInt16LE(4), bytes[6], bytes[7]], [1, 1, 32, 32])
    const png = bytes.subarray(bytes.readUInt32LE(18))
    assert.equal(png.length, bytes.readUInt32LE(14))
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG')
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [32, 32])
  })

  it('serves the home page with the count of each kind, its security headers and links for developers', async () => {
    const response = await get('/')
    assert.equal(response.statusCode, 200)
    assert.match(response.headers['content-type'] as string, /^text\/html; charset=utf-8/)
    const csp = response.headers['content-security-policy'] as string
    assert.match(csp, /default-src 'self'/)
    assert.match(csp, /frame-ancestors 'none'/)
    assert.doesNotMatch(csp, /unsafe-inline/)
    assert.equal(response.headers['x-content-type-options'], 'nosniff')
    assert.ok(response.headers['referrer-policy'])
    const html = response.body
    assert.match(html, /^<!doctype html><html lang="pt-BR">/)
    for (const resource of PUBLIC_RESOURCES) {
      const { total } = (await api(`/v1/transparency/${resource.path}?per_page=1`)).data
      const noun = total === 1 ? resource.noun.singular : resource.noun.plural
      assert.ok(
        html.includes(`${total.toLocaleString('pt-BR')} ${noun}`),
        `${resource.path}: ${total} ${noun}`,
      )
      assert.ok(html.includes(`href="/${resource.portal.path}"`))
    }
    assert.ok(html.includes('href="/docs"') && html.includes('href="/openapi.json"'))
    // The stylesheet it links to, from our own origin, named by its content: kept for good by a browser.
    const href = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? ''
    assert.match(href, /^\/static\/portal\.css\?v=[0-9a-f]{12}$/)
    const css = await get(href)
    assert.equal(css.statusCode, 200)
    assert.match(css.headers['content-type'] as string, /^text\/css/)
    assert.equal(css.headers['cache-control'], 'public, max-age=31536000, immutable')
    assert.equal(
      href.split('=')[1],
      createHash('sha256').update(css.body).digest('hex').slice(0, 12),
      'the name changes with the content',
    )
    // Asked by another name, as an older page would: the same sheet, kept an hour.
    const older = await get('/static/portal.css?v=000000000000')
    assert.equal(older.body, css.body)
    assert.equal(older.headers['cache-control'], 'public, max-age=3600')
  })

  for (const resource of PUBLIC_RESOURCES) {
    it(`${resource.portal.path}: the listing shows the API's page, sorted and filtered alike`, async () => {
      const query = `per_page=10&page=2&sort=-${Object.keys(resource.sorts)[0]}`
      const page = await get(`/${resource.portal.path}?${query}`)
      assert.equal(page.statusCode, 200, page.body)
      const body = (await api(`/v1/transparency/${resource.path}?${query}`)).data
      assert.deepEqual(
        [...new Set(linkedIds(page.body, resource.portal.path))],
        body.data.map((r: { id: string }) => r.id),
      )
      const noun = body.total === 1 ? resource.noun.singular : resource.noun.plural
      assert.ok(page.body.includes(`${body.total.toLocaleString('pt-BR')} ${noun}`))
      assert.ok(page.body.includes(`página 2 de ${body.last_page}`))
      // The downloads carry the filters and sort, not the page.
      const exportLink = `/v1/transparency/export?sort=-${Object.keys(resource.sorts)[0]}&amp;resource=${resource.path}&amp;format=xlsx`
      assert.ok(page.body.includes(exportLink), exportLink)
      // An organization's records.
      const organization = records.find((r) => r.type === resource.type)?.organization_uuid as string
      const filtered = await get(`/${resource.portal.path}?organization_uuid=${organization}&per_page=100`)
      const viaApi = (
        await api(`/v1/transparency/${resource.path}?organization_uuid=${organization}&per_page=100`)
      ).data
      assert.deepEqual(
        [...new Set(linkedIds(filtered.body, resource.portal.path))],
        viaApi.data.map((r: { id: string }) => r.id),
      )
      assert.ok(
        filtered.body.includes(`<option value="${organization}" selected="">`) ||
          filtered.body.includes(`<option selected value="${organization}"`) ||
          filtered.body.includes(`value="${organization}" selected`),
      )
    })

    it(`${resource.portal.path}: every record's page shows every field and relation, money and dates as read in Brazil`, async () => {
      const ofType = records.filter((r) => r.type === resource.type)
      for (const record of ofType) {
        const response = await get(`/${resource.portal.path}/${record.id}`)
        assert.equal(response.statusCode, 200, `${record.id}: ${response.statusCode}`)
        const html = response.body
        for (const name of resource.detail) {
          const field = resource.record.fields[name] as { label: string; optional?: boolean }
          // A field only PNCP's records fill is left out where a record has none: no row of dashes.
          if (field.optional && record[name] === undefined)
            assert.ok(
              !html.includes(`<dt>${field.label}</dt>`) && !html.includes(`>${field.label}</h2>`),
              `${record.id}: ${name} (${field.label}) is left out`,
            )
          else assert.ok(html.includes(field.label), `${record.id}: ${name} (${field.label})`)
        }
        const amount = (record.amount_total ?? record.sum_amount_total) as string | undefined
        if (amount !== undefined && !record.budget_secret)
          assert.ok(
            html.includes(money(amount).replace(' ', ' ')) || html.includes(money(amount)),
            `${record.id}: ${money(amount)}`,
          )
        if (record.budget_secret) assert.ok(html.includes('Sigiloso'))
        const day = (record.date_start ?? record.date_signature) as string | undefined
        if (day) assert.ok(html.includes(`${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`))
        for (const document of (record.documents as { url: string }[] | undefined) ?? []) {
          assert.ok(
            html.includes(`href="${document.url.replaceAll('&', '&amp;')}" rel="noopener noreferrer"`),
            document.url,
          )
        }
        for (const cpf of [
          ...((record.managers as { cpf: string }[]) ?? []),
          ...((record.inspectors as { cpf: string }[]) ?? []),
        ]) {
          assert.ok(!html.includes(cpf.cpf), 'a whole CPF')
          assert.ok(html.includes(`***.${cpf.cpf.slice(3, 6)}.${cpf.cpf.slice(6, 9)}-**`), 'the masked CPF')
        }
        const organ = records.find((r) => r.type === 'organization' && r.uuid === record.organization_uuid)
        assert.ok(
          html.includes(`<a href="/orgaos/${record.organization_uuid}">${organ?.name}</a>`),
          'a link to the organ, by its name',
        )
        assert.ok(html.includes(`href="/${resource.portal.path}"`), 'a breadcrumb to the listing')
      }
    })
  }

  it("reads a record's organ when the organs kept for the form do not have it yet", async () => {
    const store = new DocumentStore(db.pool, { cacheBytes: 1 << 20, onError: () => {} })
    await store.start()
    try {
      const contract = records.find((r) => r.type === 'contract') as DemoRecord
      const organ = records.find((r) => r.type === 'organization' && r.uuid === contract.organization_uuid)
      // As between an import that added the organ and the moment this instance hears of it.
      const kept = await choices(db.pool, store)
      const stale = { ...kept, organizations: kept.organizations.filter((o) => o.id !== organ?.uuid) }
      store.keeper('portal\u0000choices')(JSON.stringify(stale))
      assert.equal((await choices(db.pool, store)).organizations.length, kept.organizations.length - 1)
      const found = await recordWithHistory(db.pool, store, contracts, contract.id as string)
      assert.deepEqual(found?.owner, { organization_uuid: organ?.uuid, organization_name: organ?.name })
      assert.equal(found?.document.contract_number, contract.contract_number)
      assert.equal(
        await recordWithHistory(db.pool, store, contracts, 'aaaaaaaa-0000-4000-8000-00000000dead'),
        undefined,
      )
    } finally {
      await store.close()
    }
  })

  it('links a contract to its bidding, whatever its kind, and a bidding to its contracts', async () => {
    const contract = records.find((r) => r.type === 'contract' && r.bidding_uuid) as DemoRecord
    const html = (await get(`/contratos/${contract.id}`)).body
    assert.ok(html.includes(`href="/licitacoes/${contract.bidding_uuid}"`))
    const redirect = await get(`/licitacoes/${contract.bidding_uuid}`)
    assert.equal(redirect.statusCode, 302)
    const bidding = records.find((r) => r.id === contract.bidding_uuid) as DemoRecord
    const path = bidding.type === 'direct_contract' ? 'contratacoes-diretas' : 'chamadas-publicas'
    assert.equal(redirect.headers.location, `/${path}/${bidding.id}`)
    const biddingPage = (await get(`/${path}/${bidding.id}`)).body
    assert.ok(biddingPage.includes(`href="/contratos/${contract.id}"`))
  })

  it("links a company's name to its page, and a person's to none", async () => {
    const ofCompany = records.find(
      (r) => r.type === 'contract' && String(r.provider_document).length === 14,
    ) as DemoRecord
    const html = (await get(`/contratos/${ofCompany.id}`)).body
    assert.ok(html.includes(`href="/fornecedores/${ofCompany.provider_document}"`))
    const supplierPage = await get(`/fornecedores/${ofCompany.provider_document}`)
    assert.equal(supplierPage.statusCode, 200)
    assert.ok(supplierPage.body.includes('Valor por ano'))
    const ofPerson = records.find((r) => r.type === 'contract' && String(r.provider_document).length === 11)
    if (ofPerson) {
      const personal = (await get(`/contratos/${ofPerson.id}`)).body
      assert.ok(!personal.includes('/fornecedores/'))
      assert.equal((await get(`/fornecedores/${ofPerson.provider_document}`)).statusCode, 404)
    }
  })

  it('shows the organ: its totals, a chart of 24 months readable without script, its latest records', async () => {
    const organization = records.find((r) => r.type === 'organization') as DemoRecord
    const response = await get(`/orgaos/${organization.uuid}`)
    assert.equal(response.statusCode, 200)
    const html = response.body
    assert.ok(html.includes(`<h1>${organization.name}</h1>`.replace(/&/g, '&amp;')))
    assert.equal((html.match(/<rect /g) ?? []).length, 24)
    assert.ok(html.includes('<svg') && html.includes('role="img"'))
    assert.ok(html.includes('Ver os valores em tabela'))
    for (const resource of PUBLIC_RESOURCES) {
      const { total } = (
        await api(`/v1/transparency/${resource.path}?organization_uuid=${organization.uuid}&per_page=1`)
      ).data
      const noun = total === 1 ? resource.noun.singular : resource.noun.plural
      assert.ok(html.includes(`${total.toLocaleString('pt-BR')} ${noun}`), resource.path)
    }
  })

  it('answers unknown and malformed ids with a 404 page in the portal layout', async () => {
    for (const url of [
      '/contratos/00000000-0000-4000-8000-000000000000',
      '/contratos/not-a-uuid',
      '/atas/00000000-0000-4000-8000-000000000000',
      '/orgaos/00000000-0000-4000-8000-000000000000',
      '/licitacoes/00000000-0000-4000-8000-000000000000',
    ]) {
      const response = await get(url)
      assert.equal(response.statusCode, 404, url)
      assert.match(response.headers['content-type'] as string, /^text\/html/)
      assert.ok(response.body.includes('Não encontrado'), url)
      assert.ok(response.body.includes('Portal da transparência'), url)
      assert.ok(response.headers['content-security-policy'])
    }
  })

  it('refuses parameters a page does not take, naming them, instead of keeping a copy per URL', async () => {
    const contract = records.find((r) => r.type === 'contract') as DemoRecord
    const organ = records.find((r) => r.type === 'organization') as DemoRecord
    for (const [url, name, takes] of [
      ['/?x=1', 'x', /não aceita parâmetros/],
      ['/busca?q=material&v=2', 'v', /aceita: q\./],
      [`/contratos/${contract.id}?v=2`, 'v', /não aceita parâmetros/],
      [`/contratos/${contract.id}/versoes/1?utm=1`, 'utm', /não aceita parâmetros/],
      [`/orgaos/${organ.uuid}?ano=2025`, 'ano', /não aceita parâmetros/],
    ] as const) {
      const response = await get(url)
      assert.equal(response.statusCode, 422, url)
      assert.match(response.headers['content-type'] as string, /^text\/html/)
      assert.ok(response.body.includes(`Parâmetro desconhecido: ${name}.`), url)
      assert.match(response.body, takes)
    }
    // The same pages without them are served.
    assert.equal((await get(`/contratos/${contract.id}`)).statusCode, 200)
    assert.equal((await get('/busca?q=material')).statusCode, 200)
  })

  it('shows a bad filter again in the form, with the problem next to its field', async () => {
    const response = await get('/contratos?modality_id=99&date_from=2025-02-30&q=ok')
    assert.equal(response.statusCode, 422)
    assert.match(response.headers['content-type'] as string, /^text\/html/)
    const html = response.body
    assert.match(html, /id="e-modality_id">Parâmetro inválido: modality_id[^<]*</)
    assert.match(html, /id="e-date_from">Parâmetro inválido: date_from[^<]*</)
    assert.ok(html.includes('aria-describedby="e-modality_id"'))
    assert.ok(!html.includes('id="e-q"'))
    assert.ok(html.includes('value="ok"'), 'the rest of the form as it was')
    const unknownOrganization = await get('/contratos?organization_uuid=00000000-0000-4000-8000-000000000000')
    assert.equal(unknownOrganization.statusCode, 404)
    assert.ok(unknownOrganization.body.includes('id="e-organization_uuid">Organização não encontrada.<'))
    // Empty fields, as a form sends them, are no filter at all.
    assert.equal((await get('/contratos?q=&modality_id=&page=1')).statusCode, 200)
  })

  it('finds an organ by its name, without listing every organ on every page', async () => {
    const organs = records.filter((r) => r.type === 'organization')
    const campinas = organs.find((r) => r.name === 'Prefeitura Municipal de Campinas') as DemoRecord
    const saoPaulo = organs.find((r) => r.name === 'Prefeitura Municipal de São Paulo') as DemoRecord
    // A plain listing offers no organ list to scroll: only the search by name.
    const plain = (await get('/contratos')).body
    assert.ok(plain.includes('id="f-orgao"'))
    for (const organ of organs) assert.ok(!plain.includes(`value="${organ.uuid}"`), 'no option per organ')

    // One organ by part of its name, accents and case aside: the filter, in the API's parameters.
    const one = await get('/contratos?orgao=SAO%20paulo&modality_id=1&sort=value&page=3')
    assert.equal(one.statusCode, 303)
    assert.equal(
      one.headers.location,
      `/contratos?modality_id=1&sort=value&organization_uuid=${saoPaulo.uuid}`,
    )
    const chosen = (await get(one.headers.location as string)).body
    assert.ok(chosen.includes(`<option value="${saoPaulo.uuid}" selected>Prefeitura Municipal de São Paulo<`))
    assert.ok(!chosen.includes(`value="${campinas.uuid}"`), 'the chosen organ only')

    // Several: offered to choose, in name order, in place of results.
    const several = await get('/contratos?orgao=prefeitura&q=ok')
    assert.equal(several.statusCode, 200)
    assert.ok(several.body.includes(`${organs.length} órgãos têm esse nome: escolha um na lista`))
    assert.ok(!several.body.includes('<table'), 'no results until one is chosen')
    const offered = [...several.body.matchAll(/<option value="([0-9a-f-]{36})">/g)].map((m) => m[1])
    const byName = [...organs].sort((a, b) => String(a.name).localeCompare(String(b.name), 'pt-BR'))
    assert.deepEqual(
      offered,
      byName.map((o) => o.uuid),
    )
    assert.ok(several.body.includes('value="prefeitura"') && several.body.includes('value="ok"'))
    // The choice, sent with the name still in its box, becomes the filter.
    const picked = await get(`/contratos?orgao=prefeitura&organization_uuid=${campinas.uuid}&q=ok`)
    assert.equal(picked.statusCode, 303)
    assert.equal(picked.headers.location, `/contratos?organization_uuid=${campinas.uuid}&q=ok`)

    // None, or a name that cannot be one: the problem by the field, the form as it was.
    const none = await get('/contratos?orgao=Bras%C3%ADlia&q=ok')
    assert.equal(none.statusCode, 422)
    assert.ok(none.body.includes('id="e-orgao">Nenhum órgão tem esse nome.<'))
    assert.ok(none.body.includes('value="Brasília"') && none.body.includes('value="ok"'))
    for (const bad of ['a%00b', 'x'.repeat(201)]) {
      const response = await get(`/contratos?orgao=${bad}`)
      assert.equal(response.statusCode, 422, bad)
      assert.match(response.body, /id="e-orgao">O nome do órgão deve ter de 1 a 200 caracteres/)
    }
  })

  it('opens the price panel from the menu as its form, with examples to follow', async () => {
    const home = await get('/')
    assert.match(home.body, /<a href="\/precos">Preços<\/a>/)
    const panel = await get('/precos')
    assert.equal(panel.statusCode, 200)
    assert.match(panel.body, /<form method="get" action="\/precos"/)
    assert.match(panel.body, /<a href="\/precos\?q=papel\+sulfite">papel sulfite<\/a>/)
    // An empty description, as a form sends it, is the same: the form.
    assert.equal((await get('/precos?q=&unit=')).statusCode, 200)
    const answered = await get('/precos?q=papel+sulfite')
    assert.equal(answered.statusCode, 200)
    assert.match(answered.body, /Resultado para “papel sulfite”/)
  })

  it("offers the research's filters on the panel, and leads there from an organ's and a supplier's page", async () => {
    const panel = (await get('/precos')).body
    for (const label of [
      'Descrição do item',
      'Unidade de medida',
      'CNPJ do fornecedor (14 dígitos)',
      'Nome do fornecedor',
      'Modalidade',
    ])
      assert.ok(panel.includes(`>${label}</label>`), label)
    assert.ok(panel.includes('name="date_from"') && panel.includes('name="date_to"'))
    // The organ is named, not typed: it is offered only when a page asked for it.
    assert.ok(!panel.includes('name="organization_uuid"'))

    const ordered = records.find(
      (r) => r.type === 'order' && JSON.stringify(r.items).toLowerCase().includes('caneta'),
    ) as DemoRecord
    const organ = (await get(`/orgaos/${ordered.organization_uuid}`)).body
    const href = `/precos?organization_uuid=${ordered.organization_uuid}`
    assert.ok(organ.includes(`href="${href}"`))
    const opened = (await get(href)).body
    assert.ok(opened.includes(`<option value="${ordered.organization_uuid}" selected`))
    const { name } = (await api(`/v1/transparency/organizations/${ordered.organization_uuid}`)).data
    assert.ok(opened.includes(`>${name}</option>`))

    // The organ's research answers what the API answers for it, and the form keeps the organ chosen.
    const q = 'caneta'
    const narrowed = await get(`${href}&q=${q}`)
    assert.equal(narrowed.statusCode, 200)
    const research = await api(
      `/v1/transparency/prices?q=${q}&organization_uuid=${ordered.organization_uuid}`,
    )
    const all = await api(`/v1/transparency/prices?q=${q}`)
    const [mine, everyone] = [research, all].map(({ data }) => data.summary[0])
    assert.ok(mine.items > 0 && mine.items < everyone.items && mine.organizations === 1)
    const items = mine.items === 1 ? '1 item' : `${mine.items.toLocaleString('pt-BR')} itens`
    assert.ok(narrowed.body.includes(`${items} comprados por 1 órgão`), items)
    assert.ok(narrowed.body.includes(`<option value="${ordered.organization_uuid}" selected`))

    const company = records.find((r) => /^[0-9]{14}$/.test(String(r.provider_document ?? ''))) as DemoRecord
    const supplier = (await get(`/fornecedores/${company.provider_document}`)).body
    const priced = `/precos?provider_document=${company.provider_document}`
    assert.ok(supplier.includes(`href="${priced}"`))
    assert.ok((await get(priced)).body.includes(`value="${company.provider_document}"`))
  })

  it('renders hostile text as text', async () => {
    for (const url of [
      '/contratos?q=HOSTIL',
      `/contratos/${hostile.id}`,
      '/contratos?per_page=100&sort=-date_start',
    ]) {
      const html = (await get(url)).body
      assert.ok(!html.includes('<script>alert'), url)
      assert.ok(!html.includes('<img src=x'), url)
    }
    const detail = (await get(`/contratos/${hostile.id}`)).body
    // Every < escaped, so no tag can open; the text reads as it was written.
    assert.ok(detail.includes('&lt;script>alert(1)&lt;/script> &quot;>&lt;img src=x onerror=alert(1)>'))
    // The search page says what was searched, in its heading and title, as text.
    const search = await get(`/busca?q=${encodeURIComponent(HOSTILE)}`)
    assert.equal(search.statusCode, 200)
    assert.ok(!search.body.includes('<script>alert'))
    assert.ok(!search.body.includes('<img src=x'))
    assert.match(search.body, /<h1>[^<]*&lt;script>alert\(1\)&lt;\/script>/)
  })

  it('searches every kind from the home page', async () => {
    const response = await get('/busca?q=computador')
    assert.equal(response.statusCode, 200)
    for (const resource of PUBLIC_RESOURCES) {
      const { total } = (await api(`/v1/transparency/${resource.path}?q=computador&per_page=1`)).data
      const noun = total === 1 ? resource.noun.singular : resource.noun.plural
      assert.ok(response.body.includes(`${total.toLocaleString('pt-BR')} ${noun}`), resource.path)
      assert.ok(response.body.includes(`href="/${resource.portal.path}?q=computador"`))
    }
    assert.equal((await get('/busca?q=')).statusCode, 302)
  })

  it('is cached and revalidated like the API: ETag, 304, compression', async () => {
    const first = await get('/contratos')
    const tag = first.headers.etag as string
    assert.ok(tag)
    const again = await get('/contratos', { 'if-none-match': tag })
    assert.equal(again.statusCode, 304)
    const compressed = await get('/contratos', { 'accept-encoding': 'br' })
    assert.equal(compressed.headers['content-encoding'], 'br')
  })
})
