// A spec's TypeScript fixtures bundled once, for child processes and threads that plain Node
// runs (Note [Bundled fixtures]).
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * Note [Bundled fixtures]
 * A child process or worker thread that runs a TypeScript fixture through tsx's loader spends
 * ~1.5 s of cpu before the fixture's first line (tsx's hooks, on a thread of their own, resolve
 * and load each of the ~100 modules behind `@wiregrad/rpc` one message at a time), 2-3x that at
 * load: the 168 processes and threads of rpc's teardown spec made it 4 minutes of one worker
 * alone in CI and 14 at load 4-15. A spec that starts many instead bundles its fixtures once
 * (esbuild, ~0.6 s), and each start then costs ~0.15 s of cpu.
 *
 * What is bundled is what the specs test: the workspace's packages as the `source` condition
 * resolves them (their TypeScript) and the fixtures' relative imports. Every other package stays
 * an import of the bundle, of the file esbuild resolves it to from its importer, which Node loads
 * at run time as it would for the unbundled code. What the packages load with Node's own
 * `require` at run time (zeromq, gpu.js: Note [zeromq is loaded by Node]) esbuild cannot see: the
 * bundle is written inside `root`'s node_modules folder, which must be able to resolve them (by
 * default the folder of `@wiregrad/rpc`, which depends on zeromq, where the fixtures' package
 * reaches it), and one process still loads one zeromq.
 * Entries keep their names (`teardownThread.ts` becomes `teardownThread.mjs` in one folder), so a
 * fixture starts another with `new URL('./teardownThread.mjs', import.meta.url)`.
 */
export interface BundledFixtures {
  /** The folder holding one `name.mjs` per entry. */
  readonly dir: string;
  /** The bundled file of the entry `name.ts` (or `name.mts`). */
  file(name: string): string;
  /** Removes the folder. */
  remove(): void;
}

/** Marks the resolution workspaceOnly asks esbuild for, so it does not come back to the plugin. */
const RESOLVING = Symbol('resolving');

/**
 * Where the workspace's packages are bundled from their sources and every other import stays
 * Node's, as the absolute path of the file it resolves to from its importer (a package that only
 * a workspace package depends on is not reachable from the bundle's folder under pnpm).
 */
const workspaceOnly: Plugin = {
  name: 'workspace-only',
  setup(b) {
    b.onResolve({ filter: /^[^./#]/ }, async (args) => {
      if (args.path.startsWith('@wiregrad/') || args.pluginData === RESOLVING) return undefined;
      const found = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: RESOLVING });
      const file = found.errors.length === 0 && !found.external && isAbsolute(found.path);
      return { path: file ? found.path : args.path, external: true };
    });
  },
};

let bundles = 0;

/**
 * Bundles `entries` (absolute paths of TypeScript fixtures, each bundled under its file's name,
 * or an object naming each) into a new folder under
 * `root/node_modules/.cache/wiregrad-fixtures` (`root`: a package folder whose node_modules
 * resolve the bundle's external imports; by default the nearest package of the first entry).
 */
export async function bundleFixtures(
  entries: readonly string[] | Readonly<Record<string, string>>,
  opts: { root?: string } = {},
): Promise<BundledFixtures> {
  const named = Array.isArray(entries)
    ? Object.fromEntries(entries.map((e: string) => [basename(e).replace(/\.m?ts$/, ''), e]))
    : (entries as Readonly<Record<string, string>>);
  const [first, path] = Object.entries(named)[0]!;
  const root = opts.root ?? rootOf(packageOf(path));
  const cache = join(root, 'node_modules', '.cache', 'wiregrad-fixtures');
  removeOrphans(cache);
  const dir = join(cache, `${first}-${process.pid}-${bundles++}`);
  mkdirSync(dir, { recursive: true });
  // imported here, not at the top: a bundled fixture that imports this package must not need esbuild
  const { build } = await import('esbuild');
  await build({
    entryPoints: named,
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['source'],
    plugins: [workspaceOnly],
    logLevel: 'error',
  });
  return {
    dir,
    file: (name) => join(dir, `${name.replace(/\.m?ts$/, '')}.mjs`),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Removes the bundles of processes that are gone (`name-pid-n`): vitest ends its worker
 * processes without their 'exit' event, so a bundle a spec made without removing it (the scenario
 * bundles of runWorkers) would stay behind after every run.
 */
function removeOrphans(cache: string): void {
  let names: string[];
  try {
    names = readdirSync(cache);
  } catch {
    return; // no bundle yet
  }
  for (const name of names) {
    const pid = Number(/-(\d+)-\d+$/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    try {
      rmSync(join(cache, name), { recursive: true, force: true });
    } catch {
      // another process is removing it too
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
}

/** Where the bundles of `pkg`'s fixtures go by default: the folder of the rpc package it reaches, else its own. */
function rootOf(pkg: string): string {
  const rpc = join(pkg, 'node_modules', '@wiregrad', 'rpc');
  return existsSync(rpc) ? realpathSync(rpc) : pkg;
}

/** The nearest folder above `file` with a package.json. */
export function packageOf(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  throw new Error(`bundleFixtures: no package.json above ${file}`);
}
