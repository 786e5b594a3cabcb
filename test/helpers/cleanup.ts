import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

// What a test file started outside its own process (a PostgreSQL cluster, a `serve`) is stopped even when the
// file itself is stopped: the runner sends SIGTERM to a file past its time (--test-timeout), and no `after` hook
// runs then. Each cleanup is synchronous, so that it runs whole before the process exits.

const cleanups = new Set<() => void>()
let listening = false

/** Runs `cleanup` if this process is stopped by SIGTERM; the function it gives takes it back once done. */
export function cleanupOnKill(cleanup: () => void): () => void {
  if (!listening) {
    listening = true
    process.once('SIGTERM', () => {
      for (const run of cleanups)
        try {
          run()
        } catch {
          // The next one all the same.
        }
      process.exit(1)
    })
  }
  cleanups.add(cleanup)
  return () => cleanups.delete(cleanup)
}

/**
 * Stops at once the PostgreSQL cluster of a data folder, if one runs there: resumed first (a test may have
 * frozen it with SIGSTOP), then told to quit without waiting (SIGQUIT, an immediate shutdown).
 */
export function killCluster(dataDir: string): void {
  const pidFile = path.join(dataDir, 'postmaster.pid')
  if (!existsSync(pidFile)) return
  const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0])
  if (!(postmaster > 0)) return
  try {
    execFileSync('pkill', ['-CONT', '-P', String(postmaster)], { stdio: 'ignore' })
  } catch {
    // No children, or already gone.
  }
  for (const signal of ['SIGCONT', 'SIGQUIT'] as const)
    try {
      process.kill(postmaster, signal)
    } catch {
      // Already gone.
    }
}

/** The watcher's script: $1 the process to outlive, $2 a folder to remove after, then the clusters' data folders. */
const REAPER = `parent=$1; root=$2; shift 2
while kill -0 "$parent" 2>/dev/null; do sleep 1; done
for dir in "$@"; do
  pid=$(head -n 1 "$dir/postmaster.pid" 2>/dev/null) || continue
  [ "$pid" -gt 0 ] 2>/dev/null || continue
  pkill -CONT -P "$pid" 2>/dev/null; kill -CONT "$pid" 2>/dev/null; kill -QUIT "$pid" 2>/dev/null
done
sleep 1
rm -rf "$root"`

/**
 * Stops the PostgreSQL clusters of `dataDirs` and removes `root` once this process is gone, however it ended:
 * SIGKILL included (a mutation runner's bail, an out-of-memory kill), which no handler of its own outlives. A
 * detached shell looks for the process once a second; after a normal end it finds nothing left to stop.
 */
export function reapWhenGone(root: string, dataDirs: readonly string[]): void {
  spawn('sh', ['-c', REAPER, 'reaper', String(process.pid), root, ...dataDirs], {
    detached: true,
    stdio: 'ignore',
  }).unref()
}
