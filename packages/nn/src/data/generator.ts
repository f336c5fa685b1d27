/**
 * A seeded source of random permutations for DataLoader and randomSplit (PyTorch passes a
 * torch.Generator). Mulberry32: small and fast; a seed gives the same order everywhere, but
 * not PyTorch's order (PyTorch's Philox/MT streams are not reproduced).
 */
export class Generator {
  private state: number;

  constructor(seed = Date.now()) {
    this.state = seed >>> 0;
  }

  manualSeed(seed: number): this {
    this.state = seed >>> 0;
    return this;
  }

  /** uniform in [0, 1) */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A random permutation of 0..n-1 (Fisher-Yates). */
  randperm(n: number): number[] {
    const p = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [p[i], p[j]] = [p[j]!, p[i]!];
    }
    return p;
  }
}

/** A generator from a seed, a Generator, or (undefined) a fresh one. */
export const generatorOf = (g: number | Generator | undefined): Generator =>
  g instanceof Generator ? g : new Generator(g);
