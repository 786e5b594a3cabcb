import { type TObject, type TProperties, type TSchema, Type } from 'typebox'
import {
  type AnyField,
  type Fields,
  isRelation,
  Nullable,
  type Relation,
  type Shape,
  servedSchema,
} from '../resources/fields.js'
import { ORDER_DOCUMENT, Order, type PublicResource } from '../resources/index.js'

// The answers' schemas, derived from the resources (src/resources): what the OpenAPI document publishes
// and what the shape-check test holds every served body to. A named shape is one schema object, so that
// the document names it once (`Contract`, `Term`...) and every route refers to it.

const named = new Map<string, TObject>()

/** One schema object per name. */
function once(name: string, build: () => TObject): TObject {
  let schema = named.get(name)
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
      message: Type.String({ examples: ['Dados recuperados com sucesso'] }),
      data,
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
export const failure = (description: string, headers?: Record<string, unknown>) =>
  Type.Object(Failure.properties, { description, ...(headers ? { headers } : {}) })

/** The public per-address limit's answer, declared on every route it guards. */
export const TOO_MANY = failure(
  '`Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the ' +
    "portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable.",
  {
    'Retry-After': { type: 'integer', description: 'Seconds to wait' },
    'X-RateLimit-Limit': { type: 'integer', description: 'Requests allowed a minute' },
    'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in the window: 0' },
    'X-RateLimit-Reset': { type: 'integer', description: 'Seconds until a place frees' },
  },
)
