// Once per run: builds every public package, then starts making the consumer project (prepare.ts:
// pack and install them into a project in the system temp folder, outside the workspace, so no
// workspace tsconfig, `paths` or node_modules can leak into what the specs see: Note [Specs on
// packed tarballs]) and returns; each consumer spec file waits for it (ready.ts). The build is
// not left to run beside the specs: some run `wiregrad-run`, which loads dist/ once it exists.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { ROOT, buildPackages, publicPackages, tarballOf, usePnpm, withBuildLock } from './consumer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the consumer project: package.json and node_modules with the installed tarballs (once ready.ts says so) */
    consumerDir: string;
    /** package name -> its packed tarball */
    tarballs: Record<string, string>;
  }
}

export default function setup(project: TestProject): () => Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wiregrad-consumer-'));
  const pkgs = publicPackages();
  try {
    usePnpm(join(dir, 'bin'));
    withBuildLock(() => buildPackages(pkgs));
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const prepare = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./prepare.ts', import.meta.url)), dir],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  prepare.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<void>((resolve) =>
    prepare.once('close', (code, signal) => {
      // a prepare that died before it could say so (ready.ts waits for one of the two files)
      if (!existsSync(join(dir, 'ready')) && !existsSync(join(dir, 'failed')))
        writeFileSync(join(dir, 'failed'), `prepare.ts ended (${signal ?? `exit code ${code}`}):\n${stderr}`);
      resolve();
    }),
  );
  project.provide('consumerDir', join(dir, 'app'));
  project.provide('tarballs', Object.fromEntries(pkgs.map((p) => [p.name, tarballOf(p, join(dir, 'tarballs'))])));
  return async () => {
    if (prepare.exitCode === null && prepare.signalCode === null) prepare.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
}
