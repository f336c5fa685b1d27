import { spawnSync } from 'node:child_process';

/** The demo's folder (its specs run `src/main.ts` from there). */
export const demoDir = new URL('..', import.meta.url).pathname;

/** Runs `pnpm demo <args>` as a child process and waits for it. */
export function runDemo(args: string[], timeoutMs = 240_000) {
  return spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts', ...args], {
    cwd: demoDir,
    encoding: 'utf8',
    timeout: timeoutMs,
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
