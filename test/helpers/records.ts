import { Readable } from 'node:stream'
import { type DemoCounts, type DemoRecord, generateDemo } from '../../src/demo/generator.js'
import type { ImportSource } from '../../src/import/importer.js'

export const TINY: DemoCounts = {
  organizations: 2,
  orders: 12,
  contracts: 6,
  arps: 4,
  directContracts: 3,
  publicCalls: 3,
}

export function demoRecords(counts: DemoCounts = TINY, seed = 7): DemoRecord[] {
  return [...generateDemo(counts, seed)]
}

export function ndjson(records: readonly unknown[]): string {
  return records.map((record) => (typeof record === 'string' ? record : JSON.stringify(record))).join('\n')
}

export function source(content: string | Buffer, name = 'test.ndjson'): ImportSource {
  return { name, stream: Readable.from([typeof content === 'string' ? Buffer.from(content) : content]) }
}

export function first(
  records: readonly DemoRecord[],
  type: string,
  where: (r: DemoRecord) => boolean = () => true,
) {
  const found = records.find((record) => record.type === type && where(record))
  if (!found) throw new Error(`no ${type} in the fixture`)
  return structuredClone(found)
}

/** A stable key for comparing records regardless of order. */
export function recordKey(record: Record<string, unknown>): string {
  if (record.type === 'organization') return `organization ${record.uuid}`
  if (record.type === 'order') return `order ${record.organization_uuid} ${record.number}`
  return `${record.type} ${record.id}`
}

export function byKey(records: Iterable<Record<string, unknown>>): Map<string, Record<string, unknown>> {
  return new Map([...records].map((record) => [recordKey(record), record]))
}
