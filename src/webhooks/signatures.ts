import { createHmac, randomBytes } from 'node:crypto'

// Standard Webhooks 1.0 (standardwebhooks.com): a secret is `whsec_` and the base64 of its key; a delivery is
// signed with HMAC-SHA256 over `id.timestamp.body`, sent as `webhook-signature: v1,<base64>`, one signature per
// secret in force (the new and the old during a rotation), separated by spaces.

const PREFIX = 'whsec_'
/** Bytes of a new key: 192 bits, within the 24 to 64 the specification asks. */
const KEY_BYTES = 24

/** A new secret, shown to the operator once. */
export const newSecret = () => `${PREFIX}${randomBytes(KEY_BYTES).toString('base64')}`

const keyOf = (secret: string) =>
  Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64')

/** The signature of one secret over a delivery: `v1,` and the base64 of its HMAC. */
export const signature = (secret: string, id: string, timestamp: number, body: string) =>
  `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`

/** A delivery's three headers, signed with every secret given. */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signature(secret, id, timestamp, body)).join(' '),
  }
}
