import { Type } from 'typebox'
import { shapeSchema } from '../answers/schemas.js'
import { Nullable, type Served } from '../resources/fields.js'
import { PriceItem } from '../resources/price.js'

// The answer's schema of the price research (src/prices/research.ts): what the OpenAPI document publishes
// and the shape-check test holds served bodies to.

/** Money as the API writes it. */
export const Money = (description: string) =>
  Type.String({ description: `${description}; text with two decimals`, examples: ['12.50'] })

export const PriceSummary = Type.Object(
  {
    unit: Type.String({
      description: 'The unit of measurement: each unit has an entry, units are never mixed',
    }),
    items: Type.Integer({ description: 'Items found in this unit' }),
    organizations: Type.Integer({ description: 'Distinct organizations that bought them' }),
    suppliers: Type.Integer({ description: 'Distinct suppliers that sold them' }),
    min: Money('The lowest unit price'),
    p25: Money('The first quartile, by linear interpolation (percentile_cont, QUARTILE.INC)'),
    median: Money('The median'),
    p75: Money('The third quartile, by linear interpolation'),
    max: Money('The highest unit price'),
    mean: Money('The mean unit price'),
    weighted_mean: Money('The mean unit price weighted by quantity'),
    outliers: Type.Integer({ description: 'Prices outside [p25 − 1.5 × IQR, p75 + 1.5 × IQR]' }),
    sanitized: Type.Object(
      {
        items: Type.Integer(),
        min: Money('The lowest unit price without the outliers'),
        median: Money('The median without the outliers'),
        mean: Money('The mean without the outliers'),
        max: Money('The highest unit price without the outliers'),
      },
      { additionalProperties: false, description: 'The same figures without the outliers' },
    ),
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
