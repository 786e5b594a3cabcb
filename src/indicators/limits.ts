// The limits of a direct contract by value (Lei 14.133/2021, art. 75, I and II), by year: the law's own
// figures, then each year's decree (art. 182), in force from 1 January. Each checked against its decree
// (docs/indicators.md cites them).

/** The limits in force in a calendar year, and the act that set them. */
export interface DirectAwardLimits {
  readonly year: number
  /** Art. 75, I: works and engineering services, and vehicle maintenance. */
  readonly works: string
  /** Art. 75, II: other services and purchases. */
  readonly other: string
  readonly act: string
}

export const DIRECT_AWARD_LIMITS: readonly DirectAwardLimits[] = [
  { year: 2021, works: '100000.00', other: '50000.00', act: 'Lei 14.133/2021' },
  { year: 2022, works: '108040.82', other: '54020.41', act: 'Decreto 10.922/2021' },
  { year: 2023, works: '114416.65', other: '57208.33', act: 'Decreto 11.317/2022' },
  { year: 2024, works: '119812.02', other: '59906.02', act: 'Decreto 11.871/2023' },
  { year: 2025, works: '125451.15', other: '62725.59', act: 'Decreto 12.343/2024' },
  { year: 2026, works: '130984.20', other: '65492.11', act: 'Decreto 12.807/2025' },
]

/** The first day the law's limits apply: its publication (a direct contract before it is under Lei 8.666). */
export const LAW_IN_FORCE = '2021-04-01'

/** The years that have limits, for the `year` parameter and the tests. */
export const LIMIT_YEARS: readonly number[] = DIRECT_AWARD_LIMITS.map((limits) => limits.year)

/** The limits as a SQL relation `alias(year, works, other, act)`. */
export const limitsSql = (alias: string) =>
  `(VALUES ${DIRECT_AWARD_LIMITS.map((l) => `(${l.year}, ${l.works}::numeric, ${l.other}::numeric, '${l.act}')`).join(', ')}) ${alias}(year, works, other, act)`
