import { type ChildProcess, spawn } from 'node:child_process'

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

const MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname

/** Starts `compras ARGS` as a separate process, as an operator would run it. */
export function spawnCli(args: string[], env: Record<string, string | undefined> = {}): ChildProcess {
  const childEnv: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: 'warn', ...env }
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key]
  return spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { env: childEnv as NodeJS.ProcessEnv })
}

/** Runs `compras ARGS` to completion. */
export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  input?: string,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env)
    let stdout = ''
    let stderr = ''
    // Decoded as a stream: a character split between two chunks is read whole.
    child.stdout?.setEncoding('utf8')
    child.stderr?.setEncoding('utf8')
    child.stdout?.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr?.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    if (input !== undefined) child.stdin?.end(input)
    else child.stdin?.end()
  })
}
