import { hasControlCharacter } from '../checks.js'
import {
  listingParameters,
  type ParameterProblem,
  parameterError,
  sortOf,
  unknownParameter,
} from '../queries/parameters.js'
import { compileQuery } from '../query-validation.js'
import type { PublicResource } from '../resources/index.js'

// What the portal's forms send, read and checked as the API checks its parameters, so that a page can show
// each problem by its field.

export const ORGANIZATION_NAME_RULE =
  'O nome do órgão deve ter de 1 a 200 caracteres, sem caracteres de controle.'

/** Text a person may search for (the search box, an organ's name): at most 200 characters, none of control. */
export const isSearchText = (text: string) => text.length <= 200 && !hasControlCharacter(text)

/**
 * The query as the form sent it: one value per name, empty fields left out (a form sends them all). Read up to
 * the first name the page does not take, which is returned as `unknown`: a URL of thousands of names is
 * refused for the first, as the API refuses it, not checked name by name.
 */
export function formQuery(
  raw: unknown,
  known?: ReadonlySet<string>,
): { query: Record<string, string>; unknown?: string } {
  const query: Record<string, string> = {}
  for (const [name, value] of Object.entries((raw ?? {}) as Record<string, unknown>)) {
    if (known && !known.has(name)) return { query, unknown: name }
    const text = Array.isArray(value) ? value.at(-1) : value
    if (typeof text === 'string' && text.trim() !== '') query[name] = text.trim()
  }
  return { query }
}

/**
 * The listing's parameters checked one by one, as the API checks them, so that the form can show every
 * problem by its field: the converted values (integers) and the problems by name. Compiled once per resource.
 */
export function listingChecker(resource: PublicResource) {
  const { schema, accepts } = listingParameters(resource)
  const validate = compileQuery(schema)
  /** The names the page takes: the listing's parameters, and the organ by name. */
  // The API's parameters but the cursor (the portal's pages go by number), and the organ by name.
  const known = new Set([...Object.keys(accepts).filter((name) => name !== 'cursor'), 'orgao'])
  return (raw: unknown) => {
    const { query: read, unknown } = formQuery(raw, known)
    const { orgao, ...query } = read
    if (unknown !== undefined)
      return { orgao, query, values: {}, errors: { [unknown]: unknownParameter(unknown, accepts).message } }
    const values: Record<string, unknown> = {}
    const errors: Record<string, string> = {}
    for (const [name, value] of Object.entries(query)) {
      if (name === 'with_relations') continue
      const one: Record<string, unknown> = { [name]: value }
      const problems = validate(one)
      if (problems) errors[name] = parameterError(problems[0] as ParameterProblem, accepts).message
      else values[name] = one[name]
    }
    if (values.sort !== undefined) {
      try {
        sortOf(resource, values.sort)
      } catch (error) {
        errors.sort = (error as Error).message
      }
    }
    return { orgao, query, values, errors }
  }
}
