import { describe, expect, it } from 'vitest';
import * as wiregrad from './index.js';
import { AutogradError, Tensor, TensorError, grad, tensor } from './index.js';

/**
 * Values no argument of a tensor method takes in that form (a list where a number goes, a
 * number where a list or a tensor goes...), and JS values no signature names at all.
 */
const BAD: readonly unknown[] = [
  'a',
  {},
  null,
  ['x'],
  [[1]],
  NaN,
  1.5,
  () => 1,
  Symbol('s'),
  10n,
  Object.create(null),
  new Map(),
  { dim: 1 },
];

/** Every method on Tensor.prototype, the ones @wiregrad/autograd installs included: a new one is covered as it is added. */
const METHODS = Object.getOwnPropertyNames(Tensor.prototype).filter(
  (n) => n !== 'constructor' && typeof Object.getOwnPropertyDescriptor(Tensor.prototype, n)!.value === 'function',
);

/** Valid arguments before the bad one: a dim, an index, a length (what most methods take first). */
const PREFIX: readonly unknown[] = [0, 0, 1];

const label = (v: unknown) =>
  typeof v === 'symbol' || typeof v === 'bigint' ? String(v) : (JSON.stringify(v) ?? typeof v);

/** 'ok' when `fn(...args)` returns (or resolves), 'coded' for a TensorError or AutogradError with a code, else the raw error. */
async function callWith(fn: (...args: unknown[]) => unknown, args: readonly unknown[]): Promise<string> {
  try {
    const r = fn(...args);
    if (r instanceof Promise) await r;
    return 'ok';
  } catch (e) {
    const coded = (e instanceof TensorError || e instanceof AutogradError) && typeof e.code === 'string';
    return coded ? 'coded' : `${(e as Error).name}: ${(e as Error).message}`;
  }
}

/** What calling `name` with `args` does: 'ok', or the error's class and code. */
async function outcome(name: string, args: readonly unknown[]): Promise<string> {
  const x = tensor([
    [1, 2],
    [3, 4],
  ])
    .requiresGrad_()
    .mul(1);
  const method = (x as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!;
  return callWith(method.bind(x), args);
}

describe('bad arguments (Note [Argument validation])', () => {
  it('every public tensor method answers a bad argument in any position with a coded error, never a raw TypeError', async () => {
    expect(METHODS.length).toBeGreaterThan(90);
    const raw: string[] = [];
    for (const name of METHODS) {
      for (let pos = 0; pos < PREFIX.length; pos++) {
        for (const bad of BAD) {
          const result = await outcome(name, [...PREFIX.slice(0, pos), bad]);
          if (result !== 'ok' && result !== 'coded') raw.push(`${name} arg ${pos} = ${label(bad)}: ${result}`);
        }
      }
    }
    expect(raw).toEqual([]);
  });

  it('every functional form of a method (sum(x), view(x, ...), retainGrad(x)...) answers a non-tensor input with a coded error', async () => {
    const functional = Object.entries(wiregrad).filter(
      (entry): entry is [string, (...args: unknown[]) => unknown] =>
        METHODS.includes(entry[0]) && typeof entry[1] === 'function',
    );
    expect(functional.length).toBeGreaterThan(80);
    const raw: string[] = [];
    for (const [name, fn] of functional) {
      for (const bad of BAD) {
        for (const rest of [[], [0, 1]]) {
          const result = await callWith(fn, [bad, ...rest]);
          if (result !== 'ok' && result !== 'coded') raw.push(`${name}(${label(bad)}, ${rest.length} more): ${result}`);
        }
      }
    }
    expect(raw).toEqual([]);
  });

  it('so do the creation functions, in every position (zeros, full, arange, eye, rand, randint, cat...)', async () => {
    const creation = {
      tensor: wiregrad.tensor,
      zeros: wiregrad.zeros,
      ones: wiregrad.ones,
      empty: wiregrad.empty,
      full: wiregrad.full,
      zerosLike: wiregrad.zerosLike,
      onesLike: wiregrad.onesLike,
      fullLike: wiregrad.fullLike,
      arange: wiregrad.arange,
      linspace: wiregrad.linspace,
      eye: wiregrad.eye,
      rand: wiregrad.rand,
      randn: wiregrad.randn,
      randint: wiregrad.randint,
      randLike: wiregrad.randLike,
      randnLike: wiregrad.randnLike,
      cat: wiregrad.cat,
      stack: wiregrad.stack,
      oneHot: wiregrad.oneHot,
      where: wiregrad.where,
    } as unknown as Record<string, (...args: unknown[]) => unknown>;
    const raw: string[] = [];
    for (const [name, fn] of Object.entries(creation)) {
      for (let pos = 0; pos < 3; pos++) {
        for (const bad of BAD) {
          const result = await callWith(fn, [...[[2], 1, 1].slice(0, pos), bad]);
          if (result !== 'ok' && result !== 'coded') raw.push(`${name} arg ${pos} = ${label(bad)}: ${result}`);
        }
      }
    }
    expect(raw).toEqual([]);
  });

  it('creation functions take their sizes as varargs too, as PyTorch: zeros(2, 3), rand(2, 3, { dtype })', () => {
    expect(wiregrad.zeros(2, 3).shape).toEqual([2, 3]);
    expect(wiregrad.ones(4).tolist()).toEqual([1, 1, 1, 1]);
    const r = wiregrad.rand(2, 3, { dtype: 'float64' });
    expect([r.shape, r.dtype]).toEqual([[2, 3], 'float64']);
    expect(wiregrad.randn([3], { requiresGrad: true }).requiresGrad).toBe(true);
    expect(() => wiregrad.zeros(2, '3' as never)).toThrow(
      "zeros(): argument 'size' must be tuple of ints, but found element of type str at pos 1",
    );
  });

  it('the error names the function, the argument and what it got, as PyTorch’s argument parser does', () => {
    const x = tensor([1, 2, 3, 4]);
    expect(() => x.sum({ dim: 1 } as never)).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: "sum(): argument 'dim' must be int or tuple of ints, not object",
      }),
    );
    expect(() => x.view('a' as never)).toThrow("view(): argument 'shape' must be tuple of ints, not str");
    expect(() => x.view(-1, '1' as never)).toThrow(
      "view(): argument 'shape' must be tuple of ints, but found element of type str at pos 1",
    );
    expect(() => x.mm([1] as never)).toThrow("mm(): argument 'mat2' must be Tensor, not array");
    expect(() => x.backward('a' as never)).toThrow(
      expect.objectContaining({ name: 'AutogradError', code: 'INVALID_ARGUMENT' }),
    );
    expect(() => grad(x, x, null as never)).toThrow("grad(): argument 'opts' must be an options object, not null");
    expect(() => x.requiresGrad_().registerHook(1 as never)).toThrow(
      "registerHook(): argument 'hook' must be function, not int",
    );
  });

  it('sizes may be given as varargs where PyTorch takes them so: view(-1, 1), reshape(2, 2), permute(1, 0), expand(3, 2, 2)', () => {
    const x = tensor([1, 2, 3, 4]);
    expect(x.view(-1, 1).shape).toEqual([4, 1]);
    const m = x.reshape(2, 2);
    expect(m.shape).toEqual([2, 2]);
    expect(m.permute(1, 0).tolist()).toEqual(m.t().tolist());
    expect(m.expand(3, 2, 2).shape).toEqual([3, 2, 2]);
    expect(x.view([2, -1]).shape).toEqual([2, 2]);
  });
});
