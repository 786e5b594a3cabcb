import { lookup as dnsLookup } from 'node:dns'
import { BlockList, isIP, type LookupFunction } from 'node:net'

// Where a webhook may be sent: an http(s) URL without credentials, to a public address only. The address is
// checked where the connection is made (the lookup a connection uses, and the peer it connected to), so a name
// that resolves to a private, loopback or link-local address is refused, after a DNS change too.
// WEBHOOK_ALLOW_PRIVATE lists the ranges that may be called anyway (a test's loopback, an internal receiver).

/** Why an address may not be called (the CLI says it, the delivery log keeps it). */
export class AddressRefused extends Error {
  override name = 'AddressRefused'
}

/** Ranges that are no public address (IANA's special-purpose registries), IPv4 and IPv6. */
const SPECIAL: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.88.99.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001::', 23, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
]

const NOT_PUBLIC = new BlockList()
for (const [network, prefix, family] of SPECIAL) NOT_PUBLIC.addSubnet(network, prefix, family)

/** CIDRs as WEBHOOK_ALLOW_PRIVATE writes them (comma-separated), or undefined for a malformed one. */
export function parseCidrs(text: string): BlockList | undefined {
  const list = new BlockList()
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const [network = '', bits] = part.split('/')
    const family = isIP(network)
    if (family === 0) return undefined
    const max = family === 4 ? 32 : 128
    const prefix = bits === undefined ? max : Number(bits)
    if (
      !Number.isInteger(prefix) ||
      prefix < 0 ||
      prefix > max ||
      (bits !== undefined && !/^\d+$/.test(bits))
    )
      return undefined
    list.addSubnet(network, prefix, family === 4 ? 'ipv4' : 'ipv6')
  }
  return list
}

/**
 * An IPv4 address written as IPv6 is that IPv4 address, whichever way it is written: ::ffff:127.0.0.1, or as URLs
 * write it, ::ffff:7f00:1.
 */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (dotted) return { address: dotted[1] as string, family: 'ipv4' }
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address)
  if (hex) {
    const [high, low] = [Number.parseInt(hex[1] as string, 16), Number.parseInt(hex[2] as string, 16)]
    return { address: `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, family: 'ipv4' }
  }
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' }
}

/** Who may be called: public addresses, and the ranges the operator allows. */
export class Destinations {
  constructor(private readonly allowed: BlockList = new BlockList()) {}

  /** Undefined when the address may be called, else why not. */
  refusal(address: string): string | undefined {
    const { address: plain, family } = unmapped(address)
    if (this.allowed.check(plain, family)) return undefined
    // IPv4 in an IPv6 form unmapped() did not read (::ffff:0:0/96, ::/96): refused rather than read wrong. (A
    // BlockList would match every IPv4 address against these.)
    const embedded =
      family === 'ipv6' &&
      /^::(ffff:)?[0-9a-f]{0,4}:[0-9a-f]{0,4}$|^::(ffff:)?\d+\.\d+\.\d+\.\d+$/i.test(plain)
    if (embedded || NOT_PUBLIC.check(plain, family))
      return `${plain} is not a public address (private, loopback, link-local or reserved); WEBHOOK_ALLOW_PRIVATE may allow it`
    return undefined
  }

  /**
   * The lookup a connection makes: the name resolved, and refused when none of its addresses may be called (the
   * first that may is the one connected to). `resolve` is the DNS's, or a test's.
   */
  lookup(resolve: LookupFunction = dnsLookup): LookupFunction {
    return (hostname, options, callback) => {
      resolve(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, '', 4)
        const list = (Array.isArray(addresses) ? addresses : [{ address: addresses, family: 4 }]) as {
          address: string
          family: number
        }[]
        const usable = list.filter((a) => this.refusal(a.address) === undefined)
        if (usable.length === 0) {
          const reason = this.refusal(list[0]?.address ?? '') ?? 'no address'
          return callback(new AddressRefused(`${hostname}: ${reason}`), '', 4)
        }
        if ((options as { all?: boolean }).all)
          return (callback as unknown as (e: null, a: unknown) => void)(null, usable)
        const first = usable[0] as { address: string; family: number }
        callback(null, first.address, first.family)
      })
    }
  }
}

/**
 * A webhook URL checked as the operator gives it: http or https, no user or password in it, a host that is not
 * a literal private address. AddressRefused with the reason otherwise; the URL in its normal form.
 */
export function checkedUrl(text: string, destinations: Destinations): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new AddressRefused(`${JSON.stringify(text)} is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AddressRefused(`the URL must be http or https, not ${url.protocol.replace(/:$/, '')}`)
  if (url.username !== '' || url.password !== '')
    throw new AddressRefused('the URL may not hold a user or password: deliveries are signed with the secret')
  if (url.hash !== '') throw new AddressRefused('the URL may not have a fragment (#)')
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (isIP(host) !== 0) {
    const refusal = destinations.refusal(host)
    if (refusal) throw new AddressRefused(refusal)
  } else if (host === 'localhost' || host.endsWith('.localhost')) {
    const refusal = destinations.refusal('127.0.0.1')
    if (refusal) throw new AddressRefused(`${host}: ${refusal}`)
  }
  return url.toString()
}
