import type { FlagAnswer, FlagCounts, FlagList } from '../indicators/flags.js'
import { FLAG_FILTERS } from '../indicators/flags.js'
import type { Indicator } from '../indicators/indicators.js'
import { PUBLIC_RESOURCES } from '../resources/index.js'
import { FilterFields } from './form-field.js'
import { companyPath, page } from './layout.js'
import { listingUrl } from './listing.js'

// Where to look first: the integrity flags (/indicadores), a page per indicator explaining it
// (/indicadores/{code}), and the counts an organ's and a supplier's pages show. A flag is a reason to open a
// record, never a verdict: every page says so.

const NEVER_A_VERDICT = 'Um indício para abrir o processo, nunca um veredito.'

/** Where the portal shows a record a flag names. */
function recordHref(kind: string, id: string): string {
  if (kind === 'organizations') return `/orgaos/${id}`
  const resource = PUBLIC_RESOURCES.find((r) => r.path === kind)
  return resource ? `/${resource.portal.path}/${id}` : `/v1/transparency/${kind}/${id}`
}

/** What a record a flag names is called on its link. */
function recordLabel(kind: string): string {
  if (kind === 'organizations') return 'o órgão'
  return PUBLIC_RESOURCES.find((r) => r.path === kind)?.noun.singular ?? kind
}

/** The flags' form as asked, the counts for it, and a page of the flags. */
export interface IndicatorsView {
  asked: Readonly<Record<string, string>>
  counts: FlagCounts
  list: FlagList
  /** The name of the organization asked for, where one is. */
  organization?: string
}

function FlagItem({ flag }: { flag: FlagAnswer }) {
  return (
    <li>
      <p>
        <strong>
          <a href={`/indicadores/${flag.code}`}>{flag.title}</a>
        </strong>{' '}
        ({flag.code}, {flag.year}) ·{' '}
        <a href={`/orgaos/${flag.organization_uuid}`}>{flag.organization_name}</a>
        {flag.providers.map((p) => {
          // A company leads to its page; a person has none.
          const href = companyPath(p.document)
          return (
            <>
              {' · '}
              {href ? <a href={href}>{p.name}</a> : p.name}
            </>
          )
        })}
      </p>
      <p>{flag.reason}</p>
      <p>
        {flag.records.map((record, i) => (
          <>
            {i > 0 && ' · '}
            <a key={record.id} href={recordHref(record.kind, record.id)}>
              {flag.records.length > 1
                ? `${recordLabel(record.kind)} ${i + 1}`
                : `Ver ${recordLabel(record.kind)}`}
            </a>
          </>
        ))}
      </p>
    </li>
  )
}

/** The indicators with their counts, each linked to its flags: the organ's and supplier's pages show it too. */
export function FlagCountsList({
  counts,
  query,
}: {
  counts: FlagCounts
  query: Readonly<Record<string, string>>
}) {
  return (
    <ul class="kinds">
      {counts.by_code
        .filter((c) => c.count > 0)
        .map((c) => (
          <li key={c.code}>
            <a href={listingUrl('/indicadores', { ...query, code: c.code })}>
              <strong>{c.count}</strong> {c.title}
            </a>
          </li>
        ))}
    </ul>
  )
}

/** An organ's or a supplier's flags, counted by indicator, when it has any. */
export function AlertCounts({
  counts,
  query,
}: {
  counts: FlagCounts
  query: Readonly<Record<string, string>>
}) {
  if (counts.total === 0) return null
  return (
    <section class="alerts" aria-labelledby="sinais-de-alerta">
      <h2 id="sinais-de-alerta">Sinais de alerta</h2>
      <FlagCountsList counts={counts} query={query} />
      <p>{NEVER_A_VERDICT}</p>
    </section>
  )
}

export function indicatorsPage({ asked, counts, list, organization }: IndicatorsView): string {
  const query = Object.fromEntries(Object.entries(asked).filter(([, v]) => v !== ''))
  return page(
    'Sinais de alerta',
    <>
      <h1>Sinais de alerta</h1>
      <p>
        Regras da Lei 14.133/2021 e da Open Contracting Partnership aplicadas aos registros publicados, cada
        uma com o motivo e os números do próprio registro: onde olhar primeiro. {NEVER_A_VERDICT}
      </p>
      {asked.record && (
        <p>
          Os sinais que citam{' '}
          <a href={recordHref(...(asked.record.split('/') as [string, string]))}>
            {recordLabel(asked.record.split('/')[0] as string)} {asked.record.split('/')[1]}
          </a>
          .
        </p>
      )}
      <form method="get" action="/indicadores" class="filters">
        {asked.record && <input type="hidden" name="record" value={asked.record} />}
        <FilterFields filters={FLAG_FILTERS} asked={asked} lists={undefined} organization={organization} />
        <p>
          <button type="submit">Filtrar</button>
        </p>
      </form>
      <section aria-labelledby="por-indicador">
        <h2 id="por-indicador">Por indicador</h2>
        <table class="compact">
          <thead>
            <tr>
              <th scope="col">Indicador</th>
              <th scope="col">Código</th>
              <th scope="col">Sinais</th>
            </tr>
          </thead>
          <tbody>
            {counts.by_code.map((c) => (
              <tr key={c.code}>
                <th scope="row">
                  <a href={`/indicadores/${c.code}`}>{c.title}</a>
                </th>
                <td>{c.code}</td>
                <td>
                  {c.count > 0 ? (
                    <a href={listingUrl('/indicadores', { ...query, code: c.code })}>{c.count}</a>
                  ) : (
                    '0'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="sinais">
        <h2 id="sinais">{`Sinais (${counts.by_code.find((c) => c.code === asked.code)?.count ?? counts.total})`}</h2>
        {list.data.length === 0 ? (
          <p>Nenhum sinal com estes filtros.</p>
        ) : (
          <ul class="flags">
            {list.data.map((flag) => (
              <FlagItem key={`${flag.code} ${flag.records[0]?.id} ${flag.year}`} flag={flag} />
            ))}
          </ul>
        )}
        {list.next_cursor && (
          <p>
            <a href={listingUrl('/indicadores', { ...query, cursor: list.next_cursor })}>Próxima página</a>
          </p>
        )}
      </section>
    </>,
    [{ label: 'Sinais de alerta' }],
  )
}

/** An indicator's page: what it looks for, what a flag does not say, its legal basis, and its flags. */
export function indicatorPage(indicator: Indicator, count: number): string {
  return page(
    indicator.title,
    <>
      <h1>{indicator.title}</h1>
      <p>
        Código {indicator.code} · {indicator.basis}
      </p>
      <h2>O que este sinal procura</h2>
      <p>{indicator.meaning}</p>
      <h2>O que ele não diz</h2>
      <p>{indicator.caveat}</p>
      <p>
        <strong>{NEVER_A_VERDICT}</strong>
      </p>
      <p>
        {count === 0 ? (
          'Nenhum sinal deste indicador nos dados publicados.'
        ) : (
          <a href={listingUrl('/indicadores', { code: indicator.code })}>
            {count === 1 ? 'Ver o sinal deste indicador' : `Ver os ${count} sinais deste indicador`}
          </a>
        )}
      </p>
    </>,
    [{ label: 'Sinais de alerta', href: '/indicadores' }, { label: indicator.code }],
  )
}
