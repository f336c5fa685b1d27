import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFixtures, runProcess, type BundledFixtures } from '@wiregrad/test-helpers';

// the child processes and their threads run the fixtures bundled (Note [Bundled fixtures])
let fixtures: BundledFixtures;
beforeAll(async () => {
  const entries = ['teardownMain', 'teardownExit', 'teardownRace', 'teardownThread', 'teardownRaceThread'];
  fixtures = await bundleFixtures(entries.map((e) => fileURLToPath(new URL(`./fixtures/${e}.ts`, import.meta.url))));
});
afterAll(() => fixtures?.remove());
const fixture = (name: string, ...args: string[]) => runProcess(process.execPath, [fixtures.file(name), ...args]);

/**
 * See Note [Teardown never aborts] in agent.ts: a worker_threads thread running an RPC worker,
 * terminated or ending by itself after shutdown(), must not take its process down with
 * zeromq.js's `terminate called after throwing an instance of 'Napi::Error'` (exit 134).
 */
describe('a process hosting an RPC worker in a worker_threads thread survives every teardown order', () => {
  for (const how of ['graceful', 'abrupt'] as const) {
    for (const end of ['terminate', 'natural'] as const) {
      for (const rref of ['none', 'alive', 'released'] as const) {
        it(`shutdown ${how}, thread ${end === 'terminate' ? 'terminated' : 'ends by itself'}, RRefs ${rref}: 5 runs, exit code 0, no signal`, async () => {
          const r = await fixture('teardownMain', how, end, rref);
          expect({ status: r.status, signal: r.signal, stderr: r.stderr }).toEqual({
            status: 0,
            signal: null,
            stderr: '',
          });
          expect(r.stdout).toContain('all runs done');
          expect(r.stdout.match(/thread exit (\d+)/g)).toEqual(
            Array(5).fill(end === 'terminate' ? 'thread exit 1' : 'thread exit 0'),
          );
        }, 90_000);
      }
    }
  }
  for (const rref of ['none', 'alive'] as const) {
    it(`no shutdown at all, thread terminated with its agent up, RRefs ${rref}: 5 runs, exit code 0, no signal (Note [Terminating a thread that runs RPC])`, async () => {
      const r = await fixture('teardownMain', 'none', 'terminate', rref);
      expect({ status: r.status, signal: r.signal, stderr: r.stderr }).toEqual({ status: 0, signal: null, stderr: '' });
      expect(r.stdout.match(/thread exit (\d+)/g)).toEqual(Array(5).fill('thread exit 1'));
    }, 90_000);
  }
  it.each([
    ['runs an agent that never shut down', []],
    ['waits in the graceful shutdown barrier for the main thread', ['barrier']],
    ["waits in initRpc's rendezvous for a rank 0 that never comes", ['rendezvous']],
    ["waits in initRpc's rendezvous and is terminated first", ['rendezvous', 'terminate']],
    ['runs an agent, exiting the moment it hears from the thread', ['now']],
    ["waits in initRpc's rendezvous, exiting the moment it hears from the thread", ['rendezvous', 'now']],
  ])(
    'process.exit() while a thread %s: 5 processes, exit code 0, no signal',
    async (_, args) => {
      for (let i = 0; i < 5; i++) {
        const r = await fixture('teardownExit', ...args);
        expect({ status: r.status, signal: r.signal, stderr: r.stderr, stdout: r.stdout }).toEqual({
          status: 0,
          signal: null,
          stderr: '',
          stdout: 'agent up; exiting\n',
        });
      }
    },
    // past 5 x runProcess's 60 s kill timer: a process that hangs (once at load 5-22: 90 s for the
    // 5 where 20-33 s was usual) fails as SIGKILL with its output, not as vitest's bare timeout
    5 * 60_000 + 30_000,
  );
  // the instant swept over a thread's first 12 ms of initRpc (it takes 7-17 ms here): before the
  // threads shared their table, about a third of these processes aborted (SIGABRT)
  it("process.exit() or terminate() at any instant of a thread's initRpc: 12 processes of a thread each, exit code 0, no signal (Note [Terminating a thread that runs RPC])", async () => {
    const runs = Array.from({ length: 12 }, (_, i) => ({
      delayUs: Math.round((i * 12_000) / 12),
      how: i % 3 === 2 ? 'terminate' : 'exit',
    }));
    const results: { delayUs: number; how: string; status: number | null; signal: string | null; stderr: string }[] =
      [];
    const lane = async () => {
      for (let run = runs.shift(); run; run = runs.shift()) {
        const r = await fixture('teardownRace', String(run.delayUs), '1', run.how);
        results.push({ ...run, status: r.status, signal: r.signal, stderr: r.stderr });
      }
    };
    await Promise.all([lane(), lane()]);
    expect(results.filter((r) => r.status !== 0 || r.signal !== null || r.stderr !== '')).toEqual([]);
    expect(results).toHaveLength(12);
  }, 120_000);
});
