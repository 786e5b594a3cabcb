// Where sync() keeps its cursor: any object with get and set will do; two are included.

/** A cursor's keeper: sync() reads it once at the start, and sets it after each page the caller has handled. */
export interface CursorStore {
  get(): Promise<string | undefined>
  set(cursor: string): Promise<void>
}

/** A cursor in memory, optionally from a cursor you kept elsewhere. */
export class MemoryCursorStore implements CursorStore {
  constructor(private cursor?: string) {}

  async get(): Promise<string | undefined> {
    return this.cursor
  }

  async set(cursor: string): Promise<void> {
    this.cursor = cursor
  }
}

/**
 * A cursor in a file (Node only): read when sync() starts (none when the file does not exist), written whole
 * to a file beside it and renamed over it, so that a crash never leaves half a cursor.
 */
export class FileCursorStore implements CursorStore {
  constructor(readonly path: string) {}

  async get(): Promise<string | undefined> {
    const { readFile } = await import('node:fs/promises')
    try {
      const text = (await readFile(this.path, 'utf8')).trim()
      return text === '' ? undefined : text
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return undefined
      throw error
    }
  }

  async set(cursor: string): Promise<void> {
    const { rename, writeFile } = await import('node:fs/promises')
    // Stryker disable next-line MethodExpression: any suffix of its own will do
    const next = `${this.path}.${Math.random().toString(36).slice(2)}.tmp`
    await writeFile(next, `${cursor}\n`)
    await rename(next, this.path)
  }
}
