import { defineProject } from 'vitest/config';

// The spec builds the app with Vite (vite.config.ts), serves it and drives it in headless Chromium:
// generous timeouts for the build, Chromium's start and the gpu runs on SwiftShader under load.
export default defineProject({
  test: {
    name: 'playground',
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
