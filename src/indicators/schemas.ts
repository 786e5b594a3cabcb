import { Type } from 'typebox'
import { Nullable } from '../resources/fields.js'
import { INDICATOR_CODES } from './indicators.js'

// The answers' schemas of the flags' questions (src/indicators/flags.ts): what the OpenAPI document publishes
// and the shape-check test holds served bodies to.

const Code = Type.String({
  enum: [...INDICATOR_CODES],
  description: "The indicator's code (docs/indicators.md)",
})

export const Flag = Type.Object(
  {
    code: Code,
    title: Type.String({ description: 'What the indicator flags, in Portuguese' }),
    reason: Type.String({
      description: "Why this record is flagged, in one Portuguese sentence with the rule's figures",
    }),
    year: Type.Integer({
      description: "The flag's year: its record's (a direct contract's date, a contract's start)",
    }),
    organization_uuid: Type.String({ format: 'uuid' }),
    organization_name: Type.String(),
    providers: Type.Array(
      Type.Object(
        {
          document: Type.String({ description: "The supplier's CNPJ, or a person's CPF masked" }),
          name: Type.String(),
        },
        { additionalProperties: false },
      ),
      { description: 'The suppliers the flag names (none for an organization-wide one)' },
    ),
    // Each value is money as text or a number; declared without anyOf, which the answers' serializer cannot
    // compile beside a record's repeated shapes (fast-json-stringify: "resolves to more than one schema").
    figures: Type.Record(Type.String(), Type.Unsafe<string | number>({}), {
      description:
        "The rule's figures, as the reason quotes them: money as text with two decimals, shares from 0 to 1 " +
        "(docs/indicators.md names each indicator's)",
    }),
    records: Type.Array(
      Type.Object(
        {
          kind: Type.String({
            description: 'direct-contracts, public-calls, contracts, arps or organizations',
          }),
          id: Type.String(),
          link: Type.String({ description: 'Where the API gives the record' }),
        },
        { additionalProperties: false },
      ),
      { description: 'The records the flag is about, in the order the reason reads them' },
    ),
  },
  {
    $id: 'Flag',
    additionalProperties: false,
    description: 'An integrity indicator raised: a reason to open the record, never a verdict',
  },
)

export const FlagPage = Type.Object(
  {
    data: Type.Array(Flag),
    next_cursor: Nullable(Type.String({ description: 'The next page (cursor), or null at the last' })),
    has_more: Type.Boolean(),
  },
  { $id: 'FlagPage', additionalProperties: false },
)

export const FlagSummary = Type.Object(
  {
    total: Type.Integer({ description: 'Flags raised, over all codes' }),
    by_code: Type.Array(
      Type.Object(
        { code: Code, title: Type.String(), count: Type.Integer() },
        { additionalProperties: false },
      ),
      {
        description:
          'Each indicator, in the order docs/indicators.md gives them, with how many flags it raised',
      },
    ),
  },
  { $id: 'FlagSummary', additionalProperties: false },
)

const CardinalResults = Type.Record(Type.String(), Type.Record(Type.String(), Type.Number()), {
  description: 'Each id (an ocid, or BR-CNPJ- and a CNPJ) to its results: a code to a decimal',
})

/** The flags as the Open Contracting Partnership's Cardinal writes its results (open-contracting/cardinal-rs). */
export const CardinalOutput = Type.Object(
  {
    OCID: CardinalResults,
    Buyer: CardinalResults,
    Tenderer: CardinalResults,
    Meta: Type.Record(
      Type.String(),
      Type.Object(
        { q1: Type.Number(), q3: Type.Number(), upper_fence: Type.Number() },
        { additionalProperties: false },
      ),
      { description: "A comparison's quartiles and upper fence, of the newest year among the flags" },
    ),
  },
  { $id: 'CardinalOutput', additionalProperties: false },
)
