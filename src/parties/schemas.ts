import { type TObject, Type } from 'typebox'
import { Money, Nullable } from '../resources/fields.js'
import { type Figured, ORGANIZATION_FIGURES, SUPPLIER_FIGURES } from './parties.js'

// The answers' schemas of the suppliers' and organizations' pages (src/parties/parties.ts): what the
// OpenAPI document publishes and the shape-check test holds served bodies to.

export const Figures = Type.Object(
  {
    count: Type.Integer(),
    value: Money('Their value'),
    first: Nullable(Type.String({ format: 'date', description: 'The first main date' })),
    last: Nullable(Type.String({ format: 'date', description: 'The last main date' })),
  },
  {
    $id: 'Figures',
    additionalProperties: false,
    description:
      "Records of one kind: how many, their value, and their first and last main dates (a contract's start, " +
      "an ARP's signature, a bidding's opening, an order's delivery deadline)",
  },
)

/**
 * What `committed` is, where a page gives it: the one figure that adds up money, each real once (the kinds'
 * values overlap: an order executes a contract or an ARP, a contract may carry a direct contract).
 */
const COMMITTED =
  'Committed, each real once: contracts at their value; direct contracts that no contract (of the same ' +
  'supplier) carries, at their finished total when they have one; orders that no contract (of the same supplier) ' +
  "carries. An ARP's registered value is a ceiling, never added. Its count is of those commitments, its dates " +
  'their main dates. The kinds above overlap and must not be added'

/** Each kind's figures, by its name. */
const byKind = <K extends Figured>(kinds: readonly K[]) =>
  Object.fromEntries(
    kinds.map((kind) => [
      kind,
      kind === 'committed'
        ? Type.Object(Figures.properties, { additionalProperties: false, description: COMMITTED })
        : Figures,
    ]),
  ) as Record<K, typeof Figures>

/** A page's figures of its kinds: over all, and by year. */
const activity = <K extends Figured>(kinds: readonly K[]) => ({
  totals: Type.Object(byKind(kinds), { additionalProperties: false }),
  years: Type.Array(
    Type.Object({ year: Nullable(Type.Integer()), ...byKind(kinds) }, { additionalProperties: false }),
    { description: 'Newest year first; null for records without a date' },
  ),
})

export const SupplierPage = Type.Object(
  {
    document: Type.String({ description: 'The CNPJ, 14 digits' }),
    name: Type.String({ description: 'The name the last import gave it' }),
    names: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          first_seen: Type.String({ format: 'date', description: 'The day an import first gave this name' }),
          last_seen: Type.String({ format: 'date', description: 'The day an import last gave it' }),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Every name an import gave this CNPJ, most recently seen first. A withdrawal does not take a name back, ' +
          "as it does not change the supplier's name either",
      },
    ),
    ...activity(SUPPLIER_FIGURES),
    organizations: Type.Array(
      Type.Object(
        {
          organization_uuid: Type.String({ format: 'uuid' }),
          organization_name: Type.String(),
          ...byKind(SUPPLIER_FIGURES),
        },
        { additionalProperties: false },
      ),
      { description: 'Every organization it supplied, by name' },
    ),
  },
  { $id: 'SupplierPage', additionalProperties: false },
)

export const OrganizationPage = Type.Object(
  {
    uuid: Type.String({ format: 'uuid' }),
    name: Type.String(),
    document: Type.String({ description: 'The CNPJ, 14 digits' }),
    ...activity(ORGANIZATION_FIGURES),
    top_suppliers: Type.Array(
      Type.Object(
        {
          document: Type.String({ description: 'CNPJ in full; a CPF (a person) masked as ***.456.789-**' }),
          name: Type.String(),
          company: Type.Boolean({ description: 'Whether it is a company, with a page of its own' }),
          contracts: Type.Integer({ description: 'Its contracts with the organization' }),
          direct_contracts: Type.Integer({
            description: 'Its direct contracts that no contract of its carries',
          }),
          orders: Type.Integer({ description: 'Its orders that no contract of its carries' }),
          value: Money('What the organization committed to it, each real once (as `committed`)'),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'The suppliers the organization committed the most to (contracts, direct contracts and orders, each real ' +
          'once), at most 10',
      },
    ),
  },
  { $id: 'OrganizationPage', additionalProperties: false },
)

const NamedPage = <T extends TObject>(item: T, $id: string) =>
  Type.Object(
    {
      data: Type.Array(item),
      next_cursor: Nullable(Type.String({ description: 'The next page (cursor), or null at the last' })),
      has_more: Type.Boolean(),
    },
    { $id, additionalProperties: false },
  )

export const SupplierList = NamedPage(
  Type.Object({ document: Type.String(), name: Type.String() }, { additionalProperties: false }),
  'SupplierList',
)

export const OrganizationList = NamedPage(
  Type.Object(
    { uuid: Type.String({ format: 'uuid' }), name: Type.String(), document: Type.String() },
    { additionalProperties: false },
  ),
  'OrganizationList',
)
