import { createWriteStream } from 'node:fs'
import { Readable, type Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { dumpRecords } from '../import/dump.js'
import { withDatabase } from './common.js'

export async function dumpCommand(options: { out?: string }): Promise<void> {
  await withDatabase(async (db) => {
    const out: Writable = options.out ? createWriteStream(options.out) : process.stdout
    const lines = Readable.from(
      (async function* () {
        for await (const record of dumpRecords(db.pool)) yield `${JSON.stringify(record)}\n`
      })(),
    )
    await pipeline(lines, out)
  })
}
