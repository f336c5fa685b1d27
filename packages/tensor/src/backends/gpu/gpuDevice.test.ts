import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import * as ops from '../../index.js';
import { KernelNames, hasKernel, memory, randn, tensor, type Tensor } from '../../index.js';
import { gpuCompilations, gpuInfo } from './gpuRuntime.js';

const DEVICES = ['cpu', 'gpu:0'] as const;

/** float32 values of a tensor from either device. */
const values = (t: Tensor): number[] => Array.from(t.toTypedArray());

function expectClose(got: Tensor, want: Tensor, rtol = 2e-5, atol = 2e-5): void {
  expect(got.shape).toEqual(want.shape);
  expect(got.dtype).toBe(want.dtype);
  const g = values(got);
  const w = values(want);
  for (let i = 0; i < w.length; i++) {
    if (Number.isNaN(w[i]!)) expect(g[i]).toBeNaN();
    else if (!(Math.abs(g[i]! - w[i]!) <= atol + rtol * Math.abs(w[i]!))) expect.fail(`element ${i}: ${g[i]} vs ${w[i]}`);
  }
}

describe('the gpu device (gpu.js)', () => {
  it('reports the gpu.js mode it runs in', () => {
    const info = gpuInfo();
    expect(info.available).toBe(true);
    expect(info.devices).toBe(1);
    expect(['headlessgl', 'webgl2', 'webgl', 'webgpu', 'webasm', 'cpu']).toContain(info.mode);
  });

  it('registers a kernel under every kernel name', () => {
    expect(KernelNames.ALL_KERNELS.filter((name) => !hasKernel(name, 'gpu'))).toEqual([]);
  });

  it("refuses to mix devices with PyTorch's message, and float64", () => {
    expect(() => tensor([1]).add(tensor([1]).to('gpu'))).toThrow('Expected all tensors to be on the same device, but found at least two devices, cpu and gpu:0!');
    expect(() => tensor([1.5], { dtype: 'float64' }).to('gpu')).toThrow('float64 is not supported on the gpu device (gpu.js computes in float32); use float32');
  });
});

// Each case builds its inputs on a device from the same cpu values and returns what to compare.
type Case = [string, (on: (t: Tensor) => Tensor) => Tensor | Tensor[]];
const A = randn([3, 4]);
const B = randn([4]);
const P = randn([3, 4]).abs().add(0.1);
const I = tensor(new Int32Array([2, 0, 1, 2, 1, 0]), { dtype: 'int32' }).reshape([3, 2]);
const CASES: Case[] = [
  ...(['add', 'sub', 'mul', 'div', 'maximum', 'minimum', 'eq', 'ne', 'lt', 'le', 'gt', 'ge'] as const).map(
    (name): Case => [`${name} with a row broadcast`, (on) => (ops[name] as (a: Tensor, b: Tensor) => Tensor)(on(A), on(B))],
  ),
  ['pow of positives', (on) => ops.pow(on(P), on(B))],
  ...(['neg', 'exp', 'sqrt', 'rsqrt', 'abs', 'sign', 'sin', 'cos', 'tanh', 'sigmoid', 'relu', 'gelu', 'silu', 'softplus', 'logicalNot'] as const).map(
    (name): Case => [`${name} of a transposed view`, (on) => (ops[name] as (a: Tensor) => Tensor)(on(A).t())],
  ),
  ['log, log1p of positives', (on) => [ops.log(on(P)), ops.log1p(on(P))]],
  ['clamp', (on) => ops.clamp(on(A), -0.5, 0.5)],
  ['where', (on) => ops.where(on(A).gt(0), on(A), on(B))],
  ['cast to int32 and bool', (on) => [on(A).mul(3).to('int32'), on(A).to('bool')]],
  ['int32 arithmetic (exact below 2^24)', (on) => on(I).mul(7).add(on(I)).div(on(I).add(1))],
  ['sum, prod over dims', (on) => [ops.sum(on(A)), ops.sum(on(A), 1), ops.sum(on(A).t(), 0, true), ops.prod(on(P), 0)]],
  ['max, min, argmax, argmin', (on) => [ops.max(on(A), 1).values, ops.max(on(A), 1).indices, ops.min(on(A)), ops.argmax(on(A), 0), ops.argmin(on(A))]],
  ['softmax, logSoftmax along each dim', (on) => [ops.softmax(on(A), 1), ops.softmax(on(A), 0), ops.logSoftmax(on(A), 1)]],
  ['matmul, bmm, transposed and broadcast operands', (on) => [ops.matmul(on(A), on(A).t()), ops.matmul(on(A).t(), on(randnFixed)), ops.matmul(on(A).reshape([3, 2, 2]), on(A).reshape([3, 2, 2]))]],
  ['gather, indexSelect, oneHot', (on) => [ops.gather(on(A), 1, on(I)), ops.indexSelect(on(A), 0, on(tensor(new Int32Array([2, 0])))), ops.oneHot(on(I), 3)]],
  ['scatterAdd, indexAdd, maskedFill', (on) => [ops.scatterAdd(on(A), 1, on(I), on(A)), ops.indexAdd(on(A), 0, on(tensor(new Int32Array([2, 0, 2]))), on(A)), ops.maskedFill(on(A), on(A).gt(0), -1)]],
  ['cat, stack, split, sliceScatter', (on) => [ops.cat([on(A), on(A).mul(2)], 1), ops.stack([on(B), on(B)], 0), ...ops.split(on(A), 2, 1), ops.sliceScatter(on(B).slice(0, 0, 2), [4], 0, 1, 4, 2)]],
  ['in-place writes into views', (on) => {
    const x = on(A).clone();
    x.slice(1, 1, 3).add_(10);
    x.select(0, 2).fill_(7);
    x.t().slice(0, 0, 1).copy_(on(tensor([[1, 2, 3]])));
    return x;
  }],
];
const randnFixed = randn([3, 5]);

describe.each(DEVICES)('op parity on %s (float32 tolerances)', (dev) => {
  it.each(CASES)('%s', (_, build) => {
    const want = [build((t) => t)].flat();
    const got = [build((t) => t.to(dev))].flat();
    got.forEach((g, i) => {
      expect(g.device.toString()).toBe(dev === 'cpu' ? 'cpu' : 'gpu:0');
      expectClose(g, want[i]!);
    });
  });
});

/** A full GC, so the FinalizationRegistry sees what the loop dropped (the flag is set for this one lookup). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('gpu memory and compilation', () => {
  it('keeps gpu bytes flat over 1000 training-style iterations, and compiles nothing after the first', async () => {
    const w = randn([16, 8]).to('gpu');
    const x = randn([4, 16]).to('gpu');
    const step = () => {
      const y = x.matmul(w).relu().softmax(1).sum();
      w.sub_(w.mul(0.001));
      return y;
    };
    step().item();
    const compiled = gpuCompilations();
    // temporaries are released by dispose() or, once the GC has run, by the FinalizationRegistry
    // (its callbacks run between turns of the event loop, as in any real training loop)
    const bytesAfter: number[] = [];
    for (let i = 1; i <= 1000; i++) {
      step().item();
      if (i % 50 === 0) {
        collectGarbage();
        await new Promise((r) => setTimeout(r, 1));
        bytesAfter.push(memory().gpuBytes);
      }
    }
    expect(gpuCompilations()).toBe(compiled);
    // one iteration allocates ~1.5 KB of gpu temporaries: 1000 unreleased would be ~1.5 MB
    expect(Math.max(...bytesAfter.slice(4)) - Math.min(...bytesAfter.slice(4))).toBeLessThan(400 * 1024);
  });

  it('dispose() frees a gpu tensor now; later use throws', () => {
    const before = memory().gpuBytes;
    const t = randn([256]).to('gpu');
    expect(memory().gpuBytes).toBe(before + 1024);
    t.dispose();
    expect(memory().gpuBytes).toBe(before);
    expect(() => t.cpu()).toThrow('Tensor storage was disposed');
  });
});
