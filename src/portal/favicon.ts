import { crc32, deflateSync } from 'node:zlib'

// The portal's icon, drawn here rather than shipped as a binary: a blue tile with a white ring open on the
// right (a "c"), as a 32×32 PNG inside an ICO file, the one format every browser asks /favicon.ico for.

const SIZE = 32
const BLUE = [0x13, 0x51, 0xb4, 0xff] as const
const WHITE = [0xff, 0xff, 0xff, 0xff] as const
const CLEAR = [0, 0, 0, 0] as const

/** The colour of pixel (x, y): a tile with rounded corners, and on it a ring with a gap on the right. */
function pixel(x: number, y: number): readonly number[] {
  const cx = x + 0.5 - SIZE / 2
  const cy = y + 0.5 - SIZE / 2
  const corner = Math.max(Math.abs(cx) - 11, 0) ** 2 + Math.max(Math.abs(cy) - 11, 0) ** 2
  if (corner > 25) return CLEAR
  const radius = Math.hypot(cx, cy)
  const opening = cx > 0 && Math.abs(cy) < 4.5
  return radius > 6.5 && radius < 11 && !opening ? WHITE : BLUE
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

function png(): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(SIZE, 0)
  header.writeUInt32BE(SIZE, 4)
  header.set([8, 6, 0, 0, 0], 8) // 8 bits a channel, RGBA, no interlace
  const rows = Buffer.alloc(SIZE * (1 + SIZE * 4))
  for (let y = 0; y < SIZE; y++) {
    const row = y * (1 + SIZE * 4) // each row starts with its filter byte, 0 (none)
    for (let x = 0; x < SIZE; x++) rows.set(pixel(x, y), row + 1 + x * 4)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** An ICO file holding one image, the PNG (ICO has taken PNG images since Windows Vista; browsers read it). */
function ico(image: Buffer): Buffer {
  const head = Buffer.alloc(22)
  head.writeUInt16LE(1, 2) // an icon
  head.writeUInt16LE(1, 4) // one image
  head.writeUInt8(SIZE, 6)
  head.writeUInt8(SIZE, 7)
  head.writeUInt16LE(1, 10) // colour planes
  head.writeUInt16LE(32, 12) // bits a pixel
  head.writeUInt32LE(image.length, 14)
  head.writeUInt32LE(22, 18) // where the image starts
  return Buffer.concat([head, image])
}

export const FAVICON = ico(png())
