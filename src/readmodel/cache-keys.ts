// Where each kind of value is kept in the read path's cache (DocumentStore), declared once: every key
// starts with its kind's prefix and a NUL, so that no two kinds can meet under one key. A key names what
// the answer depends on and nothing else: an ocid in lower case, a CNPJ as its 14 digits, a query as its
// canonical text (its parameters in declared order, as they are read: canonicalQuery), a portal page's path
// with the parameters it takes.

const NUL = '\u0000'

export const CACHE_KEYS = {
  /** The order query's answer for an order of an organization. */
  order: (organizationId: string, number: string) => `o${NUL}${organizationId}${NUL}${number}`,
  /** A detail's answer. */
  detail: (resource: string, id: string) => `d${NUL}${resource}${NUL}${id}`,
  /** A record's history, or one version of it. */
  history: (resource: string, id: string, version: number | undefined) =>
    `hist${NUL}${resource}${NUL}${id}${NUL}${version ?? ''}`,
  /** A page of a listing (or of the research, the suppliers, the organizations): its path and canonical query. */
  listing: (path: string, query: string) => `l${NUL}${path}${NUL}${query}`,
  /** A price research's summary and fences, under its filters' canonical text. */
  priceSummary: (filters: string) => `ps${NUL}${filters}`,
  /** A listing's count: its statement, then its values. */
  count: (statement: string, values: string) => `c${NUL}${statement}${NUL}${values}`,
  /** A helper's list. */
  helper: (path: string) => `h${NUL}${path}`,
  /** An Atom feed of a listing's question: its resource and canonical query. */
  atom: (path: string, query: string) => `a${NUL}${path}${NUL}${query}`,
  /** A page of the public change feed, under its canonical query (`wait` aside: it does not change the page). */
  feed: (query: string) => `f${NUL}${query}`,
  /** A page of OCDS releases, under its canonical query. */
  ocdsPage: (query: string) => `ocds${NUL}${query}`,
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
  /** An organization's page data for a month. */
  organizationPage: (id: string, month: string) => `portal${NUL}organization${NUL}${id}${NUL}${month}`,
} as const
