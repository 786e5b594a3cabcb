/** Why a bounded piece of work may not start now: every place is taken, or the client's address holds its share. */
export type Refusal = 'busy' | 'address'

/**
 * Places for work that costs a lot while it runs (an export, a price research, a wait for the next import):
 * `limit` in all on this instance, and `perAddress` for one client address, so that one client cannot take
 * every place. A place is given back by the function `enter` returns, once, when the work has ended (its
 * query included, not only its answer).
 */
export class Gate {
  private running = 0
  private readonly byAddress = new Map<string, number>()

  constructor(
    readonly limit: number,
    private readonly perAddress = 1,
  ) {}

  /** A release function when the work may start (call it once, when it ends); the refusal otherwise. */
  enter(address: string): (() => void) | Refusal {
    // The address's own share first: a client that holds it is told so, not that the instance is busy.
    const mine = this.byAddress.get(address) ?? 0
    if (mine >= this.perAddress) return 'address'
    if (this.running >= this.limit) return 'busy'
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

  /** Places taken now. */
  get size(): number {
    return this.running
  }
}
