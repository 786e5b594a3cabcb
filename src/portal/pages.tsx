import { counted, day, money, taxId } from '../format.js'
import type { FlagAnswer, FlagCounts } from '../indicators/flags.js'
import type { JsonObject } from '../json.js'
import type { VersionEntry } from '../readmodel/store.js'
import { type AnyField, isRelation, type Relation } from '../resources/fields.js'
import { PUBLIC_RESOURCES, type PublicResource } from '../resources/index.js'
import type { KindSummary, OrganizationView, Owner } from './data.js'
import { HistorySection, VersionBanner } from './history.js'
import { AlertCounts } from './indicators.js'
import {
  Cell,
  ChartFigure,
  capitalized,
  FollowLinks,
  feedsOf,
  kindClass,
  page,
  RecordRows,
  recordPath,
  Scroll,
  supplierHref,
  title,
} from './layout.js'
import { listingUrl } from './listing.js'
import { type TopSupplier, TopSuppliers } from './prices.js'
import { recordsTableClass, relationColumns, relationTableClass } from './style.js'

// The portal's pages, rendered on the server (Preact, to a string: every value is escaped). No script: a
// filter is a GET form, a sort a link, a chart an SVG with its table. Field labels and kinds come from the
// resources' definitions (src/resources), so a page shows a field as every other face names it.

/** The public resource a relation's rows are records of (a contract, an ARP), for links. */
const linkedResource = (relation: Relation) =>
  PUBLIC_RESOURCES.find((r) => r.record.table === relation.shape.table && r.record.table !== 'biddings')

/** A relation as a table: one row per element, a column per field of its shape. */
function RelationTable({ relation, rows }: { relation: Relation; rows: JsonObject[] }) {
  const fields = relationColumns(relation)
  const target = linkedResource(relation)
  if (rows.length === 0) return <p>Nenhum registro.</p>
  return (
    <Scroll label={relation.label}>
      <table class={relationTableClass(relation)}>
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
                    href={
                      column === 0 && target && row.id
                        ? recordPath(target, String(row.id))
                        : supplierHref(relation.shape.fields, row, name)
                    }
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

/**
 * What a record's page shows of its history: all of it with the flags that name the record now, or which
 * version it is (an earlier version's page shows no flags: they are the record's now).
 */
export type HistoryView =
  | { history: readonly VersionEntry[]; flags: readonly FlagAnswer[] }
  | { shown: Omit<VersionEntry, 'changes'>; latest: number }

/** A record's page shows this many of its flags; the list of its flags has them all. */
const ALERTS_SHOWN = 10

/**
 * The flags that name a record, each with its reason: where to look, never a verdict. A record with many (a
 * contract of many orders whose prices stand out) shows the first and leads to them all.
 */
function Alerts({ flags, record }: { flags: readonly FlagAnswer[]; record: string }) {
  return (
    <section class="alerts" aria-labelledby="sinais-de-alerta">
      <h2 id="sinais-de-alerta">Sinais de alerta</h2>
      <ul>
        {flags.slice(0, ALERTS_SHOWN).map((flag) => (
          <li key={`${flag.code} ${flag.year}`}>
            <strong>{flag.title}</strong> ({flag.code}): {flag.reason}
          </li>
        ))}
      </ul>
      {flags.length > ALERTS_SHOWN && (
        <p>
          <a href={`/indicadores?record=${encodeURIComponent(record)}`}>
            Ver os {flags.length.toLocaleString('pt-BR')} sinais deste registro
          </a>
        </p>
      )}
      <p>Um indício para abrir o processo, nunca um veredito.</p>
    </section>
  )
}

/**
 * A record's page: its fields, its relations as tables, and its history (oldest first). The page of an
 * earlier version (`shown`) has its fields then, under a banner that says so.
 */
export function detailPage(
  resource: PublicResource,
  id: string,
  document: JsonObject,
  owner: Owner,
  view: HistoryView,
): string {
  const shown = 'shown' in view ? view.shown : undefined
  const fields = resource.record.fields
  const number = String(document.contract_number ?? document.number ?? id)
  const named = `${capitalized(resource.noun.singular)} ${number}`
  const heading = shown ? `${named}, versão ${shown.version}` : named
  // A field only one source fills (PNCP's) is left out where this record has none: not a row of dashes.
  const absent = (name: string) => {
    const value = document[name]
    return (
      (fields[name] as AnyField | Relation).optional === true &&
      (value === null || value === undefined || (Array.isArray(value) && value.length === 0))
    )
  }
  const shownNames = resource.detail.filter((name) => !absent(name))
  const plain = shownNames.filter((name) => !isRelation(fields[name] as AnyField | Relation))
  const relations = shownNames.filter((name) => isRelation(fields[name] as AnyField | Relation))
  // What a citizen looks for first: the fields its listing shows (number, object, supplier, value, dates, status).
  const key = resource.portal.listed.filter((name) => plain.includes(name))
  const rest = plain.filter((name) => !key.includes(name))
  const biddingUuid = typeof document.bidding_uuid === 'string' ? document.bidding_uuid : undefined
  const biddingNumber = typeof document.bidding_number === 'string' ? document.bidding_number : undefined
  const fieldList = (names: readonly string[]) =>
    names.map((name) => {
      const f = fields[name] as AnyField
      // The bidding is named by its number, and leads to its page; its id is that link's address.
      const linked = name === 'bidding_uuid' && biddingUuid !== undefined
      return (
        <div key={name}>
          <dt>{f.label}</dt>
          <dd>
            {linked ? (
              <a href={`/licitacoes/${biddingUuid}`}>{biddingNumber ?? biddingUuid}</a>
            ) : (
              <Cell field={f} value={document[name]} href={supplierHref(fields, document, name)} />
            )}
          </dd>
        </div>
      )
    })
  return page(
    heading,
    <>
      <h1>{heading}</h1>
      {'shown' in view && (
        <VersionBanner resource={resource} id={id} version={view.shown} latest={view.latest} />
      )}
      <p>
        Órgão: <a href={`/orgaos/${owner.organization_uuid}`}>{owner.organization_name}</a>
        {biddingUuid && (
          <>
            {' · Licitação de origem: '}
            <a href={`/licitacoes/${biddingUuid}`}>{biddingNumber ?? 'ver a contratação'}</a>
          </>
        )}
      </p>
      <dl class="fields">{fieldList(key)}</dl>
      {'flags' in view && view.flags.length > 0 && (
        <Alerts flags={view.flags} record={`${resource.path}/${id}`} />
      )}
      <section aria-labelledby="todos-os-dados">
        <h2 id="todos-os-dados">Todos os dados</h2>
        <dl class="fields">{fieldList(rest)}</dl>
      </section>
      {relations.map((name) => {
        const relation = fields[name] as Relation
        return (
          <section key={name} aria-labelledby={`rel-${name}`}>
            <h2 id={`rel-${name}`}>{relation.label}</h2>
            <RelationTable relation={relation} rows={(document[name] as JsonObject[] | undefined) ?? []} />
          </section>
        )
      })}
      {'history' in view && <HistorySection resource={resource} id={id} versions={view.history} />}
    </>,
    [
      { href: `/${resource.portal.path}`, label: title(resource) },
      { href: `/orgaos/${owner.organization_uuid}`, label: owner.organization_name },
      ...(shown
        ? [{ href: recordPath(resource, id), label: named }, { label: `Versão ${shown.version}` }]
        : [{ label: named }]),
    ],
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
          <table class={recordsTableClass(resource)}>
            <thead>
              <tr>
                {shown.map((name) => (
                  <th key={name} scope="col">
                    {(fields[name] as AnyField).label}
                  </th>
                ))}
              </tr>
            </thead>
            <RecordRows resource={resource} rows={result.rows} shown={shown} />
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

/** Committed value per month as bars: an SVG with a title per bar, and the same figures as a table. */
function MonthlyChart({ months }: { months: OrganizationView['months'] }) {
  const width = 720
  const height = 240
  const top = Math.max(1, ...months.map((m) => m.total))
  const bar = width / months.length
  const label = (month: string) => `${month.slice(5, 7)}/${month.slice(0, 4)}`
  return (
    <ChartFigure
      caption={
        'Valor comprometido por mês da data principal: contratos, contratações diretas sem contrato e ordens ' +
        'fora de contrato, cada real uma vez.'
      }
      tableLabel="Valor comprometido por mês"
      headers={['Mês', 'Compromissos', 'Valor comprometido']}
      rows={months.map((m) => [label(m.month), String(m.count), money(m.total)] as const)}
    >
      <svg
        viewBox={`-40 -44 ${width + 80} ${height + 74}`}
        role="img"
        aria-labelledby="chart-title"
        class="chart wide"
        preserveAspectRatio="xMidYMid meet"
      >
        <title id="chart-title">Valor comprometido por mês, últimos 24 meses</title>
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
                <title>{`${label(m.month)}: ${money(m.total)} (${m.count} compromissos)`}</title>
              </rect>
              {/* Every third month labelled; on a phone, whose labels are larger, every sixth. */}
              {i % 3 === 0 && (
                <text
                  x={i * bar + bar / 2}
                  y={height + 18}
                  text-anchor="middle"
                  class={i % 6 === 0 ? 'tick' : 'tick minor'}
                >
                  {label(m.month)}
                </text>
              )}
            </g>
          )
        })}
      </svg>
    </ChartFigure>
  )
}

export function organizationPage(
  found: OrganizationView,
  summaries: KindSummary[],
  suppliers: TopSupplier[],
  flags: FlagCounts,
): string {
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
      <FollowLinks feeds={feedsOf({ organization_uuid: found.id })} label="Acompanhar este órgão" />
      <AlertCounts counts={flags} query={{ organization_uuid: found.id }} />
      <section aria-labelledby="valor">
        <h2 id="valor">Valor comprometido por mês</h2>
        <MonthlyChart months={found.months} />
      </section>
      <TopSuppliers suppliers={suppliers} />
      <p>
        <a href={`/precos?organization_uuid=${found.id}`}>Pesquisar os preços que este órgão pagou</a>
      </p>
      {summaries.map((summary) => (
        <Latest
          key={summary.resource.path}
          summary={summary}
          more={listingUrl(`/${summary.resource.portal.path}`, { organization_uuid: found.id })}
        />
      ))}
    </>,
    [{ label: found.name }],
    feedsOf({ organization_uuid: found.id }),
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
