import { join } from 'node:path';
import { bundleFixtures, runProcess, type ProcessRun } from '@wiregrad/test-helpers';

/** The demo's folder (its specs run `src/main.ts` from there). */
export const demoDir = new URL('..', import.meta.url).pathname;

/** The command line that runs the demo's entry point from its sources (`pnpm demo` without pnpm), from demoDir. */
export const sourceDemoCommand = ['--conditions=source', '--import', 'tsx', 'src/main.ts'];

/**
 * The same entry point bundled once per spec file (Note [Bundled fixtures]): the launcher and
 * every worker it forks (Note [Workers run the launcher's program]) start in ~0.15 s of cpu
 * rather than ~0.7 s through tsx. The ddp examples start `.ts` rank scripts that sit beside
 * their sources through wiregrad-run, so they run from the sources (`sourceDemoCommand`).
 */
export const demoCommand = [
  (await bundleFixtures({ main: join(demoDir, 'src/main.ts') }, { root: demoDir })).file('main'),
];

/**
 * Runs `pnpm demo <args>` as a child process and waits for it, never blocking (Note [Specs never
 * block their worker]); `source`: from the sources rather than the bundle.
 */
export function runDemo(
  args: string[],
  timeoutMs = 240_000,
  env: NodeJS.ProcessEnv = {},
  { source = false } = {},
): Promise<ProcessRun> {
  const command = source ? sourceDemoCommand : demoCommand;
  return runProcess(process.execPath, [...command, ...args], { cwd: demoDir, env, timeoutMs });
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
