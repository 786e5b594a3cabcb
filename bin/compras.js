#!/usr/bin/env node
// The built CLI; `npm install` builds it (the prepare script), `npm run build` rebuilds it.
try {
  await import('../dist/cli/main.js')
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli/main.js')) {
    process.stderr.write('compras: the build is missing; run `npm run build` first\n')
    process.exit(1)
  }
  throw error
}
