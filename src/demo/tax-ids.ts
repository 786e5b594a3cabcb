// Brazilian tax documents: check digits for CPF (11 digits) and CNPJ (14 digits).

function checkDigit(digits: readonly number[], weights: readonly number[]): number {
  const sum = digits.reduce((total, digit, index) => total + digit * (weights[index] as number), 0)
  const rest = sum % 11
  return rest < 2 ? 0 : 11 - rest
}

const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2]
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]

/** A CPF from its first nine digits. */
export function cpfFrom(base: readonly number[]): string {
  const first = checkDigit(base, CPF_WEIGHTS_1)
  const second = checkDigit([...base, first], CPF_WEIGHTS_2)
  return [...base, first, second].join('')
}

/** A CNPJ from its first twelve digits (eight of the company, four of the branch). */
export function cnpjFrom(base: readonly number[]): string {
  const first = checkDigit(base, CNPJ_WEIGHTS_1)
  const second = checkDigit([...base, first], CNPJ_WEIGHTS_2)
  return [...base, first, second].join('')
}

function digitsOf(value: string, length: number): number[] | undefined {
  if (!new RegExp(`^[0-9]{${length}}$`).test(value) || /^(\d)\1*$/.test(value)) return undefined
  return [...value].map(Number)
}

export function isValidCpf(value: string): boolean {
  const digits = digitsOf(value, 11)
  return digits !== undefined && cpfFrom(digits.slice(0, 9)) === value
}

export function isValidCnpj(value: string): boolean {
  const digits = digitsOf(value, 14)
  return digits !== undefined && cnpjFrom(digits.slice(0, 12)) === value
}
