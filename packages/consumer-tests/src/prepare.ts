// The consumer project of a vitest run, made in a process of its own while the other specs run
// (Note [Specs on packed tarballs]): packs every public package (globalSetup built them; turbo's
// cache makes the build here a check) and installs them into `argv[2]/app`, then writes
// `argv[2]/ready`, or `argv[2]/failed` with what went wrong.
// Usage: node --import tsx packages/consumer-tests/src/prepare.ts DIR (globalSetup.ts starts it).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPackages, installTarballs, packPackages, publicPackages, usePnpm, withBuildLock } from './consumer.js';

const dir = process.argv[2]!;
try {
  const pkgs = publicPackages();
  usePnpm(join(dir, 'bin'));
  const tarballs = withBuildLock(() => {
    buildPackages(pkgs);
    return packPackages(pkgs, join(dir, 'tarballs'));
  });
  const consumer = join(dir, 'app');
  installTarballs(consumer, pkgs, tarballs, ['node']);
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2),
  );
  writeFileSync(join(dir, 'ready'), '');
} catch (e) {
  const err = e as Error & { stdout?: string; stderr?: string };
  writeFileSync(join(dir, 'failed'), [err.message, err.stdout ?? '', err.stderr ?? ''].join('\n'));
  process.exitCode = 1;
}
