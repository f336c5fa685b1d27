import { join } from 'node:path';
import type { DepsOptimizationOptions } from 'vitest/node';

/**
 * Note [Pre-bundled workspace packages in specs]
 * vitest loads every spec file in a fresh module graph, and a package's sources are hundreds of
 * modules: nn's 41 spec files spent 28.7 s collecting (importing) against 15.8 s testing, most of
 * it evaluating tensor's and autograd's sources module by module, again for each file. A project
 * whose specs reach other workspace packages only by their package names (never by a relative
 * path into their src/) has those packages pre-bundled from their sources, once per run, into a
 * few modules by vitest's dependency optimizer (esbuild): nn's collect 28.7 -> 12.0 s. Every
 * subpath a spec or source reaches must be listed (tensor and tensor/internal), or the two would
 * be separate copies with separate classes ("Receiver must be an instance of class Tensor").
 * `force`: the optimizer's cache is keyed on the lockfile and the config, not on these sources,
 * so without it a spec would run against a bundle of sources edited since (checked: it did).
 * vitest passes `force` on to Vite, whose option it is; its type for these options omits it.
 * esbuild resolves the packages' own `imports` (tensor's `#platform`) with the `source`
 * condition too, as vitest does: else it took dist/platform/node.js, a second copy of the
 * platform beside the sources, and on a clean clone (no dist/ yet) failed to resolve it.
 * The bundles are written under tensor's node_modules (`prebundleCacheDir`): tensor loads gpu.js
 * with a `require` of the file that runs (Note [zeromq is loaded by Node]), which from the
 * project's own node_modules/.vite did not find it (no package but tensor depends on it; a clean
 * clone's CI run failed every gpu spec of autograd and nn with "Cannot find module 'gpu.js'").
 */
/** Every entry point of each workspace package a project may pre-bundle: all of them, or two copies would load. */
const ENTRY_POINTS = {
  tensor: ['@wiregrad/tensor', '@wiregrad/tensor/internal'],
  autograd: ['@wiregrad/autograd', '@wiregrad/autograd/internal'],
  nn: ['@wiregrad/nn', '@wiregrad/nn/optim'],
} as const;

export function prebundled(...packages: (keyof typeof ENTRY_POINTS)[]): {
  optimizer: { ssr: DepsOptimizationOptions };
} {
  const include = packages.flatMap((p) => ENTRY_POINTS[p]);
  return {
    optimizer: {
      ssr: {
        enabled: true,
        include,
        force: true,
        esbuildOptions: { conditions: ['source'] },
      } as DepsOptimizationOptions,
    },
  };
}

/** Where project `name` keeps its pre-bundles (Vite's cacheDir): see Note [Pre-bundled workspace packages in specs]. */
export const prebundleCacheDir = (name: string): string =>
  join(import.meta.dirname, 'packages/tensor/node_modules/.vite', name);
