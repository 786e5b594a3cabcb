import type { Static } from 'typebox'
import { counted, day, MISSING, money, taxId } from '../format.js'
import type { FlagCounts } from '../indicators/flags.js'
import { SUPPLIER_TALLIED, type SupplierKind } from '../parties/parties.js'
import type { OrganizationList, OrganizationPage, SupplierList, SupplierPage } from '../parties/schemas.js'
import { PRICE_FILTERS } from '../prices/research.js'
import type { PriceResearch, PriceSummary as PriceSummarySchema } from '../prices/schemas.js'
import { PRICE_STATISTICS, STATISTIC_NAMES, type StatisticName } from '../prices/statistics.js'
import { arps } from '../resources/arp.js'
import { directContracts, publicCalls } from '../resources/bidding.js'
import { contracts } from '../resources/contract.js'
import type { Choices } from './data.js'
import { FilterFields } from './form-field.js'
import { AlertCounts } from './indicators.js'
import { ChartFigure, capitalized, FollowLinks, feedsOf, page, recordPath, Scroll } from './layout.js'
import { listingUrl } from './listing.js'

// The pages of what things cost and who is paid: the price panel (/precos), a company's page
// (/fornecedores/{cnpj}) and the list of organs (/orgaos). Drawn on the server, charts as SVG with a title and
// a table of their values, so that they read without script and with a screen reader.

/** A unit's statistics, as the API's summary gives them (src/prices/schemas.ts). */
export type PriceSummary = Static<typeof PriceSummarySchema>

/** The research as the API answers it: its summary and a page of its items, each item its served fields. */
export type PriceResearchView = Static<typeof PriceResearch>

type PriceItemView = PriceResearchView['items']['data'][number]

/** The panel's form fields, as asked (q, unit, date_from, date_to), and the research when there is a q. */
export interface PricePanel {
  asked: Readonly<Record<string, string>>
  research?: PriceResearchView
  /** Why the research was not made (too broad): said under the form, which stays to be narrowed. */
  problem?: string
  /** The closed lists the form's selects offer. */
  lists: Choices['lists']
  /** The name of the organization asked for, when one is. */
  organization?: string
}

const company = (document: string) => /^[0-9]{14}$/.test(document)

/** The supplier's name, linked to its page when it is a company. */
function Supplier({ name, document }: { name: string; document: string }) {
  return company(document) ? <a href={`/fornecedores/${document}`}>{name}</a> : name
}

/** A box plot of each unit's prices: whiskers to the last prices inside the fences, outliers as dots. */
function BoxPlot({ entry, index }: { entry: PriceSummary; index: number }) {
  // Narrow, so that its labels stay legible when a phone scales it down.
  const width = 400
  const low = Number(entry.min)
  const high = Number(entry.max)
  const span = high - low || 1
  const x = (value: string | number) => 20 + ((Number(value) - low) / span) * (width - 40)
  const id = `boxplot-${index}`
  // Labels kept inside the picture: a quartile near an end is labelled where it still fits.
  const within = (at: number, room: number) => Math.min(width - room, Math.max(room, at))
  return (
    <figure>
      <svg viewBox={`0 0 ${width} 112`} role="img" aria-labelledby={id} class="chart">
        <title id={id}>
          {`Distribuição dos preços por ${entry.unit}: mínimo ${money(entry.min)}, 1º quartil ${money(entry.p25)}, ` +
            `mediana ${money(entry.median)}, 3º quartil ${money(entry.p75)}, máximo ${money(entry.max)}; ` +
            `${entry.outliers} fora da faixa.`}
        </title>
        <line x1={x(entry.sanitized.min)} y1={40} x2={x(entry.p25)} y2={40} class="axis" />
        <line x1={x(entry.p75)} y1={40} x2={x(entry.sanitized.max)} y2={40} class="axis" />
        <rect
          x={x(entry.p25)}
          y={20}
          width={Math.max(1, x(entry.p75) - x(entry.p25))}
          height={40}
          class="bar"
        />
        <line x1={x(entry.median)} y1={20} x2={x(entry.median)} y2={60} class="median" />
        {entry.outliers > 0 && (
          <>
            {Number(entry.min) < Number(entry.sanitized.min) && (
              <circle cx={x(entry.min)} cy={40} r={4} class="outlier" />
            )}
            {Number(entry.max) > Number(entry.sanitized.max) && (
              <circle cx={x(entry.max)} cy={40} r={4} class="outlier" />
            )}
          </>
        )}
        <text x={within(x(entry.p25) - 4, 110)} y={13} text-anchor="end" class="tick">
          {`Q1 ${money(entry.p25)}`}
        </text>
        <text x={within(x(entry.p75) + 4, 110)} y={13} class="tick">
          {`Q3 ${money(entry.p75)}`}
        </text>
        <text x={within(x(entry.median), 80)} y={78} text-anchor="middle" class="tick">
          {`mediana ${money(entry.median)}`}
        </text>
        <text x={20} y={104} class="tick">
          {`mín. ${money(entry.min)}`}
        </text>
        <text x={width - 20} y={104} text-anchor="end" class="tick">
          {`máx. ${money(entry.max)}`}
        </text>
      </svg>
    </figure>
  )
}

/** The statistics the unit's table shows, a row each, with their figure without the outliers where they have one. */
const TABLE_STATISTICS = STATISTIC_NAMES.filter((name) => PRICE_STATISTICS[name].shown === 'table')

/** A statistic's figure as the panel writes it. */
const figure = (name: StatisticName, value: string | number) =>
  PRICE_STATISTICS[name].kind === 'money' ? money(value as string) : String(value)

function UnitSummary({ entry, index }: { entry: PriceSummary; index: number }) {
  return (
    <section aria-labelledby={`unidade-${index}`}>
      <h3 id={`unidade-${index}`}>{`Por ${entry.unit}`}</h3>
      <p>
        {`${counted(entry.items, { singular: 'item', plural: 'itens' })} comprados por ${counted(entry.organizations, { singular: 'órgão', plural: 'órgãos' })} de ${counted(entry.suppliers, { singular: 'fornecedor', plural: 'fornecedores' })}.`}
      </p>
      <BoxPlot entry={entry} index={index} />
      <Scroll label={`Estatísticas por ${entry.unit}`}>
        <table class="compact">
          <thead>
            <tr>
              <th scope="col">Estatística</th>
              <th scope="col">Todos os preços</th>
              <th scope="col">Sem os fora da faixa</th>
            </tr>
          </thead>
          <tbody>
            {TABLE_STATISTICS.map((name) => {
              const sanitized = (entry.sanitized as Partial<Record<StatisticName, string | number>>)[name]
              const kind = PRICE_STATISTICS[name].kind
              return (
                <tr key={name}>
                  <th scope="row">{PRICE_STATISTICS[name].label}</th>
                  <td class={kind}>{figure(name, entry[name])}</td>
                  <td class={kind}>{sanitized === undefined ? MISSING : figure(name, sanitized)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </Scroll>
      <p>{`${counted(entry.outliers, { singular: 'preço fora da faixa', plural: 'preços fora da faixa' })} (abaixo de Q1 − 1,5 × AIQ ou acima de Q3 + 1,5 × AIQ).`}</p>
    </section>
  )
}

function Items({ items }: { items: PriceItemView[] }) {
  return (
    <Scroll label="Itens encontrados">
      <table class="stack">
        <thead>
          <tr>
            <th scope="col">Descrição</th>
            <th scope="col">Marca</th>
            <th scope="col">Unidade</th>
            <th scope="col">Quantidade</th>
            <th scope="col">Valor unitário</th>
            <th scope="col">Data</th>
            <th scope="col">Órgão</th>
            <th scope="col">Fornecedor</th>
            <th scope="col">Contrato, ata ou contratação</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr
              key={`${item.source} ${item.organization_uuid} ${item.order_number ?? item.bidding_id} ${item.description}`}
            >
              <td data-label="Descrição">{item.description}</td>
              <td data-label="Marca">{item.brand}</td>
              <td data-label="Unidade">{item.unit_measurement}</td>
              <td data-label="Quantidade">{item.quantity}</td>
              <td class="money" data-label="Valor unitário">
                {money(item.amount)}
                {item.outlier && <strong> (fora da faixa)</strong>}
              </td>
              <td data-label="Data">{day(item.date)}</td>
              <td data-label="Órgão">
                <a href={`/orgaos/${item.organization_uuid}`}>{item.organization_name}</a>
              </td>
              <td data-label="Fornecedor">
                <Supplier name={item.provider_name} document={item.provider_document} />
              </td>
              <td data-label="Contrato, ata ou contratação">
                {item.bidding_id ? (
                  <a
                    href={recordPath(
                      item.bidding_type === 'direct_contract' ? directContracts : publicCalls,
                      item.bidding_id,
                    )}
                  >
                    {`Resultado da contratação ${item.bidding_number}`}
                  </a>
                ) : item.contract_id ? (
                  <a href={recordPath(contracts, item.contract_id)}>{`Contrato ${item.contract_number}`}</a>
                ) : item.arp_id ? (
                  <a href={recordPath(arps, item.arp_id)}>{`Ata ${item.arp_number}`}</a>
                ) : (
                  (item.contract_number ?? item.arp_number ?? MISSING)
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  )
}

/** Searches the empty panel offers: what most public bodies buy. */
const EXAMPLES = ['caneta esferográfica', 'papel sulfite', 'toner', 'café', 'combustível']

export function pricePage({ asked, research, problem, lists, organization }: PricePanel): string {
  const query = Object.fromEntries(Object.entries(asked).filter(([, v]) => v !== ''))
  return page(
    'Painel de preços',
    <>
      <h1>Painel de preços</h1>
      <p>
        Os preços unitários que os órgãos pagaram, item a item, nas ordens de fornecimento publicadas e nos
        resultados homologados das contratações publicadas no PNCP: para a pesquisa de preços de uma compra
        (Lei 14.133/2021, art. 23) e para comparar o que cada órgão pagou.
      </p>
      <form method="get" action="/precos" class="filters">
        <FilterFields filters={PRICE_FILTERS} asked={asked} lists={lists} organization={organization} />
        <p>
          <button type="submit">Pesquisar</button>
        </p>
      </form>
      {problem && (
        <div class="problem" role="alert">
          <p>{problem}</p>
        </div>
      )}
      {!research && !problem && (
        <p>
          {'Escreva palavras da descrição do item, como '}
          {EXAMPLES.map((example, i) => (
            <>
              {i > 0 && (i === EXAMPLES.length - 1 ? ' ou ' : ', ')}
              <a key={example} href={listingUrl('/precos', { q: example })}>
                {example}
              </a>
            </>
          ))}
          . Acentos e maiúsculas não importam; um hífen exclui uma palavra (<code>caneta -vermelha</code>).
        </p>
      )}
      {research && (
        <>
          <h2>{`Resultado para “${asked.q}”`}</h2>
          {research.summary.length === 0 ? (
            <p>Nenhum item encontrado com essas palavras.</p>
          ) : (
            <>
              <p class="downloads">
                Baixar a pesquisa:{' '}
                <a href={listingUrl('/v1/transparency/prices/export', { ...query, format: 'xlsx' })}>
                  planilha (XLSX)
                </a>
                {', '}
                <a
                  href={listingUrl('/v1/transparency/prices/export', {
                    ...query,
                    format: 'csv',
                    separator: ';',
                  })}
                >
                  CSV
                </a>
              </p>
              {research.summary.map((entry, i) => (
                <UnitSummary key={entry.unit} entry={entry} index={i} />
              ))}
              <h2>
                {research.items.has_more
                  ? `Itens: os ${research.items.data.length} de menor preço (todos no arquivo)`
                  : `Itens (${research.items.data.length})`}
              </h2>
              <Items items={research.items.data} />
            </>
          )}
        </>
      )}
    </>,
    [{ label: 'Painel de preços' }],
  )
}

// --- A supplier's page -----------------------------------------------------------------------------------

/** A supplier's page as the API answers it (src/parties/schemas.ts, SupplierPage). */
export type SupplierView = Static<typeof SupplierPage>

/** A group's figures of every kind: over all, a year's, an organization's. */
type ByKind = SupplierView['totals']

/** The kinds a supplier's page shows: their title, and the listing filtered by the supplier (orders have none). */
const SUPPLIER_COLUMNS: readonly [SupplierKind, string, string][] = SUPPLIER_TALLIED.map((kind) => [
  kind.kind as SupplierKind,
  capitalized(kind.noun.plural),
  kind.resource ? `/${kind.resource.portal.path}` : '',
])

/** What was committed to the supplier in a group: the one figure that adds money up, each real once. */
const committed = (figures: ByKind) => Number(figures.committed.value)

function YearChart({ years }: { years: SupplierView['years'] }) {
  const shown = years.filter((y) => y.year !== null).reverse()
  const width = 400
  const height = 160
  const top = Math.max(1, ...shown.map(committed))
  const bar = width / Math.max(1, shown.length)
  return (
    <ChartFigure
      caption={
        'Valor comprometido por ano da data principal: contratos, contratações diretas sem contrato e ordens ' +
        'fora de contrato, cada real uma vez (o valor das atas é um teto e fica de fora).'
      }
      tableLabel="Valor comprometido por ano"
      headers={['Ano', 'Valor comprometido']}
      rows={shown.map((y) => [String(y.year), money(committed(y))] as const)}
      compact
    >
      <svg viewBox={`0 -20 ${width} ${height + 50}`} role="img" aria-labelledby="anos" class="chart">
        <title id="anos">
          {`Valor comprometido por ano: ${shown.map((y) => `${y.year}, ${money(committed(y))}`).join('; ') || 'nenhum'}`}
        </title>
        <line x1={0} y1={height} x2={width} y2={height} class="axis" />
        {shown.map((y, i) => {
          const h = Math.round((committed(y) / top) * (height - 10))
          return (
            <g key={String(y.year)}>
              <rect x={i * bar + 4} y={height - h} width={bar - 8} height={h} class="bar" />
              <text x={i * bar + bar / 2} y={height - h - 4} text-anchor="middle" class="tick">
                {compactMoney(committed(y))}
              </text>
              <text x={i * bar + bar / 2} y={height + 18} text-anchor="middle" class="tick">
                {String(y.year)}
              </text>
            </g>
          )
        })}
      </svg>
    </ChartFigure>
  )
}

/** Money in a few characters, for a chart's labels: R$ 1,2 mi, R$ 35 mil, R$ 900. */
function compactMoney(value: number): string {
  if (value >= 1_000_000)
    return `R$ ${(value / 1_000_000).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} mi`
  if (value >= 1_000) return `R$ ${Math.round(value / 1_000).toLocaleString('pt-BR')} mil`
  return `R$ ${Math.round(value).toLocaleString('pt-BR')}`
}

function FiguresCells({ figures }: { figures: ByKind }) {
  return (
    <>
      <td class="money" data-label="Valor comprometido">
        {money(committed(figures))}
      </td>
      {SUPPLIER_COLUMNS.map(([kind, label]) => {
        const f = figures[kind]
        return (
          <td key={kind} class="money" data-label={label}>
            {f.count === 0 ? MISSING : `${f.count} · ${money(f.value)}`}
          </td>
        )
      })}
    </>
  )
}

export function supplierPage(view: SupplierView, flags: FlagCounts): string {
  return page(
    view.name,
    <>
      <h1>{view.name}</h1>
      <p>{`CNPJ ${taxId(view.document)}`}</p>
      <FollowLinks feeds={feedsOf({ provider_document: view.document })} label="Acompanhar este fornecedor" />
      <AlertCounts counts={flags} query={{ provider_document: view.document }} />
      {view.names.length > 1 && (
        <p>
          {`Registrado também como: ${view.names
            .filter((n) => n.name !== view.name)
            .map((n) => `${n.name} (até ${day(n.last_seen)})`)
            .join('; ')}.`}
        </p>
      )}
      <p class="committed">
        {'Valor comprometido: '}
        <strong class="money">{money(committed(view.totals))}</strong>
      </p>
      <p>
        Contratos, contratações diretas que nenhum contrato do fornecedor cobre e ordens que nenhum contrato
        do fornecedor cobre, cada real uma vez. O valor de uma ata é um teto, não um compromisso: fica à
        parte. Os valores de cada tipo abaixo se sobrepõem (uma ordem executa um contrato ou uma ata) e não se
        somam.
      </p>
      <ul class="kinds">
        {SUPPLIER_COLUMNS.map(([kind, label, path]) => {
          const f = view.totals[kind]
          const text = (
            <>
              {`${label}: ${f.count} · `}
              <span class="money">{money(f.value)}</span>
              {kind === 'arps' ? ' (teto registrado)' : ''}
            </>
          )
          return (
            <li key={kind}>
              {path ? <a href={listingUrl(path, { provider_document: view.document })}>{text}</a> : text}
            </li>
          )
        })}
      </ul>
      <p>
        <a href={`/precos?provider_document=${view.document}`}>
          Pesquisar os preços que este fornecedor cobrou
        </a>
      </p>
      <section aria-labelledby="por-ano">
        <h2 id="por-ano">Valor por ano</h2>
        <YearChart years={view.years} />
      </section>
      <section aria-labelledby="por-orgao">
        <h2 id="por-orgao">Por órgão</h2>
        <Scroll label="Valores por órgão">
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">Órgão</th>
                <th scope="col">Valor comprometido</th>
                {SUPPLIER_COLUMNS.map(([kind, label]) => (
                  <th key={kind} scope="col">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {view.organizations.map((o) => (
                <tr key={o.organization_uuid}>
                  <th scope="row" data-label="Órgão">
                    <a href={`/orgaos/${o.organization_uuid}`}>{o.organization_name}</a>
                  </th>
                  <FiguresCells figures={o} />
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      </section>
    </>,
    [{ label: 'Fornecedores', href: '/fornecedores' }, { label: view.name }],
    feedsOf({ provider_document: view.document }),
  )
}

// --- The organs --------------------------------------------------------------------------------------------

export interface OrganizationListView {
  q: string
  data: Static<typeof OrganizationList>['data']
  next: string | null
}

/** A search of organs or suppliers by name: its form, what it found, and the next page. */
function NamedSearch({
  action,
  label,
  q,
  found,
  next,
  empty,
}: {
  action: string
  label: string
  q: string
  found: readonly { href: string; name: string; document: string }[] | undefined
  next: string | null
  empty: string
}) {
  return (
    <>
      <form method="get" action={action} class="filters">
        <p>
          <label for="f-q">{label}</label>
          <input id="f-q" name="q" type="search" value={q} />
        </p>
        <p>
          <button type="submit">Buscar</button>
        </p>
      </form>
      {found === undefined ? null : found.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <ul>
          {found.map((item) => (
            <li key={item.href}>
              <a href={item.href}>{item.name}</a> {`(CNPJ ${taxId(item.document)})`}
            </li>
          ))}
        </ul>
      )}
      {next && (
        <p>
          <a href={listingUrl(action, { ...(q ? { q } : {}), cursor: next })}>Próxima página</a>
        </p>
      )}
    </>
  )
}

export function organizationsPage(view: OrganizationListView): string {
  return page(
    'Órgãos',
    <>
      <h1>Órgãos</h1>
      <NamedSearch
        action="/orgaos"
        label="Nome do órgão"
        q={view.q}
        found={view.data.map((o) => ({ href: `/orgaos/${o.uuid}`, name: o.name, document: o.document }))}
        next={view.next}
        empty="Nenhum órgão encontrado."
      />
    </>,
    [{ label: 'Órgãos' }],
  )
}

export interface SupplierListView {
  /** What was typed: words of the name, or a CNPJ. */
  q: string
  data: Static<typeof SupplierList>['data']
  next: string | null
}

/** The suppliers that are companies, found by a part of their name or by their CNPJ. */
export function suppliersPage(view: SupplierListView): string {
  return page(
    'Fornecedores',
    <>
      <h1>Fornecedores</h1>
      <p>
        As empresas que forneceram aos órgãos, com o que cada uma recebeu de contratos, atas, contratações
        diretas e ordens. Um fornecedor que é uma pessoa (CPF) não tem página, para proteger seus dados.
      </p>
      <NamedSearch
        action="/fornecedores"
        label="Nome ou CNPJ do fornecedor"
        q={view.q}
        found={
          view.q === ''
            ? undefined
            : view.data.map((s) => ({
                href: `/fornecedores/${s.document}`,
                name: s.name,
                document: s.document,
              }))
        }
        next={view.next}
        empty="Nenhum fornecedor encontrado."
      />
      {view.q === '' && <p>Escreva ao menos três letras do nome, ou o CNPJ com ou sem pontuação.</p>}
    </>,
    [{ label: 'Fornecedores' }],
  )
}

/** A supplier of an organization's ranking, as the API answers it. */
export type TopSupplier = Static<typeof OrganizationPage>['top_suppliers'][number]

/** The organ page's section of its top suppliers by contracted value. */
/** What a ranked supplier's commitments are, in words: 2 contratos, 1 contratação direta, 3 ordens. */
function commitmentsText(s: TopSupplier): string {
  const parts: [number, { singular: string; plural: string }][] = [
    [s.contracts, { singular: 'contrato', plural: 'contratos' }],
    [s.direct_contracts, { singular: 'contratação direta', plural: 'contratações diretas' }],
    [s.orders, { singular: 'ordem fora de contrato', plural: 'ordens fora de contrato' }],
  ]
  return parts
    .filter(([n]) => n > 0)
    .map(([n, words]) => counted(n, words))
    .join(', ')
}

export function TopSuppliers({ suppliers }: { suppliers: TopSupplier[] }) {
  return (
    <section aria-labelledby="fornecedores">
      <h2 id="fornecedores">Maiores fornecedores</h2>
      {suppliers.length === 0 ? (
        <p>Nenhum compromisso publicado.</p>
      ) : (
        <>
          <p>
            Pelo valor comprometido com cada um: contratos, contratações diretas e ordens, cada real uma vez.
          </p>
          <ol>
            {suppliers.map((s) => (
              <li key={s.document}>
                <Supplier name={s.name} document={s.document} />
                {` (${taxId(s.document)}): ${money(s.value)}; ${commitmentsText(s)}`}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  )
}
