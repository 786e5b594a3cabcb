import type { Filters, FormInput } from '../resources/filters.js'
import type { Choices } from './data.js'

/**
 * One of a form's filters, as its declaration gives it (PRICE_FILTERS, FLAG_FILTERS): its label and control.
 * The organization, chosen from an organ's page or a URL, is kept as it came and named.
 */
export function FormField({
  name,
  form,
  asked,
  lists,
  organization,
}: {
  name: string
  form: FormInput
  asked: Readonly<Record<string, string>>
  /** The helpers' lists, for a filter chosen from one. */
  lists: Choices['lists'] | undefined
  organization: string | undefined
}) {
  const value = asked[name] ?? ''
  const id = `f-${name}`
  // A helper's list (ids are numbers) or a few fixed values: one list to choose from.
  if ('choices' in form || 'options' in form) {
    const options = 'choices' in form ? (lists?.[form.choices] ?? []) : form.options
    return (
      <p>
        <label for={id}>{form.label}</label>
        <select id={id} name={name}>
          <option value="">Todas</option>
          {options.map((option) => (
            <option key={option.id} value={String(option.id)} selected={String(option.id) === value}>
              {option.name}
            </option>
          ))}
        </select>
      </p>
    )
  }
  if (form.input === 'organization')
    return value === '' ? null : (
      <p>
        <label for={id}>{form.label}</label>
        <select id={id} name={name}>
          <option value={value} selected>
            {organization ?? value}
          </option>
          <option value="">Todos</option>
        </select>
      </p>
    )
  return (
    <p>
      <label for={id}>{form.label}</label>
      {form.input === 'date' ? (
        <input id={id} name={name} type="date" value={value} />
      ) : form.input === 'search' ? (
        <input id={id} name={name} type="search" value={value} />
      ) : (
        <input id={id} name={name} type="text" value={value} />
      )}
    </p>
  )
}

/** A form's fields: each declared filter that has a place on it, in declared order. */
export function FilterFields({
  filters,
  asked,
  lists,
  organization,
}: {
  filters: Filters
  asked: Readonly<Record<string, string>>
  lists: Choices['lists'] | undefined
  organization: string | undefined
}) {
  return (
    <>
      {Object.entries(filters).map(([name, filter]) =>
        filter.form ? (
          <FormField
            key={name}
            name={name}
            form={filter.form}
            asked={asked}
            lists={lists}
            organization={organization}
          />
        ) : null,
      )}
    </>
  )
}
