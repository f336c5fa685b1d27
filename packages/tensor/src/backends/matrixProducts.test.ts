import { describe, expect, it } from 'vitest';
import { expectClose } from '../__tests__/close.js';
import { mm, randn, tensor, type Tensor } from '../index.js';

/** A @ B by the definition, in float64, read through the tensors' own strides. */
function reference(a: Tensor, b: Tensor): number[] {
  const [M, K] = a.shape as [number, number];
  const N = b.shape[1]!;
  const A = a.tolist() as number[][];
  const B = b.tolist() as number[][];
  const out: number[] = [];
  for (let i = 0; i < M; i++)
    for (let j = 0; j < N; j++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += A[i]![k]! * B[k]![j]!;
      out.push(s);
    }
  return out;
}

// [10,4]@[4,16] stays in TypeScript; [40,50]@[50,30] (60 000 multiply-adds) runs on the wasm gemm
const SIZES = [
  [10, 4, 16],
  [40, 50, 30],
] as const;

describe('mm: two matrices straight through BatchMatMul (Note [Matrices through BatchMatMul])', () => {
  for (const [M, K, N] of SIZES) {
    it(`multiplies contiguous, transposed and strided [${M},${K}] @ [${K},${N}] operands on cpu`, () => {
      const operands: [string, Tensor, Tensor][] = [
        ['contiguous', randn([M, K]), randn([K, N])],
        ['transposed', randn([K, M]).t(), randn([N, K]).t()],
        ['every other column', randn([M, 2 * K]).slice(1, 0, null, 2), randn([K, 2 * N]).slice(1, 1, null, 2)],
      ];
      for (const [, a, b] of operands) {
        const c = mm(a, b);
        expect(c.shape).toEqual([M, N]);
        expect(c.isContiguous()).toBe(true);
        expectClose(c.toTypedArray(), reference(a, b), 1e-5, 1e-5);
        // the same product as a batch of one
        expectClose(c.toTypedArray(), a.unsqueeze(0).bmm(b.unsqueeze(0)).toTypedArray(), 0, 0);
      }
    });
  }

  it('multiplies two float64 and two int32 matrices exactly', () => {
    const a = randn([3, 5], { dtype: 'float64' });
    const b = randn([5, 2], { dtype: 'float64' });
    expectClose(mm(a, b).toTypedArray(), reference(a, b), 1e-12);
    const i = tensor(
      [
        [1, -2, 3],
        [40, 5, -6],
      ],
      { dtype: 'int32' },
    );
    const j = tensor(
      [
        [7, 8],
        [-9, 10],
        [11, 120],
      ],
      { dtype: 'int32' },
    );
    expect(mm(i, j).dtype).toBe('int32');
    expect([...mm(i, j).toTypedArray()]).toEqual(reference(i, j));
  });

  it('multiplies two matrices on the gpu as the cpu does', () => {
    const a = randn([6, 7]);
    const b = randn([9, 7]).t();
    const got = mm(a.to('gpu'), b.to('gpu'));
    expect(got.device.toString()).toBe('gpu:0');
    expect(got.shape).toEqual([6, 9]);
    expectClose(got.cpu().toTypedArray(), mm(a, b).toTypedArray(), 1e-5, 1e-5);
  });

  it('leaves the operands as they were: no view of theirs is still held', () => {
    const a = randn([4, 4]);
    const b = randn([4, 4]);
    const holds = [a.storage.holds, b.storage.holds];
    mm(a, b).dispose();
    expect([a.storage.holds, b.storage.holds]).toEqual(holds);
    const ga = a.to('gpu');
    const gb = b.to('gpu');
    const gpuHolds = [ga.storage.holds, gb.storage.holds];
    mm(ga, gb).dispose();
    expect([ga.storage.holds, gb.storage.holds]).toEqual(gpuHolds);
  });
});
