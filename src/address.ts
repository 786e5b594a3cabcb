import { isIPv6 } from 'node:net'

// The address a per-address limit counts a client under. An IPv4 address is one client; an IPv6 subscriber
// is given a whole prefix (a /64, usually: RFC 6177), so each address of it would be a budget of its own.

/** The default number of leading bits of an IPv6 address that name one client (IPV6_PREFIX). */
export const DEFAULT_IPV6_PREFIX = 64

/** The eight 16-bit groups of an IPv6 address (an IPv4 tail made into two), or undefined. */
function groups(address: string): number[] | undefined {
  if (!isIPv6(address)) return undefined
  // Without its zone (fe80::1%eth0). isIPv6 allows a zone, and a dotted quad, only at the end.
  let text = address.replace(/%.*/, '')
  // An embedded IPv4 tail (::ffff:192.0.2.1) as its two groups.
  const tail = /\d+\.\d+\.\d+\.\d+/.exec(text)?.[0]
  if (tail) {
    const [a, b, c, d] = tail.split('.').map(Number) as [number, number, number, number]
    text = `${text.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', rest] = text.split('::')
  const left = head ? head.split(':') : []
  // Stryker disable next-line ConditionalExpression: an empty group reads as NaN, which the mask makes 0
  const right = rest ? rest.split(':') : []
  // What `::` stands for (nothing, in an address written whole).
  const missing = 8 - left.length - right.length
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) => Number.parseInt(group, 16))
}

/**
 * The key of a client address for per-address limits: an IPv4 address as it is (an IPv4-mapped IPv6 one
 * too), an IPv6 address as its first `prefixBits` bits (`2001:db8:0:1::/64`). Anything else, as it is.
 */
export function addressKey(address: string, prefixBits = DEFAULT_IPV6_PREFIX): string {
  const parts = groups(address)
  if (parts === undefined) return address // IPv4, or not an address
  // ::ffff:a.b.c.d is an IPv4 client.
  if (parts.slice(0, 5).every((g) => g === 0) && parts[5] === 0xffff)
    return [parts[6] as number, parts[7] as number]
      .flatMap((g) => [g >> 8, g & 0xff])
      .map(String)
      .join('.')
  // Each group's bits within the prefix: all 16, some, or none (a mask of 0xffff, a shorter one, or 0).
  const kept = parts.map((group, i) => {
    const bits = Math.min(16, Math.max(0, prefixBits - i * 16))
    return group & (0xffff << (16 - bits)) & 0xffff
  })
  return `${kept.map((g) => g.toString(16)).join(':')}/${prefixBits}`
}
