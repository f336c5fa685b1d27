import { defineProject } from 'vitest/config';

// See Note [Specs on packed tarballs] in README.md: globalSetup builds and packs every public
// package once and installs the tarballs into a consumer project outside the workspace; the
// specs only read that project (each writes into its own subfolder of it).
export default defineProject({
  test: {
    name: 'consumer-tests',
    include: ['src/**/*.test.ts'],
    globalSetup: ['./src/globalSetup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
