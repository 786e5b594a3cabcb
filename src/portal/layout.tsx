import type { ComponentChildren } from 'preact'
import { renderToString } from 'preact-render-to-string'
import { feedPath } from '../feeds/atom.js'
import { capitalized, fieldText, formatValue, MISSING } from '../format.js'
import type { JsonObject } from '../json.js'
import { type AnyField, type Fields, isRelation, type Relation } from '../resources/fields.js'
import { PUBLIC_RESOURCES, type PublicResource } from '../resources/index.js'
import { STYLESHEET_HREF } from './style.js'

// What every page of the portal shares: the frame (header, menu, breadcrumbs, footer), and how a field's
// value is shown. Rendered on the server (Preact, to a string: every value is escaped); no script.

export { capitalized }
export const title = (resource: PublicResource) => capitalized(resource.noun.plural)

/** The portal page of a record of a resource. */
export const recordPath = (resource: PublicResource, id: string) => `/${resource.portal.path}/${id}`

export interface Crumb {
  href?: string
  label: string
}

/** An Atom feed a page links to (src/feeds/atom.ts): what it follows, and its address. */
export interface Feed {
  title: string
  href: string
}

/** The feeds of a listing's filters for each public resource: an organ's, a supplier's. */
export const feedsOf = (filters: Readonly<Record<string, string>>): Feed[] =>
  PUBLIC_RESOURCES.filter((r) => Object.keys(filters).every((name) => name in r.filters)).map((r) => ({
    title: title(r),
    href: feedPath(r, filters),
  }))

/** Where a reader follows what a page shows: its feeds, each a visible "Acompanhar" link. */
export function FollowLinks({ feeds, label }: { feeds: readonly Feed[]; label: string }) {
  if (feeds.length === 0) return null
  return (
    <p class="follow">
      {`${label} (Atom): `}
      {feeds.map((feed, i) => (
        <>
          {i > 0 && ' · '}
          <a key={feed.href} href={feed.href} type="application/atom+xml">
            {feed.title}
          </a>
        </>
      ))}
    </p>
  )
}

export function page(
  pageTitle: string,
  body: ComponentChildren,
  crumbs: Crumb[] = [],
  feeds: readonly Feed[] = [],
): string {
  return `<!doctype html>${renderToString(
    <html lang="pt-BR">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${pageTitle} · Portal da transparência · compras`}</title>
        <link rel="stylesheet" href={STYLESHEET_HREF} />
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
        {feeds.map((feed) => (
          <link
            key={feed.href}
            rel="alternate"
            type="application/atom+xml"
            title={feed.title}
            href={feed.href}
          />
        ))}
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
              <li>
                <a href="/precos">Preços</a>
              </li>
              <li>
                <a href="/orgaos">Órgãos</a>
              </li>
              <li>
                <a href="/fornecedores">Fornecedores</a>
              </li>
              <li>
                <a href="/indicadores">Sinais de alerta</a>
              </li>
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
export const kindClass = (field: AnyField | Relation) =>
  field.kind === 'money' || field.kind === 'amount' ? 'money' : undefined

/**
 * A wide table's region: it scrolls sideways on a phone, and the keyboard can reach it to scroll. Named as a
 * table, so that its landmark never takes the name of the section around it (axe's landmark-unique).
 */
export function Scroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <section class="scroll" aria-label={`Tabela: ${label}`} tabindex={0}>
      {children}
    </section>
  )
}

/**
 * A chart (the children: an SVG) with its caption, and the same figures as a table a reader can open: the frame
 * of the portal's bar charts. Each row is its label (the row's header) and its cells, under `headers`.
 */
export function ChartFigure({
  caption,
  tableLabel,
  headers,
  rows,
  compact = false,
  children,
}: {
  caption: string
  tableLabel: string
  headers: readonly string[]
  rows: readonly (readonly [label: string, ...cells: string[]])[]
  compact?: boolean
  children: ComponentChildren
}) {
  return (
    <figure>
      {children}
      <figcaption>{caption}</figcaption>
      <details>
        <summary>Ver os valores em tabela</summary>
        <Scroll label={tableLabel}>
          <table class={compact ? 'compact' : undefined}>
            <thead>
              <tr>
                {headers.map((header) => (
                  <th key={header} scope="col">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map(([label, ...cells]) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  {cells.map((cell, i) => (
                    <td key={headers[i + 1]} class="money">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      </details>
    </figure>
  )
}

/** The page of a company, for a supplier's name whose CNPJ the same record or element shows; none for a person. */
export function supplierHref(fields: Fields, row: JsonObject, name: string): string | undefined {
  const f = fields[name]
  if (!f || isRelation(f) || !('supplier' in f.store) || f.store.supplier !== 'name') return undefined
  const document = Object.entries(fields).find(
    ([, g]) => !isRelation(g) && 'supplier' in g.store && g.store.supplier === 'document',
  )
  const value = document && row[document[0]]
  return typeof value === 'string' ? companyPath(value) : undefined
}

/** The page of a supplier by its document: a company's (CNPJ) only; none for a person. */
export const companyPath = (document: string) =>
  /^[0-9]{14}$/.test(document) ? `/fornecedores/${document}` : undefined

/** A field's value as a cell's content: links for URLs, text otherwise. */
export function Value({ field, value }: { field: AnyField; value: unknown }) {
  if (field.kind === 'url' && typeof value === 'string')
    return (
      <a href={value} rel="noopener noreferrer">
        {value}
      </a>
    )
  return <>{fieldText(field, value)}</>
}

/**
 * Records as table rows, one cell per shown field, the first linking to the record's page. `shown` is the kind's
 * listed fields or the first of them: the table's class (`recordsTableClass`) labels the cells on a phone.
 */
export function RecordRows({
  resource,
  rows,
  shown,
}: {
  resource: PublicResource
  rows: readonly JsonObject[]
  shown: readonly string[]
}) {
  const fields = resource.record.fields
  return (
    <tbody>
      {rows.map((row) => (
        <tr key={String(row.id)}>
          {shown.map((name, column) => (
            <td key={name} class={kindClass(fields[name] as AnyField)}>
              <Cell
                field={fields[name] as AnyField}
                value={row[name]}
                href={column === 0 ? recordPath(resource, String(row.id)) : supplierHref(fields, row, name)}
              />
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  )
}

export function Cell({ field, value, href }: { field: AnyField | Relation; value: unknown; href?: string }) {
  if (isRelation(field)) {
    const items = (value as JsonObject[] | undefined) ?? []
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
