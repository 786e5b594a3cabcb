import type { Kind } from './resources/fields.js'

// Values as people in Brazil read them: money as R$ 1.234,56, days as 31/12/2025, instants in Brasília
// time with the zone named, CNPJs with their punctuation. Each field is formatted by its declared kind
// (src/resources), so a value reads the same on every page.

const MONEY = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' })
const NUMBER = new Intl.NumberFormat('pt-BR')
const INSTANT = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
})

/** R$ 1.234,56 from the served "1234.56" (or a JSON number). Intl puts a no-break space after R$. */
export const money = (value: string | number) => MONEY.format(Number(value)).replace(/\u00a0/g, ' ')

/** 31/12/2025 from 2025-12-31. */
export const day = (value: string) => `${value.slice(8, 10)}/${value.slice(5, 7)}/${value.slice(0, 4)}`

/** 31/12/2025 21:00 (horário de Brasília) from an ISO instant. */
export const instant = (value: string) =>
  `${INSTANT.format(new Date(value)).replace(',', '')} (horário de Brasília)`

/** 12.345.678/0001-90 from 14 digits; a masked CPF as it is. */
export const taxId = (value: string) =>
  /^[0-9]{14}$/.test(value)
    ? `${value.slice(0, 2)}.${value.slice(2, 5)}.${value.slice(5, 8)}/${value.slice(8, 12)}-${value.slice(12)}`
    : value

/** What a null shows. */
export const MISSING = '—'

/** What a value kept secret shows (a secret budget, published as null). */
export const SECRET = 'Sigiloso'

/** "Contratos" from "contratos": a noun at the head of a title. */
export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** A field's value as text: as its kind reads, and a value kept secret as such. */
export function fieldText(field: { kind: Kind; secretIf?: string }, value: unknown): string {
  if (field.secretIf && value === null) return SECRET
  return formatValue(field.kind, value)
}

/** A value of a field of this kind, as text. */
export function formatValue(kind: Kind, value: unknown): string {
  if (value === null || value === undefined || value === '') return MISSING
  switch (kind) {
    case 'money':
    case 'amount':
      return money(value as string | number)
    case 'date':
      return day(value as string)
    case 'instant':
      return instant(value as string)
    case 'boolean':
      return value ? 'Sim' : 'Não'
    case 'integer':
      // Years and small counts read without a separator (2026, not 2.026).
      return (value as number) >= 10_000 ? NUMBER.format(value as number) : String(value)
    case 'taxId':
    case 'cnpj':
      return taxId(value as string)
    default:
      return String(value)
  }
}

/** "1.234 contratos", "1 contrato". */
export const counted = (n: number, noun: { singular: string; plural: string }) =>
  `${NUMBER.format(n)} ${n === 1 ? noun.singular : noun.plural}`
