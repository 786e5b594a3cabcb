import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { mappingSourcesHash } from '../../scripts/ocds-sources.js'
import { MAPPING_SOURCES } from '../../src/ocds/mapping-version.js'
import { RELEASES_VERSION } from '../../src/ocds/releases.js'

// The stored releases are rebuilt when the code that makes them changes: their version includes the hash of
// the mapping's sources, recorded by `npm run ocds:version`.

describe('the releases version', () => {
  it('records the hash of the mapping as it is now (run npm run ocds:version after changing it)', () => {
    assert.equal(MAPPING_SOURCES, mappingSourcesHash())
  })

  it('is sixteen hex digits, the same from one load to the next', async () => {
    assert.match(RELEASES_VERSION, /^[0-9a-f]{16}$/)
    const again = await import(`../../src/ocds/releases.js?again=${Date.now()}`)
    assert.equal(again.RELEASES_VERSION, RELEASES_VERSION)
  })
})
