import { type Static, type TObject, type TProperties, type TSchema, Type } from 'typebox'
import { Flag } from '../indicators/schemas.js'
import {
  type AnyField,
  type Fields,
  isRelation,
  Nullable,
  type Relation,
  type Shape,
  servedSchema,
} from '../resources/fields.js'
import { ORDER_DOCUMENT, Order, PUBLIC_RESOURCES, type PublicResource } from '../resources/index.js'

// The answers' schemas, derived from the resources (src/resources): what the OpenAPI document publishes
// and what the shape-check test holds every served body to. A named shape is one schema object, so that
// the document names it once (`Contract`, `Term`...) and every route refers to it.

const named = new Map<string, TSchema>()

/** One schema object per name. */
function once<T extends TSchema = TObject>(name: string, build: () => T): T {
  let schema = named.get(name) as T | undefined
  if (!schema) {
    schema = build()
    named.set(name, schema)
  }
  return schema
}

function property(f: AnyField | Relation): TSchema {
  return isRelation(f) ? Type.Array(shapeSchema(f.shape)) : servedSchema(f)
}

function properties<F extends Fields>(shape: Shape<F>, names: readonly string[]): TProperties {
  return Object.fromEntries(names.map((name) => [name, property(shape.fields[name] as AnyField | Relation)]))
}

/** A shape with all its fields, as served inside another (a term, a person, a summary...). */
export function shapeSchema(shape: Shape): TObject {
  return once(shape.name, () =>
    Type.Object(properties(shape, Object.keys(shape.fields)), {
      $id: shape.name,
      ...(shape.description ? { description: shape.description } : {}),
    }),
  )
}

/** A record's detail (spec 2.7-2.9): its detail fields, relations included, in order. */
export function detailSchema(resource: PublicResource): TObject {
  const { record } = resource
  return once(record.name, () =>
    Type.Object(properties(record, resource.detail), {
      $id: record.name,
      additionalProperties: false,
      ...(record.name === 'Bidding'
        ? { description: 'A direct contract or public call (one shape for both)' }
        : {}),
    }),
  )
}

/** A listing item: its id and organization, the detail's own fields and extras, relations when asked. */
export function itemSchema(resource: PublicResource): TObject {
  const { record } = resource
  return once(`${record.name}Item`, () => {
    const own = resource.detail.filter((name) => !isRelation(record.fields[name] as AnyField | Relation))
    const optional = Object.fromEntries(
      resource.offered.map((name) => [name, Type.Optional(property(record.fields[name] as Relation))]),
    )
    return Type.Object(
      {
        id: Type.String({ format: 'uuid' }),
        organization_uuid: Type.String({ format: 'uuid' }),
        ...properties(record, [...own, ...resource.listingExtra]),
        ...optional,
      },
      {
        $id: `${record.name}Item`,
        additionalProperties: false,
        description: 'Relation arrays appear when with_relations names them',
      },
    )
  })
}

/** The order query's order (spec 2.2), items included. */
export const OrderSchema = once('Order', () =>
  Type.Object(properties(Order, ORDER_DOCUMENT), { $id: 'Order', additionalProperties: false }),
)

export const Lookup = Type.Object({ id: Type.Integer(), name: Type.String() }, { $id: 'Lookup' })

/** Spec 2.5: the success envelope. */
export function Success<T extends TSchema>(data: T, description: string) {
  return Type.Object(
    {
      success: Type.Literal(true),
      // OpenAPI 3.0's own keyword: one the document keeps in every place, anyOf's branches included.
      message: Type.String({ example: 'Dados recuperados com sucesso' }),
      data,
    },
    { description },
  )
}

/**
 * A record's detail: the record as `data`, and beside it the integrity flags that name it (a flag is no part of
 * the record, which stays as the change feed and its history give it).
 */
export function DetailSuccess<T extends TSchema>(data: T, description: string) {
  return Type.Object(
    {
      success: Type.Literal(true),
      // OpenAPI 3.0's own keyword: one the document keeps in every place, anyOf's branches included.
      message: Type.String({ example: 'Dados recuperados com sucesso' }),
      data,
      indicators: Type.Array(Flag, {
        description:
          'The integrity flags that name this record, newest year first ([] when none): each a reason to open ' +
          'it, never a verdict (GET /v1/transparency/indicators?record=...)',
      }),
    },
    { description },
  )
}

/** Spec 4.1: a page of a listing, inside the envelope's data (ContractPage, BiddingPage, ArpPage). */
export function pageSchema(resource: PublicResource): TObject {
  return once(`${resource.record.name}Page`, () => Page(itemSchema(resource), `${resource.record.name}Page`))
}

function Page<T extends TSchema>(item: T, $id: string) {
  return Type.Object(
    {
      data: Type.Array(item),
      current_page: Type.Integer(),
      per_page: Type.Integer(),
      total: Type.Integer(),
      last_page: Type.Integer(),
      from: Nullable(
        Type.Integer({ description: '1-based position of the first row; null on an empty page' }),
      ),
      to: Nullable(Type.Integer({ description: '1-based position of the last row; null on an empty page' })),
      next_cursor: Nullable(
        Type.String({
          description:
            "The next page by cursor (give it as `cursor`): it starts after this page's last row, so it holds " +
            'still while imports run; null on the last page',
        }),
      ),
    },
    { $id },
  )
}

/** Spec 7.2: the error envelope. */
export const Failure = Type.Object(
  { success: Type.Literal(false), message: Type.String() },
  { $id: 'TransparencyError', additionalProperties: false },
)

/** A transparency error answer, described. */
/** The header of every answer that says when to ask again (429, and 503 with no place free). */
export const RETRY_AFTER = { 'Retry-After': { type: 'integer', description: 'Seconds to wait' } }

export const failure = (description: string, headers?: Record<string, unknown>) =>
  Type.Object(Failure.properties, { description, ...(headers ? { headers } : {}) })

/** The refusals of a streamed download (src/routes/http/send-download.ts), declared on every route that sends one. */
export const DOWNLOAD_REFUSALS = {
  429: failure(
    '`Já há uma exportação deste endereço em andamento...` (one download at a time per address), or over ' +
      'PUBLIC_RATE_LIMIT requests a minute from the address',
    RETRY_AFTER,
  ),
  503: failure(
    '`Exportações demais em andamento...` (EXPORT_CONCURRENCY downloads already running; Retry-After), or ' +
      '`A exportação demorou demais...` (EXPORT_TIMEOUT passed before the first row)',
    RETRY_AFTER,
  ),
}

/** The public per-address limit's answer, declared on every route it guards. */
export const TOO_MANY = failure(
  '`Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the ' +
    "portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable.",
  {
    ...RETRY_AFTER,
    'X-RateLimit-Limit': { type: 'integer', description: 'Requests allowed a minute' },
    'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in the window: 0' },
    'X-RateLimit-Reset': { type: 'integer', description: 'Seconds until a place frees' },
  },
)

const Cursor = (description: string) => Type.String({ description, examples: ['YzEuMTIzNDU'] })

/** What an entry of a change feed says of itself. */
const entryProperties = {
  cursor: Cursor("The entry's place in its feed: give it as `after` to read on from it"),
  change: Type.Union([Type.Literal('created'), Type.Literal('updated'), Type.Literal('withdrawn')], {
    description: 'created or updated: its document now shows it; withdrawn: published by mistake and gone',
  }),
  changed_at: Type.String({
    format: 'date-time',
    description: 'When the import that made the change ran: ISO 8601 UTC with microseconds',
    examples: ['2026-03-10T14:30:15.123456Z'],
  }),
}

/** The name of a kind's feed entry: direct-contracts → DirectContractChange. */
const changeName = (path: string) =>
  `${path
    .replace(/s$/, '')
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Change`

const entryKey = {
  cursor: entryProperties.cursor,
  id: Type.String({ format: 'uuid', description: "The record's id" }),
  organization_uuid: Type.String({ format: 'uuid' }),
  changed_at: entryProperties.changed_at,
}

/**
 * An entry of the public feed: a record's key and change, and with with_records its record as served now.
 * One variant per kind, whose record is that kind's, and one for withdrawals (tombstones, never a record):
 * `change` and `kind` tell them apart.
 */
export const PublicChange = once('PublicChange', () =>
  Type.Union(
    [
      ...PUBLIC_RESOURCES.map((resource) =>
        Type.Object(
          {
            cursor: entryKey.cursor,
            kind: Type.Literal(resource.path, {
              description: `The resource: its listing and detail are under /v1/transparency/${resource.path}`,
            }),
            id: entryKey.id,
            organization_uuid: entryKey.organization_uuid,
            change: Type.Union([Type.Literal('created'), Type.Literal('updated')], {
              description: 'Its document now shows the change',
            }),
            changed_at: entryKey.changed_at,
            record: Type.Optional(detailSchema(resource)),
          },
          {
            $id: changeName(resource.path),
            additionalProperties: false,
            description:
              `A ${resource.label} created or updated; with with_records=true, \`record\` is the ${resource.label} as ` +
              `GET /v1/transparency/${resource.path}/{id} serves it now (its latest state, not this entry's)`,
          },
        ),
      ),
      Type.Object(
        {
          cursor: entryKey.cursor,
          kind: Type.Union(
            PUBLIC_RESOURCES.map((resource) => Type.Literal(resource.path)),
            { description: 'The resource the record was of' },
          ),
          id: entryKey.id,
          organization_uuid: entryKey.organization_uuid,
          change: Type.Literal('withdrawn', {
            description:
              'Published by mistake and gone: a mirror deletes it (a tombstone, never with a record)',
          }),
          changed_at: entryKey.changed_at,
        },
        { $id: 'Withdrawal', additionalProperties: false },
      ),
    ],
    { $id: 'PublicChange' },
  ),
)

/** A page of a change feed. */
export const feedPage = (entry: TSchema, $id: string) =>
  Type.Object(
    {
      data: Type.Array(entry),
      next_cursor: Cursor(
        "Where the next page starts: the last entry's cursor, or the one asked for when the page is empty",
      ),
      has_more: Type.Boolean({ description: 'Whether entries follow this page already' }),
    },
    { $id, additionalProperties: false },
  )

/** An entry of an organ's orders feed, with the order as the order query serves it now. */
export const OrderChange = once('OrderChange', () =>
  Type.Object(
    {
      cursor: entryProperties.cursor,
      number: Type.String({ description: "The order's number" }),
      change: entryProperties.change,
      changed_at: entryProperties.changed_at,
      order: Type.Optional(
        Type.Unsafe<Static<typeof OrderSchema>>({
          allOf: [OrderSchema],
          description: 'On created and updated entries: the order as GET /external/orders answers it now',
        }),
      ),
    },
    { $id: 'OrderChange', additionalProperties: false },
  ),
)

/** One difference between two versions of a record. */
const Difference = Type.Object(
  {
    field: Type.String({
      description:
        'Where: a field, or a path into a relation whose elements are named by their number, name or id ' +
        '(`terms[3].value`, `commitments[2025NE000123]`)',
      examples: ['amount_total', 'terms[3].value'],
    }),
    label: Type.String({ description: 'The same, in Portuguese', examples: ['Termos aditivos › 3 › Valor'] }),
    before: Type.Unknown({ description: 'The value before; null for what the version added' }),
    after: Type.Unknown({ description: 'The value after; null for what it removed' }),
  },
  { $id: 'Difference', additionalProperties: false },
)

const versionProperties = {
  version: Type.Integer({ minimum: 1, description: 'From 1, the oldest' }),
  changed_at: Nullable(
    Type.String({
      format: 'date-time',
      description: 'When the import that made it ran; null for a record published before the change log',
    }),
  ),
  change: Type.Union([Type.Literal('created'), Type.Literal('updated')]),
}

/** A record's history: every version, oldest first, with what changed from the one before. */
export const History = once('History', () =>
  Type.Object(
    {
      kind: Type.String({ examples: ['contracts'] }),
      id: Type.String({ format: 'uuid' }),
      versions: Type.Array(
        Type.Object(
          { ...versionProperties, changes: Type.Array(Difference) },
          { additionalProperties: false },
        ),
      ),
    },
    { $id: 'History', additionalProperties: false },
  ),
)

/** One version of a record, whole. */
export const RecordVersion = (resource: PublicResource) =>
  once(`${resource.record.name}Version`, () =>
    Type.Object(
      {
        kind: Type.String(),
        id: Type.String({ format: 'uuid' }),
        ...versionProperties,
        record: detailSchema(resource),
      },
      { $id: `${resource.record.name}Version`, additionalProperties: false },
    ),
  )

/** The media type OCDS packages are sent with. */
export const OCDS_JSON = 'application/json; charset=utf-8'

/** An OCDS answer (not in the transparency envelope): described by its schema (src/ocds/schemas.ts). */
export const ocdsPackage = (schema: TSchema, description: string) => ({ description, allOf: [schema] })
