import { createHash } from 'node:crypto'
import { copyIn, copyRow } from '../db/copy.js'
import type { PoolClient } from '../db/pool.js'
import { BIDDING_MODALITIES, BIDDING_STATUSES, MANAGEMENT_STATUSES, ORDER_STATUSES } from '../domain.js'
import {
  AWARD_STATUS,
  CONTRACT_STATUS,
  changeTags,
  contentOf,
  MILESTONE_STATUS,
  PROCUREMENT_METHOD,
  releaseBody,
  TENDER_STATUS,
} from './mapping.js'
import { type BiddingSource, type ProcessKind, type ProcessSource, sourceQuery } from './source.js'

// The stored releases (migrations/0009_ocds.sql): built in the transaction that wrote the data, like the
// other documents of the read model, for the processes an import touched or for all of them.

const KINDS: readonly ProcessKind[] = ['bidding', 'contract', 'arp']

/**
 * A process that goes through every branch of the mapping: a bidding with tenderers (a company twice, a
 * person), ARPs with terms and documents, a contract under an ARP and one with an award of its own, with
 * orders in every status.
 */
const SAMPLE: ProcessSource = (() => {
  const document = {
    uuid: '00000000-0000-4000-8000-000000000001',
    name: 'a.pdf',
    url: 'https://example.org/a.pdf',
  }
  const term = {
    number: '1',
    kind: 'Aditivo de prazo',
    description: 'd',
    signature_date: '2025-01-02',
    date_start: '2025-01-02',
    date_end: null,
    value: '1.50',
    documents: [document],
  }
  const supplier = { provider_company_name: 'Empresa', provider_document: '12345678000190' }
  const orders = ORDER_STATUSES.map((status, i) => ({
    number: `${i}/2025`,
    object: 'o',
    status_title: status,
    amount_total: '10.05',
    deadline_delivery: '2025-01-02T03:04:05.000006Z',
    provider_name: 'Empresa',
    provider_document: '12345678000190',
  }))
  const contract = (id: string, arp: string | null, status: (typeof MANAGEMENT_STATUSES)[number]) => ({
    id,
    contract_number: id.slice(-1),
    arp_number: arp,
    object_details: 'c',
    amount_total: '100.10',
    ...supplier,
    bidding_modality: BIDDING_MODALITIES[0],
    date_start: '2025-01-01',
    date_end: '2025-12-31',
    management_status: status,
    documents: [document],
    terms: [term],
    orders,
  })
  return {
    organization: { name: 'Órgão', document: '00000000000191' },
    bidding: {
      id: '00000000-0000-4000-8000-000000000002',
      number: '1/2025',
      modality: BIDDING_MODALITIES[1],
      budget_secret: false,
      status: BIDDING_STATUSES[0],
      opening_date: '2025-01-01T00:00:00.000000Z',
      object_details: 'b',
      judgment_criteria: 'Menor preço',
      sum_amount_total: '1000.00',
      documents: [document],
      providers: [
        { name: 'Empresa', document: '12345678000190', representative_name: 'R' },
        { name: 'Empresa', document: '12345678000190', representative_name: 'S' },
        { name: 'Pessoa', document: '***.456.789-**', representative_name: null },
      ],
    },
    arps: [
      {
        id: '00000000-0000-4000-8000-000000000003',
        number: 'ARP 1',
        object_details: 'a',
        amount_total: '500.00',
        ...supplier,
        bidding_modality: BIDDING_MODALITIES[1],
        date_signature: '2025-01-01',
        date_expiration: '2025-12-31',
        management_status: MANAGEMENT_STATUSES[1],
        documents: [document],
        terms: [term],
      },
    ],
    contracts: MANAGEMENT_STATUSES.map((status, i) =>
      contract(`00000000-0000-4000-8000-00000000001${i}`, i === 0 ? 'ARP 1' : null, status),
    ),
  }
})()

/**
 * The version of the releases: a hash of the SQL that reads a process, of the mapping's tables, and of
 * what the mapping makes of a sample process that takes every branch. An upgrade that changes any of them
 * rebuilds the releases (syncReadModel); the same code gives the same version, run from the sources or
 * from the build.
 */
export const RELEASES_VERSION: string = (() => {
  const hash = createHash('sha256')
  for (const kind of KINDS) hash.update(sourceQuery(kind, () => 'true'))
  hash.update(
    JSON.stringify([TENDER_STATUS, PROCUREMENT_METHOD, CONTRACT_STATUS, AWARD_STATUS, MILESTONE_STATUS]),
  )
  for (const status of BIDDING_STATUSES)
    hash.update(releaseBody({ ...SAMPLE, bidding: { ...(SAMPLE.bidding as BiddingSource), status } }).content)
  hash.update(releaseBody({ ...SAMPLE, bidding: null }).content)
  return hash.digest('hex').slice(0, 16)
})()

/**
 * The processes an import touched (src/import/changes.ts lists the records whose documents it rebuilt):
 * biddings, contracts and ARPs it touched, and the biddings of the contracts and ARPs it touched. A
 * relinked contract's old bidding or ARP is among the touched records already, since its document showed it.
 */
const TOUCHED_PROCESSES = `CREATE TEMP TABLE touched_processes ON COMMIT DROP AS
  SELECT id FROM touched_records WHERE tbl IN ('biddings', 'contracts', 'arps')
  UNION SELECT c.bidding_id FROM contracts c JOIN touched_records t ON t.tbl = 'contracts' AND t.id = c.id
    WHERE c.bidding_id IS NOT NULL
  UNION SELECT a.bidding_id FROM arps a JOIN touched_records t ON t.tbl = 'arps' AND t.id = a.id
    WHERE a.bidding_id IS NOT NULL`

const BATCH = 1000

/**
 * Rebuilds the releases in scope: each process is read, mapped and hashed. A release whose content did not
 * change keeps its row (its version, id and date). A changed one is published as the process's next version,
 * dated with the transaction's time and tagged from what changed, and the release it replaces is kept whole
 * among the process's versions: a published release never changes. A process that no longer exists
 * (withdrawn, or now part of another) loses its release and its versions. Returns the releases written.
 */
export async function rebuildReleases(client: PoolClient, scope: 'all' | 'touched'): Promise<number> {
  if (scope === 'touched') await client.query(TOUCHED_PROCESSES)
  const inScope = (id: string) => (scope === 'all' ? 'true' : `${id} IN (SELECT id FROM touched_processes)`)
  await client.query(`CREATE TEMP TABLE built_releases (process_id uuid PRIMARY KEY, process_kind text,
    organization_id uuid, hash text, tags text, content text) ON COMMIT DROP`)
  // Read once, soon after: compressing it here would be paid again when the tail is stored.
  await client.query('ALTER TABLE built_releases ALTER content SET STORAGE EXTERNAL')
  for (const kind of KINDS) {
    // Read in batches through a cursor in this transaction, so memory stays flat at any scale.
    const cursor = `ocds_${kind}`
    await client.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${sourceQuery(kind, inScope)}`)
    const fetch = () => {
      const batch = client.query<{ process_id: string; organization_id: string; source: string }>(
        `FETCH ${BATCH} FROM ${cursor}`,
      )
      batch.catch(() => {}) // a failure is thrown where the batch is awaited
      return batch
    }
    let next = fetch()
    for (;;) {
      const { rows } = await next
      if (rows.length === 0) break
      // PostgreSQL reads the next batch while this one is mapped here.
      next = fetch()
      let built = ''
      for (const row of rows) {
        const { hash, content, tags } = releaseBody(JSON.parse(row.source) as ProcessSource)
        built += copyRow([row.process_id, kind, row.organization_id, hash, tags, content])
      }
      await copyIn(client, 'COPY built_releases FROM STDIN', built)
    }
    await client.query(`CLOSE ${cursor}`)
  }
  // Gone: in scope, and no longer a process. Its versions go with it: it was published by mistake.
  await client.query(
    `WITH gone AS (DELETE FROM ocds_releases r WHERE ${inScope('r.process_id')}
       AND NOT EXISTS (SELECT 1 FROM built_releases b WHERE b.process_id = r.process_id) RETURNING process_id)
     DELETE FROM ocds_release_versions v USING gone WHERE v.process_id = gone.process_id`,
  )
  // Changed: tagged from what changed since the release it replaces, which is kept among the versions.
  const { rows: changed } = await client.query<{ process_id: string; tail: string; content: string }>(
    `SELECT b.process_id, r.tail, b.content FROM built_releases b JOIN ocds_releases r USING (process_id)
     WHERE r.hash <> b.hash`,
  )
  if (changed.length > 0) {
    await client.query(
      `UPDATE built_releases b SET tags = v.tags FROM unnest($1::uuid[], $2::text[]) v(process_id, tags)
       WHERE b.process_id = v.process_id`,
      [
        changed.map((row) => row.process_id),
        changed.map((row) => JSON.stringify(changeTags(contentOf(row.tail), JSON.parse(row.content)))),
      ],
    )
    await client.query(
      `INSERT INTO ocds_release_versions (process_id, version, organization_id, seq, date, tail)
       SELECT r.process_id, r.version, r.organization_id, r.seq, r.date, r.tail
       FROM ocds_releases r JOIN built_releases b USING (process_id) WHERE r.hash <> b.hash`,
    )
  }
  // New or changed: the tail is assembled here, with the date and tags the release now has.
  const date = `to_char(transaction_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`
  const { rowCount } = await client.query(
    `INSERT INTO ocds_releases AS r (process_id, process_kind, organization_id, hash, date, tail)
     SELECT b.process_id, b.process_kind, b.organization_id, b.hash, date_trunc('second', transaction_timestamp()),
       '"date":"' || ${date} || '","tag":' || b.tags || ',' || substr(b.content, 2)
     FROM built_releases b
     WHERE NOT EXISTS (SELECT 1 FROM ocds_releases o WHERE o.process_id = b.process_id AND o.hash = b.hash)
     ON CONFLICT (process_id) DO UPDATE SET process_kind = excluded.process_kind,
       organization_id = excluded.organization_id, hash = excluded.hash, date = excluded.date, tail = excluded.tail,
       version = r.version + 1, seq = nextval('ocds_release_seq')`,
  )
  return rowCount ?? 0
}
