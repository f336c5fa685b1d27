import { TensorError } from './errors.js';

export type DeviceType = 'cpu' | 'gpu';
export type DeviceLike = 'cpu' | 'gpu' | `gpu:${number}` | Device;

/** A device: `cpu` or `gpu:N`. Devices are interned, so equal devices are the same object. */
export class Device {
  private constructor(
    readonly type: DeviceType,
    readonly index: number,
  ) {}

  private static readonly interned = new Map<string, Device>();

  static of(type: DeviceType, index = 0): Device {
    const key = `${type}:${index}`;
    let d = Device.interned.get(key);
    if (!d) {
      d = new Device(type, index);
      Device.interned.set(key, d);
    }
    return d;
  }

  equals(other: Device): boolean {
    return this === other;
  }

  toString(): string {
    return this.type === 'cpu' ? 'cpu' : `gpu:${this.index}`;
  }
}

const DEVICE_RE = /^(cpu|gpu)(?::(\d+))?$/;

export function device(spec: DeviceLike): Device {
  if (spec instanceof Device) return spec;
  const m = typeof spec === 'string' ? DEVICE_RE.exec(spec) : null;
  if (!m) {
    if (typeof spec === 'string' && /^(cpu|gpu):-/.test(spec)) {
      throw new TensorError('INVALID_ARGUMENT', `Device index must not be negative, got ${spec}`);
    }
    throw new TensorError(
      'INVALID_ARGUMENT',
      `Invalid device string: '${String(spec)}'; expected 'cpu', 'gpu' or 'gpu:N'`,
    );
  }
  const type = m[1] as DeviceType;
  const index = m[2] === undefined ? 0 : Number(m[2]);
  if (type === 'cpu' && index !== 0)
    throw new TensorError('INVALID_ARGUMENT', `cpu device index must be 0, got ${spec}`);
  return Device.of(type, index);
}

export const CPU = Device.of('cpu', 0);
