import { defineProject } from 'vitest/config';

// page.test.ts builds the app with Vite (vite.config.ts), serves it and drives it in headless
// Chromium: generous timeouts for the build, Chromium's start and the gpu runs on SwiftShader
// under load. settings.test.ts and train.test.ts run the page's modules in Node, the workspace
// packages from their sources as in every package's specs.
export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    name: 'playground',
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
