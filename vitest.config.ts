import { defineConfig } from 'vitest/config';

// One vitest run over every package (projects), so the summary line counts all of them.
//
// Note [Timeouts under load]
// A project's specs get 60 s each (`testTimeout` in each project's config; a spec that needs
// more says so), not vitest's default 5 s: cpu-bound specs (gradchecks, property tests, the wasm
// kernels against the TypeScript ones) take 0.5-2 s alone and 7-17 s while the test command runs
// on 2 shared cores at load 25-37, where the 5 s default failed seven of them (wasmConv,
// wasmElementwise, moreLayers.pytorch, mnist's data spec) in one run with nothing wrong.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
  },
});
