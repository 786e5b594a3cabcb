// `npm run ocds:version`: records the hash of the OCDS mapping's sources in src/ocds/mapping-version.ts, so
// that a build whose mapping changed rebuilds the stored releases (RELEASES_VERSION). A test fails while the
// recorded hash is not the sources' own.
import { writeFileSync } from 'node:fs'
import { mappingSourcesHash } from './ocds-sources.js'

const hash = mappingSourcesHash()
writeFileSync(
  new URL('../src/ocds/mapping-version.ts', import.meta.url),
  `// Written by \`npm run ocds:version\` (scripts/ocds-version.ts): the hash of the code that maps a process to
// its release (the files MAPPING_FILES in scripts/ocds-sources.ts). RELEASES_VERSION (src/ocds/releases.ts)
// includes it, so a build whose mapping changed rebuilds the stored releases; a test fails while it is not
// the sources' own.
export const MAPPING_SOURCES = '${hash}'
`,
)
process.stdout.write(`src/ocds/mapping-version.ts: ${hash}\n`)
