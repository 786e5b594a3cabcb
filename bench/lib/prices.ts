import { Readable } from 'node:stream'
import { createPool, type Pool } from '../../src/db/pool.js'
import { generateDemo } from '../../src/demo/generator.js'
import { importRecords } from '../../src/import/importer.js'
import { log } from './options.js'
import { startService, stop } from './processes.js'

// What a price research and the pages of who is paid cost uncached (a service with CACHE_MB=0): the most
// common item description across every organ, a rare one (a fixture of RARE_ITEMS items, kept with the
// dataset: the demo's catalogue has no rare product), and the pages of the largest supplier and organization,
// each the median of 21 requests one at a time (with --compare, taken in turn with the build before's).

export const RARE_DESCRIPTION = 'Desfibrilador externo automático com pás para adulto e criança'
const RARE_ITEMS = 40

/** Adds the rare item's orders once, to organizations of the dataset: kept with it, reused by later runs. */
export async function prepareRarePrices(pool: Pool): Promise<void> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM price_items p JOIN item_descriptions d ON d.id = p.description_id
     WHERE d.description = $1`,
    [RARE_DESCRIPTION],
  )
  if ((rows[0]?.n ?? 0) >= RARE_ITEMS) return
  const { rows: organizations } = await pool.query<{ id: string }>(
    `SELECT id FROM organizations ORDER BY id LIMIT ${RARE_ITEMS}`,
  )
  const template = [
    ...generateDemo(
      { organizations: 1, orders: 1, contracts: 0, arps: 0, directContracts: 0, publicCalls: 0 },
      9,
    ),
  ].find((r) => r.type === 'order') as Record<string, unknown>
  const orders = Array.from({ length: RARE_ITEMS }, (_, k) => {
    const cents = 650_000 + ((k * 7919) % 250_000)
    return {
      ...template,
      organization_uuid: organizations[k % organizations.length]?.id,
      number: `${String(k + 1).padStart(6, '0')}/DEA`,
      arp_number: null,
      contract_number: null,
      amount_total: cents / 100,
      items: [
        {
          number_item: '1',
          description: RARE_DESCRIPTION,
          brand: 'Instramed',
          unit_measurement: 'UN',
          quantity: 1,
          amount: cents / 100,
          amount_total: cents / 100,
        },
      ],
    }
  })
  const text = orders.map((order) => JSON.stringify(order)).join('\n')
  const result = await importRecords(pool, [
    { name: 'rare.ndjson', stream: Readable.from([Buffer.from(text)]) },
  ])
  if (!result.ok) throw new Error(`rare items refused: ${JSON.stringify(result.problems.slice(0, 3))}`)
}

/** What a research that matches every description cost one server: its answer, time, and rows of price_items read. */
export interface MatchAll {
  status: number
  medianMs: number
  /** Index entries and heap rows of price_items read per request, by PostgreSQL's own counters. */
  rowsRead: number
}

export interface PriceFigures {
  /** `q=-zzzz` (every description but one with a word no item has): bounded here, read whole before. */
  matchAll?: { q: string; items: number; ours: MatchAll; previous?: MatchAll }
  common: { q: string; items: number; medianMs: number }
  rare: { q: string; items: number; medianMs: number }
  supplier: { document: string; medianMs: number }
  organization: { id: string; medianMs: number }
  /** The same four, from the build before (--compare) on its copy of the data, in the same order. */
  previous?: { common: number; rare: number; supplier: number; organization: number }
}

/**
 * The median time of 21 requests for `path` to each server, one request at a time, the servers taken in turn
 * (each round starting with the next): a host that slows down or speeds up meanwhile weighs on each alike.
 */
export async function medians(bases: readonly string[], path: string): Promise<number[]> {
  const times = bases.map((): number[] => [])
  for (let k = 0; k < 21; k++) {
    for (let j = 0; j < bases.length; j++) {
      const which = (k + j) % bases.length
      const started = performance.now()
      const response = await fetch(bases[which] + path)
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
      times[which]?.push(performance.now() - started)
    }
  }
  return times.map((list) => {
    list.sort((x, y) => x - y)
    return Math.round((list[10] as number) * 10) / 10
  })
}

/** Rows of price_items a database has read (its indexes' entries and its heap's rows), by its counters. */
async function priceRowsRead(pool: Pool): Promise<number> {
  // Counters of other backends reach the view within a second of their going idle.
  await new Promise((resolve) => setTimeout(resolve, 1500))
  const { rows } = await pool.query<{ n: string }>(
    `SELECT (coalesce(t.seq_tup_read, 0) + coalesce(t.idx_tup_fetch, 0)
       + coalesce((SELECT sum(i.idx_tup_read) FROM pg_stat_user_indexes i WHERE i.relid = t.relid), 0))::text AS n
     FROM pg_stat_user_tables t WHERE t.relname = 'price_items'`,
  )
  return Number(rows[0]?.n ?? 0)
}

const MATCH_ALL = '-zzzz'

/**
 * A research that matches every description, five times one at a time on one server: its status, median time,
 * and the rows of price_items it read per request.
 */
async function matchAll(base: string, pool: Pool): Promise<MatchAll> {
  const before = await priceRowsRead(pool)
  const times: number[] = []
  let status = 0
  for (let k = 0; k < 5; k++) {
    const started = performance.now()
    const response = await fetch(`${base}/v1/transparency/prices?q=${encodeURIComponent(MATCH_ALL)}`)
    await response.arrayBuffer()
    times.push(performance.now() - started)
    status = response.status
  }
  const rowsRead = Math.round(((await priceRowsRead(pool)) - before) / 5)
  times.sort((x, y) => x - y)
  return { status, medianMs: Math.round((times[2] as number) * 10) / 10, rowsRead }
}

/** The descriptions, supplier and organization to ask for, from the dataset. */
async function choose(pool: Pool) {
  const described = await pool.query<{ description: string; items: number }>(
    `SELECT d.description, x.items FROM (
       SELECT description_id, count(*)::int AS items FROM price_items GROUP BY description_id) x
     JOIN item_descriptions d ON d.id = x.description_id ORDER BY x.items DESC`,
  )
  const common = described.rows[0]
  const rare = described.rows.find((row) => row.description === RARE_DESCRIPTION)
  const supplier = await pool.query<{ document: string }>(
    `SELECT s.document FROM orders o JOIN suppliers s ON s.id = o.supplier_id WHERE length(s.document) = 14
     GROUP BY s.document ORDER BY count(*) DESC LIMIT 1`,
  )
  const organization = await pool.query<{ id: string }>(
    'SELECT organization_id AS id FROM orders GROUP BY organization_id ORDER BY count(*) DESC LIMIT 1',
  )
  if (!common || !rare || !supplier.rows[0] || !organization.rows[0])
    throw new Error('the dataset has no orders')
  return { common, rare, supplier: supplier.rows[0].document, organization: organization.rows[0].id }
}

/** A description as the research's words: quoted, so that it finds that phrase. */
const words = (description: string) => encodeURIComponent(`"${description.replace(/"/g, '')}"`)

/**
 * This build's figures and, given the build before (its service's `bin` and its copy of the data), its figures
 * too, each service with CACHE_MB=0, their requests taken in turn.
 */
export async function measurePrices(
  url: string,
  pool: Pool,
  logFile: string,
  previous?: { bin: string; url: string; logFile: string },
): Promise<PriceFigures> {
  const chosen = await choose(pool)
  const services = [await startService(url, logFile, undefined, { CACHE_MB: '0' })]
  try {
    if (previous)
      services.push(await startService(previous.url, previous.logFile, previous.bin, { CACHE_MB: '0' }))
    const bases = services.map((service) => service.base)
    // Each server alone: the build before holds its connections for seconds on this one.
    const ours = await matchAll(bases[0] as string, pool)
    let previousMatchAll: MatchAll | undefined
    if (previous && bases[1]) {
      const theirPool = createPool(previous.url, { max: 1 })
      previousMatchAll = await matchAll(bases[1], theirPool).finally(() => theirPool.end())
    }
    const everything = Number(
      (await pool.query<{ n: string }>('SELECT count(*)::text AS n FROM price_items')).rows[0]?.n ?? 0,
    )
    const [common, rare, supplier, organization] = [
      await medians(bases, `/v1/transparency/prices?q=${words(chosen.common.description)}`),
      await medians(bases, `/v1/transparency/prices?q=${words(chosen.rare.description)}`),
      await medians(bases, `/v1/transparency/suppliers/${chosen.supplier}`),
      await medians(bases, `/v1/transparency/organizations/${chosen.organization}`),
    ] as [number[], number[], number[], number[]]
    const pick = (i: number) => ({
      common: common[i] as number,
      rare: rare[i] as number,
      supplier: supplier[i] as number,
      organization: organization[i] as number,
    })
    const mine = pick(0)
    const theirs = previous ? pick(1) : undefined
    const figures: PriceFigures = {
      matchAll: {
        q: MATCH_ALL,
        items: everything,
        ours,
        ...(previousMatchAll ? { previous: previousMatchAll } : {}),
      },
      common: { q: chosen.common.description, items: chosen.common.items, medianMs: mine.common },
      rare: { q: chosen.rare.description, items: chosen.rare.items, medianMs: mine.rare },
      supplier: { document: chosen.supplier, medianMs: mine.supplier },
      organization: { id: chosen.organization, medianMs: mine.organization },
      ...(theirs ? { previous: theirs } : {}),
    }
    const before = theirs
      ? ` (the build before: ${theirs.common}, ${theirs.rare}, ${theirs.supplier} and ${theirs.organization} ms)`
      : ''
    log(
      `prices uncached: common (${figures.common.items} items) ${mine.common} ms, rare (${figures.rare.items}) ` +
        `${mine.rare} ms; largest supplier ${mine.supplier} ms, largest organization ${mine.organization} ms${before}; ` +
        `match-all ${ours.status} in ${ours.medianMs} ms, ${ours.rowsRead} rows read` +
        (previousMatchAll
          ? ` (the build before: ${previousMatchAll.status} in ${previousMatchAll.medianMs} ms, ${previousMatchAll.rowsRead} rows)`
          : ''),
    )
    return figures
  } finally {
    for (const service of services) await stop(service.child)
  }
}
