// Written by `npm run ocds:version` (scripts/ocds-version.ts): the hash of the code that maps a process to
// its release (the files MAPPING_FILES in scripts/ocds-sources.ts). RELEASES_VERSION (src/ocds/releases.ts)
// includes it, so a build whose mapping changed rebuilds the stored releases; a test fails while it is not
// the sources' own.
export const MAPPING_SOURCES = '60cdb5f611effdbb'
