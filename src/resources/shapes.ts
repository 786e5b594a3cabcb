import { field, owned, shape } from './fields.js'

// The shapes that belong to a record and come inside it, in the spec's field order.

/** A file attached to a record (spec 2.6): the elements of every `documents` array. */
export const Attachment = shape({
  name: 'Document',
  table: 'documents',
  alias: 'd',
  fields: {
    uuid: field('uuid', 'Identificador'),
    name: field('text', 'Nome do arquivo', { maxLength: 500, description: 'File name' }),
    url: field('url', 'Endereço'),
  },
})

/** The attached files of a record whose id is `owner` in the documents table's column `column`. */
export const attachments = (column: 'contract_id' | 'bidding_id' | 'arp_id' | 'term_id') =>
  owned('Documentos', Attachment, { column })

export const Term = shape({
  name: 'Term',
  description: 'An additive term',
  table: 'additive_terms',
  alias: 't',
  fields: {
    number: field('text', 'Número', { maxLength: 100 }),
    kind: field('text', 'Tipo', { maxLength: 200, examples: ['Aditivo de prazo'] }),
    description: field('text', 'Descrição', { maxLength: 10_000 }),
    signature_date: field('date', 'Data de assinatura'),
    date_start: field('date', 'Início', { nullable: true }),
    date_end: field('date', 'Fim', { nullable: true }),
    value: field('money', 'Valor', { nullable: true }),
    documents: attachments('term_id'),
  },
})

export const terms = (column: 'contract_id' | 'arp_id') => owned('Termos aditivos', Term, { column })

export const Person = shape({
  name: 'Person',
  table: 'contract_people',
  alias: 'p',
  fields: {
    role: field('text', 'Papel', { maxLength: 200 }),
    name: field('text', 'Nome', { maxLength: 300 }),
    cpf: field('cpf', 'CPF'),
    office: field('text', 'Cargo', { maxLength: 300 }),
  },
})

export const people = (kind: 'manager' | 'inspector') =>
  owned(kind === 'manager' ? 'Gestores' : 'Fiscais', Person, { column: 'contract_id', fixed: { kind } })

export const Commitment = shape({
  name: 'Commitment',
  table: 'contract_commitments',
  alias: 'k',
  fields: {
    year: field('integer', 'Ano', { minimum: 1900, maximum: 2200 }),
    number: field('text', 'Número', { maxLength: 100 }),
    emission_date: field('date', 'Data de emissão'),
    description: field('text', 'Descrição', { maxLength: 10_000 }),
    value: field('money', 'Valor'),
    expense_account_code: field('text', 'Código da conta de despesa', { maxLength: 100 }),
    expense_account_name: field('text', 'Conta de despesa', { maxLength: 500 }),
  },
})

export const Provider = shape({
  name: 'Provider',
  description: 'A supplier taking part in a direct contract or public call',
  table: 'bidding_providers',
  alias: 'bp',
  fields: {
    name: field('text', 'Nome', { maxLength: 300, store: { supplier: 'name' } }),
    document: field('taxId', 'CNPJ/CPF', { store: { supplier: 'document' } }),
    representative_name: field('text', 'Representante', { maxLength: 300, nullable: true }),
  },
})

export const OrderItem = shape({
  name: 'OrderItem',
  table: 'order_items',
  alias: 'i',
  fields: {
    number_item: field('text', 'Item', { maxLength: 50, description: 'Item number' }),
    description: field('text', 'Descrição', { maxLength: 10_000, description: 'Item description' }),
    brand: field('text', 'Marca', { maxLength: 300, description: 'Item brand' }),
    unit_measurement: field('text', 'Unidade de medida', { maxLength: 100, description: 'Unit of measure' }),
    quantity: field('integer', 'Quantidade', { maximum: 2147483647, description: 'Item quantity' }),
    amount: field('amount', 'Valor unitário', { description: 'Unit value' }),
    amount_total: field('amount', 'Valor total', { description: 'Total value of the item' }),
  },
})
