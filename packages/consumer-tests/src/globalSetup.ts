// Once per run: build, pack and install every public package into a consumer project in the
// system temp folder, outside the workspace, so no workspace tsconfig, `paths` or
// node_modules can leak into what the specs see (Note [Specs on packed tarballs]).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildPackages, installTarballs, packPackages, publicPackages, usePnpm, withBuildLock } from './consumer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the consumer project: package.json and node_modules with the installed tarballs */
    consumerDir: string;
    /** package name -> its packed tarball */
    tarballs: Record<string, string>;
  }
}

export default function setup(project: TestProject): () => void {
  const pkgs = publicPackages();
  const dir = mkdtempSync(join(tmpdir(), 'wiregrad-consumer-'));
  const consumer = join(dir, 'app');
  let tarballs: Map<string, string>;
  try {
    usePnpm(join(dir, 'bin'));
    tarballs = withBuildLock(() => {
      buildPackages(pkgs);
      return packPackages(pkgs, join(dir, 'tarballs'));
    });
    installTarballs(consumer, pkgs, tarballs, ['node']);
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2),
    );
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  project.provide('consumerDir', consumer);
  project.provide('tarballs', Object.fromEntries(tarballs));
  return () => rmSync(dir, { recursive: true, force: true });
}
