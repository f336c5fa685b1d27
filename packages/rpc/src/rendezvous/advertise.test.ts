import { describe, expect, it } from 'vitest';
import { advertisedAddress } from './advertise.js';

describe('advertised address (Note [Advertised address])', () => {
  it('a wildcard endpoint is advertised on the interface that routes to the rendezvous host', async () => {
    expect(await advertisedAddress('tcp://0.0.0.0:4567', 'tcp://127.0.0.1:29500')).toBe('tcp://127.0.0.1:4567');
    expect(await advertisedAddress('tcp://*:4567', 'tcp://127.0.0.1:29500')).toBe('tcp://127.0.0.1:4567');
  });

  it('any other endpoint is advertised as bound', async () => {
    expect(await advertisedAddress('tcp://10.1.2.3:4567', 'tcp://127.0.0.1:29500')).toBe('tcp://10.1.2.3:4567');
    expect(await advertisedAddress('ipc:///tmp/w0', 'tcp://127.0.0.1:29500')).toBe('ipc:///tmp/w0');
  });

  it('an unreachable rendezvous host is a clear error', async () => {
    await expect(advertisedAddress('tcp://0.0.0.0:1', 'tcp://no-such-host.invalid:1')).rejects.toMatchObject({
      code: 'RENDEZVOUS',
    });
  });
});
