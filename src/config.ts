import { existsSync } from 'node:fs'
import { isIP } from 'node:net'
import path from 'node:path'
import { DEFAULT_IPV6_PREFIX } from './address.js'
import { parseCidrs } from './webhooks/addresses.js'

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

export interface Config {
  readonly port: number
  readonly host: string
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  /** Streaming replicas of DATABASE_URL that serve the public reads (DATABASE_REPLICA_URLS); none by default. */
  readonly databaseReplicaUrls: readonly string[]
  /** Seconds a replica may be behind the primary and still serve (REPLICA_MAX_LAG). */
  readonly replicaMaxLagSeconds: number
  readonly redisUrl: string | undefined
  readonly logLevel: LogLevel
  readonly tls: { readonly certFile: string; readonly keyFile: string } | undefined
  /** Load the small demo dataset when `serve` finds an empty database. */
  readonly demoOnEmpty: boolean
  /** Failed order-query authentications allowed per client address per minute. */
  readonly authFailureLimit: number
  /**
   * The proxies whose X-Forwarded-For is believed: false (none), a number of hops, or addresses and ranges.
   * The client is the right-most address of the chain that is not a trusted proxy.
   */
  readonly trustProxy: false | number | readonly string[]
  /** Megabytes of served documents and responses each instance keeps in memory; 0 turns the cache off. */
  readonly cacheMb: number
  /** Connections `serve` keeps to PostgreSQL for the API and the portal, one of them listening for imports (exports have their own). */
  readonly databasePoolSize: number
  /** Log every request (one line each, at info); off by default: order queries have their access records. */
  readonly logRequests: boolean
  /** Public (/v1) requests allowed per client address per minute, in a sliding window; 0 turns it off. */
  readonly publicRateLimit: number
  /** Exports one instance runs at once, on connections of their own (never the API's). */
  readonly exportConcurrency: number
  /** Longest an export may run (its query's statement timeout), in seconds. */
  readonly exportTimeoutSeconds: number
  /** Longest a public read's statement may run (the API, the portal, the order query), in seconds. */
  readonly queryTimeoutSeconds: number
  /** Price researches one instance computes at once (one per client address); the rest wait their turn elsewhere. */
  readonly researchConcurrency: number
  /** A price research that matches more items than this is refused as too broad (422). */
  readonly researchMaxItems: number
  /** Seconds a client has to send a whole request, headers included. */
  readonly requestTimeoutSeconds: number
  /** Seconds an idle keep-alive connection stays open between requests. */
  readonly keepAliveTimeoutSeconds: number
  /** Seconds without traffic either way before a connection is dropped (a reader that stopped reading). */
  readonly idleTimeoutSeconds: number
  /**
   * Kilobytes a second below which a download's reader is dropped, once past its first window, when the
   * answer waits for it (a slow query is not the reader's fault); 0 never drops one for being slow.
   */
  readonly downloadMinRateKb: number
  /** Leading bits of an IPv6 address that name one client for the per-address limits (a /64 by default). */
  readonly ipv6Prefix: number
  /** Port of the Prometheus metrics endpoint (apart from the API); undefined: no metrics. */
  readonly metricsPort: number | undefined
  /** Address the metrics endpoint listens on: the loopback by default, never the API's public one. */
  readonly metricsHost: string
  /** The address clients reach this service at, for absolute links (the OCDS packages' uri and links). */
  readonly publicUrl: string
  /** What OCDS packages say of their publication (src/ocds/package.ts). */
  readonly ocds: OcdsConfig
  /** Address ranges webhooks may be sent to although they are not public (WEBHOOK_ALLOW_PRIVATE, CIDRs). */
  readonly webhookAllowPrivate: readonly string[]
  /** Webhook subscriptions one instance delivers at once. */
  readonly webhookConcurrency: number
  /** Where `compras snapshot` writes (its `latest` is served at /v1/ocds/snapshots/); undefined: none served. */
  readonly snapshotDir: string | undefined
}

export interface OcdsConfig {
  /** The ocid prefix the publisher registered with the Open Contracting Partnership (`ocds-` and 6 characters). */
  readonly prefix: string
  readonly publisherName: string
  readonly publisherUri: string | undefined
  readonly license: string
  readonly publicationPolicy: string | undefined
}

/** A placeholder ocid prefix, not a registered one: the README tells the publisher to replace it. */
export const PLACEHOLDER_OCDS_PREFIX = 'ocds-xxxxxx'

export class ConfigError extends Error {
  override name = 'ConfigError'
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

type Env = Readonly<Record<string, string | undefined>>

function text(env: Env, key: string): string | undefined {
  const value = env[key]?.trim()
  return value === undefined || value === '' ? undefined : value
}

function parsePort(raw: string | undefined, key = 'PORT', fallback = 3000): number {
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(`${key} must be an integer from 0 to 65535, got "${raw}"`)
  }
  return Number(raw)
}

function parseWhole(
  key: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ConfigError(`${key} must be a whole number from ${min} to ${max}, got "${raw}"`)
  return Number(raw)
}

function parseMegabytes(key: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw))
    throw new ConfigError(`${key} must be a whole number of megabytes (0: off), got "${raw}"`)
  return Number(raw)
}

function parseUrl(key: string, raw: string | undefined, protocols: readonly string[]): string | undefined {
  if (raw === undefined) return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`${key} is not a valid URL`)
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${key} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`)
  }
  return raw
}

function parseBoolean(key: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined) return fallback
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false
  throw new ConfigError(`${key} must be true or false, got "${raw}"`)
}

/** Names of address ranges that proxy-addr (Fastify's trustProxy) knows. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal']

/**
 * TRUST_PROXY: false (or unset), a hop count (true is one hop: the proxy in front), or a comma-separated list
 * of the proxies' addresses and CIDR ranges. Never "trust every hop": a client could then name itself.
 */
function parseTrustProxy(raw: string | undefined): false | number | string[] {
  if (raw === undefined || ['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false
  if (['true', 'yes', 'on'].includes(raw.toLowerCase())) return 1
  if (/^\d+$/.test(raw)) {
    if (Number(raw) > 10) throw new ConfigError(`TRUST_PROXY must count at most 10 proxies, got "${raw}"`)
    return Number(raw)
  }
  const entries = raw.split(',').map((entry) => entry.trim())
  for (const entry of entries) {
    const [address, bits, ...rest] = entry.split('/')
    const family = isIP(address ?? '')
    const rangeOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))
    if (!RANGE_NAMES.includes(entry) && (family === 0 || !rangeOk || rest.length > 0))
      throw new ConfigError(
        `TRUST_PROXY must be false, a number of proxies, or the proxies' addresses and ranges (10.0.0.1, 10.0.0.0/8, loopback), got "${entry}"`,
      )
  }
  return entries
}

/** DATABASE_REPLICA_URLS: comma-separated postgres:// URLs of streaming replicas of DATABASE_URL. */
function parseReplicaUrls(raw: string | undefined, primary: string | undefined): readonly string[] {
  if (raw === undefined) return Object.freeze([])
  if (primary === undefined)
    throw new ConfigError(
      'DATABASE_REPLICA_URLS needs DATABASE_URL: replicas are of a PostgreSQL server of your own',
    )
  const urls = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  for (const url of urls) parseUrl('DATABASE_REPLICA_URLS', url, ['postgres:', 'postgresql:'])
  return Object.freeze(urls)
}

function parseOcdsPrefix(raw: string | undefined): string {
  if (raw === undefined) return PLACEHOLDER_OCDS_PREFIX
  if (!/^ocds-[a-z0-9]{6}$/.test(raw)) {
    throw new ConfigError(`OCDS_PREFIX must be "ocds-" and 6 lowercase letters or digits, got "${raw}"`)
  }
  return raw
}

/** Reads and validates the environment once; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: Env = process.env): Config {
  const logLevel = (text(env, 'LOG_LEVEL') ?? 'info').toLowerCase()
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  }
  const certFile = text(env, 'TLS_CERT_FILE')
  const keyFile = text(env, 'TLS_KEY_FILE')
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new ConfigError('TLS_CERT_FILE and TLS_KEY_FILE must be set together')
  }
  for (const [key, file] of [
    ['TLS_CERT_FILE', certFile],
    ['TLS_KEY_FILE', keyFile],
  ] as const) {
    if (file !== undefined && !existsSync(file)) throw new ConfigError(`${key}: file not found: ${file}`)
  }
  const databaseUrl = parseUrl('DATABASE_URL', text(env, 'DATABASE_URL'), ['postgres:', 'postgresql:'])
  return Object.freeze({
    port: parsePort(text(env, 'PORT')),
    host: text(env, 'HOST') ?? '0.0.0.0',
    dataDir: path.resolve(text(env, 'DATA_DIR') ?? 'data'),
    databaseUrl,
    databaseReplicaUrls: parseReplicaUrls(text(env, 'DATABASE_REPLICA_URLS'), databaseUrl),
    replicaMaxLagSeconds: parseWhole('REPLICA_MAX_LAG', text(env, 'REPLICA_MAX_LAG'), 5, 1, 3600),
    redisUrl: parseUrl('REDIS_URL', text(env, 'REDIS_URL'), ['redis:', 'rediss:']),
    logLevel: logLevel as LogLevel,
    tls: certFile !== undefined && keyFile !== undefined ? Object.freeze({ certFile, keyFile }) : undefined,
    demoOnEmpty: parseBoolean('DEMO_ON_EMPTY', text(env, 'DEMO_ON_EMPTY'), true),
    authFailureLimit: parseWhole('AUTH_FAILURE_LIMIT', text(env, 'AUTH_FAILURE_LIMIT'), 30, 1, 1_000_000),
    trustProxy: parseTrustProxy(text(env, 'TRUST_PROXY')),
    cacheMb: parseMegabytes('CACHE_MB', text(env, 'CACHE_MB'), 64),
    databasePoolSize: parseWhole('DATABASE_POOL_SIZE', text(env, 'DATABASE_POOL_SIZE'), 10, 2, 1000),
    logRequests: parseBoolean('LOG_REQUESTS', text(env, 'LOG_REQUESTS'), false),
    publicRateLimit: parseWhole('PUBLIC_RATE_LIMIT', text(env, 'PUBLIC_RATE_LIMIT'), 600, 0, 1_000_000),
    exportConcurrency: parseWhole('EXPORT_CONCURRENCY', text(env, 'EXPORT_CONCURRENCY'), 2, 1, 100),
    exportTimeoutSeconds: parseWhole('EXPORT_TIMEOUT', text(env, 'EXPORT_TIMEOUT'), 600, 1, 86_400),
    queryTimeoutSeconds: parseWhole('QUERY_TIMEOUT', text(env, 'QUERY_TIMEOUT'), 5, 1, 600),
    researchConcurrency: parseWhole('RESEARCH_CONCURRENCY', text(env, 'RESEARCH_CONCURRENCY'), 2, 1, 100),
    researchMaxItems: parseWhole(
      'RESEARCH_MAX_ITEMS',
      text(env, 'RESEARCH_MAX_ITEMS'),
      250_000,
      10,
      100_000_000,
    ),
    requestTimeoutSeconds: parseWhole('REQUEST_TIMEOUT', text(env, 'REQUEST_TIMEOUT'), 10, 1, 600),
    keepAliveTimeoutSeconds: parseWhole('KEEP_ALIVE_TIMEOUT', text(env, 'KEEP_ALIVE_TIMEOUT'), 10, 1, 600),
    idleTimeoutSeconds: parseWhole('IDLE_TIMEOUT', text(env, 'IDLE_TIMEOUT'), 30, 1, 3600),
    downloadMinRateKb: parseWhole('DOWNLOAD_MIN_RATE', text(env, 'DOWNLOAD_MIN_RATE'), 64, 0, 1_000_000),
    ipv6Prefix: parseWhole('IPV6_PREFIX', text(env, 'IPV6_PREFIX'), DEFAULT_IPV6_PREFIX, 16, 128),
    metricsPort:
      text(env, 'METRICS_PORT') === undefined
        ? undefined
        : parsePort(text(env, 'METRICS_PORT'), 'METRICS_PORT'),
    metricsHost: text(env, 'METRICS_HOST') ?? '127.0.0.1',
    publicUrl: (
      parseUrl('PUBLIC_URL', text(env, 'PUBLIC_URL'), ['http:', 'https:']) ??
      `${certFile ? 'https' : 'http'}://localhost:${parsePort(text(env, 'PORT'))}`
    ).replace(/\/+$/, ''),
    ocds: Object.freeze({
      prefix: parseOcdsPrefix(text(env, 'OCDS_PREFIX')),
      publisherName: text(env, 'OCDS_PUBLISHER_NAME') ?? 'compras',
      publisherUri: parseUrl('OCDS_PUBLISHER_URI', text(env, 'OCDS_PUBLISHER_URI'), ['http:', 'https:']),
      license:
        parseUrl('OCDS_LICENSE', text(env, 'OCDS_LICENSE'), ['http:', 'https:']) ??
        'https://creativecommons.org/licenses/by/4.0/',
      publicationPolicy: parseUrl('OCDS_PUBLICATION_POLICY', text(env, 'OCDS_PUBLICATION_POLICY'), [
        'http:',
        'https:',
      ]),
    }),
    webhookAllowPrivate: parseCidrList('WEBHOOK_ALLOW_PRIVATE', text(env, 'WEBHOOK_ALLOW_PRIVATE')),
    webhookConcurrency: parseWhole('WEBHOOK_CONCURRENCY', text(env, 'WEBHOOK_CONCURRENCY'), 8, 1, 256),
    snapshotDir:
      text(env, 'SNAPSHOT_DIR') === undefined ? undefined : path.resolve(text(env, 'SNAPSHOT_DIR') as string),
  })
}

/** A comma-separated list of CIDRs (10.0.0.0/8, ::1/128, or an address alone). */
function parseCidrList(key: string, raw: string | undefined): readonly string[] {
  if (raw === undefined) return Object.freeze([])
  const list = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  if (parseCidrs(list.join(',')) === undefined)
    throw new ConfigError(`${key} must be comma-separated address ranges (10.0.0.0/8, ::1/128), got "${raw}"`)
  return Object.freeze(list)
}
