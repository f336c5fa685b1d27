// Builds, packs and installs the public packages the way a user gets them (Note [Specs on packed tarballs]).
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is packages/consumer-tests/src/consumer.ts). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}

export interface PublicPackage {
  name: string;
  /** its folder in the workspace */
  dir: string;
  manifest: Manifest;
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** Every package under packages/ that is published (not `private`), in folder order. */
export function publicPackages(): PublicPackage[] {
  const out: PublicPackage[] = [];
  for (const entry of readdirSync(join(ROOT, 'packages')).sort()) {
    const dir = join(ROOT, 'packages', entry);
    if (!existsSync(join(dir, 'package.json'))) continue;
    const manifest = readManifest(dir);
    if (manifest.private !== true) out.push({ name: manifest.name, dir, manifest });
  }
  return out;
}

let binDir: string | null = null;

/**
 * A folder holding a `pnpm` for turbo and `pnpm pack`: the pnpm running `pnpm test`, else the
 * version the root package.json pins, through npx.
 */
export function usePnpm(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const execPath = process.env.npm_execpath;
  const pinned = String(readManifest(ROOT).packageManager ?? 'pnpm@10');
  const target =
    execPath && /pnpm/.test(basename(execPath)) ? `"${process.execPath}" "${execPath}"` : `npx -y ${pinned}`;
  writeFileSync(join(dir, 'pnpm'), `#!/bin/sh\nexec ${target} "$@"\n`, { mode: 0o755 });
  binDir = dir;
}

function run(cmd: string, args: string[], cwd: string): string {
  const path = binDir ? `${binDir}${delimiter}${process.env.PATH ?? ''}` : process.env.PATH;
  return execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: path, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** `dist/` of every package, through turbo (cached: a second run rebuilds nothing). */
export function buildPackages(pkgs: readonly PublicPackage[]): void {
  const filters = pkgs.flatMap((p) => ['--filter', p.name]);
  run(
    join(ROOT, 'node_modules/.bin/turbo'),
    ['run', 'build', ...filters, '--output-logs=errors-only', '--ui=stream'],
    ROOT,
  );
}

/** Where `pnpm pack --pack-destination dest` writes package `p`'s tarball. */
export function tarballOf(p: PublicPackage, dest: string): string {
  return join(dest, `${p.name.replace(/^@/, '').replace('/', '-')}-${p.manifest.version}.tgz`);
}

/**
 * `pnpm pack` of each package into `dest` (pnpm turns `workspace:^` into real ranges);
 * returns the tarball of each package name.
 */
export function packPackages(pkgs: readonly PublicPackage[], dest: string): Map<string, string> {
  mkdirSync(dest, { recursive: true });
  const tarballs = new Map<string, string>();
  for (const p of pkgs) {
    run('pnpm', ['pack', '--pack-destination', dest], p.dir);
    const file = tarballOf(p, dest);
    if (!existsSync(file)) throw new Error(`pnpm pack of ${p.name} left no ${file}`);
    tarballs.set(p.name, file);
  }
  return tarballs;
}

function link(target: string, at: string): void {
  if (existsSync(at)) return;
  mkdirSync(dirname(at), { recursive: true });
  symlinkSync(target, at, 'dir');
}

/**
 * Installs the tarballs into `consumer/node_modules` as npm would (each package folder is the
 * tarball's `package/`), without the network: their third-party dependencies are linked to the
 * copies pnpm installed for the workspace. `extraTypes` (e.g. `node`) are linked as `@types/*`.
 */
export function installTarballs(
  consumer: string,
  pkgs: readonly PublicPackage[],
  tarballs: ReadonlyMap<string, string>,
  extraTypes: readonly string[],
): void {
  for (const p of pkgs) {
    const at = join(consumer, 'node_modules', p.name);
    mkdirSync(at, { recursive: true });
    run('tar', ['-xzf', tarballs.get(p.name)!, '-C', at, '--strip-components=1'], consumer);
    const published = readManifest(at);
    const deps = { ...published.dependencies, ...published.optionalDependencies, ...published.peerDependencies };
    for (const dep of Object.keys(deps)) {
      if (tarballs.has(dep)) continue;
      const installed = join(p.dir, 'node_modules', dep);
      if (existsSync(installed)) link(realpathSync(installed), join(consumer, 'node_modules', dep));
    }
  }
  for (const t of extraTypes)
    link(realpathSync(join(ROOT, 'node_modules/@types', t)), join(consumer, 'node_modules/@types', t));
}

/**
 * Runs `fn` holding a lock on the workspace's dist/ folders: two vitest runs at once (several
 * people in one working tree) must not pack a dist/ the other is rewriting. A lock older than
 * `staleMs` is left over from a killed run and is taken over.
 */
export function withBuildLock<T>(fn: () => T, staleMs = 10 * 60_000): T {
  const lock = join(ROOT, 'node_modules/.cache/wiregrad-consumer-tests.lock');
  mkdirSync(dirname(lock), { recursive: true });
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as { code?: string }).code !== 'EEXIST') throw e;
      let age = 0;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue; // released in between
      }
      if (age > staleMs) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(sleeper, 0, 0, 500);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
