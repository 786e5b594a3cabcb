import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

/** The files whose code makes a release from a process's rows: what the releases' version follows. */
export const MAPPING_FILES = ['source.ts', 'mapping.ts', 'merge.ts', 'releases.ts'] as const

/** The hash of the mapping's sources, line endings aside. */
export function mappingSourcesHash(): string {
  const hash = createHash('sha256')
  for (const file of MAPPING_FILES)
    hash.update(readFileSync(new URL(`../src/ocds/${file}`, import.meta.url), 'utf8').replace(/\r\n/g, '\n'))
  return hash.digest('hex').slice(0, 16)
}
