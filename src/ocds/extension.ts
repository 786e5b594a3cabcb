// A local OCDS extension, served by compras itself (GET /v1/ocds/extension/...): a supply order is a
// delivery milestone of its contract, and what it is worth matters to anyone following the money, but
// OCDS 1.1's Milestone has no value. This adds `value` (a Value: amount and currency) to Milestone. Every
// package lists the extension's address in `extensions`, as the standard asks of fields outside the core.

/** Where the extension's documentation is: its README, served beside it. */
export const extensionDocumentation = (publicUrl: string) => `${publicUrl}/v1/ocds/extension/README.md`

/** The extension's metadata (extension.json), as OCDS's extension schema asks: name, description, documentation. */
export const extensionMetadata = (publicUrl: string) => ({
  name: { en: 'Milestone value', pt: 'Valor do marco' },
  description: {
    en: 'Adds a value field to the milestone object: what a delivery milestone (a supply order) is worth.',
    pt: 'Acrescenta o campo value ao marco (milestone): quanto vale a entrega (uma ordem de fornecimento).',
  },
  documentationUrl: { en: extensionDocumentation(publicUrl), pt: extensionDocumentation(publicUrl) },
  compatibility: ['1.1'],
  schemas: ['release-schema.json'],
})

/** The extension's documentation, in English and Portuguese (Markdown). */
export const EXTENSION_README = `# Milestone value

Adds a \`value\` field (a Value: \`amount\` and \`currency\`) to the \`Milestone\` object. compras publishes each supply
order as a delivery milestone of the contract it executes (\`contracts[].implementation.milestones[]\`, type
\`delivery\`); its value is the order's total, so that anyone following the money sees what each delivery is worth.

## Valor do marco

Acrescenta o campo \`value\` (um Value: \`amount\` e \`currency\`) ao objeto \`Milestone\`. O compras publica cada ordem
de fornecimento como um marco de entrega do contrato que ela executa; o valor do marco é o total da ordem.

## Example

\`\`\`json
{"id": "000001/2025", "title": "Ordem de fornecimento 000001/2025", "type": "delivery", "status": "met",
 "value": {"amount": 1234.5, "currency": "BRL"}}
\`\`\`
`

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
