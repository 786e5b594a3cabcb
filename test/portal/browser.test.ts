import assert from 'node:assert/strict'
import { existsSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import ExcelJS from 'exceljs'
import type { FastifyInstance } from 'fastify'
import { type Browser, chromium } from 'playwright-core'
import { type DemoRecord, generateDemo, SCALES } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { buildTestApp, listen } from '../helpers/app.js'
import { seededDatabase, type TestDatabase } from '../helpers/db.js'
import { ndjson, source } from '../helpers/records.js'

// The portal as people meet it: Debian's Chromium (CHROMIUM_PATH, /usr/bin/chromium by default) driven by
// playwright-core over real HTTP, with and without JavaScript; axe-core checks each kind of page; a
// screenshot of each at 1280 and 375 px goes to reports/screenshots (not committed). Without Chromium the
// suite skips, and npm test says so at the end (apt install chromium).

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const SHOTS = path.resolve('reports/screenshots')
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
/** 31/12/2026 from 2026-12-31, as the pages show a day. */
const day = (value: string) => value.split('-').reverse().join('/')
const HOSTILE = '<script>alert(1)</script> "><img src=x onerror=alert(1)>'

describe('the portal in a real browser', {
  skip: existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}`,
}, () => {
  let db: TestDatabase
  let app: FastifyInstance
  let base = ''
  let browser: Browser
  const problems: string[] = [] // console errors and page errors, on every page visited
  const records: DemoRecord[] = [...generateDemo(SCALES.small, 2025)]
  const hostile = { ...(records.find((r) => r.type === 'contract' && r.bidding_uuid) as DemoRecord) }
  hostile.id = 'aaaaaaaa-0000-4000-8000-0000000000aa'
  hostile.contract_number = 'HOSTIL/2026'
  hostile.object_details = HOSTILE
  records.push(hostile)
  const changes: DemoRecord[] = [
    {
      ...hostile,
      amount_total: '98765.43',
      terms: [
        ...((hostile.terms as DemoRecord[] | undefined) ?? []),
        {
          number: '9º Termo Aditivo',
          kind: 'Aditivo de valor',
          description: `Acréscimo ${HOSTILE}`,
          signature_date: '2026-11-02',
          date_start: null,
          date_end: null,
          value: '1000.00',
          documents: [],
        },
      ],
    },
  ]
  // Then its term is extended by a year.
  const extended = `${Number((hostile.date_end as string).slice(0, 4)) + 1}${(hostile.date_end as string).slice(4)}`
  changes.push({ ...(changes[0] as DemoRecord), date_end: extended })

  const api = async (url: string) => (await fetch(`${base}${url}`)).json()

  async function open(options: { javaScript?: boolean; width?: number; bypassCSP?: boolean } = {}) {
    const context = await browser.newContext({
      javaScriptEnabled: options.javaScript ?? true,
      viewport: { width: options.width ?? 1280, height: 900 },
      bypassCSP: options.bypassCSP ?? false,
      acceptDownloads: true,
    })
    const page = await context.newPage()
    // A page that answers 404 or 422 on purpose makes Chromium log "Failed to load resource"; what matters
    // is that every file a page asks for (its stylesheet) loads.
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        problems.push(`${page.url()}: ${message.text()}`)
    })
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'document' && response.status() >= 400)
        problems.push(`${response.url()}: ${response.status()}`)
    })
    page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`))
    page.on('dialog', (dialog) => {
      problems.push(`${page.url()}: a dialog opened: ${dialog.message()}`)
      void dialog.dismiss()
    })
    return { context, page }
  }

  before(async () => {
    db = await seededDatabase(records)
    // The hostile contract changes twice: a history to show, with hostile text in it too.
    for (const change of changes) {
      const changed = await importRecords(db.pool, [source(ndjson([change]))])
      assert.equal(changed.ok, true, JSON.stringify(changed.problems))
    }
    app = await buildTestApp(db, { env: { PUBLIC_RATE_LIMIT: '0' } })
    base = await listen(app)
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
    mkdirSync(SHOTS, { recursive: true })
  })
  after(async () => {
    await browser?.close()
    await app?.close()
    await db?.drop()
  })

  for (const javaScript of [true, false]) {
    it(`home → search → a contract → its bidding → its organ, JavaScript ${javaScript ? 'on' : 'off'}`, async () => {
      const { context, page } = await open({ javaScript })
      try {
        await page.goto(`${base}/`)
        await page.getByLabel('Buscar em contratos').fill('computador')
        await page.getByRole('button', { name: 'Buscar' }).click()
        await page.waitForURL(/\/busca\?q=computador$/)
        const results = page.locator('section[aria-labelledby="k-contracts"] tbody a')
        assert.ok((await results.count()) > 0, 'contracts found for "computador"')
        // The first result whose contract came from a bidding.
        const hrefs = await results.evaluateAll((links) => links.map((a) => a.getAttribute('href') as string))
        let found = false
        for (const href of hrefs) {
          await page.goto(`${base}${href}`)
          // The bidding it came from, named by its number.
          const origin = page.locator('main > p a[href^="/licitacoes/"]')
          if ((await origin.count()) === 0) continue
          found = true
          await origin.click()
          await page.waitForURL(/\/(contratacoes-diretas|chamadas-publicas)\/[0-9a-f-]{36}$/)
          assert.match(await page.locator('h1').innerText(), /^(Contratação direta|Chamada pública) /)
          await page.locator('nav.crumbs a[href^="/orgaos/"]').click()
          await page.waitForURL(/\/orgaos\/[0-9a-f-]{36}$/)
          assert.equal(await page.locator('svg.chart rect').count(), 24)
          break
        }
        assert.ok(found, 'a contract with a bidding among the results')
      } finally {
        await context.close()
      }
    })
  }

  it('filters by form into a URL of the API parameters, and downloads the same rows as XLSX', async () => {
    const { context, page } = await open()
    try {
      const contract = records.find((r) => r.type === 'contract') as DemoRecord
      const modality = (await api(`/v1/transparency/contracts/${contract.id}`)).data
        .bidding_modality as string
      const modalities = (await api('/v1/transparency/helpers/bidding-modalities')).data as {
        id: number
        name: string
      }[]
      const modalityId = String(modalities.find((m) => m.name === modality)?.id)
      const organ = records.find((r) => r.uuid === contract.organization_uuid) as DemoRecord
      await page.goto(`${base}/contratos`)
      // The organ by a word of its name: several organs have it, so the form offers them to choose from.
      await page.getByLabel('Órgão: buscar pelo nome').fill('prefeitura')
      await page.getByLabel('Modalidade').selectOption(modalityId)
      await page.getByRole('button', { name: 'Filtrar' }).click()
      await page.getByText('órgãos têm esse nome').waitFor()
      await page.getByLabel('Órgão', { exact: true }).selectOption({ label: organ.name as string })
      await page.getByLabel('Início da vigência: de').fill('2000-01-01')
      await page.getByRole('button', { name: 'Filtrar' }).click()
      await page.waitForURL(/organization_uuid=/)
      const params = new URLSearchParams(new URL(page.url()).search)
      const sent = Object.fromEntries([...params].filter(([, value]) => value !== ''))
      assert.deepEqual(sent, {
        organization_uuid: contract.organization_uuid,
        modality_id: modalityId,
        date_from: '2000-01-01',
        sort: '-date_start',
        per_page: '20',
      })
      // The same parameters, as the API takes them, give the same records in the same order.
      const body = (await api(`/v1/transparency/contracts?${new URLSearchParams(sent)}`)).data
      const shown = await page
        .locator('table tbody tr td:first-child a')
        .evaluateAll((links) => links.map((a) => (a.getAttribute('href') as string).split('/').at(-1)))
      assert.deepEqual(
        shown,
        body.data.map((r: { id: string }) => r.id),
      )
      assert.ok(body.total > 0)
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Baixar planilha (XLSX)' }).click(),
      ])
      const file = path.join(SHOTS, 'download.xlsx')
      await download.saveAs(file)
      const workbook = new ExcelJS.Workbook()
      await workbook.xlsx.readFile(file)
      const sheet = workbook.worksheets[0] as ExcelJS.Worksheet
      assert.equal(sheet.rowCount - 1, body.total, 'the file holds every row of the filter, not one page')
    } finally {
      await context.close()
    }
  })

  it('shows hostile text as text, and runs nothing of it', async () => {
    const { context, page } = await open()
    try {
      await page.goto(`${base}/contratos/${hostile.id}`)
      assert.ok((await page.locator('main').innerText()).includes(HOSTILE))
      assert.equal(await page.locator('main img').count(), 0)
      await page.goto(`${base}/contratos?q=HOSTIL`)
      assert.equal(await page.locator('main img').count(), 0)
    } finally {
      await context.close()
    }
  })

  it("shows a record's history, antes and depois, and each earlier version, without JavaScript", async () => {
    const { context, page } = await open({ javaScript: false, width: 375 })
    try {
      await page.goto(`${base}/contratos/${hostile.id}`)
      const section = page.locator('section[aria-labelledby="historico"]')
      assert.equal(await section.locator('h2').innerText(), 'Histórico de alterações')
      // Newest first: the current version, then the two before it, each earlier one a link.
      const headings = await section.locator('h3').allInnerTexts()
      assert.equal(headings.length, 3)
      assert.match(
        headings[0] as string,
        /^Versão 3, em \d\d\/\d\d\/\d{4} \d\d:\d\d \(horário de Brasília\) \(atual\)$/,
      )
      assert.match(headings[2] as string, /^Versão 1, em /)
      // Version 2 raised the value and added a term: the value before and after, formatted, side by side.
      const v2 = section.locator('li', { has: page.locator('h3', { hasText: 'Versão 2' }) })
      const value = v2.locator('tr', { has: page.locator('th', { hasText: /^Valor total$/ }) })
      const cells = await value.locator('td').allInnerTexts()
      assert.deepEqual(cells, [
        `R$ ${Number(hostile.amount_total).toLocaleString('pt-BR', { minimumFractionDigits: 2 })}`,
        'R$ 98.765,43',
      ])
      const term = v2.locator('tr', { hasText: '9º Termo Aditivo' })
      assert.equal(await term.locator('td').first().innerText(), '—')
      assert.ok((await term.locator('td').nth(1).innerText()).includes(HOSTILE))
      assert.equal(await page.locator('main img').count(), 0)
      const v3 = section.locator('li', { has: page.locator('h3', { hasText: 'Versão 3' }) })
      assert.deepEqual(
        await v3
          .locator('tbody tr')
          .evaluateAll((rows) =>
            rows.map((row) => Array.from(row.children, (cell) => (cell as HTMLElement).innerText)),
          ),
        [['Fim da vigência', day(hostile.date_end as string), day(extended)]],
      )
      // An earlier version: its own page, its values then, and the way back.
      await section.getByRole('link', { name: /^Versão 1,/ }).click()
      await page.waitForURL(`${base}/contratos/${hostile.id}/versoes/1`)
      assert.match(
        await page.locator('aside.banner').innerText(),
        /^Versão 1 de 3, em .*Esta não é a versão atual/,
      )
      assert.ok((await page.locator('main').innerText()).includes('Contrato HOSTIL/2026, versão 1'))
      assert.equal(await page.locator('section[aria-labelledby="historico"]').count(), 0)
      await page.getByRole('link', { name: 'Ver a versão atual' }).click()
      await page.waitForURL(`${base}/contratos/${hostile.id}`)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      assert.ok(overflow <= 0, `the history overflows a phone by ${overflow} px`)
    } finally {
      await context.close()
    }
  })

  it('passes axe-core on every kind of page, fits a phone, and leaves a screenshot of each', async () => {
    const arp = records.find((r) => r.type === 'arp') as DemoRecord
    const bidding = records.find((r) => r.type === 'public_call') as DemoRecord
    const organization = records.find((r) => r.type === 'organization') as DemoRecord
    const pages: [string, string][] = [
      ['home', '/'],
      ['busca', '/busca?q=computador'],
      ['contratos', '/contratos'],
      ['contratos-filtro-invalido', '/contratos?modality_id=99&date_from=2025-02-30'],
      ['contratos-orgaos', '/contratos?orgao=prefeitura'],
      ['contrato', `/contratos/${hostile.id}`],
      ['contrato-versao', `/contratos/${hostile.id}/versoes/1`],
      ['chamada-publica', `/chamadas-publicas/${bidding.id}`],
      ['ata', `/atas/${arp.id}`],
      ['orgao', `/orgaos/${organization.uuid}`],
      ['orgaos', '/orgaos?q=prefeitura'],
      ['precos', '/precos?q=caneta'],
      ['precos-vazio', '/precos'],
      ['fornecedores', '/fornecedores?q=ltda'],
      [
        'fornecedor',
        `/fornecedores/${(records.find((r) => r.type === 'contract' && String(r.provider_document).length === 14) as DemoRecord).provider_document}`,
      ],
      ['indicadores', '/indicadores'],
      ['indicador', '/indicadores/R011'],
      ['nao-encontrado', '/contratos/00000000-0000-4000-8000-000000000000'],
    ]
    for (const width of [1280, 375]) {
      const { context, page } = await open({ width, bypassCSP: true })
      try {
        for (const [name, url] of pages) {
          await page.goto(`${base}${url}`)
          await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true })
          // No page-wide sideways scroll: wide tables scroll inside their own region.
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
          assert.ok(overflow <= 0, `${url} at ${width} px overflows by ${overflow} px`)
          if (width === 375) {
            // Stacked tables: every cell is labelled, on the phone, by its column's header, whether the label
            // comes from the cell (data-label) or from the stylesheet (a kind's listed fields).
            const mislabelled = await page.evaluate(() =>
              Array.from(document.querySelectorAll('table.stack')).flatMap((table) => {
                const headers = Array.from(table.querySelectorAll('thead th')).map((th) =>
                  (th.textContent ?? '').replace(/ [↑↓]$/, ''),
                )
                return Array.from(table.querySelectorAll('tbody tr')).flatMap((row) =>
                  Array.from(row.children).flatMap((cell, i) => {
                    const label = getComputedStyle(cell, '::before').content
                    return label === JSON.stringify(headers[i]) ? [] : [`${headers[i]}: ${label}`]
                  }),
                )
              }),
            )
            assert.deepEqual([...new Set(mislabelled)], [], `${url}: cells labelled other than their column`)
            // Every form's fields stay inside the form's box (a long option widens a select past it).
            const outside = await page.evaluate(() =>
              Array.from(document.querySelectorAll('form')).flatMap((form) => {
                const box = form.getBoundingClientRect()
                return Array.from(form.querySelectorAll('input, select, button'))
                  .filter((field) => field.getBoundingClientRect().right > box.right + 0.5)
                  .map((field) => field.getAttribute('name') ?? field.tagName)
              }),
            )
            assert.deepEqual(outside, [], `${url}: fields past their form's edge`)
          }
          await page.addScriptTag({ path: AXE })
          const violations = await page.evaluate(async () => {
            const axe = (window as unknown as { axe: { run: () => Promise<{ violations: Violation[] }> } })
              .axe
            type Violation = { id: string; impact: string; nodes: { target: string[] }[] }
            const result = await axe.run()
            // Every violation, whatever its impact.
            return result.violations.map(
              (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
            )
          })
          assert.deepEqual(violations, [], `${url} at ${width} px`)
        }
      } finally {
        await context.close()
      }
    }
  })

  it('logged no console error and opened no dialog on any page', () => {
    assert.deepEqual(problems, [])
  })
})
