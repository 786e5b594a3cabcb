import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

// `compras pncp harvest`: PNCP's consultation API, page by page, into files that `compras pncp import`
// reads. Every page is one file, written whole (a temporary file renamed), so a page whose file exists is done:
// a harvest killed at any moment and started again fetches no finished page twice and misses none. A page
// that keeps failing is recorded in the state file and the harvest goes on; the next run fetches it.

/** PNCP's public consultation API. */
export const PNCP_API = 'https://pncp.gov.br/api/consulta'

/** PNCP's own API, which serves a contratação's items and their results (no consultation endpoint does). */
export const PNCP_ITEMS_API = 'https://pncp.gov.br/api/pncp'

/** PNCP answers 400 past 50 records a page. */
export const PAGE_SIZE = 50

/** What can be harvested, and the endpoints of each (as published, and as changed since a date). */
export const HARVEST_KINDS = {
  contratacoes: { published: '/v1/contratacoes/publicacao', updated: '/v1/contratacoes/atualizacao' },
  contratos: { published: '/v1/contratos', updated: '/v1/contratos/atualizacao' },
  atas: { published: '/v1/atas', updated: '/v1/atas/atualizacao' },
} as const
/** What is fetched per record harvested: a contratação's items and each item's results, a contrato's termos. */
export const CHILD_KINDS = ['itens', 'resultados', 'termos'] as const
export type HarvestKind = keyof typeof HARVEST_KINDS | (typeof CHILD_KINDS)[number]

/** PNCP's modalities (its domain table): contratações are asked for one modality at a time. */
export const ALL_MODALITIES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] as const

export interface HarvestOptions {
  /** First and last day, `YYYY-MM-DD`; with sinceLast, the last harvest's end and today. */
  from?: string
  to?: string
  /** Fetch what changed since the last complete harvest into `out` (the /atualizacao endpoints). */
  sinceLast?: boolean
  /** Contratações of one state (PNCP's contratos and atas take no state). */
  uf?: string
  /** One organ: every kind. */
  cnpj?: string
  modalities?: readonly number[]
  kinds?: readonly HarvestKind[]
  out: string
  /** Base address of the API. */
  baseUrl?: string
  /** Base address of PNCP's own API, for items and results. */
  itemsUrl?: string
  /** Requests a second, at most. */
  rate?: number
  /** Seconds a page may take. */
  timeout?: number
  /** Attempts of a page before it is recorded as missing. */
  attempts?: number
  /** The first retry's delay, doubled at each attempt (with jitter), in milliseconds. */
  backoff?: number
  /** The longest delay between attempts, in milliseconds (a Retry-After too). */
  maxBackoff?: number
  /** Hears of progress after each page. */
  onProgress?: (progress: HarvestProgress) => void
  /** Today, `YYYY-MM-DD` (tests). */
  today?: string
}

export interface HarvestProgress {
  pages: number
  /** Pages known to exist (grows as each query's first page tells its total). */
  known: number
  records: number
  /** Pages fetched in this run (the others were on disk). */
  fetched: number
}

export interface MissingPage {
  path: string
  url: string
  reason: string
}

export interface HarvestResult {
  pages: number
  fetched: number
  records: number
  missing: MissingPage[]
  from: string
  to: string
}

/** The state file: the filters of the harvest in this directory, its last complete window, its missing pages. */
interface State {
  version: 1
  filters: { uf: string | null; cnpj: string | null; modalities: number[]; kinds: HarvestKind[] }
  last: { from: string; to: string } | null
  missing: MissingPage[]
}

export const STATE_FILE = '.harvest-state.json'

/** A usage error: the command says it, without a stack. */
export class HarvestError extends Error {}

/** A real calendar day, `YYYY-MM-DD`. */
const isDay = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}
const compact = (day: string) => day.replaceAll('-', '')

/** The calendar months of [from, to], each cut to the range: PNCP takes at most 365 days a query. */
export function monthWindows(from: string, to: string): { from: string; to: string; label: string }[] {
  const windows: { from: string; to: string; label: string }[] = []
  let start = from
  for (let guard = 0; start <= to && guard < 1200; guard++) {
    const [y, m] = start.split('-').map(Number) as [number, number]
    const next = new Date(Date.UTC(y, m, 1)) // the first day of the next month
    const monthEnd = new Date(next.getTime() - 86_400_000).toISOString().slice(0, 10)
    const end = monthEnd < to ? monthEnd : to
    // A whole month is named by the month; a part of one by its days.
    const label = start.endsWith('-01') && end === monthEnd ? start.slice(0, 7) : `${start}_${end}`
    windows.push({ from: start, to: end, label })
    start = next.toISOString().slice(0, 10)
  }
  return windows
}

/** One query of the API (a kind, a window, a modality): its pages go under `dir`. */
interface Query {
  dir: string
  endpoint: string
  params: Record<string, string>
}

function queries(
  options: Required<Pick<HarvestOptions, 'kinds' | 'modalities'>> & HarvestOptions,
  window: { from: string; to: string; label: string },
  updated: boolean,
): Query[] {
  const list: Query[] = []
  for (const kind of options.kinds) {
    if (!(kind in HARVEST_KINDS)) continue // items and results come with their contratações
    const endpoint = HARVEST_KINDS[kind as keyof typeof HARVEST_KINDS][updated ? 'updated' : 'published']
    const base: Record<string, string> = { dataInicial: compact(window.from), dataFinal: compact(window.to) }
    const variant = updated ? 'atualizacao' : 'publicacao'
    if (kind === 'contratacoes') {
      for (const modality of options.modalities) {
        const params = { ...base, codigoModalidadeContratacao: String(modality) }
        if (options.uf) Object.assign(params, { uf: options.uf })
        if (options.cnpj) Object.assign(params, { cnpj: options.cnpj })
        const dir = join(kind, variant, window.label, `modalidade-${String(modality).padStart(2, '0')}`)
        list.push({ dir, endpoint, params })
      }
    } else {
      const params = { ...base }
      if (options.cnpj)
        Object.assign(params, kind === 'contratos' ? { cnpjOrgao: options.cnpj } : { cnpj: options.cnpj })
      list.push({ dir: join(kind, variant, window.label), endpoint, params })
    }
  }
  return list
}

const pageFile = (page: number) => `pagina-${String(page).padStart(4, '0')}.json`

/** Why a response is retried, or undefined when it is a page. */
type Fetched = { page: Record<string, unknown> } | { retry: string; after?: number } | { fail: string }

/** Spaces requests to at most `rate` a second. */
class Pace {
  private next = 0
  constructor(private readonly gap: number) {}
  async wait(): Promise<void> {
    const now = performance.now()
    const at = Math.max(now, this.next)
    this.next = at + this.gap
    if (at > now) await sleep(at - now)
  }
}

/** Seconds or an HTTP date, as Retry-After gives them; undefined when absent or unreadable. */
export function retryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** A page of the consultation API (an envelope), or a list as PNCP's own API serves items and results. */
async function fetchPage(url: string, timeout: number, list = false): Promise<Fetched> {
  let response: Response
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(timeout * 1000),
      headers: { accept: 'application/json' },
    })
  } catch (error) {
    const name = (error as Error).name
    return {
      retry:
        name === 'TimeoutError'
          ? `no answer in ${timeout} s`
          : `connection failed: ${(error as Error).message}`,
    }
  }
  let text: string
  try {
    text = await response.text()
  } catch (error) {
    return { retry: `the answer was cut: ${(error as Error).message}` }
  }
  const after = retryAfter(response.headers.get('retry-after'))
  // PNCP answers 204 with no body where a query matches nothing.
  if (response.status === 204 && list) return { page: { data: [] } }
  if (response.status === 204)
    return {
      page: {
        data: [],
        totalRegistros: 0,
        totalPaginas: 0,
        numeroPagina: 1,
        paginasRestantes: 0,
        empty: true,
      },
    }
  if (response.status === 429 || response.status >= 500)
    return { retry: `HTTP ${response.status}`, ...(after === undefined ? {} : { after }) }
  if (response.status !== 200)
    return { fail: `HTTP ${response.status}: ${text.slice(0, 200).replace(/\s+/g, ' ')}` }
  if (text.trimStart().startsWith('<')) return { retry: 'an HTML page instead of JSON' }
  try {
    const page = JSON.parse(text) as unknown
    if (list && Array.isArray(page)) return { page: { data: page } }
    if (page === null || typeof page !== 'object' || !Array.isArray((page as { data?: unknown }).data))
      return { retry: 'a JSON answer that is not a page' }
    return { page: page as Record<string, unknown> }
  } catch {
    return { retry: 'the JSON was cut or malformed' }
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}

async function readState(path: string): Promise<State | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined)
  if (text === undefined) return undefined
  try {
    return JSON.parse(text) as State
  } catch {
    throw new HarvestError(`${path} is not a harvest's state; move it away to start over`)
  }
}

async function writeWhole(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const partial = `${path}.partial`
  await writeFile(partial, text)
  await rename(partial, path)
}

/**
 * Where what a record has on PNCP's own API goes (its items, results or termos), and the parts of its number
 * that address it: `{cnpj}-{ano}-{sequencial}/{the digits of its last change}`, so that a record PNCP changed
 * is fetched again into a directory of its own. Undefined for what is not a record with a control number.
 */
function placeOf(
  value: unknown,
): { folder: string; cnpj: string; year: string; sequence: number } | undefined {
  if (value === null || typeof value !== 'object') return undefined
  const record = value as Record<string, unknown>
  const control = /^(\d{14})-\d-(\d{6})\/(\d{4})$/.exec(String(record.numeroControlePNCP ?? '').trim())
  if (!control) return undefined
  const [, cnpj, seq, year] = control as unknown as [string, string, string, string]
  const changed = String(record.dataAtualizacaoGlobal ?? record.dataAtualizacao ?? '').replace(/\D/g, '')
  const sequence = Number(seq)
  return { folder: join(`${cnpj}-${year}-${sequence}`, changed === '' ? '0' : changed), cnpj, year, sequence }
}

/** What a new directory harvests when --kinds is not given: the records asked for once a month each. */
const DEFAULT_KINDS: readonly HarvestKind[] = ['contratacoes', 'contratos', 'atas']

/** Harvests PNCP into `options.out`: every page of every query of the window, at most `rate` a second. */
export async function harvest(options: HarvestOptions): Promise<HarvestResult> {
  const statePath = join(options.out, STATE_FILE)
  const saved = await readState(statePath)
  // Without --kinds, a directory's own (a harvest made when the default had no atas goes on as it was).
  const kinds = [...new Set(options.kinds ?? saved?.filters?.kinds ?? DEFAULT_KINDS)] as HarvestKind[]
  for (const kind of kinds)
    if (kind === 'resultados' && !kinds.includes('itens'))
      throw new HarvestError('--kinds resultados takes itens too: results are asked for item by item')
  // What is asked for per record needs those records harvested too.
  const owner: Partial<Record<HarvestKind, HarvestKind>> = {
    itens: 'contratacoes',
    resultados: 'contratacoes',
    termos: 'contratos',
  }
  for (const kind of kinds) {
    const needed = owner[kind]
    if (needed !== undefined && !kinds.includes(needed))
      throw new HarvestError(`--kinds ${kind} takes ${needed} too: they are asked for per record of it`)
  }
  const modalities = [...new Set(options.modalities ?? ALL_MODALITIES)].sort((a, b) => a - b)
  for (const kind of kinds)
    if (!(kind in HARVEST_KINDS) && !(CHILD_KINDS as readonly string[]).includes(kind))
      throw new HarvestError(`unknown kind: ${kind}`)
  for (const m of modalities)
    if (!(ALL_MODALITIES as readonly number[]).includes(m)) throw new HarvestError(`unknown modality: ${m}`)
  if (options.uf !== undefined && !/^[A-Z]{2}$/.test(options.uf))
    throw new HarvestError("--uf takes a state's two letters (SP)")
  if (options.cnpj !== undefined && !/^\d{14}$/.test(options.cnpj))
    throw new HarvestError('--cnpj takes 14 digits')
  const filters = { uf: options.uf ?? null, cnpj: options.cnpj ?? null, modalities, kinds }
  const state: State = saved ?? { version: 1, filters, last: null, missing: [] }
  if (JSON.stringify(state.filters) !== JSON.stringify(filters))
    throw new HarvestError(
      `${options.out} holds a harvest of other filters (${JSON.stringify(state.filters)}); use another --out`,
    )
  const today = options.today ?? new Date().toISOString().slice(0, 10)
  let from = options.from
  let to = options.to ?? (options.sinceLast ? today : undefined)
  if (options.sinceLast) {
    if (state.last === null)
      throw new HarvestError(`${options.out} holds no complete harvest yet: give --from and --to`)
    // From the last one's end, a day over: what PNCP changed late on that day.
    from = state.last.to
  }
  if (from === undefined || to === undefined || !isDay(from) || !isDay(to))
    throw new HarvestError('--from and --to take days (YYYY-MM-DD)')
  if (from > to) throw new HarvestError('--from is after --to')
  if (to > today) to = today

  const base = (options.baseUrl ?? PNCP_API).replace(/\/+$/, '')
  const itemsBase = (options.itemsUrl ?? PNCP_ITEMS_API).replace(/\/+$/, '')
  const pace = new Pace(1000 / (options.rate ?? 2))
  const timeout = options.timeout ?? 60
  const attempts = options.attempts ?? 6
  const backoff = options.backoff ?? 2000
  const maxBackoff = options.maxBackoff ?? 120_000
  const progress: HarvestProgress = { pages: 0, known: 0, records: 0, fetched: 0 }
  const missing: MissingPage[] = []
  const updated = options.sinceLast === true

  /** One page: from disk when its file exists, else fetched with retries. Undefined when it stays missing. */
  async function page(query: Query, number: number): Promise<Record<string, unknown> | undefined> {
    const params = new URLSearchParams({
      ...query.params,
      pagina: String(number),
      tamanhoPagina: String(PAGE_SIZE),
    })
    return await fetched(join(query.dir, pageFile(number)), `${base}${query.endpoint}?${params}`, false)
  }

  /**
   * The file `file` under out: read when it exists, else fetched from `url` with retries and written whole
   * (`list`: as PNCP's own API serves a list, kept as it came). Undefined when it stays missing.
   */
  async function fetched(
    file: string,
    url: string,
    list: boolean,
  ): Promise<Record<string, unknown> | undefined> {
    const path = join(options.out, file)
    if (await exists(path)) {
      const saved = JSON.parse(await readFile(path, 'utf8')) as unknown
      return Array.isArray(saved) ? { data: saved } : (saved as Record<string, unknown>)
    }
    let reason = ''
    for (let attempt = 1; attempt <= attempts; attempt++) {
      await pace.wait()
      const got = await fetchPage(url, timeout, list)
      if ('page' in got) {
        await writeWhole(path, JSON.stringify(list ? got.page.data : got.page))
        progress.fetched++
        return got.page
      }
      if ('fail' in got) {
        reason = got.fail
        break
      }
      reason = got.retry
      if (attempt === attempts) break
      const exponential = Math.min(maxBackoff, backoff * 2 ** (attempt - 1))
      const delay =
        got.after !== undefined
          ? Math.min(maxBackoff, got.after)
          : exponential / 2 + Math.random() * (exponential / 2)
      await sleep(delay)
    }
    missing.push({ path: file, url, reason })
    return undefined
  }

  const withItems = kinds.includes('itens')
  const withResults = kinds.includes('resultados')

  /**
   * A contratação's items, pages of 50 until one is short, and each item's results, under a directory of the
   * contratação's last change: a changed contratação's items are fetched again, an unchanged one's never.
   */
  async function children(contratacao: unknown): Promise<void> {
    const place = placeOf(contratacao)
    if (place === undefined) return
    const { folder, cnpj, year, sequence } = place
    const path = `${itemsBase}/v1/orgaos/${cnpj}/compras/${year}/${sequence}/itens`
    const items: Record<string, unknown>[] = []
    for (let n = 1; n <= 1000; n++) {
      const params = new URLSearchParams({ pagina: String(n), tamanhoPagina: String(PAGE_SIZE) })
      const got = await fetched(join('itens', folder, pageFile(n)), `${path}?${params}`, true)
      progress.known++
      if (got === undefined) return
      const data = got.data as unknown[]
      progress.pages++
      progress.records += data.length
      for (const item of data)
        if (item !== null && typeof item === 'object') items.push(item as Record<string, unknown>)
      if (data.length < PAGE_SIZE) break
    }
    if (!withResults) return
    for (const item of items) {
      if (item.temResultado === false || typeof item.numeroItem !== 'number') continue
      const file = join('resultados', folder, `item-${String(item.numeroItem).padStart(5, '0')}.json`)
      const got = await fetched(file, `${path}/${item.numeroItem}/resultados`, true)
      progress.known++
      if (got === undefined) continue
      progress.pages++
      progress.records += (got.data as unknown[]).length
    }
    options.onProgress?.({ ...progress })
  }

  const withTerms = kinds.includes('termos')

  /** A contrato's termos, under a directory of the contrato's last change, as a contratação's items. */
  async function terms(contrato: unknown): Promise<void> {
    const place = placeOf(contrato)
    if (place === undefined) return
    const { folder, cnpj, year, sequence } = place
    const url = `${itemsBase}/v1/orgaos/${cnpj}/contratos/${year}/${sequence}/termos`
    const got = await fetched(join('termos', folder, 'termos.json'), url, true)
    progress.known++
    if (got === undefined) return
    progress.pages++
    progress.records += (got.data as unknown[]).length
  }

  /** A page's records, and, for a page of contratações or contratos, what comes per record when asked. */
  async function took(query: Query, got: Record<string, unknown>): Promise<void> {
    progress.pages++
    progress.records += (got.data as unknown[]).length
    if (withItems && query.endpoint.startsWith('/v1/contratacoes'))
      for (const record of got.data as unknown[]) await children(record)
    if (withTerms && query.endpoint.startsWith('/v1/contratos'))
      for (const record of got.data as unknown[]) await terms(record)
  }

  const windows = monthWindows(from, to).map((w) => (updated ? { ...w, label: `${w.from}_${w.to}` } : w))
  for (const window of windows) {
    for (const query of queries({ ...options, kinds, modalities }, window, updated)) {
      const first = await page(query, 1)
      progress.known += 1
      if (first === undefined) continue
      const total = Math.max(1, Number(first.totalPaginas) || 1)
      progress.known += total - 1
      await took(query, first)
      options.onProgress?.({ ...progress })
      for (let n = 2; n <= total; n++) {
        const got = await page(query, n)
        if (got !== undefined) await took(query, got)
        options.onProgress?.({ ...progress })
      }
    }
  }
  const complete = missing.length === 0
  const next: State = {
    version: 1,
    filters,
    // --since-last continues from the end of the last complete harvest, overlapping by its last day.
    last: complete ? { from, to: state.last && state.last.to > to ? state.last.to : to } : state.last,
    missing,
  }
  await writeWhole(statePath, `${JSON.stringify(next, null, 2)}\n`)
  return { pages: progress.pages, fetched: progress.fetched, records: progress.records, missing, from, to }
}
