import { type TSchema, Type } from 'typebox'
import { MAX_NUMBER_LENGTH, NO_CONTROL_PATTERN } from '../checks.js'
import { day, instant, jsNumber, maskedCpf, money, publicTaxId } from './sql.js'

// The vocabulary every resource is declared in. A field says once what it is (its kind, whether it can be
// null, its Portuguese label) and where it lives (its store); each face takes what it needs from that:
// the API's served form and response schema, the import's JSON Schema, the SQL type a value is staged
// in, the export's column kind, the dump's form.

export type Kind =
  | 'text' // free text
  | 'number' // a key or link by number: trimmed on import, no control characters (src/checks.ts)
  | 'uuid'
  | 'money' // an exact decimal served as text with two decimals ("1234.50"), as the transparency API does
  | 'amount' // an exact decimal served as a JSON number, as the order query does (spec 2.2)
  | 'integer'
  | 'boolean'
  | 'date'
  | 'instant' // a timestamp, served in UTC with microseconds
  | 'enum' // one of a closed list (src/domain.ts), stored by id in a lookup table
  | 'cpf' // a person's whole CPF, masked on output
  | 'taxId' // a supplier's CNPJ or CPF; a CPF is masked on public output
  | 'cnpj'
  | 'codeTitle' // "<code> - <title>"
  | 'url'

/** The lookup tables of the closed vocabularies (ids are public: the filters take them). */
export type LookupTable = 'bidding_modalities' | 'bidding_statuses' | 'management_statuses' | 'order_statuses'

/**
 * How a record reaches others: the rows of `table` whose `column` holds the record's `ownerColumn`, in the
 * same organization when `sameOrganization`. Links are data, not SQL text, so that an import can tell which
 * documents show what it changed.
 */
export interface Link {
  readonly table: string
  readonly column: string
  readonly ownerColumn: string
  readonly sameOrganization: boolean
}

/** A link's condition, for rows `r` of its table and an owner row `a`. */
export const linkCondition = (link: Link, r: string, a: string) =>
  `${r}.${link.column} = ${a}.${link.ownerColumn}` +
  (link.sameOrganization ? ` AND ${r}.organization_id = ${a}.organization_id` : '')

/** Where a field's value lives, seen from its record's table (alias `a`). */
export type Store =
  /** A column of the record's table. */
  | { readonly column: string }
  /** The name in a lookup table, referenced by an id column of the record's table. */
  | { readonly lookup: LookupTable; readonly column: string }
  /** An attribute of the record's supplier (suppliers, through supplier_id): one row per tax id. */
  | { readonly supplier: 'name' | 'document' | 'representative_name' }
  /** An attribute of the order's unit (units, through unit_id). */
  | { readonly unit: 'name' | 'name_short' }
  /** A column of the record another links to (an order's ARP's total), never written: an API-only field. */
  | { readonly link: Link; readonly column: string }

export interface Field<
  K extends Kind = Kind,
  N extends boolean = boolean,
  V extends readonly string[] = readonly string[],
> {
  readonly kind: K
  readonly nullable: N
  /** Portuguese label: the export's column title and the portal's. */
  readonly label: string
  readonly description?: string
  readonly store: Store
  readonly maxLength?: number
  readonly minimum?: number
  readonly maximum?: number
  /** The values of an enum. */
  readonly values?: V
  /** An enum the interface leaves open: a later version may add values, so clients must accept others. */
  readonly open?: boolean
  /** A taxId shown whole: only the token-protected order query, to the organ that issued the order. */
  readonly reveal?: boolean
  /** Published as null (API, exports) while this boolean field of the record is true. */
  readonly secretIf?: string
  readonly examples?: readonly unknown[]
  /** Read from other records, never imported. */
  readonly derived?: boolean
  /** May be left out of an import record (it is then null): added after the format, for one source. */
  readonly optional?: boolean
}

export type AnyField = Field<Kind, boolean, readonly string[]>

/** Where owned children point to their owner: a column holding the owner's id, and fixed columns. */
export interface Owner {
  readonly column: string
  /** Columns that tell these children apart from others in the same table (contract_people.kind). */
  readonly fixed?: Readonly<Record<string, string>>
}

/** Rows related to a record: served as an array; owned children are part of the import record. */
export interface Relation<S extends Shape = Shape, E extends boolean = boolean> {
  readonly kind: 'relation'
  readonly label: string
  readonly description?: string
  readonly shape: S
  /** The related rows for an owner row of alias `a`: a condition on the shape's alias, and their order. */
  readonly rows: (a: string) => { readonly where: string; readonly orderBy: string }
  /** Owned children, imported inside the owner's record; otherwise derived from links (never imported). */
  readonly embedded: E
  /** For owned children: how they point to their owner (written by the import, in `position` order). */
  readonly owner?: Owner
  /** For linked records: the link. */
  readonly link?: Link
  readonly maxItems?: number
  readonly minItems?: number
  /** Owned children an import record may leave out (then none): added after the format, for one source. */
  readonly optional?: boolean
}

export type Fields = Readonly<Record<string, AnyField | Relation>>

/** A shape of rows: a record kind, or the elements of a relation. */
export interface Shape<F extends Fields = Fields> {
  /** Its name in the published schemas (OpenAPI components, import $defs). */
  readonly name: string
  readonly description?: string
  readonly table: string
  /** The SQL alias of its table. */
  readonly alias: string
  readonly fields: F
}

export interface FieldOptions<N extends boolean, V extends readonly string[], S extends string = string> {
  nullable?: N
  description?: string
  /** The column, when its name is not the field's; or another store. */
  column?: string
  store?: Store
  maxLength?: number
  minimum?: number
  maximum?: number
  values?: V
  open?: boolean
  reveal?: boolean
  secretIf?: S
  examples?: readonly unknown[]
  optional?: boolean
}

/** A field that may be published as null while its record keeps it secret: its type says so. */
export type MaybeSecret<S> = [S] extends [never] ? unknown : { readonly secretIf: S }

/** Declares a field; `column` defaults to the field's own name (filled in by `shape`). */
export function field<
  const K extends Kind,
  const N extends boolean = false,
  const V extends readonly string[] = never,
  const S extends string = never,
>(
  kind: K,
  label: string,
  options: FieldOptions<N, V, S> = {},
  // NoInfer: inside shape() the call has a contextual type (any field), which must not widen this one's.
): Field<NoInfer<K>, NoInfer<N>, NoInfer<V>> & MaybeSecret<NoInfer<S>> {
  const { nullable, column, store, ...rest } = options
  return {
    kind,
    nullable: (nullable ?? false) as N,
    label,
    store: store ?? { column: column ?? '' },
    ...rest,
  } as Field<K, N, V> & MaybeSecret<S>
}

/** A column of a linked record (an order's ARP's total): served, never imported. */
export function derived<const K extends Kind, const N extends boolean = false>(
  kind: K,
  label: string,
  link: Link,
  column: string,
  options: Omit<FieldOptions<N, never, never>, 'store' | 'column'> = {},
): Field<NoInfer<K>, NoInfer<N>, never> & { readonly derived: true } {
  return { ...field<K, N, never, never>(kind, label, { ...options, store: { link, column } }), derived: true }
}

/** Owned children: imported inside the owner's record, kept in the order given (a `position` column). */
export function owned<const S extends Shape>(
  label: string,
  shape: S,
  owner: Owner,
  options: { description?: string; maxItems?: number; minItems?: number } = {},
): Relation<S, true> {
  const fixed = Object.entries(owner.fixed ?? {}).map(
    ([column, v]) => ` AND ${shape.alias}.${column} = '${v}'`,
  )
  return {
    kind: 'relation',
    label,
    shape,
    embedded: true,
    owner,
    rows: (a) => ({
      where: `${shape.alias}.${owner.column} = ${a}.id${fixed.join('')}`,
      orderBy: `${shape.alias}.position`,
    }),
    ...options,
  }
}

/** Records linked to this one (by number or id), newest first by `orderBy`: served, never imported. */
export function linked<const S extends Shape>(
  label: string,
  shape: S,
  link: Link,
  orderBy: string,
): Relation<S, false> {
  return {
    kind: 'relation',
    label,
    shape,
    link,
    embedded: false,
    rows: (a) => ({ where: linkCondition(link, shape.alias, a), orderBy }),
  }
}

/** Declares a shape; a field's default column is its own name. */
export function shape<F extends Fields>(definition: Omit<Shape<F>, 'fields'> & { fields: F }): Shape<F> {
  const fields = Object.fromEntries(
    Object.entries(definition.fields).map(([name, f]) =>
      f.kind !== 'relation' && 'column' in f.store && f.store.column === ''
        ? [name, { ...f, store: { column: name } }]
        : [name, f],
    ),
  ) as unknown as F
  return { ...definition, fields }
}

export const isRelation = (f: AnyField | Relation): f is Relation => f.kind === 'relation'

// --- Reading: the SQL of a field's value in a row of alias `a` -------------------------------------------

const joinAlias = (a: string, store: Store) =>
  'lookup' in store
    ? `${a}_${store.column}`
    : 'supplier' in store
      ? `${a}_s`
      : 'unit' in store
        ? `${a}_u`
        : 'link' in store
          ? `${a}_${store.link.table}`
          : a

/** The stored value's SQL, before any served form. */
export function rawSql(f: AnyField, a: string): string {
  const { store } = f
  if ('lookup' in store) return `${joinAlias(a, store)}.name`
  if ('supplier' in store) return `${joinAlias(a, store)}.${store.supplier}`
  if ('unit' in store) return `${joinAlias(a, store)}.${store.unit}`
  // Stryker disable next-line ConditionalExpression: a column store's alias is `a` itself, which the last line reads the same
  if ('link' in store) return `${joinAlias(a, store)}.${store.column}`
  if (!store.column) throw new Error('a field read before shape() gave it its column')
  return `${a}.${store.column}`
}

/**
 * The joins a shape's fields read through (lookups, supplier, unit, links), for rows of alias `a`; with
 * `readBy`, only those whose alias that SQL reads. PostgreSQL drops an unused LEFT JOIN to a unique key from
 * the plan, but (as of 15) still counts the column it joins on as read, which keeps it from answering
 * from an index alone: a listing page's ids and its count, say.
 */
export function joins(fields: Fields, a: string, readBy?: string): string {
  const clauses = new Set<string>()
  for (const f of Object.values(fields)) {
    if (isRelation(f)) continue
    const { store } = f
    const j = joinAlias(a, store)
    if (readBy !== undefined && !new RegExp(`(?<![\\w.])${j}\\.`).test(readBy)) continue
    if ('lookup' in store) clauses.add(`LEFT JOIN ${store.lookup} ${j} ON ${j}.id = ${a}.${store.column}`)
    else if ('supplier' in store) clauses.add(`LEFT JOIN suppliers ${j} ON ${j}.id = ${a}.supplier_id`)
    else if ('unit' in store) clauses.add(`LEFT JOIN units ${j} ON ${j}.id = ${a}.unit_id`)
    else if ('link' in store)
      clauses.add(`LEFT JOIN ${store.link.table} ${j} ON ${linkCondition(store.link, j, a)}`)
  }
  return [...clauses].join(' ')
}

const secret = (f: AnyField, a: string, sql: string) =>
  f.secretIf ? `CASE WHEN ${a}.${f.secretIf} THEN NULL ELSE ${sql} END` : sql

/** Kinds whose served form is never secret (a secret is a value the record hides: money, amounts, text). */
const NEVER_SECRET: ReadonlySet<Kind> = new Set(['date', 'instant', 'cpf', 'taxId'])

/** The served value (API documents and listings): money as text, dates as text, CPFs masked. */
export function servedSql(f: AnyField, a: string): string {
  const value = servedFrom(f, rawSql(f, a))
  return NEVER_SECRET.has(f.kind) ? value : secret(f, a, value)
}

/** A value's served form from the SQL of its stored value, wherever that is read (a join of one's own). */
export function servedFrom(f: AnyField, raw: string): string {
  switch (f.kind) {
    case 'money':
      return money(raw)
    // Stryker disable next-line StringLiteral: PostgreSQL's JSON writes a date as YYYY-MM-DD too (years 1 to 9999, all the import takes)
    case 'date':
      return day(raw)
    case 'instant':
      return instant(raw)
    // Stryker disable next-line ConditionalExpression: falling through, publicTaxId masks an 11-digit CPF the same way
    case 'cpf':
      return maskedCpf(raw)
    case 'taxId':
      return f.reveal ? raw : publicTaxId(raw)
    case 'amount':
      return jsNumber(raw)
    default:
      return raw
  }
}

/** The exported value before the file's own formatting (src/export/columns.ts): public, but raw. */
export function exportedSql(f: AnyField, a: string): string {
  const value = exportedFrom(f, rawSql(f, a))
  return f.kind === 'cpf' || f.kind === 'uuid' || (f.kind === 'taxId' && !f.reveal)
    ? value
    : secret(f, a, value)
}

/** A value's exported form from the SQL of its stored value. */
export function exportedFrom(f: AnyField, raw: string): string {
  if (f.kind === 'cpf') return maskedCpf(raw)
  if (f.kind === 'taxId' && !f.reveal) return publicTaxId(raw)
  if (f.kind === 'uuid') return `${raw}::text`
  return raw
}

/** The value in the import format (the dump): whole, in the form the import takes. */
export function recordSql(f: AnyField, a: string): string {
  const raw = rawSql(f, a)
  if (f.kind === 'money') return `${raw}::text`
  if (f.kind === 'instant') return instant(raw)
  return raw
}

/** The SQL type a value is staged and converted in. */
export function sqlType(f: AnyField): string {
  switch (f.kind) {
    case 'uuid':
      return 'uuid'
    case 'money':
    case 'amount':
      return 'numeric'
    case 'integer':
      return 'integer'
    case 'boolean':
      return 'boolean'
    // Stryker disable next-line ConditionalExpression: a day staged as timestamptz is cast back to the same day in the same session
    case 'date':
      return 'date'
    case 'instant':
      return 'timestamptz'
    default:
      return 'text'
  }
}

// --- The import format: JSON Schema (draft 2020-12) ---------------------------------------------------

export type JsonSchema = Record<string, unknown>

const MONEY_TEXT = '^[0-9]{1,15}(\\.[0-9]{1,2})?$'

/** A field's schema in the import format. */
export function importSchema(f: AnyField): JsonSchema {
  const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength })
  const base = ((): JsonSchema => {
    switch (f.kind) {
      case 'text':
        return text(f.maxLength ?? 2000)
      case 'number':
        return { ...text(MAX_NUMBER_LENGTH), pattern: NO_CONTROL_PATTERN }
      case 'uuid':
        return { type: 'string', format: 'uuid' }
      case 'money':
        return { type: 'string', pattern: MONEY_TEXT }
      case 'amount':
        return { type: 'number', minimum: 0, maximum: 1e15 }
      case 'integer':
        return { type: 'integer', minimum: f.minimum ?? 0, maximum: f.maximum ?? 2147483647 }
      case 'boolean':
        return { type: 'boolean' }
      case 'date':
        return { type: 'string', format: 'date' }
      case 'instant':
        return { type: 'string', format: 'date-time' }
      case 'enum':
        return { type: 'string', enum: [...(f.values ?? [])] }
      case 'cpf':
        return {
          type: 'string',
          pattern: '^[0-9]{11}$',
          description: 'The whole CPF, digits only; masked on output',
        }
      case 'taxId':
        return { type: 'string', pattern: '^([0-9]{11}|[0-9]{14})$' }
      case 'cnpj':
        return { type: 'string', pattern: '^[0-9]{14}$' }
      case 'codeTitle':
        return { type: 'string', pattern: '^\\S+ - \\S.*$', maxLength: 500 }
      case 'url':
        return { type: 'string', pattern: '^https?://\\S+$', maxLength: 2000 }
    }
  })()
  return f.nullable ? { ...base, type: [base.type, 'null'] } : base
}

// --- The API: response schemas ----------------------------------------------------------------------

/** A nullable value as OpenAPI 3.0 writes it (`nullable: true`), which the serializer understands too. */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Unsafe<Type.Static<T> | null>({ ...schema, nullable: true })
}

/** Money as the API writes it. */
export const Money = (description: string) =>
  Type.String({ description: `${description}; text with two decimals`, examples: ['12.50'] })

/** A field's schema in the API's answers. */
export function servedSchema(f: AnyField): TSchema {
  const options = {
    ...(f.description ? { description: f.description } : {}),
    ...(f.examples ? { examples: [...f.examples] } : {}),
  }
  const base = ((): TSchema => {
    switch (f.kind) {
      case 'uuid':
        return Type.String({ format: 'uuid', ...options })
      case 'money':
        return Type.String({
          description: 'Decimal text with two decimals',
          examples: ['1234.50'],
          ...options,
        })
      case 'amount':
        return Type.Number(options)
      case 'integer':
        return Type.Integer(options)
      case 'boolean':
        return Type.Boolean(options)
      case 'date':
        return Type.String({
          format: 'date',
          description: 'YYYY-MM-DD',
          examples: ['2025-03-10'],
          ...options,
        })
      case 'instant':
        return Type.String({
          format: 'date-time',
          description: 'ISO 8601 UTC with microseconds and a trailing Z',
          examples: ['2025-03-10T14:30:15.123456Z'],
          ...options,
        })
      case 'enum':
        // A string with `enum`, not a union of literals: the serializer would validate an anyOf at run time.
        // An open one lists its values today as `x-extensible-enum` (Zalando's convention): any string is
        // valid, and the client's generated type keeps a string fallback.
        return f.open
          ? Type.Unsafe<string>({
              type: 'string',
              'x-extensible-enum': [...(f.values ?? [])],
              ...options,
              description: `${options.description ? `${options.description}. ` : ''}One of the values listed today; later versions may add others`,
            })
          : // A nullable one lists null among its values, as OpenAPI 3.0.3 says `nullable` with `enum` needs.
            Type.Unsafe<string>({
              type: 'string',
              enum: [...(f.values ?? []), ...(f.nullable ? [null] : [])],
              ...options,
            })
      case 'cpf':
        return Type.String({
          description: 'Masked: only the middle digits are visible',
          examples: ['***.456.789-**'],
          ...options,
        })
      case 'taxId':
        return Type.String(
          f.reveal
            ? { description: 'Supplier CNPJ or CPF, digits only', examples: ['79319596000147'], ...options }
            : {
                description: 'CNPJ (14 digits) in full; a CPF (11 digits) masked as ***.456.789-**',
                ...options,
              },
        )
      case 'url':
        return Type.String({ format: 'uri', ...options })
      default:
        return Type.String(options)
    }
  })()
  return f.nullable || f.secretIf ? Nullable(base) : base
}

// --- Types: a record in the import format, and as served ----------------------------------------------

interface KindTypes {
  text: string
  number: string
  uuid: string
  money: string
  amount: number
  integer: number
  boolean: boolean
  date: string
  instant: string
  enum: string
  cpf: string
  taxId: string
  cnpj: string
  codeTitle: string
  url: string
}

type Value<F> =
  F extends Field<infer K, infer N, infer V>
    ? ([V] extends [never] ? KindTypes[K] : V[number]) | (N extends true ? null : never)
    : never

/** The fields of F that the import takes: stored fields and owned children. */
type Imported<F extends Fields> = {
  [K in keyof F as F[K] extends { derived: true }
    ? never
    : F[K] extends Relation<Shape, false>
      ? never
      : K]: F[K]
}

type ImportValue<F> = F extends Relation<infer S, true> ? ImportRecord<S['fields']>[] : Value<F>

/** The imported fields of F that a record may leave out. */
type OptionalKeys<F extends Fields> = {
  [K in keyof Imported<F>]: Imported<F>[K] extends { readonly optional: true } ? K : never
}[keyof Imported<F>]

/** A record of fields F in the import format. */
export type ImportRecord<F extends Fields> = {
  -readonly [K in Exclude<keyof Imported<F>, OptionalKeys<F>>]: ImportValue<Imported<F>[K]>
} & {
  -readonly [K in OptionalKeys<F>]?: ImportValue<Imported<F>[K]>
}

/** A served value: a field's (null too while its record keeps it secret), or a relation's rows. */
type ServedValue<F> =
  F extends Relation<infer S>
    ? Served<S['fields']>[]
    : Value<F> | (F extends { readonly secretIf: string } ? null : never)

/** A record of fields F as the API serves it (the names K of them, all by default). */
export type Served<F extends Fields, K extends keyof F = keyof F> = {
  -readonly [P in K]: ServedValue<F[P]>
}
