// Where the service's memory goes, as its own metrics (prom-client's defaults, METRICS_PORT) tell: what V8's
// heap holds and reserves, memory outside it (buffers), and the read path's cache, beside the resident set.

export interface MemoryBreakdown {
  residentMB: number
  heapUsedMB: number
  heapTotalMB: number
  externalMB: number
  cacheMB: number
  /** V8's heap spaces, reserved (MB), by name. */
  spaces: Record<string, number>
}

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10

/** The service's memory from its metrics' text. */
export async function memoryOf(metricsUrl: string): Promise<MemoryBreakdown> {
  const text = await (await fetch(metricsUrl)).text()
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN)
  const spaces: Record<string, number> = {}
  for (const match of text.matchAll(
    /^compras_nodejs_heap_space_size_total_bytes\{space="([^"]+)"\} (\S+)$/gm,
  ))
    spaces[match[1] as string] = mb(Number(match[2]))
  return {
    residentMB: mb(value('compras_process_resident_memory_bytes')),
    heapUsedMB: mb(value('compras_nodejs_heap_size_used_bytes')),
    heapTotalMB: mb(value('compras_nodejs_heap_size_total_bytes')),
    externalMB: mb(value('compras_nodejs_external_memory_bytes')),
    cacheMB: mb(value('compras_cache_bytes')),
    spaces,
  }
}

/** The breakdown in one line, for the log and the report. */
export function describeMemory(memory: MemoryBreakdown): string {
  const spaces = Object.entries(memory.spaces)
    .filter(([, size]) => size >= 1)
    .map(([name, size]) => `${name.replace(/_space$/, '')} ${size}`)
    .join(', ')
  return (
    `V8 heap ${memory.heapUsedMB} MB used of ${memory.heapTotalMB} MB reserved (${spaces}); ` +
    `outside the heap ${memory.externalMB} MB; the cache holds ${memory.cacheMB} MB`
  )
}
