import type { MemoryLimiter } from '../../auth/rate-limit.js'
import type { ImportSignal } from '../../channel.js'
import type { Pool } from '../../db/pool.js'
import type { Gate } from '../../gate.js'
import type { Publication } from '../../ocds-packages/packages.js'
import type { ResearchLimits } from '../../prices/reads.js'
import type { Cursors } from '../../queries/cursors.js'
import type { DocumentStore } from '../../readmodel/store.js'
import type { DownloadLimits } from './send-download.js'

/** What the /v1 routes are built with. */
export interface TransparencyOptions {
  pool: Pool
  store: DocumentStore
  /** Exports' own connections (never the API's). */
  exportPool: Pool
  /** Requests per client address per minute; 0: no limit. */
  publicRateLimit: number
  /** Its counters, shared with the portal; none when the limit is off. */
  publicLimiter?: MemoryLimiter
  /** Told how many rows each export wrote, as it goes (the metrics' export row counter). */
  onExportRows?: (rows: number) => void
  /** The OCDS packages' metadata and the address for their links. */
  publication: Publication
  /** Requests waiting for the next import (the change feed's long polling). */
  imports: ImportSignal
  /** IDLE_TIMEOUT: how long a waiting request may last (the change feed's long polling). */
  idleTimeoutMs: number
  /** The cursors clients resume from. */
  cursors: Cursors
  /** How streamed files are bounded: the export gate and the reader watchdog's limits. */
  downloads: DownloadLimits
  /** How price researches are bounded: their places and their largest number of items. */
  researches: ResearchLimits
  /** The change feed's waiting requests: a share per client address. */
  waits: Gate
  /** SNAPSHOT_DIR: its `latest` snapshot is served at /v1/ocds/snapshots/. */
  snapshotDir?: string | undefined
}

/** An operation's id in the OpenAPI document: a verb and the path in camel case (`listDirectContracts`). */
export const operationId = (verb: string, path: string) =>
  verb + path.replace(/(^|-)([a-z])/g, (_, _dash, letter: string) => letter.toUpperCase())

/** What the portal's pages are built with. */
export interface PortalOptions {
  pool: Pool
  store: DocumentStore
  /** For the pages that read by cursor (the list of organs). */
  cursors: Cursors
  /** The public per-address limit, shared with the API; none when it is off. */
  publicLimiter?: MemoryLimiter
  publicRateLimit: number
  /** How price researches are bounded (shared with the API). */
  researches: ResearchLimits
}
