import type { RecordType } from '../domain.js'
import type { AnyField, Field, Fields, Kind, Relation, Shape } from './fields.js'
import type { Filter } from './filters.js'

/** The names of F's fields (relations included). */
export type Name<F extends Fields> = keyof F & string

/** A kind of record: its shape, and how the import places it. */
export interface RecordKind<F extends Fields = Fields> extends Shape<F> {
  /** The `type` of its lines in the import format. */
  readonly types: readonly RecordType[]
  /** What the import format's documentation says of a record of this type: its key and links. */
  readonly about: (type: RecordType) => string
  readonly placement: Placement<F>
  /** The fields (and owned children's names) full-text search reads, in its `search` column. */
  readonly search?: readonly Name<F>[]
}

/**
 * How the import places a record: its key space (`group`), the fields that key it, its natural number,
 * and its links to other records by number or id. Orders are keyed by organization and number.
 */
export interface Placement<F extends Fields> {
  readonly group: 'organization' | 'order' | 'contract' | 'arp' | 'bidding'
  readonly key: Name<F>
  readonly number?: Name<F>
  readonly arp?: Name<F>
  readonly contract?: Name<F>
  readonly bidding?: Name<F>
  /** The columns an import replaces a stored row by. */
  readonly conflict: readonly string[]
  /** A column that holds the record's `type` (a table shared by two types). */
  readonly typeColumn?: string
  /**
   * An instant field that orders a record's versions (when its source last changed it): of two lines with
   * one key the newer wins, whatever their order, and a line no newer than the stored record is dropped.
   */
  readonly version?: Name<F>
}

/** A public resource: a kind of record as /v1/transparency serves, lists, filters and exports it. */
export interface PublicResource<F extends Fields = Fields> {
  /** URL segment under /v1/transparency (and the export's `resource`). */
  readonly path: 'contracts' | 'direct-contracts' | 'public-calls' | 'arps'
  /** In the OpenAPI document. */
  readonly label: string
  /** In Portuguese, for people: the portal's titles and the export's sheet name. */
  readonly noun: { readonly singular: string; readonly plural: string }
  readonly record: RecordKind<F>
  /** The `type` of its import lines. */
  readonly type: RecordType
  /** Its rows among the record's table (a direct contract, a public call), or 'true'. */
  readonly where: (a: string) => string
  /** The detail (spec 2.7–2.9), relations included, in the spec's order. */
  readonly detail: readonly Name<F>[]
  /** A listing item adds these to the detail's own fields. */
  readonly listingExtra: readonly Name<F>[]
  /** Relations a listing item may add (with_relations), in the detail's order. */
  readonly offered: readonly Name<F>[]
  /** The export's columns, in order. */
  readonly exported: readonly Name<F>[]
  /** The listing's filters, in the order the API lists its parameters. */
  readonly filters: Readonly<Record<string, Filter>>
  /** Sort names and the column each orders by. */
  readonly sorts: Readonly<Record<string, Name<F>>>
  /** Newest first by the kind's main date; the id breaks ties so pages are stable. */
  readonly defaultSort: string
  /** The main date, for date_from and date_to and the portal's charts. */
  readonly date: Name<F>
  /** Where a record stands, as people read it (a contract's management status, a call's status): a feed's category. */
  readonly status: Name<F>
  /** What a record is worth where a page adds records up (a supplier's, an organization's): SQL over `a`. */
  readonly value: (a: string) => string
  /** Its records of one supplier (`supplier`: the SQL of its id) over `a`; none for a kind without one. */
  readonly ofSupplier?: (a: string, supplier: string) => string
  /** The citizens' portal: the listing's path under / and the columns of its results table, in order. */
  readonly portal: { readonly path: string; readonly listed: readonly Name<F>[] }
}

/** A field served as another kind (an order's total as text in transparency), or as it is. */
type ServedAs<F, K> = [K] extends [never]
  ? F
  : [K] extends [Kind]
    ? F extends Field<Kind, infer N, infer V>
      ? Field<K, N, V>
      : F
    : F

/**
 * A shape of some of a record's fields, read under another alias (a summary inside another record's
 * detail). `served` changes how a field is served there (an order's total is text in transparency).
 */
export function pick<
  F extends Fields,
  const K extends Name<F>,
  const S extends Partial<Record<K, Kind>> = Record<never, never>,
>(
  source: Shape<F>,
  names: readonly K[],
  options: { name: string; alias: string; description?: string; served?: S },
): Shape<{ readonly [P in K]: ServedAs<F[P], S[P & keyof S]> }> {
  const fields = Object.fromEntries(
    names.map((name) => {
      const f = source.fields[name] as AnyField | Relation
      const kind = options.served?.[name]
      return [name, kind && f.kind !== 'relation' ? { ...f, kind } : f]
    }),
  ) as { readonly [P in K]: ServedAs<F[P], S[P & keyof S]> }
  return {
    name: options.name,
    description: options.description,
    table: source.table,
    alias: options.alias,
    fields,
  }
}

/**
 * A record kind, checked against its own fields (every name in its placement and search is one of them),
 * then widened: every face reads kinds alike.
 */
export function defineRecord<F extends Fields>(kind: RecordKind<F>): RecordKind {
  return kind as unknown as RecordKind
}

/** A public resource, checked against its record's fields (detail, listing, export, sorts), then widened. */
export function definePublic<F extends Fields>(resource: PublicResource<F>): PublicResource {
  return resource as unknown as PublicResource
}

/**
 * A listing item's fields: its id and organization, the detail's own fields, the listing's extras, then the
 * relations asked for (in the resource's own order, whatever order with_relations named them in). The read
 * model keeps each record's item without relations (src/readmodel/build.ts); a listing builds the rest.
 */
export function listingItemFields(resource: PublicResource, relations: readonly string[] = []): string[] {
  // Stryker disable next-line OptionalChaining: a detail's names are its record's fields (type-checked)
  const own = resource.detail.filter((name) => resource.record.fields[name]?.kind !== 'relation')
  const added = resource.offered.filter((name) => relations.includes(name))
  return ['id', 'organization_uuid', ...own, ...resource.listingExtra, ...added]
}
