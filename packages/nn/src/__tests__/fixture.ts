import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { type NestedArray, type Tensor, tensor } from '@wiregrad/autograd';

/** A JSON fixture written by fixtures/generate.py (PyTorch 1.13, offline): never computed here. */
export function loadFixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as T;
}

/** PyTorch's message with its shapes as the JS API writes them: `torch.Size([2, 3])` becomes `[2, 3]`. */
export const jsShapes = (message: string): string => message.replace(/torch\.Size\((\[[^\]]*\])\)/g, '$1');

export const f64 = (v: NestedArray | number, requiresGrad = false): Tensor =>
  tensor(v, { dtype: 'float64', requiresGrad });

const flat = (v: NestedArray | number): number[] => (Array.isArray(v) ? v.flatMap(flat) : [Number(v)]);

/** Elementwise |actual - expected| <= atol + rtol |expected| over nested arrays or tensors, shapes compared flat. */
export function expectClose(
  actual: Tensor | NestedArray | number,
  expected: NestedArray | number,
  rtol = 1e-9,
  atol = 1e-12,
): void {
  const a = flat(typeof actual === 'object' && actual !== null && 'tolist' in actual ? actual.tolist() : actual);
  const e = flat(expected);
  expect(a).toHaveLength(e.length);
  a.forEach((v, i) => {
    const w = e[i]!;
    if (!(Math.abs(v - w) <= atol + rtol * Math.abs(w)))
      expect.fail(`element ${i}: ${v}, want ${w} (rtol ${rtol}, atol ${atol})`);
  });
}
