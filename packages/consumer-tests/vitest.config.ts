import { defineProject } from 'vitest/config';

// See Note [Specs on packed tarballs] in README.md: globalSetup starts building and packing every
// public package once and installing the tarballs into a consumer project outside the workspace;
// each spec file waits for it (setupFiles) and only reads that project (each writes into its own
// subfolder of it).
export default defineProject({
  test: {
    name: 'consumer-tests',
    include: ['src/**/*.test.ts'],
    globalSetup: ['./src/globalSetup.ts'],
    setupFiles: ['./src/ready.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
