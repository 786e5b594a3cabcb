import { formatValue, instant, MISSING } from '../format.js'
import { type Difference, declaredAt } from '../readmodel/differences.js'
import type { VersionEntry } from '../readmodel/store.js'
import { type AnyField, isRelation, type Relation, type Shape } from '../resources/fields.js'
import type { PublicResource } from '../resources/index.js'
import { recordPath, Value } from './layout.js'

// A record's history on its page (the "Histórico de alterações" section) and the pages of its earlier
// versions: what changed and when, with the resources' labels and formatting, "antes" and "depois" side by
// side. The versions come from src/history/history.ts, as the API serves them.

/** The page of one version of a record. */
export const versionPath = (resource: PublicResource, id: string, version: number) =>
  `${recordPath(resource, id)}/versoes/${version}`

/** A version without what it changed: enough to name it. */
type Version = Omit<VersionEntry, 'changes'>

/** When a version was made, in words. */
const when = (version: Version) =>
  version.changed_at === null ? 'antes do registro de alterações' : `em ${instant(version.changed_at)}`

/** An element of a relation added or removed, told by its fields: "Número: 3 · Valor: R$ 1.000,00". */
function Element({ shape, value }: { shape: Shape; value: Record<string, unknown> }) {
  const parts = Object.entries(shape.fields)
    .filter(([name, f]) => name !== 'id' && !isRelation(f as AnyField | Relation) && value[name] != null)
    .map(([name, f]) => `${f.label}: ${formatValue((f as AnyField).kind, value[name])}`)
  return <>{parts.length > 0 ? parts.join(' · ') : MISSING}</>
}

/** One side of a difference: a value as its field shows it, an element by its fields, or nothing. */
function Side({
  resource,
  difference,
  value,
}: {
  resource: PublicResource
  difference: Difference
  value: unknown
}) {
  if (value === null || value === undefined) return <>{MISSING}</>
  const { declared, shape } = declaredAt(resource.record, difference.path)
  if (shape) return <Element shape={shape} value={value as Record<string, unknown>} />
  if (declared) return <Value field={declared} value={value} />
  return <>{typeof value === 'string' ? value : JSON.stringify(value)}</>
}

/** The differences a version made, as a table: the field, then "Antes" and "Depois" side by side. */
function Changes({
  resource,
  list,
  caption,
}: {
  resource: PublicResource
  list: readonly Difference[]
  caption: string
}) {
  // An update whose differences are all in what the page does not show, or whose only change was withdrawn
  // since: said so.
  if (list.length === 0) return <p>Sem diferença nos campos publicados.</p>
  return (
    <table class="changes">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Campo</th>
          <th scope="col">Antes</th>
          <th scope="col">Depois</th>
        </tr>
      </thead>
      <tbody>
        {list.map((d) => (
          <tr key={d.field}>
            <th scope="row">{d.label}</th>
            <td>
              <Side resource={resource} difference={d} value={d.before} />
            </td>
            <td>
              <Side resource={resource} difference={d} value={d.after} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The history section of a record's page: every version, newest first, with what it changed. */
export function HistorySection({
  resource,
  id,
  versions,
}: {
  resource: PublicResource
  id: string
  versions: readonly VersionEntry[]
}) {
  const latest = versions.length
  return (
    <section aria-labelledby="historico" id="historico-secao">
      <h2 id="historico">Histórico de alterações</h2>
      {latest === 1 ? (
        <p>{`Nenhuma alteração desde a publicação, ${when(versions[0] as Version)}.`}</p>
      ) : (
        <>
          <p>
            {`${latest} versões. A mais recente é a mostrada acima; cada versão anterior tem a sua página.`}
          </p>
          <ol class="versions">
            {[...versions].reverse().map((version) => {
              const heading = `Versão ${version.version}, ${when(version)}`
              return (
                <li key={version.version}>
                  <h3>
                    {version.version === latest ? (
                      `${heading} (atual)`
                    ) : (
                      <a href={versionPath(resource, id, version.version)}>{heading}</a>
                    )}
                  </h3>
                  {version.version === 1 ? (
                    <p>Publicação do registro.</p>
                  ) : (
                    <Changes
                      resource={resource}
                      list={version.changes}
                      caption={`O que a versão ${version.version} mudou`}
                    />
                  )}
                </li>
              )
            })}
          </ol>
        </>
      )}
    </section>
  )
}

/** The banner of an earlier version's page: which version it is, and the way to the current one. */
export function VersionBanner({
  resource,
  id,
  version,
  latest,
}: {
  resource: PublicResource
  id: string
  version: Version
  latest: number
}) {
  return (
    <aside class="banner" aria-label="Versão anterior">
      <p>
        <strong>{`Versão ${version.version} de ${latest}`}</strong>
        {`, ${when(version)}. `}
        {version.version === latest ? 'Esta é a versão atual. ' : 'Esta não é a versão atual. '}
        <a href={recordPath(resource, id)}>Ver a versão atual</a>
        {' · '}
        <a href={`${recordPath(resource, id)}#historico`}>Histórico de alterações</a>
      </p>
    </aside>
  )
}
