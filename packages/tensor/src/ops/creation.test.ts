import { describe, expect, it } from 'vitest';
import {
  arange,
  empty,
  eye,
  full,
  fullLike,
  linspace,
  ones,
  onesLike,
  tensor,
  zeros,
  zerosLike,
  TensorError,
} from '../index.js';

describe('tensor()', () => {
  it('infers shape and dtype: numbers float32, all-booleans bool, typed arrays their own', () => {
    expect(tensor(3).shape).toEqual([]);
    expect(tensor(3).dtype).toBe('float32');
    expect(
      tensor([
        [1, 2],
        [3, 4],
      ]).shape,
    ).toEqual([2, 2]);
    expect(tensor([[[1], [2]]]).shape).toEqual([1, 2, 1]);
    expect(tensor([true, false]).dtype).toBe('bool');
    expect(tensor([true, 2.5]).dtype).toBe('float32');
    expect(tensor([true, 2.5]).tolist()).toEqual([1, 2.5]);
    expect(tensor(new Float64Array([1, 2])).dtype).toBe('float64');
    expect(tensor(new Int32Array([1, 2])).dtype).toBe('int32');
    expect(tensor(new Uint8Array([0, 7])).tolist()).toEqual([false, true]);
    expect(tensor(new Float32Array([0, 0.5]), { dtype: 'bool' }).tolist()).toEqual([false, true]);
    expect(tensor([]).shape).toEqual([0]);
    expect(tensor([[], []]).shape).toEqual([2, 0]);
  });

  it('converts to opts.dtype like torch (truncation, 0/1, float32 rounding)', () => {
    expect(tensor([1.7, -1.7], { dtype: 'int32' }).tolist()).toEqual([1, -1]);
    expect(tensor([0, 2, NaN], { dtype: 'bool' }).tolist()).toEqual([false, true, true]);
    expect(tensor([0.1]).tolist()).toEqual([0.10000000149011612]);
    expect(tensor([0.1], { dtype: 'float64' }).tolist()).toEqual([0.1]);
  });

  it('copies its input', () => {
    const src = new Float32Array([1, 2]);
    const t = tensor(src);
    src[0] = 9;
    expect(t.tolist()).toEqual([1, 2]);
  });

  it('rejects ragged nested arrays and bad leaves, naming the index path', () => {
    expect(() => tensor([[1, 2], [3]])).toThrow(TensorError);
    expect(() => tensor([[1, 2], [3]])).toThrow(
      'expected sequence of length 2 at dim 1 (got 1) at index [1]: nested arrays must not be ragged',
    );
    expect(() =>
      tensor([
        [[1], [2]],
        [[3], [4, 5]],
      ]),
    ).toThrow('at index [1, 1]');
    expect(() => tensor([[1, 2], 3] as never)).toThrow(
      'expected sequence of length 2 at dim 1 (got a number) at index [1]',
    );
    expect(() => tensor([1, [2]] as never)).toThrow('expected a number or boolean at index [1], got a nested array');
    expect(() => tensor([1, 'a' as unknown as number])).toThrow(
      'expected a number or boolean at index [1], got string',
    );
    expect(() => tensor([null as unknown as number])).toThrow('got null');
    expect(() => tensor([1], { dtype: 'int64' as never })).toThrow('unknown dtype int64');
    expect(() => tensor(new Int16Array(2) as never)).toThrow('unsupported typed array Int16Array');
  });

  it('requiresGrad only on floating point', () => {
    expect(tensor([1], { requiresGrad: true }).requiresGrad).toBe(true);
    expect(() => tensor([1], { dtype: 'int32', requiresGrad: true })).toThrow(
      'only Tensors of floating point dtype can require gradients',
    );
  });

  it('creates on the gpu device; float64 there and unknown devices are clear TensorErrors', () => {
    expect(tensor([1, 2], { device: 'gpu:0' }).device.toString()).toBe('gpu:0');
    expect(() => tensor([1], { device: 'gpu:0', dtype: 'float64' })).toThrow(TensorError);
    expect(() => tensor([1], { device: 'tpu' as never })).toThrow("Invalid device string: 'tpu'");
  });
});

describe('filled tensors', () => {
  it('zeros, ones, full, empty and their Like forms', () => {
    expect(zeros([2]).tolist()).toEqual([0, 0]);
    expect(ones([2], { dtype: 'int32' }).tolist()).toEqual([1, 1]);
    expect(full([2], 7).tolist()).toEqual([7, 7]);
    expect(Array.from(full([2], -0).toTypedArray(), (v) => Object.is(v, -0))).toEqual([true, true]);
    expect(full([1], true).dtype).toBe('bool');
    expect(full([2, 0], 3).shape).toEqual([2, 0]);
    expect(empty([2, 3]).shape).toEqual([2, 3]);
    expect(zeros([]).shape).toEqual([]);
    const z = zerosLike(arange(3));
    expect(z.dtype).toBe('int32');
    expect(onesLike(z, { dtype: 'float64' }).dtype).toBe('float64');
    expect(fullLike(z, 2.9).tolist()).toEqual([2, 2, 2]);
    expect(zerosLike(tensor([1], { requiresGrad: true })).requiresGrad).toBe(false);
  });

  it('rejects invalid shapes', () => {
    expect(() => zeros([NaN])).toThrow('invalid shape');
    expect(() => zeros([-1])).toThrow('invalid shape');
    expect(() => ones([2.5])).toThrow('invalid shape');
    expect(() => full([1], 1, { dtype: 'half' as never })).toThrow('unknown dtype half');
  });
});

describe('ranges', () => {
  it("arange follows torch's forms and dtype rule (int32 when every argument is an integer)", () => {
    expect(arange(4).tolist()).toEqual([0, 1, 2, 3]);
    expect(arange(4).dtype).toBe('int32');
    expect(arange(5, 0, -2).tolist()).toEqual([5, 3, 1]);
    expect(arange(2, 2).shape).toEqual([0]);
    expect(arange(0.5, 3).tolist()).toEqual([0.5, 1.5, 2.5]);
    expect(arange(4, { dtype: 'float64' }).dtype).toBe('float64');
    expect(arange(1, 3, { dtype: 'float32' }).tolist()).toEqual([1, 2]);
    expect(arange(1, 2, 0.25, { dtype: 'float64' }).tolist()).toEqual([1, 1.25, 1.5, 1.75]);
  });

  it('arange values match PyTorch (start + i * step in float64, then float32)', () => {
    expect(arange(0, 1, 0.1).tolist()).toEqual([
      0.0, 0.10000000149011612, 0.20000000298023224, 0.30000001192092896, 0.4000000059604645, 0.5, 0.6000000238418579,
      0.699999988079071, 0.800000011920929, 0.8999999761581421,
    ]);
    expect(arange(-1, 1.2, 0.3).tolist()).toEqual([
      -1.0, -0.699999988079071, -0.4000000059604645, -0.10000000149011612, 0.20000000298023224, 0.5, 0.800000011920929,
      1.100000023841858,
    ]);
  });

  it("arange rejects bad ranges with torch's messages", () => {
    expect(() => arange(0, 5, 0)).toThrow('step must be nonzero');
    expect(() => arange(0, 5, -1)).toThrow('upper bound and larger bound inconsistent with step sign');
    expect(() => arange(-1.5)).toThrow('upper bound and larger bound inconsistent with step sign');
    expect(() => arange(0, Infinity)).toThrow('unsupported range: 0 -> Infinity');
    expect(() => arange()).toThrow('arange expects (end), (start, end) or (start, end, step)');
  });

  it('linspace matches PyTorch bit for bit (float32 arithmetic, halves from each end)', () => {
    expect(linspace(-1.3, 2.9, 9).tolist()).toEqual([
      -1.2999999523162842, -0.7749999761581421, -0.25, 0.2749999761581421, 0.8000001907348633, 1.3250001668930054,
      1.8500001430511475, 2.375, 2.9000000953674316,
    ]);
    expect(linspace(0, 1, 7).tolist()).toEqual([
      0.0, 0.1666666716337204, 0.3333333432674408, 0.5, 0.6666666269302368, 0.8333333134651184, 1.0,
    ]);
    expect(linspace(10, -3.7, 6).tolist()).toEqual([
      10.0, 7.260000228881836, 4.519999980926514, 1.7799999713897705, -0.9600000381469727, -3.700000047683716,
    ]);
    expect(linspace(0, 1, 7, { dtype: 'float64' }).tolist()).toEqual([
      0.0, 0.16666666666666666, 0.3333333333333333, 0.5, 0.6666666666666667, 0.8333333333333334, 1.0,
    ]);
    expect(linspace(0, 10, 5, { dtype: 'int32' }).tolist()).toEqual([0, 2, 5, 7, 10]);
    expect(linspace(3, 1, 1).tolist()).toEqual([3]);
    expect(linspace(3, 1, 0).shape).toEqual([0]);
    expect(() => linspace(0, 1, -1)).toThrow('number of steps must be non-negative');
  });

  it('eye', () => {
    expect(eye(2, 3).tolist()).toEqual([
      [1, 0, 0],
      [0, 1, 0],
    ]);
    expect(eye(2).tolist()).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(eye(2, { dtype: 'bool' }).tolist()).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(eye(0).shape).toEqual([0, 0]);
    expect(() => eye(-1)).toThrow('n must be greater or equal to 0, got -1');
    expect(() => eye(2, -1)).toThrow('m must be greater or equal to 0, got -1');
  });
});
