import { spawn } from 'node:child_process';

/** The demo's folder (its specs run `src/main.ts` from there). */
export const demoDir = new URL('..', import.meta.url).pathname;

/** The command line that runs the demo's entry point (`pnpm demo` without pnpm), from demoDir. */
export const demoCommand = ['--conditions=source', '--import', 'tsx', 'src/main.ts'];

/** How a demo run ended and what it printed. */
export interface DemoRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `pnpm demo <args>` as a child process and waits for it (killed after `timeoutMs`);
 * `env` adds to this process's environment. Asynchronous on purpose: a spec that blocked its
 * vitest worker for a minute-long run (spawnSync) made vitest report `Timeout calling
 * "onTaskUpdate"` and fail the whole run on a loaded machine.
 */
export function runDemo(args: string[], timeoutMs = 240_000, env: NodeJS.ProcessEnv = {}): Promise<DemoRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...demoCommand, ...args], {
      cwd: demoDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
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

/** Whether a process still exists (a demo must leave none behind). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
