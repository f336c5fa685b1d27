import { device } from '@wiregrad/tensor';
import { RpcError } from './errors.js';

export type DeviceMaps = Record<string, Record<string, string>>;

/** PyTorch's init-time device map checks (known targets, valid devices, 1-to-1), with its messages. */
export function validateDeviceMaps(self: string, maps: DeviceMaps, workers: readonly string[]): void {
  const bad = Object.keys(maps).filter((w) => !workers.includes(w));
  if (bad.length > 0)
    throw new RpcError(
      'DEVICE_MAP',
      `Node ${self} has invalid target node names in its device maps: ${bad.join(', ')}`,
    );
  for (const [worker, map] of Object.entries(maps)) {
    const targets = new Set<string>();
    for (const [from, to] of Object.entries(map)) {
      for (const d of [from, to]) {
        try {
          device(d as 'cpu');
        } catch (e) {
          throw new RpcError(
            'DEVICE_MAP',
            `Node ${self} has an invalid device in its device map for ${worker}: ${(e as Error).message}`,
          );
        }
      }
      const canon = device(to as 'cpu').toString();
      if (targets.has(canon))
        throw new RpcError('DEVICE_MAP', `Node ${self} has duplicated target devices in its device map for ${worker}`);
      targets.add(canon);
    }
  }
}

/** The map a worker applies to tensors it returns to `caller`: the reverse of the caller's map to it. */
export function reverseMap(map: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [from, to] of Object.entries(map ?? {}))
    out[device(to as 'cpu').toString()] = device(from as 'cpu').toString();
  return out;
}

export function canonicalMap(map: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [from, to] of Object.entries(map ?? {}))
    out[device(from as 'cpu').toString()] = device(to as 'cpu').toString();
  return out;
}
