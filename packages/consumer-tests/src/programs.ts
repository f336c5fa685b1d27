// The example programs (programs/*.ts) and what each must print, shared by the bundle specs.
import { expect } from 'vitest';
import { freePort } from './run.js';

export interface Program {
  name: string;
  check(out: unknown): void;
  env?: () => Promise<Record<string, string>>;
}

export const PROGRAMS: Program[] = [
  {
    name: 'tensorMatmul',
    check(out) {
      const o = out as { y: number[][]; relu: number[]; bigCorner: number; bigShape: number[] };
      expect(o.y).toEqual([[17], [39]]);
      expect(o.relu).toEqual([0, 2]);
      // sum over k < 256 of (k / 65536)^2 = 5559680 / 2^32
      expect(o.bigCorner).toBeCloseTo(5559680 / 2 ** 32, 6);
      expect(o.bigShape).toEqual([256, 256]);
    },
  },
  {
    name: 'autogradFit',
    check(out) {
      const o = out as { dy: number; d2y: number; w: number; first: number; last: number };
      expect(o.dy).toBe(12);
      expect(o.d2y).toBe(12);
      expect(o.w).toBeCloseTo(3, 3);
      expect(o.first).toBe(67.5); // mean of (3x)^2 over x = 1..4 at w = 0
      expect(o.last).toBeLessThan(1e-4);
    },
  },
  {
    name: 'nnTrain',
    check(out) {
      const o = out as { first: number; last: number; params: number };
      expect(o.params).toBe(4);
      expect(o.first).toBeGreaterThan(0.5);
      expect(o.last).toBeLessThan(o.first / 20);
    },
  },
  {
    name: 'distAutograd',
    env: async () => ({ PORT: String(await freePort()) }),
    check(out) {
      const o = out as { c: number[]; gradA: number[] | null; gradB: number[] | null; aGrad: unknown };
      expect(o.c).toEqual([4, 10, 18]);
      expect(o.gradA).toEqual([4, 5, 6]);
      expect(o.gradB).toEqual([1, 2, 3]);
      expect(o.aGrad).toBeNull(); // distributed backward leaves .grad alone
    },
  },
];

export function program(name: string): Program {
  const p = PROGRAMS.find((q) => q.name === name);
  if (!p) throw new Error(`no program ${name}`);
  return p;
}
