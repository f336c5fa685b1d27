import { spawn } from 'node:child_process';

/** How a child process ended and what it printed. */
export interface ProcessRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunProcessOptions {
  cwd?: string;
  /** added to this process's environment */
  env?: NodeJS.ProcessEnv;
  /** SIGKILL after this many ms (default 60 s) */
  timeoutMs?: number;
}

/**
 * Note [Specs never block their worker]
 * Runs `command args` and resolves when it exits, like spawnSync but without blocking: a spec
 * that spawnSync'ed a minute-long child froze its vitest worker, whose next report to vitest
 * then timed out ('Timeout calling "onTaskUpdate"'), and vitest failed the whole run on a
 * loaded machine although every spec passed. Specs run child processes through this instead.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  opts: RunProcessOptions = {},
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}
