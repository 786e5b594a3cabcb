import type { JsonObject } from '../json.js'
import type { ImportLine } from '../resources/index.js'

// A later import for the demo data, so that a first run shows records with a history: a few contracts get
// an additive term that raises their value and extends their term, and a few ARPs are extended. Made from
// records the demo generated, without Faker: the same records give the same changes.

/** How many contracts, and how many ARPs, the demo changes. */
const CHANGED = 3

/** A day so many days after a YYYY-MM-DD day. */
const after = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** Collects, as the demo streams, the records it will change: call `keep` on each, then `changes()`. */
export class DemoChanges {
  private readonly contracts: JsonObject[] = []
  private readonly arps: JsonObject[] = []

  keep(record: ImportLine): void {
    const json = record as unknown as JsonObject
    if (json.type === 'contract' && json.bidding_uuid && this.contracts.length < CHANGED)
      this.contracts.push(json)
    if (json.type === 'arp' && this.arps.length < CHANGED) this.arps.push(json)
  }

  /** The changed records, as lines of a later import. */
  changes(): ImportLine[] {
    const contracts = this.contracts.map((contract) => {
      const terms = (contract.terms as JsonObject[]) ?? []
      const end = contract.date_end as string
      const raise = (Math.round(Number(contract.amount_total) * 25) / 100).toFixed(2)
      const signature = after(contract.date_start as string, 180)
      return {
        ...contract,
        amount_total: (Number(contract.amount_total) + Number(raise)).toFixed(2),
        date_end: after(end, 365),
        terms: [
          ...terms,
          {
            number: `${terms.length + 1}º Termo Aditivo`,
            kind: 'Aditivo de prazo e valor',
            description:
              'Acréscimo de 25% no valor e prorrogação por 12 meses, conforme justificativa nos autos',
            signature_date: signature,
            date_start: after(end, 1),
            date_end: after(end, 365),
            value: raise,
            documents: [],
          },
        ],
      }
    })
    const arps = this.arps.map((arp) => ({
      ...arp,
      date_expiration: after(arp.date_expiration as string, 365),
    }))
    return [...contracts, ...arps] as unknown as ImportLine[]
  }
}
