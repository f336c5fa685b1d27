import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    name: 'distributed',
    include: ['src/**/*.test.ts'],
    // 60 s, not 5 (10 for hooks): see Note [Timeouts under load] in the root vitest.config.ts
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
