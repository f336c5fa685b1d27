import { describe, expect, it } from 'vitest';
import { arange, clone, contiguous, device, tensor, zeros, KernelNames, getKernel } from '../index.js';

const grid = (rows: number, cols: number) => arange(rows * cols).reshape([rows, cols]);

describe('contiguous and clone', () => {
  it('contiguous() returns the tensor itself when already contiguous, else a copy', () => {
    const a = grid(2, 3);
    expect(a.contiguous()).toBe(a);
    expect(a.slice(0, 1).contiguous().storage).toBe(a.storage);
    expect(zeros([3, 1]).expand([3, 1]).contiguous().strides).toEqual([1, 1]);
    const c = contiguous(a.t());
    expect(c.storage).not.toBe(a.storage);
    expect(c.strides).toEqual([2, 1]);
    expect(c.tolist()).toEqual([
      [0, 3],
      [1, 4],
      [2, 5],
    ]);
  });

  it('clone() always copies: writes to the clone do not reach the original', () => {
    const a = grid(2, 2);
    const b = clone(a);
    expect(b.storage).not.toBe(a.storage);
    b.fill_(9);
    expect(a.tolist()).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(a.version).toBe(0);
  });

  it('copies every kind of layout (coalesced runs, steps, broadcasts, offsets)', () => {
    const a = grid(4, 6);
    expect(a.slice(1, 1, 5).clone().tolist()).toEqual([
      [1, 2, 3, 4],
      [7, 8, 9, 10],
      [13, 14, 15, 16],
      [19, 20, 21, 22],
    ]);
    expect(a.slice(0, 1, 3).clone().tolist()).toEqual([
      [6, 7, 8, 9, 10, 11],
      [12, 13, 14, 15, 16, 17],
    ]);
    expect(a.slice(1, 0, 6, 3).t().clone().tolist()).toEqual([
      [0, 6, 12, 18],
      [3, 9, 15, 21],
    ]);
    expect(tensor([1, 2]).expand([2, 2]).clone().tolist()).toEqual([
      [1, 2],
      [1, 2],
    ]);
    expect(
      tensor([[1], [2]])
        .expand([2, 3])
        .clone()
        .tolist(),
    ).toEqual([
      [1, 1, 1],
      [2, 2, 2],
    ]);
    expect(a.select(1, 5).clone().tolist()).toEqual([5, 11, 17, 23]);
    expect(a.select(0, 2).select(0, 3).clone().tolist()).toBe(15);
    expect(zeros([0, 3]).t().clone().shape).toEqual([3, 0]);
  });
});

describe('to / cast', () => {
  it('casts like torch: truncation into int32, 0/1 into bool (NaN true), rounding into float32', () => {
    expect(tensor([1.9, -1.9, 2.5, -0.5]).to('int32').tolist()).toEqual([1, -1, 2, 0]);
    expect(tensor([0, -0, 0.1, NaN, Infinity]).to('bool').tolist()).toEqual([false, false, true, true, true]);
    expect(
      tensor(new Float64Array([0.1, 1e-50, 3.4e39]))
        .to('float32')
        .tolist(),
    ).toEqual([0.10000000149011612, 0, Infinity]);
    expect(tensor([true, false]).to('float64').tolist()).toEqual([1, 0]);
    expect(
      tensor(new Int32Array([3, -4]))
        .to('bool')
        .tolist(),
    ).toEqual([true, true]);
  });

  it('casts strided views', () => {
    expect(grid(2, 3).t().to('float64').tolist()).toEqual([
      [0, 3],
      [1, 4],
      [2, 5],
    ]);
    expect(grid(2, 3).t().to('bool').tolist()).toEqual([
      [false, true],
      [true, true],
      [true, true],
    ]);
  });

  it('returns the tensor itself when nothing changes; accepts {device, dtype}', () => {
    const a = grid(2, 2);
    expect(a.to('int32')).toBe(a);
    expect(a.to('cpu')).toBe(a);
    expect(a.to(device('cpu'))).toBe(a);
    expect(a.cpu()).toBe(a);
    const b = a.to({ device: 'cpu', dtype: 'float32' });
    expect(b.dtype).toBe('float32');
    expect(b.tolist()).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });

  it('moves to the gpu and back, names a gpu that is not there, and rejects unknown targets', () => {
    expect(grid(2, 2).gpu().cpu().tolist()).toEqual(grid(2, 2).tolist());
    expect(() => grid(1, 1).to('gpu:1')).toThrow('gpu:1 is not available: gpu.js has 1 device');
    expect(() => grid(1, 1).to({ device: 'gpu', dtype: 'float64' })).toThrow(
      'float64 is not supported on the gpu device',
    );
    expect(() => grid(1, 1).gpu(-1)).toThrow('Device index must not be negative');
    expect(() => grid(1, 1).to('float16' as never)).toThrow("Invalid device string: 'float16'");
  });
});

describe('detach', () => {
  it('shares storage, has no grad and no graph', () => {
    const a = tensor([1, 2], { requiresGrad: true });
    const d = a.detach();
    expect(d.storage).toBe(a.storage);
    expect(d.requiresGrad).toBe(false);
    expect(d.gradFn).toBe(null);
    d.fill_(5);
    expect(a.tolist()).toEqual([5, 5]);
    expect(a.version).toBe(1);
  });
});

describe('cpu Copy and Cast kernels', () => {
  it('Copy of a contiguous input is a plain copy of the run at its offset', () => {
    const row = grid(3, 4).select(0, 1);
    const [out] = getKernel(KernelNames.Copy, 'cpu')([row], {});
    expect(out!.offset).toBe(0);
    expect(Array.from(out!.storage.data)).toEqual([4, 5, 6, 7]);
  });

  it('Cast keeps the shape and gives a fresh contiguous tensor of the dtype', () => {
    const [out] = getKernel(KernelNames.Cast, 'cpu')([grid(2, 3).t()], { dtype: 'float32' });
    expect(out!.dtype).toBe('float32');
    expect(out!.shape).toEqual([3, 2]);
    expect(out!.storage.data).toBeInstanceOf(Float32Array);
    expect(Array.from(out!.storage.data)).toEqual([0, 3, 1, 4, 2, 5]);
  });
});
