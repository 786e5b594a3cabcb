// The demo dataset's sizes, apart from the generator: the CLI and the server name them without loading
// Faker and its Portuguese locale (about 25 MB of a process's memory) unless they generate records.

export interface DemoCounts {
  organizations: number
  orders: number
  contracts: number
  arps: number
  directContracts: number
  publicCalls: number
  /** Items of every order; when absent each order gets 1 to 9 (5 on average). */
  itemsPerOrder?: number
}

export const SCALES = {
  small: { organizations: 5, orders: 300, contracts: 60, arps: 30, directContracts: 20, publicCalls: 20 },
  medium: {
    organizations: 50,
    orders: 20_000,
    contracts: 4_000,
    arps: 2_000,
    directContracts: 2_000,
    publicCalls: 2_000,
  },
  large: {
    organizations: 500,
    orders: 1_000_000,
    contracts: 200_000,
    arps: 100_000,
    directContracts: 100_000,
    publicCalls: 100_000,
  },
} as const satisfies Record<string, DemoCounts>

export type Scale = keyof typeof SCALES
