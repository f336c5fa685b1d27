import { defineProject } from 'vitest/config';
import { prebundleCacheDir, prebundled } from '../../vitest.prebundle.js';

export default defineProject({
  cacheDir: prebundleCacheDir('distributed'),
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    name: 'distributed',
    include: ['src/**/*.test.ts'],
    // tensor, autograd and nn from one bundle each run: see Note [Pre-bundled workspace packages in specs]
    deps: prebundled('tensor', 'autograd', 'nn'),
    // 60 s, not 5 (10 for hooks): see Note [Timeouts under load] in the root vitest.config.ts
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
