// `npm run check:cycles`: no module imports itself back, file by file (madge) or folder by folder, through
// any number of steps: a folder cycle is a strongly connected component of the folder graph.
import madge from 'madge'

const graph = await madge('src', { fileExtensions: ['ts', 'tsx'] })
const circular = graph.circular()
const folderOf = (file: string) => (file.includes('/') ? file.split('/')[0] : undefined)
const edges = new Map<string, Map<string, string>>()
for (const [file, imports] of Object.entries(graph.obj())) {
  const from = folderOf(file)
  if (!from) continue
  if (!edges.has(from)) edges.set(from, new Map())
  for (const imported of imports) {
    const to = folderOf(imported)
    if (to && from !== to && !edges.get(from)?.has(to)) edges.get(from)?.set(to, `${file} -> ${imported}`)
  }
}

/** Tarjan's strongly connected components of more than one folder. */
function components(): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (folder: string) => {
    index.set(folder, index.size)
    low.set(folder, index.get(folder) as number)
    stack.push(folder)
    for (const next of edges.get(folder)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(folder, Math.min(low.get(folder) as number, low.get(next) as number))
      } else if (stack.includes(next)) {
        low.set(folder, Math.min(low.get(folder) as number, index.get(next) as number))
      }
    }
    if (low.get(folder) === index.get(folder)) {
      const component: string[] = []
      let member: string | undefined
      do {
        member = stack.pop() as string
        component.push(member)
      } while (member !== folder)
      if (component.length > 1) found.push(component.sort())
    }
  }
  for (const folder of edges.keys()) if (!index.has(folder)) visit(folder)
  return found
}

const folderCycles = components()
for (const cycle of circular) process.stdout.write(`file cycle: ${cycle.join(' > ')}\n`)
for (const members of folderCycles) {
  process.stdout.write(`folder cycle among ${members.join(', ')}:\n`)
  for (const from of members)
    for (const [to, example] of edges.get(from) ?? [])
      if (members.includes(to)) process.stdout.write(`  ${from} -> ${to} (${example})\n`)
}
if (circular.length > 0 || folderCycles.length > 0) process.exit(1)
process.stdout.write(`no import cycles among ${Object.keys(graph.obj()).length} files of src/\n`)
