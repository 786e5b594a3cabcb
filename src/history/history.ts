import type { Difference } from '../readmodel/differences.js'
import type { VersionEntry } from '../readmodel/store.js'
import type { PublicResource } from '../resources/index.js'

// A public record's versions as the API serves them (migrations/0017 and 0019, src/readmodel/log.ts), without
// HTTP: what changed from one version to the next as the import named it, and one version whole. Neither
// rebuilds more than it serves: the differences are kept with the entries, and a version is rebuilt from the
// nearest one kept whole (src/readmodel/store.ts).

/** A difference as served: where, in a person's words, and the values before and after. */
const served = ({ field, label, before, after }: Difference) => ({ field, label, before, after })

/** The history as served: every version's moment, change and differences from the one before, oldest first. */
export function historyText(resource: PublicResource, id: string, versions: readonly VersionEntry[]): string {
  return JSON.stringify({
    kind: resource.path,
    id,
    versions: versions.map((version) => ({
      version: version.version,
      changed_at: version.changed_at,
      change: version.change,
      changes: version.changes.map(served),
    })),
  })
}

/** One version whole, as served: its number, moment and change, and the record as it was (JSON text). */
export function versionText(
  resource: PublicResource,
  id: string,
  version: Omit<VersionEntry, 'changes'>,
  document: string,
): string {
  const head = JSON.stringify({
    kind: resource.path,
    id,
    version: version.version,
    changed_at: version.changed_at,
    change: version.change,
  })
  return `${head.slice(0, -1)},"record":${document}}`
}
