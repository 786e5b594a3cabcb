import { type TInteger, type TString, Type } from 'typebox'
import { shapeSchema } from '../answers/schemas.js'
import { Money, Nullable, type Served } from '../resources/fields.js'
import { PriceItem } from '../resources/price.js'
import {
  PRICE_STATISTICS,
  SANITIZED_NAMES,
  STATISTIC_NAMES,
  type Statistic,
  type StatisticName,
  type Statistics,
} from './statistics.js'

// The answer's schema of the price research (src/prices/research.ts): what the OpenAPI document publishes
// and the shape-check test holds served bodies to.

/** A statistic's schema: money as the API writes it, or a count. */
type StatisticSchema<S extends Statistic> = S['kind'] extends 'money' ? TString : TInteger

const schemaOf = (s: Statistic, description: string): TString | TInteger =>
  s.kind === 'money' ? Money(description) : Type.Integer({ description })

/** The schemas of the statistics named, by name, in the declared order; `without` describes them without the outliers. */
function schemasOf<N extends StatisticName>(
  names: readonly N[],
  without = false,
): { [K in N]: StatisticSchema<Statistics[K]> } {
  return Object.fromEntries(
    names.map((name) => {
      const statistic: Statistic = PRICE_STATISTICS[name]
      const description = `${statistic.description}${without ? ' without the outliers' : ''}`
      return [name, schemaOf(statistic, description)]
    }),
  ) as { [K in N]: StatisticSchema<Statistics[K]> }
}

export const PriceSummary = Type.Object(
  {
    unit: Type.String({
      description: 'The unit of measurement: each unit has an entry, units are never mixed',
    }),
    ...schemasOf(STATISTIC_NAMES),
    sanitized: Type.Object(schemasOf(SANITIZED_NAMES, true), {
      additionalProperties: false,
      description: 'The same figures without the outliers',
    }),
  },
  { $id: 'PriceSummary', additionalProperties: false },
)

export const PriceResearch = Type.Object(
  {
    summary: Type.Array(PriceSummary, { description: 'One entry per unit of measurement, most items first' }),
    items: Type.Object(
      {
        // Typed as the item's served fields, so that Static<typeof PriceResearch> is the answer's type.
        data: Type.Array(Type.Unsafe<Served<typeof PriceItem.fields>>(shapeSchema(PriceItem))),
        next_cursor: Nullable(
          Type.String({ description: 'The next page of items (cursor), or null at the last' }),
        ),
        has_more: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'PriceResearch', additionalProperties: false },
)
