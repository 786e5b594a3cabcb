import { migrate } from '../db/migrate.js'
import { syncReadModel } from '../readmodel/build.js'
import { withDatabase } from './common.js'

export async function migrateCommand(): Promise<void> {
  await withDatabase(async (db) => {
    const applied = await migrate(db.pool)
    const rebuilt = await syncReadModel(db.pool)
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'the database is up to date\n')
    if (rebuilt.length) process.stdout.write(`rebuilt the documents of: ${rebuilt.join(', ')}\n`)
  })
}
