import { field, type ImportRecord, shape } from './fields.js'
import { defineRecord, type RecordKind } from './resource.js'

const fields = {
  uuid: field('uuid', 'Identificador', { column: 'id' }),
  name: field('text', 'Nome', { maxLength: 300 }),
  document: field('cnpj', 'CNPJ'),
}

/** A public body (organ). Key: uuid. */
const recordKind: RecordKind<typeof fields> = {
  ...shape({
    name: 'Organization',
    description: 'A public body (organ). Key: uuid.',
    table: 'organizations',
    alias: 'g',
    fields,
  }),
  types: ['organization'],
  about: () => 'A public body (organ). Key: uuid.',
  placement: { group: 'organization', key: 'uuid', conflict: ['id'] },
}
export const Organization = defineRecord(recordKind)

export type OrganizationRecord = { type: 'organization' } & ImportRecord<typeof fields>
