// `npm run check:cycles`: no module imports itself back, file by file (madge) or folder by folder.
import madge from 'madge'

const graph = await madge('src', { fileExtensions: ['ts', 'tsx'] })
const circular = graph.circular()
const folderOf = (file: string) => (file.includes('/') ? file.split('/')[0] : undefined)
const folders = new Map<string, Set<string>>()
for (const [file, imports] of Object.entries(graph.obj())) {
  const from = folderOf(file)
  for (const imported of imports) {
    const to = folderOf(imported)
    if (from && to && from !== to) folders.set(from, (folders.get(from) ?? new Set()).add(to))
  }
}
const folderCycles = [...folders].flatMap(([a, tos]) =>
  [...tos].filter((b) => a < b && folders.get(b)?.has(a)).map((b) => `${a} <-> ${b}`),
)
for (const cycle of circular) process.stdout.write(`file cycle: ${cycle.join(' > ')}\n`)
for (const cycle of folderCycles) process.stdout.write(`folder cycle: ${cycle}\n`)
if (circular.length > 0 || folderCycles.length > 0) process.exit(1)
process.stdout.write(`no import cycles among ${Object.keys(graph.obj()).length} files of src/\n`)
