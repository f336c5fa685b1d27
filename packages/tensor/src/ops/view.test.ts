import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { arange, cat, device, KernelNames, Storage, Tensor, tensor, unbind, viewKernels, zeros } from '../index.js';
import type { ErasedKernelFunc } from '../kernelRegistry.js';

const grid = (shape: number[]) => arange(shape.reduce((p, s) => p * s, 1)).reshape(shape);
const x234 = () => arange(24, { dtype: 'float32' }).reshape([2, 3, 4]);

describe('reshape and view', () => {
  it('a contiguous tensor is viewed: same storage, writes seen both ways', () => {
    const a = arange(6);
    const v = a.view([2, 3]);
    expect(v.storage).toBe(a.storage);
    expect(v.strides).toEqual([3, 1]);
    v.fill_(7);
    expect(a.tolist()).toEqual([7, 7, 7, 7, 7, 7]);
    a.select(0, 0).fill_(1);
    expect((v.tolist() as number[][])[0]).toEqual([1, 7, 7]);
    expect(v.version).toBe(a.version);
  });

  it('reshape copies only when the strides cannot express it; view refuses', () => {
    const t = grid([2, 3]).t();
    expect(t.isContiguous()).toBe(false);
    const r = t.reshape([6]);
    expect(r.storage).not.toBe(t.storage);
    expect(r.tolist()).toEqual([0, 3, 1, 4, 2, 5]);
    expect(() => t.view([6])).toThrow(
      "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
    );
    // splitting a dim of a transposed tensor keeps the view
    const split = grid([4, 3]).t().view([3, 2, 2]);
    expect(split.strides).toEqual([1, 6, 3]);
    expect(split.tolist()).toEqual([
      [
        [0, 3],
        [6, 9],
      ],
      [
        [1, 4],
        [7, 10],
      ],
      [
        [2, 5],
        [8, 11],
      ],
    ]);
  });

  it("infers -1 and checks sizes with torch's messages", () => {
    expect(grid([2, 3]).reshape([-1, 2]).shape).toEqual([3, 2]);
    expect(zeros([0, 3]).reshape([0, 5]).shape).toEqual([0, 5]);
    expect(() => grid([2, 3]).reshape([4, -1])).toThrow("shape '[4, -1]' is invalid for input of size 6");
    expect(() => grid([2, 3]).reshape([0, -1])).toThrow("shape '[0, -1]' is invalid for input of size 6");
    expect(() => grid([2, 3]).reshape([-1, -1])).toThrow('only one dimension can be inferred');
    expect(() => grid([2, 3]).reshape([-2, 3])).toThrow('invalid shape dimension -2');
    expect(() => grid([2, 3]).view([NaN, 6])).toThrow('invalid shape dimension NaN');
    expect(() => zeros([0, 3]).reshape([0, -1])).toThrow('cannot reshape tensor of 0 elements into shape [0, -1]');
  });

  it('reshape to the same shape is the tensor itself (See Note [View ops])', () => {
    const a = grid([2, 3]);
    expect(a.reshape([2, 3])).toBe(a);
    expect(a.reshape([2, -1])).toBe(a);
  });

  it('view, even to the same shape, and viewAs always give a new tensor over the same storage, as in PyTorch', () => {
    const a = grid([2, 3]);
    for (const v of [a.view([2, 3]), a.view([2, -1]), a.viewAs(zeros([2, 3])), arange(6).viewAs(a)]) {
      expect(v).not.toBe(a);
      expect(v.shape).toEqual([2, 3]);
      expect(v.tolist()).toEqual(a.tolist());
    }
    expect(a.view([2, 3]).storage).toBe(a.storage);
    expect(() => arange(5).viewAs(a)).toThrow("shape '[2, 3]' is invalid for input of size 5");
  });

  it('size(), size(dim) and dim() read the shape as PyTorch does', () => {
    const a = grid([2, 3, 4]);
    expect(a.size()).toEqual([2, 3, 4]);
    expect([a.size(0), a.size(-1), a.dim()]).toEqual([2, 4, 3]);
    expect(tensor(1).dim()).toBe(0);
    expect(() => a.size(3)).toThrow('Dimension out of range (expected to be in range of [-3, 2], but got 3)');
    expect(() => tensor(1).size(0)).toThrow('dimension specified as 0 but tensor has no dimensions');
  });
});

describe('dimension views', () => {
  it('transpose, permute and t swap strides', () => {
    const a = x234();
    expect(a.permute([2, 0, 1]).shape).toEqual([4, 2, 3]);
    expect(a.permute([2, 0, 1]).strides).toEqual([1, 12, 4]);
    expect(a.permute([-1, 0, 1]).strides).toEqual([1, 12, 4]);
    expect(a.transpose(0, 2).shape).toEqual([4, 3, 2]);
    expect(a.transpose(0, 2).storage).toBe(a.storage);
    expect(a.transpose(1, 1)).toBe(a);
    expect(a.transpose(0, 2).contiguous().reshape([-1]).tolist()).toEqual([
      0, 12, 4, 16, 8, 20, 1, 13, 5, 17, 9, 21, 2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23,
    ]);
    expect(a.permute([1, 2, 0]).contiguous().reshape([-1]).tolist()).toEqual([
      0, 12, 1, 13, 2, 14, 3, 15, 4, 16, 5, 17, 6, 18, 7, 19, 8, 20, 9, 21, 10, 22, 11, 23,
    ]);
    expect(tensor([1, 2]).t().tolist()).toEqual([1, 2]);
    expect(tensor(1).transpose(0, -1).item()).toBe(1);
  });

  it("permute/transpose/t reject bad dims with torch's messages", () => {
    const a = grid([2, 3]);
    expect(() => a.permute([0])).toThrow('input.dim() = 2 is not equal to len(dims) = 1');
    expect(() => a.permute([0, 0])).toThrow('permute(): duplicate dims are not allowed.');
    expect(() => a.permute([0, 2])).toThrow('Dimension out of range (expected to be in range of [-2, 1], but got 2)');
    expect(() => a.transpose(0, 2)).toThrow('Dimension out of range (expected to be in range of [-2, 1], but got 2)');
    expect(() => x234().t()).toThrow('t() expects a tensor with <= 2 dimensions, but self is 3D');
  });

  it('squeeze, unsqueeze, flatten', () => {
    const a = x234();
    expect(a.unsqueeze(1).shape).toEqual([2, 1, 3, 4]);
    expect(a.unsqueeze(-1).shape).toEqual([2, 3, 4, 1]);
    expect(a.unsqueeze(0).storage).toBe(a.storage);
    expect(tensor(1).unsqueeze(0).shape).toEqual([1]);
    expect(zeros([1, 3, 1]).squeeze().shape).toEqual([3]);
    expect(zeros([1, 3, 1]).squeeze(0).shape).toEqual([3, 1]);
    expect(zeros([1, 3, 1]).squeeze(1).shape).toEqual([1, 3, 1]);
    expect(zeros([1, 3, 1]).squeeze([0, -1]).shape).toEqual([3]);
    expect(tensor(1).squeeze(0).shape).toEqual([]);
    expect(a.flatten(1).shape).toEqual([2, 12]);
    expect(a.flatten().shape).toEqual([24]);
    expect(a.flatten(0, 1).shape).toEqual([6, 4]);
    expect(tensor(1).flatten().shape).toEqual([1]);
    expect(a.slice(0, 1).flatten().storage).toBe(a.storage);
    expect(a.transpose(0, 1).flatten(1).storage).not.toBe(a.storage);
    expect(() => a.flatten(2, 1)).toThrow('flatten() has invalid args: start_dim cannot come after end_dim');
    expect(() => grid([2]).unsqueeze(-3)).toThrow(
      'Dimension out of range (expected to be in range of [-2, 1], but got -3)',
    );
    expect(() => grid([2, 3]).squeeze(2)).toThrow('Dimension out of range');
  });

  it('expand broadcasts with stride 0, -1 keeps a dim', () => {
    const e = tensor([[1], [2]]).expand([2, 3]);
    expect(e.strides).toEqual([1, 0]);
    expect(e.tolist()).toEqual([
      [1, 1, 1],
      [2, 2, 2],
    ]);
    const lead = tensor([1, 2]).expand([3, -1]);
    expect(lead.shape).toEqual([3, 2]);
    expect(lead.strides).toEqual([0, 1]);
    expect(tensor(5).expand([2, 2]).tolist()).toEqual([
      [5, 5],
      [5, 5],
    ]);
    expect(zeros([1]).expand([0]).shape).toEqual([0]);
  });

  it('expand rejects what torch rejects, with its messages', () => {
    expect(() => tensor([1, 2]).expand([3])).toThrow(
      'The expanded size of the tensor (3) must match the existing size (2) at non-singleton dimension 0.  Target sizes: [3].  Tensor sizes: [2]',
    );
    expect(() => tensor([1, 2]).expand([-1, 2])).toThrow(
      "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0",
    );
    expect(() => zeros([2, 2]).expand([2])).toThrow(
      'the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)',
    );
    expect(() => zeros([1]).expand([-2])).toThrow('invalid size -2');
  });
});

describe('slicing views', () => {
  it('narrow, slice (Python rules), select, matching PyTorch', () => {
    const a = grid([4, 3]);
    expect(a.narrow(0, 1, 2).tolist()).toEqual([
      [3, 4, 5],
      [6, 7, 8],
    ]);
    expect(a.narrow(0, -1, 1).tolist()).toEqual([[9, 10, 11]]);
    expect(a.slice(0, -2).tolist()).toEqual([
      [6, 7, 8],
      [9, 10, 11],
    ]);
    expect(a.slice(0, 0, 100, 3).tolist()).toEqual([
      [0, 1, 2],
      [9, 10, 11],
    ]);
    expect(a.slice(1, 5, 9).shape).toEqual([4, 0]);
    expect(a.slice(0, 3, 1).shape).toEqual([0, 3]);
    expect(a.slice(0)).toBe(a);
    const r = arange(10);
    expect(r.slice(0, -7, -2, 2).tolist()).toEqual([3, 5, 7]);
    expect(r.slice(0, 3, 100, 4).tolist()).toEqual([3, 7]);
    expect(r.slice(0, -100, 2).tolist()).toEqual([0, 1]);
    expect(x234().slice(1, 1).slice(2, null, null, 2).tolist()).toEqual([
      [
        [4, 6],
        [8, 10],
      ],
      [
        [16, 18],
        [20, 22],
      ],
    ]);
    expect(a.select(1, -1).tolist()).toEqual([2, 5, 8, 11]);
    expect(a.select(0, 2).storage).toBe(a.storage);
  });

  it("narrow/slice/select reject bad arguments with torch's messages", () => {
    const a = grid([2, 3]);
    expect(() => a.select(0, 2)).toThrow('select(): index 2 out of range for tensor of size [2, 3] at dimension 0');
    expect(() => a.select(0, -3)).toThrow('select(): index -3 out of range for tensor of size [2, 3] at dimension 0');
    expect(() => tensor(1).select(0, 0)).toThrow('select() cannot be applied to a 0-dim tensor.');
    expect(() => a.narrow(0, 3, 1)).toThrow('start out of range (expected to be in range of [-2, 2], but got 3)');
    expect(() => a.narrow(0, 1, 2)).toThrow('start (1) + length (2) exceeds dimension size (2).');
    expect(() => a.narrow(0, 1, -1)).toThrow('start (1) + length (-1) exceeds dimension size (2).');
    expect(() => a.slice(1, 0, 3, 0)).toThrow('slice step must be positive');
    expect(() => a.slice(1, 0, 3, -1)).toThrow('slice step must be positive');
    expect(() => a.slice(1, 0.5)).toThrow('slice start must be an integer');
    expect(() => tensor(1).slice(0)).toThrow('slice() cannot be applied to a 0-dim tensor.');
  });
});

describe('unbind', () => {
  it('gives the slices along a dim, each without that dim, as views (torch.unbind)', () => {
    const a = grid([2, 3]);
    const rows = a.unbind();
    expect(rows.map((r) => r.tolist())).toEqual(a.tolist());
    expect(rows.every((r) => r.storage === a.storage)).toBe(true);
    expect(unbind(a, -1).map((c) => c.tolist())).toEqual([
      [0, 3],
      [1, 4],
      [2, 5],
    ]);
    expect(zeros([0, 2]).unbind()).toEqual([]);
    expect(() => tensor(1).unbind()).toThrow('Dimension specified as 0 but tensor has no dimensions');
  });
});

describe('view kernels', () => {
  it('never touch the data, so one implementation serves every device (See Note [View kernels are device-agnostic])', () => {
    const kernels = new Map(viewKernels('gpu').map((k): [string, ErasedKernelFunc] => [k.kernelName, k.kernelFunc]));
    expect([...kernels.keys()]).toEqual([
      KernelNames.Reshape,
      KernelNames.Permute,
      KernelNames.Expand,
      KernelNames.Slice,
    ]);
    const onGpu = new Tensor(new Storage(device('gpu:0'), 'float32', 6, null), [2, 3]);
    const [r] = kernels.get(KernelNames.Reshape)!([onGpu], { shape: [3, 2] });
    const [p] = kernels.get(KernelNames.Permute)!([onGpu], { dims: [1, 0] });
    const [e] = kernels.get(KernelNames.Expand)!([new Tensor(onGpu.storage, [1, 3], [3, 1])], { shape: [4, 3] });
    const [s] = kernels.get(KernelNames.Slice)!([onGpu], { dim: 1, start: 1, end: 3, step: 2 });
    expect([r!.storage, p!.storage, e!.storage, s!.storage].every((st) => st === onGpu.storage)).toBe(true);
    expect([r!.strides, p!.strides, e!.strides, s!.strides]).toEqual([
      [2, 1],
      [1, 3],
      [0, 1],
      [3, 2],
    ]);
    expect([s!.shape, s!.offset]).toEqual([[2, 1], 1]);
  });
});

describe('properties', () => {
  const shapeArb = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 });
  const permuted = shapeArb.chain((s) =>
    fc.tuple(
      fc.constant(s),
      fc.shuffledSubarray(
        s.map((_, i) => i),
        { minLength: s.length, maxLength: s.length },
      ),
    ),
  );
  /** A strided view of a grid: permuted, then sliced with a step along its first dim. */
  const strided = (shape: number[], perm: number[], step: number): Tensor =>
    grid(shape).permute(perm).slice(0, null, null, step);

  it('a view and its contiguous copy read equal', () => {
    fc.assert(
      fc.property(permuted, fc.integer({ min: 1, max: 3 }), ([shape, perm], step) => {
        const v = strided(shape, perm, step);
        const c = v.contiguous();
        expect(c.isContiguous()).toBe(true);
        expect(c.tolist()).toEqual(v.tolist());
        expect(Array.from(v.toTypedArray())).toEqual(Array.from(c.toTypedArray()));
      }),
    );
  });

  it('transposing twice is the identity (same storage, strides and values)', () => {
    fc.assert(
      fc.property(
        shapeArb.filter((s) => s.length >= 2),
        fc.nat(),
        fc.nat(),
        (shape, i, j) => {
          const a = grid(shape);
          const [d0, d1] = [i % shape.length, j % shape.length];
          const back = a.transpose(d0, d1).transpose(d0, d1);
          expect(back.storage).toBe(a.storage);
          expect(back.strides).toEqual(a.strides);
          expect(back.tolist()).toEqual(a.tolist());
        },
      ),
    );
  });

  it('reshape round trips, from contiguous and strided tensors', () => {
    fc.assert(
      fc.property(permuted, ([shape, perm]) => {
        const v = grid(shape).permute(perm);
        expect(
          v
            .reshape([-1])
            .reshape(v.shape as number[])
            .tolist(),
        ).toEqual(v.tolist());
        expect(v.flatten().tolist()).toEqual(v.contiguous().view([-1]).tolist());
      }),
    );
  });

  it('split pieces cat back to the original', () => {
    fc.assert(
      fc.property(permuted, fc.integer({ min: 1, max: 3 }), ([shape, perm], size) => {
        const v = grid(shape).permute(perm);
        const d = shape.length - 1;
        expect(cat(v.split(size, d), d).tolist()).toEqual(v.tolist());
      }),
    );
  });
});
