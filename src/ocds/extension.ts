// A local OCDS extension, served by compras itself (GET /v1/ocds/extension/...): a supply order is a
// delivery milestone of its contract, and what it is worth matters to anyone following the money, but
// OCDS 1.1's Milestone has no value. This adds `value` (a Value: amount and currency) to Milestone. Every
// package lists the extension's address in `extensions`, as the standard asks of fields outside the core.

export const EXTENSION = {
  name: { en: 'Milestone value', pt: 'Valor do marco' },
  description: {
    en: 'Adds a value field to the milestone object: what a delivery milestone (a supply order) is worth.',
    pt: 'Acrescenta o campo value ao marco (milestone): quanto vale a entrega (uma ordem de fornecimento).',
  },
  compatibility: ['1.1'],
  schemas: ['release-schema.json'],
} as const

/** The extension's JSON Merge Patch of the release schema. */
export const EXTENSION_RELEASE_SCHEMA = {
  definitions: {
    Milestone: {
      properties: {
        value: {
          title: 'Value',
          description:
            'The value of the milestone: for a delivery, the total of the supply order it stands for.',
          $ref: '#/definitions/Value',
        },
      },
    },
  },
} as const
