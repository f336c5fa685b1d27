import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// One vitest run over every package (projects), so the summary line counts all of them.
//
// Note [Timeouts under load]
// A project's specs get 60 s each (`testTimeout` in each project's config; a spec that needs
// more says so), not vitest's default 5 s, and so do its hooks (`hookTimeout`, not 10 s: rpc's
// specs start their workers in beforeAll): cpu-bound specs (gradchecks, property tests, the wasm
// kernels against the TypeScript ones) take 0.5-2 s alone and 7-17 s while the test command runs
// on 2 shared cores at load 25-37, where the 5 s default failed seven of them (wasmConv,
// wasmElementwise, moreLayers.pytorch, mnist's data spec) in one run with nothing wrong.
//
// Note [Spec workers]
// vitest's default is one worker per cpu less one: on a 2-cpu machine a single worker, so the 211
// spec files ran one after the other (1157-1239 s in CI), while most of the slow ones wait: on
// child processes and worker threads starting, heartbeats, timeouts, a browser. Two workers
// overlap those waits. Two at once had failed in session 12 (rpc's teardown spec: processes
// exiting while a thread waited in the rendezvous; distributed's SIGSTOP fault, once at load 12):
// the first was a real abort that fast-loading threads made frequent (Note [Reaped before
// released]); with it fixed a full run under two workers passed every spec at load 7-9 (another
// engineer's benchmarks beside it). The static checks run beside them at a lower priority (Note
// [Static checks beside the specs]). (vitest caps a percentage at the cpu count; a number here.)
//
// Note [Slow specs first]
// With no record of earlier runs (a clean clone, as in CI) vitest starts the largest files first,
// and in one CI run under two workers the 33 s SIGSTOP/SIGKILL fault spec started 621 s in, with
// one worker idle at the end. The spec files that took 25 s or more there start first, longest
// first, so the short ones fill in the end; the others keep vitest's order (its record of
// durations where it has one).
const SLOW_FIRST = [
  'apps/demo/test/demo.test.ts',
  'apps/demo/test/mnist.test.ts',
  'apps/playground/test/page.test.ts',
  'packages/dist-autograd/src/__tests__/network/training.test.ts',
  'packages/rpc/src/__tests__/teardown.test.ts',
  'packages/rpc/src/__tests__/exactlyOnce.test.ts',
  'apps/demo/test/names.test.ts',
  'packages/distributed/src/__tests__/faults.test.ts',
  'packages/dist-autograd/src/__tests__/network/netns.test.ts',
  'packages/consumer-tests/src/bundlers.test.ts',
  'packages/consumer-tests/src/docExamples.test.ts',
];

/** vitest's sequencer, with SLOW_FIRST in front (Note [Slow specs first]). */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.indexOf(relative(import.meta.dirname, f.moduleId));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    maxWorkers: 2,
    sequence: { sequencer: SlowFirst },
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
  },
});
