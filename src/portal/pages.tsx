import type { ComponentChildren } from 'preact'
import { renderToString } from 'preact-render-to-string'
import { type AnyField, isRelation, type Relation } from '../resources/fields.js'
import { PUBLIC_RESOURCES, type PublicResource } from '../resources/index.js'
import type { Json, ListResult } from '../transparency/listing.js'
import type { Choices, KindSummary, LookupOption, Organ } from './data.js'
import { counted, day, formatValue, MISSING, money, taxId } from './format.js'

// The portal's pages, rendered on the server (Preact, to a string: every value is escaped). No script: a
// filter is a GET form, a sort a link, a chart an SVG with its table. Field labels and kinds come from the
// resources' definitions (src/resources), so a page shows a field as every other face names it.

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
const title = (resource: PublicResource) => capitalized(resource.noun.plural)

/** The portal page of a record of a resource. */
export const recordPath = (resource: PublicResource, id: string) => `/${resource.portal.path}/${id}`

export interface Crumb {
  href?: string
  label: string
}

export function page(pageTitle: string, body: ComponentChildren, crumbs: Crumb[] = []): string {
  return `<!doctype html>${renderToString(
    <html lang="pt-BR">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${pageTitle} · Portal da transparência · compras`}</title>
        <link rel="stylesheet" href="/static/portal.css" />
      </head>
      <body>
        <a class="skip" href="#conteudo">
          Pular para o conteúdo
        </a>
        <header class="top">
          <a class="brand" href="/">
            Portal da transparência
          </a>
          <nav aria-label="Principal">
            <ul>
              {PUBLIC_RESOURCES.map((r) => (
                <li key={r.path}>
                  <a href={`/${r.portal.path}`}>{title(r)}</a>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        {crumbs.length > 0 && (
          <nav aria-label="Trilha de navegação" class="crumbs">
            <ol>
              <li>
                <a href="/">Início</a>
              </li>
              {crumbs.map((c) => (
                <li key={c.label}>
                  {c.href ? <a href={c.href}>{c.label}</a> : <span aria-current="page">{c.label}</span>}
                </li>
              ))}
            </ol>
          </nav>
        )}
        <main id="conteudo">{body}</main>
        <footer>
          <p>
            Dados públicos de compras de órgãos públicos. Para sistemas:{' '}
            <a href="/docs">API (documentação)</a>, <a href="/openapi.json">OpenAPI</a> e{' '}
            <a href="/v1/ocds/releases">Open Contracting (OCDS)</a>.
          </p>
        </footer>
      </body>
    </html>,
  )}`
}

/** A cell's class by its field's kind: money is never broken across lines. */
const kindClass = (field: AnyField | Relation) =>
  field.kind === 'money' || field.kind === 'amount' ? 'money' : undefined

/** A wide table's region: it scrolls sideways on a phone, and the keyboard can reach it to scroll. */
function Scroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <section class="scroll" aria-label={label} tabindex={0}>
      {children}
    </section>
  )
}

/** A field's value as a cell's content: links for URLs, text otherwise. */
function Value({ field, value }: { field: AnyField; value: unknown }) {
  if (field.kind === 'url' && typeof value === 'string')
    return (
      <a href={value} rel="noopener noreferrer">
        {value}
      </a>
    )
  if (field.secretIf && value === null) return <span>Sigiloso</span>
  return <>{formatValue(field.kind, value)}</>
}

/** The public resource a relation's rows are records of (a contract, an ARP), for links. */
const linkedResource = (relation: Relation) =>
  PUBLIC_RESOURCES.find((r) => r.record.table === relation.shape.table && r.record.table !== 'biddings')

/** A relation as a table: one row per element, a column per field of its shape. */
function RelationTable({ relation, rows }: { relation: Relation; rows: Json[] }) {
  const fields = Object.entries(relation.shape.fields).filter(([name]) => name !== 'id')
  const target = linkedResource(relation)
  if (rows.length === 0) return <p>Nenhum registro.</p>
  return (
    <Scroll label={relation.label}>
      <table>
        <thead>
          <tr>
            {fields.map(([name, f]) => (
              <th key={name} scope="col">
                {f.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={String(row.id ?? i)}>
              {fields.map(([name, f], column) => (
                <td key={name} class={kindClass(f)}>
                  <Cell
                    field={f}
                    value={row[name]}
                    href={column === 0 && target && row.id ? recordPath(target, String(row.id)) : undefined}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  )
}

function Cell({ field, value, href }: { field: AnyField | Relation; value: unknown; href?: string }) {
  if (isRelation(field)) {
    const items = (value as Json[] | undefined) ?? []
    if (items.length === 0) return <>{MISSING}</>
    // Nested lists (a term's documents): the files as links.
    return (
      <ul class="plain">
        {items.map((item, i) => (
          <li key={String(item.uuid ?? i)}>
            {typeof item.url === 'string' ? (
              <a href={item.url} rel="noopener noreferrer">
                {String(item.name ?? item.url)}
              </a>
            ) : (
              JSON.stringify(item)
            )}
          </li>
        ))}
      </ul>
    )
  }
  if (href) return <a href={href}>{formatValue(field.kind, value)}</a>
  return <Value field={field} value={value} />
}

/** Where a record belongs: its organ. */
export interface Owner {
  organization_uuid: string
  organization_name: string
}

export function detailPage(resource: PublicResource, id: string, document: Json, owner: Owner): string {
  const fields = resource.record.fields
  const number = String(document.contract_number ?? document.number ?? id)
  const heading = `${capitalized(resource.noun.singular)} ${number}`
  const plain = resource.detail.filter((name) => !isRelation(fields[name] as AnyField | Relation))
  const relations = resource.detail.filter((name) => isRelation(fields[name] as AnyField | Relation))
  const biddingUuid = typeof document.bidding_uuid === 'string' ? document.bidding_uuid : undefined
  return page(
    heading,
    <>
      <h1>{heading}</h1>
      <p>
        Órgão: <a href={`/orgaos/${owner.organization_uuid}`}>{owner.organization_name}</a>
        {biddingUuid && (
          <>
            {' · '}
            <a href={`/licitacoes/${biddingUuid}`}>Contratação de origem</a>
          </>
        )}
      </p>
      <dl class="fields">
        {plain.map((name) => {
          const f = fields[name] as AnyField
          return (
            <div key={name}>
              <dt>{f.label}</dt>
              <dd>
                <Value field={f} value={document[name]} />
              </dd>
            </div>
          )
        })}
      </dl>
      {relations.map((name) => {
        const relation = fields[name] as Relation
        return (
          <section key={name} aria-labelledby={`rel-${name}`}>
            <h2 id={`rel-${name}`}>{relation.label}</h2>
            <RelationTable relation={relation} rows={(document[name] as Json[] | undefined) ?? []} />
          </section>
        )
      })}
    </>,
    [
      { href: `/${resource.portal.path}`, label: title(resource) },
      { href: `/orgaos/${owner.organization_uuid}`, label: owner.organization_name },
      { label: heading },
    ],
  )
}

/** The listing's query as the page has it: what the form shows and the links carry (strings). */
export type Query = Readonly<Record<string, string>>

/** A URL of the listing with this query, changed by `change` (undefined removes a parameter). */
export function listingUrl(
  base: string,
  query: Query,
  change: Record<string, string | undefined> = {},
): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries({ ...query, ...change })) {
    if (value !== undefined && value !== '') params.set(name, value)
  }
  const search = params.toString()
  return search ? `${base}?${search}` : base
}

function Field({
  name,
  label,
  error,
  children,
}: {
  name: string
  label: string
  error?: string
  children: ComponentChildren
}) {
  return (
    <div class={error ? 'field invalid' : 'field'}>
      <label for={`f-${name}`}>{label}</label>
      {children}
      {error && (
        <p class="error" id={`e-${name}`}>
          {error}
        </p>
      )}
    </div>
  )
}

const inputProps = (name: string, errors: Query) => ({
  id: `f-${name}`,
  name,
  'aria-invalid': errors[name] ? ('true' as const) : undefined,
  'aria-describedby': errors[name] ? `e-${name}` : undefined,
})

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/**
 * The options of a choice, as HTML made once per list (the read path keeps one list until the next import):
 * an organ's select holds every organ, and rendering hundreds of options on every page was most of its cost.
 */
const optionsHtml = new WeakMap<object, string>()
function renderedOptions(options: readonly { id: string | number; name: string }[]): string {
  let html = optionsHtml.get(options)
  if (html === undefined) {
    html = options
      .map((o) => `<option value="${escapeHtml(String(o.id))}">${escapeHtml(o.name)}</option>`)
      .join('')
    optionsHtml.set(options, html)
  }
  return html
}

function Select({
  name,
  query,
  errors,
  options,
  empty,
}: {
  name: string
  query: Query
  errors: Query
  options: readonly { id: string | number; name: string }[]
  empty: string
}) {
  const chosen = query[name]
  let html = `<option value="">${escapeHtml(empty)}</option>${renderedOptions(options)}`
  if (chosen !== undefined) {
    const value = `<option value="${escapeHtml(chosen)}">`
    html = html.replace(value, `<option value="${escapeHtml(chosen)}" selected>`)
  }
  return <select {...inputProps(name, errors)} dangerouslySetInnerHTML={{ __html: html }} />
}

/** How many organs a name search offers at most; more asks for more of the name. */
const MATCHES_SHOWN = 50
const ORGANS = { singular: 'órgão', plural: 'órgãos' }

const SORT_LABELS: Readonly<Record<string, string>> = { '-': 'decrescente', '': 'crescente' }

export interface ListingView {
  resource: PublicResource
  query: Query
  /** Problems with the query, by parameter, in Portuguese: the form shows each by its field. */
  errors: Query
  result: ListResult | undefined
  choices: Choices
  /**
   * The organs that the name in `orgao` found, when it found more than one: the form offers them to choose
   * from, in place of the results. The select otherwise holds only the chosen organ, not every organ.
   */
  organMatches?: readonly LookupOption[]
  page: number
  perPage: number
  sort: string
}

export function listingPage(view: ListingView): string {
  const { resource, query, errors, result, choices } = view
  const base = `/${resource.portal.path}`
  const fields = resource.record.fields
  const has = (name: string) => name in resource.filters
  const text = (name: string, type: 'text' | 'search' | 'date' = 'text') => {
    const props = { value: query[name] ?? '', ...inputProps(name, errors) }
    if (type === 'date') return <input type="date" {...props} />
    if (type === 'search') return <input type="search" {...props} />
    return <input type="text" {...props} />
  }
  const exportQuery = Object.fromEntries(
    Object.entries(query).filter(([name]) => name !== 'page' && name !== 'per_page'),
  )
  const exportUrl = (format: string) =>
    listingUrl('/v1/transparency/export', exportQuery, { resource: resource.path, format })
  const lastPage = result ? Math.max(1, Math.ceil(result.total / view.perPage)) : 1
  const sorts = Object.entries(resource.sorts)
  const matches = view.organMatches ?? []
  const chosen = choices.organizations.find((o) => o.id === query.organization_uuid)
  const organOptions = matches.length > 0 ? matches.slice(0, MATCHES_SHOWN) : chosen ? [chosen] : []
  return page(
    title(resource),
    <>
      <h1>{title(resource)}</h1>
      <form method="get" action={base} class="filters" aria-label={`Filtrar ${resource.noun.plural}`}>
        <Field name="q" label="Busca (objeto, nomes)" error={errors.q}>
          {text('q', 'search')}
        </Field>
        <Field name="orgao" label="Órgão: buscar pelo nome" error={errors.orgao}>
          {text('orgao', 'search')}
        </Field>
        {organOptions.length > 0 || query.organization_uuid !== undefined ? (
          <Field name="organization_uuid" label="Órgão" error={errors.organization_uuid}>
            <Select
              name="organization_uuid"
              query={query}
              errors={errors}
              options={organOptions}
              empty={matches.length > 0 ? 'Escolha um órgão' : 'Todos os órgãos'}
            />
          </Field>
        ) : null}
        {has('modality_id') && (
          <Field name="modality_id" label="Modalidade" error={errors.modality_id}>
            <Select
              name="modality_id"
              query={query}
              errors={errors}
              options={choices.modalities}
              empty="Todas"
            />
          </Field>
        )}
        {has('status_id') && (
          <Field name="status_id" label="Situação" error={errors.status_id}>
            <Select
              name="status_id"
              query={query}
              errors={errors}
              options={choices.biddingStatuses}
              empty="Todas"
            />
          </Field>
        )}
        {has('management_status_id') && (
          <Field name="management_status_id" label="Situação de gestão" error={errors.management_status_id}>
            <Select
              name="management_status_id"
              query={query}
              errors={errors}
              options={choices.managementStatuses}
              empty="Todas"
            />
          </Field>
        )}
        {has('provider_document') && (
          <Field
            name="provider_document"
            label="CNPJ do fornecedor (14 dígitos)"
            error={errors.provider_document}
          >
            {text('provider_document')}
          </Field>
        )}
        {has('provider_name') && (
          <Field name="provider_name" label="Nome do fornecedor" error={errors.provider_name}>
            {text('provider_name')}
          </Field>
        )}
        <Field
          name="date_from"
          label={`${(fields[resource.date] as AnyField).label}: de`}
          error={errors.date_from}
        >
          {text('date_from', 'date')}
        </Field>
        <Field
          name="date_to"
          label={`${(fields[resource.date] as AnyField).label}: até`}
          error={errors.date_to}
        >
          {text('date_to', 'date')}
        </Field>
        <Field name="sort" label="Ordenar por" error={errors.sort}>
          <select {...inputProps('sort', errors)}>
            {sorts.flatMap(([name, field]) =>
              ['-', ''].map((direction) => (
                <option
                  key={direction + name}
                  value={direction + name}
                  selected={view.sort === direction + name}
                >
                  {`${(fields[field] as AnyField).label} (${SORT_LABELS[direction]})`}
                </option>
              )),
            )}
          </select>
        </Field>
        <Field name="per_page" label="Por página" error={errors.per_page}>
          <select {...inputProps('per_page', errors)}>
            {[10, 20, 50, 100].map((n) => (
              <option key={n} value={String(n)} selected={view.perPage === n}>
                {String(n)}
              </option>
            ))}
          </select>
        </Field>
        <div class="actions">
          <button type="submit">Filtrar</button> <a href={base}>Limpar filtros</a>
        </div>
      </form>
      {matches.length > 0 ? (
        <p class="total" role="status">
          {`${counted(matches.length, ORGANS)} têm esse nome: escolha um na lista “Órgão” e filtre de novo.`}
          {matches.length > MATCHES_SHOWN &&
            ` A lista mostra os ${MATCHES_SHOWN} primeiros; escreva mais do nome para estreitá-la.`}
        </p>
      ) : result === undefined ? (
        <p class="problem" role="alert">
          Corrija os filtros indicados acima para ver os resultados.
        </p>
      ) : (
        <>
          <p class="total" role="status">
            {counted(result.total, resource.noun)}
            {result.total > 0 && ` · página ${view.page} de ${lastPage}`}
          </p>
          <p class="downloads">
            <a href={exportUrl('xlsx')}>Baixar planilha (XLSX)</a> · <a href={exportUrl('csv')}>Baixar CSV</a>
          </p>
          {result.rows.length > 0 && (
            <Scroll label={`Resultados: ${resource.noun.plural}`}>
              <table>
                <thead>
                  <tr>
                    {resource.portal.listed.map((name) => {
                      const sortName = sorts.find(([, field]) => field === name)?.[0]
                      const label = (fields[name] as AnyField).label
                      if (!sortName)
                        return (
                          <th key={name} scope="col">
                            {label}
                          </th>
                        )
                      const current = view.sort.replace(/^-/, '') === sortName
                      const descending = view.sort.startsWith('-')
                      const next = current && descending ? sortName : `-${sortName}`
                      return (
                        <th
                          key={name}
                          scope="col"
                          aria-sort={current ? (descending ? 'descending' : 'ascending') : undefined}
                        >
                          <a href={listingUrl(base, query, { sort: next, page: undefined })}>
                            {label}
                            {current ? (descending ? ' ↓' : ' ↑') : ''}
                          </a>
                        </th>
                      )
                    })}
                  </tr>
                </thead>
                <tbody>
                  {result.rows.map((row) => (
                    <tr key={String(row.id)}>
                      {resource.portal.listed.map((name, column) => (
                        <td key={name} class={kindClass(fields[name] as AnyField)}>
                          <Cell
                            field={fields[name] as AnyField}
                            value={row[name]}
                            href={column === 0 ? recordPath(resource, String(row.id)) : undefined}
                          />
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )}
          {lastPage > 1 && (
            <nav aria-label="Páginas" class="pages">
              {view.page > 1 && (
                <a rel="prev" href={listingUrl(base, query, { page: String(view.page - 1) })}>
                  ← Anterior
                </a>
              )}
              <span>{` Página ${view.page} de ${lastPage} `}</span>
              {view.page < lastPage && (
                <a rel="next" href={listingUrl(base, query, { page: String(view.page + 1) })}>
                  Próxima →
                </a>
              )}
            </nav>
          )}
        </>
      )}
    </>,
    [{ label: title(resource) }],
  )
}

/** The newest records of a kind, as a short table. */
function Latest({ summary, more }: { summary: KindSummary; more: string }) {
  const { resource, result } = summary
  const fields = resource.record.fields
  const shown = resource.portal.listed.slice(0, 4)
  return (
    <section aria-labelledby={`k-${resource.path}`}>
      <h2 id={`k-${resource.path}`}>
        {title(resource)} <span class="count">({counted(result.total, resource.noun)})</span>
      </h2>
      {result.rows.length === 0 ? (
        <p>Nenhum registro.</p>
      ) : (
        <Scroll label={`${title(resource)} recentes`}>
          <table>
            <thead>
              <tr>
                {shown.map((name) => (
                  <th key={name} scope="col">
                    {(fields[name] as AnyField).label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {result.rows.map((row) => (
                <tr key={String(row.id)}>
                  {shown.map((name, column) => (
                    <td key={name} class={kindClass(fields[name] as AnyField)}>
                      <Cell
                        field={fields[name] as AnyField}
                        value={row[name]}
                        href={column === 0 ? recordPath(resource, String(row.id)) : undefined}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      <p>
        <a href={more}>Ver {counted(result.total, resource.noun)}</a>
      </p>
    </section>
  )
}

function SearchForm({ q = '' }: { q?: string }) {
  return (
    <form method="get" action="/busca" class="search" aria-label="Busca">
      <label for="busca">Buscar em contratos, contratações diretas, chamadas públicas e atas</label>
      <div>
        <input id="busca" name="q" type="search" value={q} minLength={1} maxLength={200} required />
        <button type="submit">Buscar</button>
      </div>
    </form>
  )
}

export function homePage(summaries: KindSummary[]): string {
  const [latestContracts] = summaries
  return page(
    'Início',
    <>
      <h1>Portal da transparência</h1>
      <p>
        Contratos, contratações diretas, chamadas públicas e atas de registro de preços dos órgãos públicos.
      </p>
      <SearchForm />
      <ul class="kinds">
        {summaries.map(({ resource, result }) => (
          <li key={resource.path}>
            <a href={`/${resource.portal.path}`}>
              <strong>{counted(result.total, resource.noun)}</strong>
            </a>
          </li>
        ))}
      </ul>
      {latestContracts && (
        <Latest summary={latestContracts} more={`/${latestContracts.resource.portal.path}`} />
      )}
      <section aria-labelledby="dev">
        <h2 id="dev">Para desenvolvedores</h2>
        <p>
          Os mesmos dados em JSON: <a href="/docs">documentação da API</a> e{' '}
          <a href="/openapi.json">OpenAPI</a>; em Open Contracting:{' '}
          <a href="/v1/ocds/releases">/v1/ocds/releases</a>.
        </p>
      </section>
    </>,
  )
}

export function searchPage(q: string, summaries: KindSummary[]): string {
  return page(
    `Busca: ${q}`,
    <>
      <h1>Busca: “{q}”</h1>
      <SearchForm q={q} />
      {summaries.map((summary) => (
        <Latest
          key={summary.resource.path}
          summary={summary}
          more={listingUrl(`/${summary.resource.portal.path}`, { q })}
        />
      ))}
    </>,
    [{ label: 'Busca' }],
  )
}

/** Contracted value per month as bars: an SVG with a title per bar, and the same figures as a table. */
function MonthlyChart({ months }: { months: Organ['months'] }) {
  const width = 720
  const height = 240
  const top = Math.max(1, ...months.map((m) => m.total))
  const bar = width / months.length
  const label = (month: string) => `${month.slice(5, 7)}/${month.slice(0, 4)}`
  return (
    <figure>
      <svg
        viewBox={`-40 -24 ${width + 80} ${height + 54}`}
        role="img"
        aria-labelledby="chart-title"
        class="chart"
        preserveAspectRatio="xMidYMid meet"
      >
        <title id="chart-title">Valor contratado por mês, últimos 24 meses</title>
        <line x1={0} y1={height} x2={width} y2={height} class="axis" />
        <text
          x={0}
          y={-8}
          class="tick"
        >{`Maior mês: ${money(top === 1 && months.every((m) => m.total === 0) ? 0 : top)}`}</text>
        {months.map((m, i) => {
          const h = Math.round((m.total / top) * (height - 10))
          return (
            <g key={m.month}>
              <rect x={i * bar + 2} y={height - h} width={bar - 4} height={h} class="bar">
                <title>{`${label(m.month)}: ${money(m.total)} (${m.count} contratos)`}</title>
              </rect>
              {i % 3 === 0 && (
                <text x={i * bar + bar / 2} y={height + 18} text-anchor="middle" class="tick">
                  {label(m.month)}
                </text>
              )}
            </g>
          )
        })}
      </svg>
      <figcaption>Valor dos contratos por mês de início da vigência.</figcaption>
      <details>
        <summary>Ver os valores em tabela</summary>
        <Scroll label="Valor contratado por mês">
          <table>
            <thead>
              <tr>
                <th scope="col">Mês</th>
                <th scope="col">Contratos</th>
                <th scope="col">Valor contratado</th>
              </tr>
            </thead>
            <tbody>
              {months.map((m) => (
                <tr key={m.month}>
                  <td>{label(m.month)}</td>
                  <td>{m.count}</td>
                  <td>{money(m.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      </details>
    </figure>
  )
}

export function organPage(found: Organ, summaries: KindSummary[]): string {
  return page(
    found.name,
    <>
      <h1>{found.name}</h1>
      <p>CNPJ {taxId(found.document)}</p>
      <ul class="kinds">
        {summaries.map(({ resource, result }) => (
          <li key={resource.path}>
            <a href={listingUrl(`/${resource.portal.path}`, { organization_uuid: found.id })}>
              <strong>{counted(result.total, resource.noun)}</strong>
            </a>
          </li>
        ))}
      </ul>
      <section aria-labelledby="valor">
        <h2 id="valor">Valor contratado por mês</h2>
        <MonthlyChart months={found.months} />
      </section>
      {summaries.map((summary) => (
        <Latest
          key={summary.resource.path}
          summary={summary}
          more={listingUrl(`/${summary.resource.portal.path}`, { organization_uuid: found.id })}
        />
      ))}
    </>,
    [{ label: found.name }],
  )
}

export function notFoundPage(what: string): string {
  return page(
    'Não encontrado',
    <>
      <h1>Não encontrado</h1>
      <p>{what}</p>
      <p>
        <a href="/">Voltar ao início</a>
      </p>
    </>,
  )
}

export function errorPage(message: string): string {
  return page(
    'Erro',
    <>
      <h1>Não foi possível mostrar esta página</h1>
      <p>{message}</p>
      <p>
        <a href="/">Voltar ao início</a>
      </p>
    </>,
  )
}

export { day }
