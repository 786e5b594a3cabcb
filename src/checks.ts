// Checks shared by every face that takes input: the import, the API's parameters, the CLI. One rule each,
// so that a value the import accepts is one the API can look up, and the reverse.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|[+-](\d{2}):(\d{2}))$/
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_ALL = /[\u0000-\u001f\u007f]/g

/** Exactly 8-4-4-4-12 hex digits: no braces, no `urn:uuid:` prefix, which PostgreSQL would take or refuse. */
export function isUuid(value: string): boolean {
  return UUID.test(value)
}

/** A real day of years 1 to 9999 as YYYY-MM-DD (PostgreSQL has no year 0). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value)
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (year < 1 || month < 1 || month > 12 || day < 1) return false
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/** ISO 8601 with Z or an offset and up to six fractional digits, on a real day. */
export function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value)
  if (!match || !isCalendarDate(match[1] as string)) return false
  const [hour, minute, second] = [Number(match[2]), Number(match[3]), Number(match[4])]
  if (hour > 23 || minute > 59 || second > 59) return false
  return match[7] === undefined || (Number(match[7]) <= 23 && Number(match[8]) <= 59)
}

/** True when text holds a control character (NUL included), which no key or search term may hold. */
export function hasControlCharacter(value: string): boolean {
  return CONTROL.test(value)
}

/** JSON Schema pattern of a text without control characters (the same rule as hasControlCharacter). */
export const NO_CONTROL_PATTERN = '^[^\\u0000-\\u001f\\u007f]*$'

/**
 * Text that is safe to store or log whatever a client sent: control characters become U+FFFD, unpaired
 * surrogates too, and it is cut to maxLength.
 */
export function storableText(value: string, maxLength: number): string {
  const cut = value.length > maxLength ? value.slice(0, maxLength) : value
  return (CONTROL.test(cut) ? cut.replace(CONTROL_ALL, '\ufffd') : cut).toWellFormed()
}

/** The longest key (order, contract, ARP number) the import accepts; longer ones cannot exist. */
export const MAX_NUMBER_LENGTH = 100

/** An order, contract or ARP number as the import stores it: no surrounding white space. */
export function normalizeNumber(value: string): string {
  return value.trim()
}

/** Whether a number someone asks for could be stored at all (lookups of impossible keys never reach SQL). */
export function isPossibleNumber(value: string): boolean {
  return value.length > 0 && value.length <= MAX_NUMBER_LENGTH && !CONTROL.test(value) && value.isWellFormed()
}
