import type { Device, DeviceType } from './device.js';
import { TensorError } from './errors.js';
import type { Tensor } from './tensor.js';

/** Copies a tensor onto another device; device backends register one per (from, to) pair. */
export type TransferFunc = (x: Tensor, target: Device) => Tensor;

const transfers = new Map<string, TransferFunc>();

export function registerTransfer(from: DeviceType, to: DeviceType, fn: TransferFunc): void {
  transfers.set(`${from}->${to}`, fn);
}

export function transfer(x: Tensor, target: Device): Tensor {
  const fn = transfers.get(`${x.device.type}->${target.type}`);
  if (!fn) {
    throw new TensorError(
      'UNSUPPORTED',
      `cannot move a tensor from ${x.device.toString()} to ${target.toString()}: no ${target.type} backend is registered (import the gpu device first)`,
    );
  }
  return fn(x, target);
}
