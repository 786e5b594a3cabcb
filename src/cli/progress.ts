/** A duration for people: 45s, 3m05s, 1h02m. */
function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}

const number = (n: number) => Math.round(n).toLocaleString('en')

/**
 * A progress line on a terminal, rewritten in place at most five times a second: how many so far, how many a
 * second, and, when the share done is known, the percent and the time left. Nothing at all when the
 * stream is not a terminal (a pipe, a log file).
 */
export class ProgressLine {
  private readonly started = performance.now()
  private last = 0
  private shown = false

  constructor(
    /** Where the line goes; nowhere when undefined. */
    private readonly out: NodeJS.WriteStream | undefined,
    /** What is counted: "records", "rows". */
    private readonly noun: string,
  ) {}

  get active(): boolean {
    return this.out?.isTTY === true
  }

  /** done so far; share: the fraction of the whole done, when known; note: what it is doing now. */
  update(done: number, share?: number, note?: string): void {
    if (!this.active) return
    const now = performance.now()
    if (now - this.last < 200 && note === undefined) return
    this.last = now
    const seconds = (now - this.started) / 1000
    const parts = [`${number(done)} ${this.noun}`]
    if (seconds > 0.5) parts.push(`${number(done / seconds)}/s`)
    if (share !== undefined && share > 0 && share < 1)
      parts.push(`${Math.floor(share * 100)}%`, `${duration((seconds * (1 - share)) / share)} left`)
    if (note) parts.push(note)
    this.out?.write(`\r${parts.join('  ')}\x1b[K`)
    this.shown = true
  }

  /** Ends the line, so that what follows starts on a new one. */
  end(): void {
    if (this.shown) this.out?.write('\n')
    this.shown = false
  }
}
