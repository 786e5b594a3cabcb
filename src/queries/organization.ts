import type { Pool } from '../db/pool.js'
import { NotFoundError } from '../errors.js'

/**
 * The one check of an organization filter: NotFoundError('organization') (404, not an empty answer) when the
 * organization it names does not exist. An answer that found rows of it (`found`) proves it exists, so only
 * an empty one asks the database.
 */
export async function checkOrganization(pool: Pool, id: string | undefined, found = false): Promise<void> {
  if (id === undefined || found) return
  if (!(await organizationExists(pool, id.toLowerCase()))) throw new NotFoundError('organization')
}

async function organizationExists(pool: Pool, id: string): Promise<boolean> {
  const { rowCount } = await pool.query({
    // Stryker disable next-line StringLiteral: the name only spares planning; an unnamed statement answers the same
    name: 'organization-exists',
    text: 'SELECT 1 FROM organizations WHERE id = $1',
    values: [id],
  })
  return rowCount === 1
}
