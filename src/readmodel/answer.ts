import { hash } from 'node:crypto'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { negotiate } from '@fastify/accept-negotiator'

/** Bodies smaller than this go out uncompressed (as @fastify/compress's default threshold). */
export const COMPRESS_THRESHOLD = 1024

export type Encoding = 'br' | 'gzip'
const ENCODINGS: Encoding[] = ['br', 'gzip']
/** Brotli's quality 4, as @fastify/compress: most of the size gain at a small share of quality 11's time. */
const BROTLI = {
  params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 4 },
}

/** Accept-Encoding values seen, and what they choose: clients send a handful of distinct ones. */
const chosen = new Map<string, Encoding | undefined>()

function choose(acceptEncoding: string): Encoding | undefined {
  let encoding = chosen.get(acceptEncoding)
  if (encoding === undefined && !chosen.has(acceptEncoding)) {
    const found = negotiate(acceptEncoding.toLowerCase().replace(/x-gzip/g, 'gzip'), ENCODINGS)
    encoding = found === 'br' || found === 'gzip' ? found : undefined
    // Bounded: a client inventing a new header on every request cannot grow it.
    if (chosen.size >= 256) chosen.clear()
    chosen.set(acceptEncoding, encoding)
  }
  return encoding
}

/**
 * The entity tag's value for a body: SHA-1 in base64url, hashed natively, an order of magnitude faster than
 * @fastify/etag's FNV-1a in JavaScript on large pages. A validator, not a secret: any hash of the bytes will do.
 */
export function entityTag(body: string | Buffer): string {
  return hash('sha1', body, 'base64url')
}

/**
 * Bytes in memory of their own, for an answer the cache may keep for long: Node hands out small buffers as
 * slices of a shared slab, and zlib's sync results are views of its output chunk, so a kept view would keep
 * the whole block alive.
 */
function ownBytes(source: string | Buffer): Buffer {
  if (typeof source === 'string') {
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(source))
    bytes.write(source)
    return bytes
  }
  if (source.buffer.byteLength === source.length) return source
  const own = Buffer.allocUnsafeSlow(source.length)
  source.copy(own)
  return own
}

/**
 * A response body as it goes on the wire: its bytes, its entity tag, and its compressed variants, each
 * made the first time a client asks for it and kept. A cached answer is served without hashing, encoding
 * or compressing anything on the request's path.
 */
export class Answer {
  readonly body: Buffer
  private tag: string | undefined
  private br: Buffer | undefined
  private gzip: Buffer | undefined

  /** The body as text, or as bytes of its own (an Envelope's, say), kept as they are. */
  constructor(body: string | Buffer) {
    this.body = ownBytes(body)
  }

  /**
   * The entity tag of the answer sent in an encoding, quoted: the body's entityTag, hashed the first time a
   * route asks (the order query never does), with the encoding after it. Each encoding's bytes differ, so
   * each has a tag of its own: a cache never takes a gzip copy for an identity one.
   */
  etag(encoding?: Encoding): string {
    this.tag ??= entityTag(this.body)
    return encoding === undefined ? `"${this.tag}"` : `"${this.tag}-${encoding}"`
  }

  /**
   * Memory the cache charges for the answer: the body, and half as much again for the compressed variants
   * it may make later (JSON compresses to a fifth or less with either), so that the charge never changes
   * while the answer is cached.
   */
  get chargedBytes(): number {
    return this.body.length + (this.body.length >> 1) + 160
  }

  /** The bytes for an encoding the client accepts (Accept-Encoding), or the body as it is. */
  bytesFor(encoding: Encoding | undefined): Buffer {
    if (encoding === 'br') {
      this.br ??= ownBytes(brotliCompressSync(this.body, BROTLI))
      return this.br
    }
    if (encoding === 'gzip') {
      this.gzip ??= ownBytes(gzipSync(this.body))
      return this.gzip
    }
    return this.body
  }

  /**
   * The encoding to send: br, then gzip, as the client's Accept-Encoding allows (q-values, `*`, x-gzip
   * included); none for small bodies, or when the client sent x-no-compression.
   */
  encodingFor(headers: Readonly<Record<string, string | string[] | undefined>>): Encoding | undefined {
    if (this.body.length < COMPRESS_THRESHOLD || headers['x-no-compression'] !== undefined) return undefined
    const accepted = headers['accept-encoding']
    return typeof accepted === 'string' ? choose(accepted) : undefined
  }

  /**
   * Whether If-None-Match names this answer in an encoding: one of its tags (RFC 9110's weak comparison, so
   * W/ aside), or `*`.
   */
  matches(ifNoneMatch: string | undefined, encoding?: Encoding): boolean {
    if (ifNoneMatch === undefined) return false
    const tag = this.etag(encoding)
    for (const listed of ifNoneMatch.split(',')) {
      const candidate = listed.trim()
      if (candidate === '*' || candidate === tag || candidate === `W/${tag}`) return true
    }
    return false
  }
}

/** What a route puts around a document: the text before it and after it. */
export class Envelope {
  constructor(
    readonly head: string,
    readonly tail: string,
  ) {}

  /** The document inside the envelope, as text. */
  text(document: string): string {
    return this.head + document + this.tail
  }

  /** The answer of the document inside the envelope. */
  answer(document: string): Answer {
    return new Answer(this.head + document + this.tail)
  }
}

/** A page of a change feed: an answer that knows how many entries it holds (a waiting reader waits on none). */
export class FeedAnswer extends Answer {
  constructor(
    body: string,
    readonly count: number,
  ) {
    super(body)
  }
}
