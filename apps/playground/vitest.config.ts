import { defineProject } from 'vitest/config';

// The spec builds the page with esbuild (workspace sources, `source` + `browser` conditions),
// serves it and drives it in headless Chromium: generous timeouts for the browser's start.
export default defineProject({
  test: {
    name: 'playground',
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
