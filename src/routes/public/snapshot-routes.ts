import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { TransparencyOptions } from '../http/route-options.js'

// The latest OCDS snapshot (`compras snapshot`, src/ocds-packages/snapshot.ts) as files, at /v1/ocds/snapshots/:
// its manifest (also the folder's index), its catalogue and its gzipped JSON Lines, each with Last-Modified,
// an ETag and Range, as @fastify/static serves files. `latest` is followed at each request, so a new snapshot is
// served as soon as it is taken. Without SNAPSHOT_DIR, nothing is served there.

export const snapshotRoutes: FastifyPluginAsyncTypebox<TransparencyOptions> = async (app, options) => {
  if (options.snapshotDir === undefined) return
  await app.register(fastifyStatic, {
    root: path.join(options.snapshotDir, 'latest'),
    prefix: '/ocds/snapshots/',
    index: ['manifest.json'],
    // Files, not pages: no listing of the folder, no file that starts with a dot.
    list: false,
    dotfiles: 'deny',
    acceptRanges: true,
    etag: true,
    lastModified: true,
    // A snapshot's files never change: a new snapshot is a new folder. The manifest says which is the latest.
    maxAge: '1h',
    setHeaders: (response, file) => {
      if (file.endsWith('.json')) response.setHeader('cache-control', 'public, max-age=60')
    },
  })
}
