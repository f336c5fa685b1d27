import { defineConfig } from 'vitest/config';

// One vitest run over every package (projects), so the summary line counts all of them.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
  },
});
