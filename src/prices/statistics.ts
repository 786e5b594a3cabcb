import { money, object } from '../resources/sql.js'

// The price research's statistics, each declared once: its kind, its Portuguese label, what it means, and its
// SQL over a unit's figures. The summary's SQL (research.ts), its schema (schemas.ts), the spreadsheet's
// columns (export.ts) and the panel's table (src/portal/prices.tsx) are made from this list, in its order.

export interface Statistic {
  readonly kind: 'integer' | 'money'
  /** The panel's row; with "(R$)" for money, the spreadsheet's column. */
  readonly label: string
  /** What it is, for the OpenAPI document. */
  readonly description: string
  /** Its SQL over a unit's figures `f` (its sorted prices `f.a`, their count `f.n`, quartiles, mean...). */
  readonly sql: string
  /** Its SQL without the outliers, over the prices kept `k` (`k.a`, `k.n`, `k.mean`), where it has one. */
  readonly sanitized?: string
  /** Where the panel says it: a row of the unit's table, or the sentences about it. */
  readonly shown: 'table' | 'text'
}

export const PRICE_STATISTICS = {
  items: {
    kind: 'integer',
    label: 'Itens',
    description: 'Items found in this unit',
    sql: 'f.n',
    sanitized: 'k.n',
    shown: 'table',
  },
  organizations: {
    kind: 'integer',
    label: 'Órgãos',
    description: 'Distinct organizations that bought them',
    sql: 'f.organizations',
    shown: 'text',
  },
  suppliers: {
    kind: 'integer',
    label: 'Fornecedores',
    description: 'Distinct suppliers that sold them',
    sql: 'f.suppliers',
    shown: 'text',
  },
  min: {
    kind: 'money',
    label: 'Mínimo',
    description: 'The lowest unit price',
    sql: 'f.a[1]',
    sanitized: 'k.a[1]',
    shown: 'table',
  },
  p25: {
    kind: 'money',
    label: '1º quartil',
    description: 'The first quartile, by linear interpolation (percentile_cont, QUARTILE.INC)',
    sql: 'f.p25',
    shown: 'table',
  },
  median: {
    kind: 'money',
    label: 'Mediana',
    description: 'The median',
    sql: 'f.median',
    sanitized: 'compras_quantile(k.a, 0.5)',
    shown: 'table',
  },
  p75: {
    kind: 'money',
    label: '3º quartil',
    description: 'The third quartile, by linear interpolation',
    sql: 'f.p75',
    shown: 'table',
  },
  max: {
    kind: 'money',
    label: 'Máximo',
    description: 'The highest unit price',
    sql: 'f.a[f.n]',
    sanitized: 'k.a[k.n]',
    shown: 'table',
  },
  mean: {
    kind: 'money',
    label: 'Média',
    description: 'The mean unit price',
    sql: 'f.mean',
    sanitized: 'k.mean',
    shown: 'table',
  },
  weighted_mean: {
    kind: 'money',
    label: 'Média ponderada pela quantidade',
    description: 'The mean unit price weighted by quantity',
    sql: 'f.weighted_mean',
    shown: 'table',
  },
  outliers: {
    kind: 'integer',
    label: 'Preços fora da faixa',
    description: 'Prices outside [p25 − 1.5 × IQR, p75 + 1.5 × IQR]',
    sql: 'f.n - k.n',
    shown: 'text',
  },
} as const satisfies Readonly<Record<string, Statistic>>

export type Statistics = typeof PRICE_STATISTICS
export type StatisticName = keyof Statistics
/** The statistics that have a figure without the outliers. */
export type SanitizedName = {
  [K in StatisticName]: Statistics[K] extends { sanitized: string } ? K : never
}[StatisticName]

export const STATISTIC_NAMES = Object.keys(PRICE_STATISTICS) as StatisticName[]
export const SANITIZED_NAMES = STATISTIC_NAMES.filter(
  (name): name is SanitizedName => (PRICE_STATISTICS[name] as Statistic).sanitized !== undefined,
)

/** What the panel and the file say of a statistic without the outliers. */
export const sanitizedLabel = (label: string) => `${label} sem os fora da faixa`

/** A statistic's value as the summary's JSON has it: money as text with two decimals, a count as a number. */
const valueSql = (kind: Statistic['kind'], sql: string) => (kind === 'money' ? money(sql) : sql)

/** The statistics' columns of a unit's summary entry, then `sanitized` as an object: [name, SQL]. */
export function statisticsSql(): [string, string][] {
  const entries = STATISTIC_NAMES.map((name): [string, string] => {
    const s: Statistic = PRICE_STATISTICS[name]
    return [name, valueSql(s.kind, s.sql)]
  })
  const sanitized = SANITIZED_NAMES.map((name): [string, string] => {
    const s: Statistic = PRICE_STATISTICS[name]
    return [name, valueSql(s.kind, s.sanitized as string)]
  })
  return [...entries, ['sanitized', object(sanitized)]]
}
