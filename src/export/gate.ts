/** Why an export may not start now. */
export type ExportRefusal = 'busy' | 'address'

/**
 * Bounds the exports an instance runs at once: `limit` in all, and one per client address, so that one
 * client cannot hold every place. An export is long and holds a database connection; the API's own
 * connections are never used by exports (they have their own pool of `limit` connections).
 */
export class ExportGate {
  private running = 0
  private readonly byAddress = new Map<string, number>()

  constructor(
    readonly limit: number,
    private readonly perAddress = 1,
  ) {}

  /** A release function when an export may start (call it once, when it ends); the refusal otherwise. */
  enter(address: string): (() => void) | ExportRefusal {
    if (this.running >= this.limit) return 'busy'
    const mine = this.byAddress.get(address) ?? 0
    if (mine >= this.perAddress) return 'address'
    this.running++
    this.byAddress.set(address, mine + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      this.running--
      const left = (this.byAddress.get(address) ?? 1) - 1
      if (left === 0) this.byAddress.delete(address)
      else this.byAddress.set(address, left)
    }
  }

  get size(): number {
    return this.running
  }
}
