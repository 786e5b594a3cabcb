import { migrate } from '../db/migrate.js'
import { takeSnapshot } from '../ocds-packages/snapshot.js'
import { Cursors } from '../queries/cursors.js'
import { syncReadModel } from '../readmodel/build.js'
import { UsageError, withDatabase } from './common.js'
import { ProgressLine } from './progress.js'

// `compras snapshot --out DIR`: every OCDS release and record as files a consumer can check, then follow with the
// feeds from the manifest's cursors (src/ocds-packages/snapshot.ts).

export async function snapshotCommand(options: { out?: string }): Promise<void> {
  await withDatabase(async (db, config) => {
    const out = options.out ?? config.snapshotDir
    if (out === undefined) throw new UsageError('--out DIR is required (or SNAPSHOT_DIR)')
    await migrate(db.pool)
    await syncReadModel(db.pool)
    const progress = new ProgressLine(process.stderr, 'processes')
    const { dir, manifest } = await takeSnapshot(db.pool, new Cursors(db.pool), {
      out,
      publication: { config: config.ocds, publicUrl: config.publicUrl },
      onProgress: (processes) => progress.update(processes),
    })
    progress.end()
    const releases = manifest.files.filter((f) => f.kind === 'releases').reduce((n, f) => n + f.count, 0)
    const records = manifest.files.filter((f) => f.kind === 'records').reduce((n, f) => n + f.count, 0)
    process.stdout.write(
      `snapshot of ${releases} releases and ${records} records in ${manifest.files.length} files: ${dir}\n` +
        `  follow it from the change feed's cursor ${manifest.cursors.changes}\n`,
    )
  })
}
