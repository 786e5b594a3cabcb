import { type AnyField, rawSql, sqlType } from '../resources/fields.js'
import { sortDirection } from './parameters.js'

// A sort, as every question declares it: the listings by their fields (src/resources), the price research by
// its view's columns (src/prices/research.ts). Both read an asked sort through sortBy: its key's SQL, the type
// a cursor keeps it as, and whether it may be null (blanks and secrets go last).

export interface Sort {
  /** The SQL of the key over rows of alias `a`. */
  readonly key: (a: string) => string
  /** Its SQL type: what a cursor's value is cast to. */
  readonly type: string
  /** Whether the key may be null: the order puts nulls last, and a cursor past a value still reaches them. */
  readonly nullable: boolean
}

/** The sort of a declared field: its stored value, null where the record keeps it secret (a secret budget). */
export function fieldSort(f: AnyField): Sort {
  return {
    key: (a) => {
      const raw = rawSql(f, a)
      return f.secretIf ? `CASE WHEN ${a}.${f.secretIf} THEN NULL ELSE ${raw} END` : raw
    },
    type: sqlType(f),
    nullable: f.nullable || f.secretIf !== undefined,
  }
}

/** A listing's sorts, declared as the fields each orders by. */
export const fieldSorts = (
  fields: Readonly<Record<string, unknown>>,
  sorts: Readonly<Record<string, string>>,
): Record<string, Sort> =>
  Object.fromEntries(
    Object.entries(sorts).map(([name, field]) => [name, fieldSort(fields[field] as AnyField)]),
  )

/** The sort asked for (a name of `sorts`, `-` first for descending) over alias `a`. */
export function sortBy<N extends string>(
  sorts: Readonly<Record<N, Sort>>,
  asked: N | `-${N}`,
  a: string,
): { key: string; type: string; nullable: boolean; direction: 'ASC' | 'DESC' } {
  const { name, direction } = sortDirection<N>(asked)
  const sort = sorts[name]
  if (!sort) throw new Error(`unknown sort ${asked}`)
  return { key: sort.key(a), type: sort.type, nullable: sort.nullable, direction }
}
