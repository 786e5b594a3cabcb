import { migrate } from '../db/migrate.js'
import { Cursors } from '../queries/cursors.js'
import { AddressRefused, Destinations, parseCidrs } from '../webhooks/addresses.js'
import {
  addSubscription,
  deliveries,
  listSubscriptions,
  redeliver,
  removeSubscription,
  rotateSecret,
} from '../webhooks/subscriptions.js'
import { UsageError, withDatabase } from './common.js'

// `compras webhook`: the operator's subscriptions (src/webhooks/subscriptions.ts). A secret is printed once, when it
// is made; the rest never shows it.

function checkId(id: string): void {
  if (!/^\d{1,18}$/.test(id)) throw new UsageError(`the subscription id must be a number, got "${id}"`)
}

/** Rows as a table of columns padded to their widest cell. */
function table(rows: string[][]): void {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? []
  for (const row of rows)
    process.stdout.write(
      `${row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd()}\n`,
    )
}

export async function webhookAddCommand(options: {
  url: string
  kinds?: string
  filter?: string
}): Promise<void> {
  await withDatabase(async (db, config) => {
    await migrate(db.pool)
    const destinations = new Destinations(parseCidrs(config.webhookAllowPrivate.join(',')))
    try {
      const { id, secret } = await addSubscription(db.pool, options, destinations)
      process.stdout.write(
        `webhook ${id} delivers the changes from now on to ${options.url}; its secret is shown only now:\n${secret}\n`,
      )
    } catch (error) {
      if (error instanceof AddressRefused) throw new UsageError(`--url: ${error.message}`)
      throw error
    }
  })
}

export async function webhookListCommand(): Promise<void> {
  await withDatabase(async (db) => {
    await migrate(db.pool)
    const rows = await listSubscriptions(db.pool)
    table([
      ['id', 'url', 'kinds', 'filter', 'behind', 'state', 'created'],
      ...rows.map((row) => [
        row.id,
        row.url,
        row.kinds?.join(',') ?? 'all',
        row.filter,
        String(row.behind),
        row.disabled_at
          ? `disabled ${row.disabled_at}: ${row.disabled_reason ?? ''}`
          : row.failing_since
            ? `failing since ${row.failing_since} (${row.attempts} attempts)`
            : 'ok',
        row.created_at,
      ]),
    ])
  })
}

export async function webhookRemoveCommand(id: string): Promise<void> {
  await withDatabase(async (db) => {
    checkId(id)
    await migrate(db.pool)
    if (!(await removeSubscription(db.pool, id))) throw new UsageError(`no webhook with id ${id}`)
    process.stdout.write(`webhook ${id} is removed; nothing more is delivered to it\n`)
  })
}

export async function webhookRotateCommand(id: string): Promise<void> {
  await withDatabase(async (db) => {
    checkId(id)
    await migrate(db.pool)
    const secret = await rotateSecret(db.pool, id)
    if (secret === undefined) throw new UsageError(`no webhook with id ${id}`)
    process.stdout.write(
      `webhook ${id} has a new secret, shown only now; the one before signs too for 24 hours:\n${secret}\n`,
    )
  })
}

export async function webhookDeliveriesCommand(id: string, options: { limit: number }): Promise<void> {
  await withDatabase(async (db) => {
    checkId(id)
    await migrate(db.pool)
    const found = await deliveries(db.pool, new Cursors(db.pool), id, options.limit)
    if (found === undefined) throw new UsageError(`no webhook with id ${id}`)
    table([
      ['entry', 'attempted', 'status', 'ms', 'error'],
      ...found.map((d) => [
        d.entry,
        d.attempted_at,
        d.status === null ? '' : String(d.status),
        String(d.milliseconds),
        d.error ?? '',
      ]),
    ])
  })
}

export async function webhookRedeliverCommand(id: string, options: { from: string }): Promise<void> {
  await withDatabase(async (db) => {
    checkId(id)
    await migrate(db.pool)
    if (!(await redeliver(db.pool, new Cursors(db.pool), id, options.from)))
      throw new UsageError(`no webhook with id ${id}`)
    process.stdout.write(`webhook ${id} delivers again every entry after ${options.from}, in order\n`)
  })
}
