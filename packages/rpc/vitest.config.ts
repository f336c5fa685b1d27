import { defineProject } from 'vitest/config';
import { prebundleCacheDir, prebundled } from '../../vitest.prebundle.js';

export default defineProject({
  cacheDir: prebundleCacheDir('rpc'),
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    name: 'rpc',
    include: ['src/**/*.test.ts'],
    // tensor from one bundle each run: see Note [Pre-bundled workspace packages in specs]
    deps: prebundled('tensor'),
    // 60 s, not 5 (10 for hooks): see Note [Timeouts under load] in the root vitest.config.ts
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
