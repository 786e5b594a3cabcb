import { type TSchema, Type } from 'typebox'
import {
  AWARD_STATUS,
  CONTRACT_STATUS,
  MILESTONE_STATUS,
  PROCUREMENT_METHOD,
  TAGS,
  TENDER_STATUS,
} from './mapping.js'

// What compras publishes of OCDS 1.1, as the OpenAPI document describes it: the parts of the release schema
// that the mapping (mapping.ts) fills, and the packages around them. Each object is closed
// (additionalProperties false), so the OCDS tests, which check every release and package against these too,
// fail when the mapping adds a field that is not described here. The official schemas stay the reference
// (test/ocds/standard); these say which of their parts compras uses, and how.

const STANDARD = 'https://standard.open-contracting.org/schema/1__1__5'

const closed = <T extends Record<string, TSchema>>(properties: T, $id: string, description: string) =>
  Type.Object(properties, { $id, description, additionalProperties: false })

/** The distinct values of a mapping table: the codes compras publishes for a codelist. */
const codes = (table: Readonly<Record<string, string>>, ...more: string[]) =>
  Type.Unsafe<string>({ type: 'string', enum: [...new Set([...Object.values(table), ...more])] })

const DateTime = Type.String({ format: 'date-time', description: 'ISO 8601, with its offset' })

export const OcdsValue = closed(
  { amount: Type.Number(), currency: Type.Unsafe<'BRL'>({ type: 'string', enum: ['BRL'] }) },
  'OcdsValue',
  'An amount in reais',
)

const Period = closed(
  { startDate: Type.Optional(DateTime), endDate: Type.Optional(DateTime) },
  'OcdsPeriod',
  'A period: a day of ours starts at 00:00:00 and ends at 23:59:59 Brasília time (-03:00)',
)

const OrganizationReference = closed(
  { id: Type.String(), name: Type.String() },
  'OcdsOrganizationReference',
  'A party, by its id in the release',
)

const Document = closed(
  { id: Type.String(), title: Type.String(), url: Type.String({ format: 'uri' }) },
  'OcdsDocument',
  'A published document',
)

const Amendment = closed(
  { id: Type.String(), date: DateTime, rationale: Type.String(), description: Type.String() },
  'OcdsAmendment',
  'An additive term: its number, the day it was signed, its kind and what it says',
)

const Party = closed(
  {
    id: Type.String({ description: '`BR-CNPJ-<cnpj>` for a company or organ, `pessoa-N` for a person' }),
    name: Type.String(),
    identifier: Type.Optional(
      closed(
        {
          scheme: Type.Unsafe<'BR-CNPJ'>({ type: 'string', enum: ['BR-CNPJ'] }),
          id: Type.String({ pattern: '^[0-9]{14}$' }),
          legalName: Type.String(),
        },
        'OcdsIdentifier',
        'A CNPJ; a person has none (no value derived from a CPF is published)',
      ),
    ),
    roles: Type.Array(
      Type.Unsafe<string>({ type: 'string', enum: ['buyer', 'procuringEntity', 'tenderer', 'supplier'] }),
    ),
  },
  'OcdsParty',
  'An organization or person the release names, once, with every role it plays',
)

const Item = closed(
  {
    id: Type.String({ description: "The item's number in its contratação (PNCP's numeroItem)" }),
    description: Type.String(),
    quantity: Type.Number({ minimum: 0 }),
    unit: closed(
      { name: Type.String(), value: Type.Optional(OcdsValue) },
      'OcdsUnit',
      'The unit as published; its value the unit price: estimated in a tender, homologated in an award',
    ),
  },
  'OcdsItem',
  'An item of a contratação imported from PNCP',
)

const Tender = closed(
  {
    id: Type.String({
      description:
        "The bidding's UUID, or its PNCP control number (numeroControlePNCP) when it came from PNCP",
    }),
    title: Type.String(),
    description: Type.String(),
    status: codes(TENDER_STATUS),
    procuringEntity: OrganizationReference,
    value: Type.Optional(OcdsValue),
    procurementMethod: codes(PROCUREMENT_METHOD),
    procurementMethodDetails: Type.String({ description: 'The modality, as spec 2.3 names it' }),
    awardCriteriaDetails: Type.Optional(Type.String()),
    tenderPeriod: Type.Optional(Period),
    numberOfTenderers: Type.Integer({ minimum: 0 }),
    tenderers: Type.Optional(Type.Array(OrganizationReference)),
    items: Type.Optional(Type.Array(Item)),
    documents: Type.Optional(Type.Array(Document)),
  },
  'OcdsTender',
  'The direct contract or public call',
)

const Award = closed(
  {
    id: Type.String({
      description:
        "An ARP's UUID, `<contract uuid>-award` for a contract with no ARP, or `<bidding uuid>-result-N` for " +
        'the results of a contratação imported from PNCP that went to its N-th supplier',
    }),
    title: Type.String(),
    description: Type.Optional(Type.String()),
    status: codes(AWARD_STATUS, ...Object.values(CONTRACT_STATUS).filter((s) => s !== 'terminated')),
    date: Type.Optional(DateTime),
    value: Type.Optional(OcdsValue),
    suppliers: Type.Optional(Type.Array(OrganizationReference)),
    items: Type.Optional(Type.Array(Item)),
    contractPeriod: Type.Optional(Period),
    documents: Type.Optional(Type.Array(Document)),
    amendments: Type.Optional(Type.Array(Amendment)),
  },
  'OcdsAward',
  'An ARP (the framework agreement), or the award of a contract that came from none',
)

const Milestone = closed(
  {
    id: Type.String({ description: "The supply order's number" }),
    title: Type.String(),
    type: Type.Unsafe<'delivery'>({ type: 'string', enum: ['delivery'] }),
    description: Type.String(),
    dueDate: Type.String({ format: 'date-time', description: "The order's delivery deadline" }),
    status: codes(MILESTONE_STATUS),
    value: Type.Optional(OcdsValue),
  },
  'OcdsMilestone',
  "A supply order, a delivery milestone of its contract; `value` is the milestone-value extension's",
)

const Contract = closed(
  {
    id: Type.String({ format: 'uuid' }),
    awardID: Type.String(),
    title: Type.String(),
    description: Type.String(),
    status: codes(CONTRACT_STATUS),
    period: Period,
    value: OcdsValue,
    documents: Type.Optional(Type.Array(Document)),
    implementation: Type.Optional(
      closed({ milestones: Type.Array(Milestone) }, 'OcdsImplementation', 'The supply orders'),
    ),
    amendments: Type.Optional(Type.Array(Amendment)),
  },
  'OcdsContract',
  'A contract',
)

const releaseProperties = {
  ocid: Type.String({ description: 'OCDS_PREFIX, a hyphen and the process UUID' }),
  id: Type.String({
    description: 'The ocid, a hyphen and the version; a compiled release: the ocid, a hyphen and its date',
  }),
  date: DateTime,
  tag: Type.Array(Type.Unsafe<string>({ type: 'string', enum: [...TAGS, 'compiled'] })),
  initiationType: Type.Unsafe<'tender'>({ type: 'string', enum: ['tender'] }),
  parties: Type.Array(Party),
  buyer: OrganizationReference,
  tender: Type.Optional(Tender),
  awards: Type.Optional(Type.Array(Award)),
  contracts: Type.Optional(Type.Array(Contract)),
  language: Type.Unsafe<'pt'>({ type: 'string', enum: ['pt'] }),
}

export const OcdsRelease = closed(
  releaseProperties,
  'OcdsRelease',
  `A release (${STANDARD}/release-schema.json), as compras fills it: docs/ocds-mapping.md, field by field`,
)

const metadataProperties = {
  uri: Type.String({ format: 'uri' }),
  version: Type.Unsafe<'1.1'>({ type: 'string', enum: ['1.1'] }),
  extensions: Type.Array(Type.String({ format: 'uri' })),
  publishedDate: DateTime,
  publisher: closed(
    { name: Type.String(), uri: Type.Optional(Type.String({ format: 'uri' })) },
    'OcdsPublisher',
    'Who publishes (OCDS_PUBLISHER_NAME, OCDS_PUBLISHER_URI)',
  ),
  license: Type.String({ format: 'uri' }),
  publicationPolicy: Type.Optional(Type.String({ format: 'uri' })),
}

export const OcdsPackageMetadata = closed(
  metadataProperties,
  'OcdsPackageMetadata',
  'The fields every package of this publication carries',
)

const Links = closed(
  {
    next: Type.Optional(Type.String({ format: 'uri' })),
    prev: Type.Optional(Type.String({ format: 'uri' })),
  },
  'OcdsLinks',
  'The neighbouring pages, with the same filters',
)

export const OcdsReleasePackage = closed(
  { ...metadataProperties, releases: Type.Array(OcdsRelease), links: Type.Optional(Links) },
  'OcdsReleasePackage',
  `A release package (${STANDARD}/release-package-schema.json); only a page of /v1/ocds/releases past the end, which gives the cursor to resume from, has no release`,
)

const LinkedRelease = closed(
  {
    url: Type.String({
      format: 'uri',
      description: 'GET /v1/ocds/releases/{id}, with the id as the fragment',
    }),
    date: DateTime,
    tag: Type.Array(Type.Unsafe<string>({ type: 'string', enum: [...TAGS] })),
  },
  'OcdsLinkedRelease',
  'A release of the process, linked by its address',
)

export const OcdsRecordPackage = closed(
  {
    ...metadataProperties,
    records: Type.Array(
      closed(
        {
          ocid: Type.String(),
          releases: Type.Array(LinkedRelease),
          compiledRelease: OcdsRelease,
          versionedRelease: Type.Optional(
            Type.Object(
              { ocid: Type.String() },
              {
                $id: 'OcdsVersionedRelease',
                additionalProperties: true,
                description:
                  'With versioned=true: every value each field had, with the release that gave it ' +
                  `(${STANDARD}/versioned-release-validation-schema.json)`,
              },
            ),
          ),
        },
        'OcdsRecord',
        'One contracting process',
      ),
      { minItems: 1, maxItems: 1 },
    ),
  },
  'OcdsRecordPackage',
  `A record package of one process (${STANDARD}/record-package-schema.json)`,
)
