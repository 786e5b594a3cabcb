import type { ComponentChildren } from 'preact'
import { feedPath } from '../feeds/atom.js'
import { counted } from '../format.js'
import type { ListResult } from '../listings/listing.js'
import type { AnyField } from '../resources/fields.js'
import type { Filter, FormInput } from '../resources/filters.js'
import type { PublicResource } from '../resources/index.js'
import type { Choices, LookupOption } from './data.js'
import { type Feed, page, RecordRows, Scroll, title } from './layout.js'
import { recordsTableClass } from './style.js'

// A listing's page: the filter form, built from the resource's filters (src/resources/filters.ts), the
// results table, and the pager. The form is a GET form whose URL is the listing's state.

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

/** How many organs a name search offers at most; more asks for more of the name. */
const MATCHES_SHOWN = 50
const ORGANIZATION_NOUN = { singular: 'órgão', plural: 'órgãos' }

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
  organizationMatches?: readonly LookupOption[]
  page: number
  perPage: number
  sort: string
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

function Select({
  name,
  view,
  options,
  empty,
}: {
  name: string
  view: ListingView
  options: readonly { id: string | number; name: string }[]
  empty: string
}) {
  const chosen = view.query[name]
  return (
    <select {...inputProps(name, view.errors)}>
      <option value="">{empty}</option>
      {options.map((o) => (
        <option key={o.id} value={String(o.id)} selected={String(o.id) === chosen}>
          {o.name}
        </option>
      ))}
    </select>
  )
}

/** Where each kind of input sits on the form: the search box first, then the organ, lists, texts, dates. */
const PLACE: Readonly<Record<string, number>> = { search: 0, organization: 1, choices: 2, text: 3, date: 4 }
const place = (form: FormInput) =>
  PLACE['choices' in form || 'options' in form ? 'choices' : form.input] as number

/** The resource's filters that the form shows, in the form's order. */
function formFilters(resource: PublicResource): [string, FormInput][] {
  return Object.entries(resource.filters)
    .filter((entry): entry is [string, Filter & { form: FormInput }] => entry[1].form !== undefined)
    .map(([name, filter]): [string, FormInput] => [name, filter.form])
    .sort((a, b) => place(a[1]) - place(b[1]))
}

/** The organ: typed by name (the portal's own `orgao`), then chosen among the organs the name found. */
function OrganizationFields({ name, label, view }: { name: string; label: string; view: ListingView }) {
  const { query, errors, choices } = view
  const matches = view.organizationMatches ?? []
  const chosen = choices.organizations.find((o) => o.id === query[name])
  const options = matches.length > 0 ? matches.slice(0, MATCHES_SHOWN) : chosen ? [chosen] : []
  return (
    <>
      <Field name="orgao" label={`${label}: buscar pelo nome`} error={errors.orgao}>
        <input type="search" value={query.orgao ?? ''} {...inputProps('orgao', errors)} />
      </Field>
      {(options.length > 0 || query[name] !== undefined) && (
        <Field name={name} label={label} error={errors[name]}>
          <Select
            name={name}
            view={view}
            options={options}
            empty={matches.length > 0 ? 'Escolha um órgão' : 'Todos os órgãos'}
          />
        </Field>
      )}
    </>
  )
}

function FilterInput({ name, form, view }: { name: string; form: FormInput; view: ListingView }) {
  if ('choices' in form)
    return (
      <Field name={name} label={form.label} error={view.errors[name]}>
        <Select name={name} view={view} options={view.choices.lists[form.choices]} empty="Todas" />
      </Field>
    )
  if ('options' in form)
    return (
      <Field name={name} label={form.label} error={view.errors[name]}>
        <Select name={name} view={view} options={form.options} empty="Todas" />
      </Field>
    )
  if (form.input === 'organization') return <OrganizationFields name={name} label={form.label} view={view} />
  const props = { value: view.query[name] ?? '', ...inputProps(name, view.errors) }
  return (
    <Field name={name} label={form.label} error={view.errors[name]}>
      {form.input === 'date' ? (
        <input type="date" {...props} />
      ) : form.input === 'search' ? (
        <input type="search" {...props} />
      ) : (
        <input type="text" {...props} />
      )}
    </Field>
  )
}

/** The filters, the sort and the page size, as a GET form of the listing's own URL. */
function FilterForm({ view, base }: { view: ListingView; base: string }) {
  const { resource, errors } = view
  const fields = resource.record.fields
  return (
    <form method="get" action={base} class="filters" aria-label={`Filtrar ${resource.noun.plural}`}>
      {formFilters(resource).map(([name, form]) => (
        <FilterInput key={name} name={name} form={form} view={view} />
      ))}
      <Field name="sort" label="Ordenar por" error={errors.sort}>
        <select {...inputProps('sort', errors)}>
          {Object.entries(resource.sorts).flatMap(([name, field]) =>
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
  )
}

/** The page's records, a row each, with the sortable columns' headers as links. */
function ResultsTable({ view, result, base }: { view: ListingView; result: ListResult; base: string }) {
  const { resource, query } = view
  const fields = resource.record.fields
  const sorts = Object.entries(resource.sorts)
  return (
    <Scroll label={`Resultados: ${resource.noun.plural}`}>
      <table class={recordsTableClass(resource)}>
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
        <RecordRows resource={resource} rows={result.rows} shown={resource.portal.listed} />
      </table>
    </Scroll>
  )
}

function Pager({ view, lastPage, base }: { view: ListingView; lastPage: number; base: string }) {
  return (
    <nav aria-label="Páginas" class="pages">
      {view.page > 1 && (
        <a rel="prev" href={listingUrl(base, view.query, { page: String(view.page - 1) })}>
          ← Anterior
        </a>
      )}
      <span>{` Página ${view.page} de ${lastPage} `}</span>
      {view.page < lastPage && (
        <a rel="next" href={listingUrl(base, view.query, { page: String(view.page + 1) })}>
          Próxima →
        </a>
      )}
    </nav>
  )
}

/** What the form found: organs to choose from, a request to mend the filters, or the page of results. */
function Outcome({ view, base }: { view: ListingView; base: string }) {
  const { resource, query, result } = view
  const matches = view.organizationMatches ?? []
  if (matches.length > 0)
    return (
      <p class="total" role="status">
        {`${counted(matches.length, ORGANIZATION_NOUN)} têm esse nome: escolha um na lista “Órgão” e filtre de novo.`}
        {matches.length > MATCHES_SHOWN &&
          ` A lista mostra os ${MATCHES_SHOWN} primeiros; escreva mais do nome para estreitá-la.`}
      </p>
    )
  if (result === undefined) {
    // A problem with a parameter the form has no field for (an unknown one) is said here.
    const onForm = new Set(['orgao', 'sort', 'per_page', ...formFilters(resource).map(([name]) => name)])
    const elsewhere = Object.entries(view.errors).filter(([name]) => !onForm.has(name))
    return (
      <div class="problem" role="alert">
        {elsewhere.map(([name, message]) => (
          <p key={name}>{message}</p>
        ))}
        <p>Corrija os filtros indicados acima para ver os resultados.</p>
      </div>
    )
  }
  const lastPage = Math.max(1, Math.ceil(result.total / view.perPage))
  const exportQuery = Object.fromEntries(
    Object.entries(query).filter(([name]) => name !== 'page' && name !== 'per_page'),
  )
  const exportUrl = (format: string) =>
    listingUrl('/v1/transparency/export', exportQuery, { resource: resource.path, format })
  return (
    <>
      <p class="total" role="status">
        {counted(result.total, resource.noun)}
        {result.total > 0 && ` · página ${view.page} de ${lastPage}`}
      </p>
      <p class="downloads">
        <a href={exportUrl('xlsx')}>Baixar planilha (XLSX)</a> · <a href={exportUrl('csv')}>Baixar CSV</a> ·{' '}
        <a href={feedPath(resource, query)} type="application/atom+xml">
          Acompanhar estes resultados (Atom)
        </a>
      </p>
      {result.rows.length > 0 && <ResultsTable view={view} result={result} base={base} />}
      {lastPage > 1 && <Pager view={view} lastPage={lastPage} base={base} />}
    </>
  )
}

/** The feed of a listing's results, when its filters hold: the same question, newest changes first. */
const resultsFeed = (view: ListingView): Feed | undefined =>
  view.result === undefined
    ? undefined
    : { title: `${title(view.resource)} com estes filtros`, href: feedPath(view.resource, view.query) }

export function listingPage(view: ListingView): string {
  const { resource } = view
  const base = `/${resource.portal.path}`
  const feed = resultsFeed(view)
  return page(
    title(resource),
    <>
      <h1>{title(resource)}</h1>
      <FilterForm view={view} base={base} />
      <Outcome view={view} base={base} />
    </>,
    [{ label: title(resource) }],
    feed === undefined ? [] : [feed],
  )
}
