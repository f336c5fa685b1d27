import { runProcess, type ProcessRun } from '@wiregrad/test-helpers';

/** The demo's folder (its specs run `src/main.ts` from there). */
export const demoDir = new URL('..', import.meta.url).pathname;

/** The command line that runs the demo's entry point (`pnpm demo` without pnpm), from demoDir. */
export const demoCommand = ['--conditions=source', '--import', 'tsx', 'src/main.ts'];

/** Runs `pnpm demo <args>` as a child process and waits for it, never blocking (Note [Specs never block their worker]). */
export function runDemo(args: string[], timeoutMs = 240_000, env: NodeJS.ProcessEnv = {}): Promise<ProcessRun> {
  return runProcess(process.execPath, [...demoCommand, ...args], { cwd: demoDir, env, timeoutMs });
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
