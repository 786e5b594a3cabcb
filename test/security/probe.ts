// A probe of the costly questions (issue 66, F1 to F4) against a running service, while /ready and an ordinary
// page are asked every 100 ms: researches that match everything, each with another q, some left at once; one
// research spelled sixteen ways; price files asked and left 0 to 11 ms later, then ordinary ones; hundreds of
// long polls from one address. The service must stay ready and keep answering the ordinary page throughout.
//
// By hand, against a service of yours (requests seem to come from several addresses only with TRUST_PROXY on):
//   npx tsx test/security/probe.ts http://localhost:3000 [seconds] [word]
// `word` is a word of many items' descriptions (the probe's research that is answered); it prints its report and
// exits 1 when /ready took longer than 500 ms or failed, or the ordinary page failed. The suite runs it
// (test/security/probe.test.ts).

export interface ProbeOptions {
  /** How long the researches and the waits go on. */
  seconds: number
  /** A word of many items' descriptions: the research that is answered, and the files. */
  word: string
  /** Seconds each long poll waits (the service's own bound is 30). */
  waitSeconds?: number
  /** Long polls from one address. */
  waits?: number
}

/** What the probe saw: statuses by scenario, and how /ready and the ordinary page answered throughout. */
export interface ProbeReport {
  ready: { slowestMs: number; asked: number; failed: number }
  ordinary: { slowestMs: number; asked: number; failed: number }
  researches: Record<string, number>
  spellings: Record<string, number>
  leftFiles: number
  files: Record<string, number>
  waits: Record<string, number>
}

const tally = (statuses: readonly (number | string)[]) => {
  const counts: Record<string, number> = {}
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1
  return counts
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The status of a GET from `address`, or 'aborted'/'failed'; its body read and dropped. */
async function status(url: string, address: string, signal?: AbortSignal): Promise<number | string> {
  try {
    const response = await fetch(url, { headers: { 'x-forwarded-for': address }, signal })
    await response.arrayBuffer()
    return response.status
  } catch (error) {
    // A client that left: its own signal, or a timeout's.
    const name = (error as Error).name
    return name === 'AbortError' || name === 'TimeoutError' ? 'aborted' : 'failed'
  }
}

/** Asks `path` every 100 ms until `stop`: how slow its slowest answer was, and how many were not 200. */
async function watch(base: string, path: string, stop: () => boolean) {
  let slowestMs = 0
  let asked = 0
  let failed = 0
  while (!stop()) {
    const started = performance.now()
    const answered = await status(`${base}${path}`, '10.250.0.1', AbortSignal.timeout(10_000))
    slowestMs = Math.max(slowestMs, performance.now() - started)
    asked++
    if (answered !== 200) failed++
    await sleep(100)
  }
  return { slowestMs: Math.round(slowestMs), asked, failed }
}

/** The cursor at the end of the change feed, now. */
async function feedEnd(base: string): Promise<string> {
  let after = ''
  for (let k = 0; k < 10_000; k++) {
    const page = (await (await fetch(`${base}/v1/transparency/changes?per_page=1000${after}`)).json()) as {
      data: { next_cursor: string; has_more: boolean }
    }
    after = `&after=${page.data.next_cursor}`
    if (!page.data.has_more) return page.data.next_cursor
  }
  throw new Error('the feed never ended')
}

export async function probe(base: string, options: ProbeOptions): Promise<ProbeReport> {
  const { seconds, word } = options
  const waitSeconds = options.waitSeconds ?? 20
  let done = false
  const ready = watch(base, '/ready', () => done)
  const ordinary = watch(base, '/v1/transparency/contracts?per_page=5', () => done)
  const end = await feedEnd(base)
  const prices = `${base}/v1/transparency/prices`

  // F2, first, alone: one research spelled sixteen ways, at once.
  const spelled = [
    `q=${word}`,
    `q=${word.toUpperCase()}`,
    `q=%20${word}%20`,
    `q=${word}&sort=amount`,
    `q=${word}&per_page=20`,
    `q=${word}&per_page=020`,
    `per_page=20&q=${word}`,
    `&q=${word}&`,
    `q=${word}+`,
    `q=${word}%20%20`,
    `sort=amount&q=${word}`,
    `q=${word[0]?.toUpperCase()}${word.slice(1)}`,
    `q=${encodeURIComponent(word)}&sort=amount&per_page=20`,
    `per_page=020&sort=amount&q=${word}`,
    `q=%20%20${word}`,
    `q=${word}&&`,
  ]
  const spellings = await Promise.all(
    spelled.map((query, k) => status(`${prices}?${query}`, `10.252.0.${k + 1}`)),
  ).then(tally)

  // F1: a research that matches everything, another q each time, four a second from one address and one a
  // second from each of four others; and eight left 200 ms after asking.
  const researches = (async () => {
    const asked: Promise<number | string>[] = []
    for (let k = 0; k < seconds * 4; k++) {
      asked.push(status(`${prices}?q=-zzzz${k}`, '10.251.0.1'))
      if (k % 4 === 0) asked.push(status(`${prices}?q=-yyyy${k}`, `10.251.1.${(k / 4) % 4}`))
      if (k < 8) asked.push(status(`${prices}?q=-xxxx${k}`, '10.251.2.1', AbortSignal.timeout(200)))
      await sleep(250)
    }
    return tally(await Promise.all(asked))
  })()

  // F3: twelve price files asked and left 0 to 11 ms later, each from its own address; then three ordinary ones.
  const files = (async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, k) =>
        status(`${prices}/export?q=${word}&format=xlsx`, `10.253.0.${k + 1}`, AbortSignal.timeout(k || 1)),
      ),
    )
    await sleep(500)
    const ordinaryFiles: (number | string)[] = []
    for (let k = 0; k < 3; k++)
      ordinaryFiles.push(
        await status(
          `${prices}/export?q=${word}&format=csv`,
          `10.253.1.${k + 1}`,
          AbortSignal.timeout(30_000),
        ),
      )
    return tally(ordinaryFiles)
  })()

  // F4: hundreds of long polls from one address, at the end of the feed.
  const waits = Promise.all(
    Array.from({ length: options.waits ?? 550 }, () =>
      status(
        `${base}/v1/transparency/changes?after=${end}&wait=${waitSeconds}`,
        '10.254.0.1',
        AbortSignal.timeout((waitSeconds + 10) * 1000),
      ),
    ),
  ).then(tally)

  const report = {
    researches: await researches,
    spellings,
    leftFiles: 12,
    files: await files,
    waits: await waits,
  }
  done = true
  return { ...report, ready: await ready, ordinary: await ordinary }
}

// Run by hand: print the report, fail when the service was not ready throughout.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [base = 'http://localhost:3000', seconds = '30', word = 'caneta'] = process.argv.slice(2)
  const report = await probe(base, { seconds: Number(seconds), word })
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  const ok = report.ready.failed === 0 && report.ready.slowestMs < 500 && report.ordinary.failed === 0
  process.exit(ok ? 0 : 1)
}
