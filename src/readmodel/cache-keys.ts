// Where each kind of value is kept in the read path's cache (DocumentStore), declared once: every key
// starts with its kind's prefix and a NUL, so that no two kinds can meet under one key. A key names what
// the answer depends on and nothing else: an ocid in lower case, a page's URL as sent (only a valid one is
// answered 200 and kept), a portal page's path with the parameters it takes.

const NUL = '\u0000'

export const CACHE_KEYS = {
  /** The order query's answer for an order of an organization. */
  order: (organizationId: string, number: string) => `o${NUL}${organizationId}${NUL}${number}`,
  /** A detail's answer. */
  detail: (resource: string, id: string) => `d${NUL}${resource}${NUL}${id}`,
  /** A record's history, or one version of it. */
  history: (resource: string, id: string, version: number | undefined) =>
    `hist${NUL}${resource}${NUL}${id}${NUL}${version ?? ''}`,
  /** A listing page's, under its URL. */
  listing: (url: string) => `l${NUL}${url}`,
  /** A listing's count: its statement, then its values. */
  count: (statement: string, values: string) => `c${NUL}${statement}${NUL}${values}`,
  /** A helper's list. */
  helper: (path: string) => `h${NUL}${path}`,
  /** A page of the public change feed, under its URL. */
  feed: (url: string) => `f${NUL}${url}`,
  /** A page of OCDS releases, under its URL. */
  ocdsPage: (url: string) => `ocds${NUL}${url}`,
  /** An OCDS record package. */
  ocdsRecord: (ocid: string, versioned: boolean) => `ocdsr${NUL}${ocid}${NUL}${versioned}`,
  /** One OCDS release, as a package of it alone. */
  ocdsRelease: (id: string) => `ocdsv${NUL}${id}`,
  /** The OCDS package metadata. */
  ocdsMetadata: () => 'ocdsm',
  /** A portal page: its path and the values of the parameters it takes. */
  page: (path: string, parameters: string) => `p${NUL}${path}${NUL}${parameters}`,
  /** What portal pages share: the form's choices. */
  choices: () => `portal${NUL}choices`,
  /** An organ's page data for a month. */
  organ: (id: string, month: string) => `portal${NUL}organ${NUL}${id}${NUL}${month}`,
} as const
