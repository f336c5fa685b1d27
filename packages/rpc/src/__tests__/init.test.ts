import { describe, expect, it } from 'vitest';
import { runWorkers } from './harness.js';

describe('init checks (PyTorch messages)', () => {
  it('rejects bad names, ranks, options and calls before init', async () => {
    const [r] = (await runWorkers({ scenario: 'init', worldSize: 1, extra: 'checks' })) as Record<
      string,
      { code: string; message: string }
    >[];
    expect(r!.badName!.message).toContain('Worker name must match');
    expect(r!.emptyName!.message).toBe('Worker name must be non-empty');
    expect(r!.longName!.message).toContain('shorter than 128');
    expect(r!.badRank!.code).toBe('INVALID_ARGUMENT');
    expect(r!.badOption!.message).toBe("unknown backend option 'bogus'");
    expect(r!.badInit!.message).toContain("initMethod must be 'tcp://host:port' or 'env://'");
    expect(r!.beforeInit).toEqual({
      code: 'NOT_INITIALIZED',
      message: 'RPC has not been initialized. Call initRpc first.',
    });
  }, 30000);

  it('a world of one: env:// rendezvous, listening on every interface, sync, async and remote calls to itself (test_world_size_one)', async () => {
    const [r] = (await runWorkers({ scenario: 'init', worldSize: 1, extra: 'worldOne' })) as Record<string, unknown>[];
    expect(r!.missingEnv).toEqual({
      code: 'RENDEZVOUS',
      message: 'env:// rendezvous needs the MASTER_ADDR and MASTER_PORT environment variables',
    });
    expect(r).toMatchObject({ infos: ['WorkerInfo(id=0, name=solo)'], sync: [3], async: 8, remote: [true, 10, 10] });
    expect(r!.advertised).toMatch(/^tcp:\/\/127\.0\.0\.1:\d+$/);
  }, 30000);

  it('rejects duplicate names on every worker', async () => {
    const results = (await runWorkers({ scenario: 'init', worldSize: 2, extra: 'duplicate' })) as {
      duplicate: { message: string };
    }[];
    for (const r of results) expect(r.duplicate.message).toContain('RPC worker name same is not unique');
  }, 30000);

  it('validates device maps at init', async () => {
    const [r0] = (await runWorkers({ scenario: 'init', worldSize: 2, ranks: [0, 1], extra: 'deviceMaps' }).catch(
      (e) => [String(e)],
    )) as { duplicateTargets: { code: string; message: string } }[];
    expect(r0!.duplicateTargets).toMatchObject({
      code: 'DEVICE_MAP',
      message: 'Node worker0 has duplicated target devices in its device map for worker1',
    });
  }, 30000);

  it('double init fails; re-init after shutdown works; default timeout is settable', async () => {
    const results = (await runWorkers({ scenario: 'init', worldSize: 2, extra: 'reinit' })) as Record<
      string,
      unknown
    >[];
    for (const r of results) {
      expect(r).toMatchObject({
        first: 42,
        second: 10,
        timeout: 5,
        newTimeout: 7,
        double: { code: 'ALREADY_INITIALIZED', message: 'RPC is already initialized' },
      });
    }
  }, 30000);
});
